#!/usr/bin/env bash
# window-bench.sh prints two figures of the production window under Xvfb:
#   - cold start: process start → frontend ready (the app logs "window ready"
#     with since_start when the DOM is ready), median of 5 runs;
#   - resident memory of the app plus its WebKit processes, idle, with 3
#     stdio servers connected (their own memory is reported apart).
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-build/bin/mcpdesk}
[ -x "$bin" ] || make --no-print-directory build
work=$(mktemp -d)
xvfb=""
trap '[ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/testserver" ./backend/mcppool/testserver
display=$(build/scripts/free-display.sh)
Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 0.5
export DISPLAY=$display

run_app() { # $1 = data dir; starts the app, waits for ready, echoes the pid
  XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg-cache" "$bin" --data-dir "$1" >"$1/app.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 300); do grep -q "window ready" "$1/app.log" && break; sleep 0.05; done
  echo "$pid"
}

starts=()
for i in 1 2 3 4 5; do
  d="$work/cold$i"; mkdir -p "$d"
  pid=$(run_app "$d")
  ms=$(grep -o 'since_start=[0-9.]*m\?s' "$d/app.log" | head -1 | cut -d= -f2)
  starts+=("$ms")
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
echo "cold start to frontend ready (5 runs): ${starts[*]}"

d="$work/mem"; mkdir -p "$d"
printf '{"mcpServers": {"a": {"command": "%s"}, "b": {"command": "%s"}, "c": {"command": "%s"}}}' \
  "$work/testserver" "$work/testserver" "$work/testserver" > "$d/mcp.config.json"
pid=$(run_app "$d")
sleep 5
tree_pids() { local p=$1; echo "$p"; for c in $(pgrep -P "$p"); do tree_pids "$c"; done; }
# RSS counts shared libraries once per process; PSS shares them out, so
# the PSS sum is what the processes together cost.
app_rss=0; app_pss=0; srv_pss=0
for p in $(tree_pids "$pid"); do
  comm=$(ps -o comm= -p "$p" 2>/dev/null || true)
  rss=$(ps -o rss= -p "$p" 2>/dev/null || echo 0)
  pss=$(awk '/^Pss:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
  if [ "$comm" = testserver ]; then srv_pss=$((srv_pss + pss)); else app_rss=$((app_rss + rss)); app_pss=$((app_pss + pss)); fi
  echo "  pid $p $comm rss ${rss} KiB, pss ${pss} KiB"
done
echo "idle memory, app + WebKit processes: PSS $((app_pss / 1024)) MiB (RSS sum $((app_rss / 1024)) MiB); the 3 MCP servers: PSS $((srv_pss / 1024)) MiB"
kill "$pid"; wait "$pid" 2>/dev/null || true
