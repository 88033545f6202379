#!/usr/bin/env bash
# window-check.sh starts the production binary under Xvfb with a fresh data
# folder holding one real MCP server, waits for the window to report ready,
# takes a screenshot of the screen and fails if it is blank (one colour, or
# nearly so). The screenshot is kept as build/bin/window.png.
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/bin/mcpdesk}
out=build/bin/window.png
work=$(mktemp -d)
pid=""; xvfb=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null || true
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${KEEP_LOG:-}" ] && trap "cat $work/app.log; cleanup" EXIT

go build -o "$work/testserver" ./backend/mcp/testserver
mkdir -p "$work/data"
cat > "$work/data/mcp.config.json" <<JSON
{"mcpServers": {"demo": {"command": "$work/testserver", "args": ["--name", "demo"]}}}
JSON

display=":$((90 + RANDOM % 100))"
Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 0.5
export DISPLAY=$display XDG_DATA_HOME="$work/xdg-data" XDG_CACHE_HOME="$work/xdg-cache"
"$bin" --data-dir "$work/data" >"$work/app.log" 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  grep -q "window ready" "$work/app.log" && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/app.log"; echo "window-check: the app exited"; exit 1; }
  sleep 0.1
done
grep -q "window ready" "$work/app.log" || { cat "$work/app.log"; echo "window-check: no 'window ready' within 20s"; exit 1; }
# Let the UI render and the server connect.
for _ in $(seq 1 100); do
  grep -q "mcp server connected" "$work/app.log" && break
  sleep 0.1
done
# The window maps and paints a moment after the DOM is ready: take
# screenshots until one shows the interface, for at most 20 s.
colours=0; stddev=0
for _ in $(seq 1 40); do
  sleep 0.5
  import -display "$display" -window root "$out"
  colours=$(convert "$out" -format '%k' info:)
  stddev=$(convert "$out" -colorspace Gray -format '%[fx:standard_deviation]' info:)
  [ "$colours" -ge 50 ] && awk "BEGIN{exit !($stddev >= 0.02)}" && break
done
echo "window-check: screenshot $out has $colours colours, grey stddev $stddev"
grep -E "window ready" "$work/app.log" | tail -1
if [ "$colours" -lt 50 ] || awk "BEGIN{exit !($stddev < 0.02)}"; then
  echo "window-check: the window looks blank"
  exit 1
fi
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
if pgrep -f "$work/testserver" >/dev/null; then
  echo "window-check: an MCP server survived the app's exit"; exit 1
fi

# The same binary without a window: the command line, black-box.
cli_ok=0
out=$(env -u DISPLAY "$bin" inspect --method tools/call --tool-name add --tool-arg a=2 --tool-arg b=40 -- "$work/testserver")
grep -q '"text": "42"' <<<"$out" && cli_ok=$((cli_ok + 1)) || echo "cli: inspect tools/call add: $out"
out=$(env -u DISPLAY "$bin" --data-dir "$work/data" servers)
grep -q '"state": "connected"' <<<"$out" && cli_ok=$((cli_ok + 1)) || echo "cli: servers: $out"
rc=0; env -u DISPLAY "$bin" inspect --method nope -- "$work/testserver" 2>/dev/null || rc=$?
[ "$rc" -eq 2 ] && cli_ok=$((cli_ok + 1)) || echo "cli: a usage error exited $rc, want 2"
if [ "$cli_ok" -ne 3 ]; then echo "window-check: the command line failed"; exit 1; fi
echo "window-check: 4 passed, 0 failed"
