#!/usr/bin/env bash
# mem-chat-bench.sh prints the memory of MCP Desk showing a conversation
# whose reply holds code in six languages, in the real window under Xvfb:
# Private_Dirty (as mem-bench.sh reads it) of the app process and of its
# WebKit web process, 8 s after the conversation is opened (the code
# highlighter's worker runs) and 45 s after (it has stopped: it stops 30 s
# after its last block). The conversation is seeded with the command line
# against the scripted fake LLM. Given several binaries (a build before a
# change, and after), it alternates between them, RUNS (2) times.
#   build/scripts/mem-chat-bench.sh [path/to/mcpdesk ...]
set -euo pipefail
cd "$(dirname "$0")/../.."
. build/scripts/bench-session.sh
[ $# -gt 0 ] || set -- build/bin/mcpdesk
[ -x "$1" ] || make --no-print-directory build
runs=${RUNS:-2}
work=$(mktemp -d)
fake=""; xvfb=""
trap '[ -n "$fake" ] && kill $fake 2>/dev/null; [ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/fakellm" ./backend/llm/llmtest/fakellm
python3 - "$work/script.json" <<'PY'
import json, sys
code = {
    'java': 'public class Main {\n  public static void main(String[] args) {\n    System.out.println(2 + 3);\n  }\n}',
    'python': 'def add(a, b):\n    return a + b\n\nprint(add(2, 3))',
    'go': 'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(2 + 3)\n}',
    'php': '<?php\nfunction add($a, $b) { return $a + $b; }\necho add(2, 3);',
    'cpp': '#include <iostream>\nint main() { std::cout << 2 + 3 << std::endl; }',
    'css': '.card { color: #333; margin: 0 auto; }',
}
text = ['## The sum in six languages\n\n']
for lang, c in code.items():
    text += [f'In {lang}:\n\n', f'```{lang}\n{c}\n```\n\n']
json.dump([{'text': text}], open(sys.argv[1], 'w'))
PY
"$work/fakellm" --addr 127.0.0.1:0 --script "$work/script.json" --models fake-1 --repeat >"$work/fake.out" 2>/dev/null &
fake=$!
for _ in $(seq 1 50); do grep -q '^listening ' "$work/fake.out" && break; sleep 0.1; done
url=$(sed -n 's/^listening //p' "$work/fake.out")
[ -n "$url" ] || { echo "mem-chat-bench: the fake LLM did not start"; exit 1; }
display=$(build/scripts/free-display.sh)
Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 0.5
export XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg-cache" XDG_CONFIG_HOME="$work/xdg-config"
# The first-run welcome would cover the conversation: its key, from the source.
welcome=$(sed -nE "s/.*WELCOME_SEEN *= *['\"]([^'\"]+)['\"].*/\1/p" frontend/src/lib/state/welcome.svelte.ts)
[ -n "$welcome" ] || { echo "mem-chat-bench: no WELCOME_SEEN in welcome.svelte.ts"; exit 1; }
# mib PID: the Private_Dirty of one process, in MiB.
mib() { awk '/^Private_Dirty:/ {printf "%.1f", $2 / 1024}' "/proc/$1/smaps_rollup" 2>/dev/null || echo 0; }
measure() {
  local pid=$1 web
  web=$(pgrep -P "$pid" -x WebKitWebProces | head -1)
  echo "app $(mib "$pid") MiB, web process $(mib "$web") MiB"
}
for r in $(seq 1 "$runs"); do
  for bin in "$@"; do
    d="$work/data-$r-$(basename "$bin")"
    mkdir -p "$d"
    env -u DISPLAY "$bin" providers add --data-dir "$d" --name Fake --type openai --preset custom --base-url "$url/v1" >/dev/null
    env -u DISPLAY "$bin" chat --data-dir "$d" --model Fake/fake-1 "Add 2 and 3 in six languages." >/dev/null 2>&1
    python3 -c 'import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
for kv in (("screen", "chat"), (sys.argv[2], "1")):
    c.execute("INSERT INTO ui_state(key, value, updated_at) VALUES(?, ?, datetime(\"now\")) ON CONFLICT(key) DO UPDATE SET value = excluded.value", kv)
c.commit()' "$d/mcpdesk.db" "$welcome"
    DISPLAY=$display "$bin" --data-dir "$d" >"$work/app.log" 2>&1 &
    pid=$!
    for _ in $(seq 1 200); do grep -q "window ready" "$work/app.log" && break; sleep 0.1; done
    grep -q "window ready" "$work/app.log" || { cat "$work/app.log"; echo "mem-chat-bench: $bin did not start"; exit 1; }
    sleep 3
    # The first conversation of the sidebar.
    DISPLAY=$display xdotool mousemove --sync 200 125 click 1 mousemove 1000 810
    sleep 8
    echo "$bin, run $r, 8 s after opening: $(measure "$pid")"
    sleep 37
    echo "$bin, run $r, 45 s after opening: $(measure "$pid")"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
