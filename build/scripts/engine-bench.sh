#!/usr/bin/env bash
# engine-bench.sh prints what the window's script-engine options
# (backend/webview/engine.go: no DFG JIT, a later baseline JIT) cost in
# speed, in WebKitGTK's own
# MiniBrowser under Xvfb: build/bench/engine/bench.html renders the
# 10,000-token reply of frontend/e2e/bench.mjs as the chat renders markdown
# (marked, DOMPurify, innerHTML, layout) cold and warm, and runs two plain
# JavaScript loops. RUNS (3) alternating runs of each; medians in ms.
# The memory they save is mem-bench.sh's figure.
set -euo pipefail
cd "$(dirname "$0")/../.."
browser=${MINIBROWSER:-/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser}
[ -x "$browser" ] || { echo "engine-bench: no WebKitGTK MiniBrowser at $browser (MINIBROWSER=…)"; exit 1; }
runs=${RUNS:-3}
[ -f frontend/node_modules/marked/lib/marked.umd.js ] || (cd frontend && npm ci --no-audit --no-fund)
work=$(mktemp -d)
xvfb=""
trap '[ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
cp frontend/node_modules/marked/lib/marked.umd.js frontend/node_modules/dompurify/dist/purify.min.js "$work/"
display=$(build/scripts/free-display.sh)
Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 0.5
export DISPLAY=$display XDG_CACHE_HOME="$work/cache"

# once LABEL ENV…: one page load; appends "LABEL {figures}" to results.
once() {
  local label=$1; shift
  local port=$((20000 + RANDOM % 20000))
  python3 - "$port" >"$work/got" <<'PY' &
import http.server, sys, urllib.parse
class H(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        print(urllib.parse.unquote(self.path[2:]), flush=True)
        self.send_response(204); self.end_headers()
    def log_message(self, *a): pass
s = http.server.HTTPServer(('127.0.0.1', int(sys.argv[1])), H); s.timeout = 60; s.handle_request()
PY
  local srv=$!
  sed "s/__PORT__/$port/" build/bench/engine/bench.html >"$work/bench.html"
  sleep 0.3
  env "$@" "$browser" "file://$work/bench.html" >/dev/null 2>&1 &
  local mb=$!
  wait "$srv" || true
  kill "$mb" 2>/dev/null; wait "$mb" 2>/dev/null || true
  [ -s "$work/got" ] || { echo "engine-bench: $label: the page reported nothing"; exit 1; }
  echo "$label $(cat "$work/got")" >>"$work/results"
}
mapfile -t opts < <(go run ./build/bench/engine/options)
[ ${#opts[@]} -gt 0 ] || { echo "engine-bench: no engine options"; exit 1; }
for _ in $(seq 1 "$runs"); do
  once "WebKit's defaults"
  once "MCP Desk's options" "${opts[@]}"
done
python3 - "$work/results" <<'PY'
import json, statistics, sys
rows = {}
for line in open(sys.argv[1]):
    label, _, data = line.strip().partition(' {')
    rows.setdefault(label, []).append(json.loads('{' + data))
keys = [('cold', 'markdown render, cold'), ('warm', 'warm'), ('warm2', 'warm, later'), ('objsort', '200k objects sorted'), ('numloop', 'numeric loop 3e7')]
print('median ms (%d runs)   ' % len(next(iter(rows.values()))) + ''.join(f'{k[1]:>24}' for k in keys))
for label, rs in rows.items():
    print(f'{label:<22}' + ''.join(f'{statistics.median(r[k[0]] for r in rs):>24.0f}' for k in keys))
PY
