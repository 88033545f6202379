#!/usr/bin/env bash
# mem-bench.sh prints the idle memory of MCP Desk beside the floor of its
# toolkit, measured side by side in one run under Xvfb:
#   - floor: an empty Wails v2 window (build/bench/emptywindow: <h1>hello</h1>,
#     the same WebKitGTK, software rendering, the same size);
#   - MCP Desk with server-everything, -filesystem and -memory connected.
# Each is left idle for IDLE seconds (30), then the memory each process wrote
# itself is read: Private_Dirty from /proc/PID/smaps_rollup (heaps, JIT code,
# caches). Unlike PSS it does not move when other processes map the same
# libraries. The app process and its WebKit processes are summed; the MCP
# servers (node) are left out. RUNS (2) alternating runs of each.
# It runs in a D-Bus session of its own (bench-session.sh), as a desktop
# start does; BENCH_BUS=none runs it without a session bus, as the figures
# before 2026-12-03 were taken.
#   build/scripts/mem-bench.sh [path/to/mcpdesk]
set -euo pipefail
cd "$(dirname "$0")/../.."
. build/scripts/bench-session.sh
bin=${1:-build/bin/mcpdesk}
[ -x "$bin" ] || make --no-print-directory build
idle=${IDLE:-30}
runs=${RUNS:-2}
npm_bin="$PWD/backend/mcppool/testdata/npm/node_modules/.bin"
[ -x "$npm_bin/mcp-server-everything" ] || make --no-print-directory deps-test
work=$(mktemp -d)
xvfb=""
trap '[ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
go build -tags desktop,production,webkit2_41 -trimpath -ldflags "-w -s" -o "$work/emptywindow" ./build/bench/emptywindow
display=$(build/scripts/free-display.sh)
Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 0.5
export DISPLAY=$display
export XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg-cache" XDG_CONFIG_HOME="$work/xdg-config"

tree_pids() { local p=$1; echo "$p"; for c in $(pgrep -P "$p"); do tree_pids "$c"; done; }

# measure LABEL PID: prints the Private_Dirty of each process of the tree
# (the MCP servers and their children apart) and the total, in KiB.
measure() {
  local label=$1 pid=$2 app=0 web=0 net=0 other=0 servers=0
  for p in $(tree_pids "$pid"); do
    local comm kb
    comm=$(ps -o comm= -p "$p" 2>/dev/null || true)
    kb=$(awk '/^Private_Dirty:/ {print $2}' "/proc/$p/smaps_rollup" 2>/dev/null || echo 0)
    case "$comm" in
      WebKitWebProces*) web=$((web + kb)) ;;
      WebKitNetworkPr*) net=$((net + kb)) ;;
      node|npm|sh|mcp-server*) servers=$((servers + kb)) ;;
      *) if [ "$p" = "$pid" ]; then app=$((app + kb)); else other=$((other + kb)); fi ;;
    esac
  done
  printf '%-10s app %6.1f  web %6.1f  network %5.1f  other %4.1f  total %6.1f MiB   (MCP servers %5.1f MiB)\n' "$label" \
    "$(bc <<<"scale=1; $app/1024")" "$(bc <<<"scale=1; $web/1024")" "$(bc <<<"scale=1; $net/1024")" \
    "$(bc <<<"scale=1; $other/1024")" "$(bc <<<"scale=1; ($app+$web+$net+$other)/1024")" "$(bc <<<"scale=1; $servers/1024")"
  echo "$label $((app + web + net + other)) $app $web" >>"$work/totals"
}

floor() {
  "$work/emptywindow" >"$work/empty.log" 2>&1 &
  local pid=$!
  sleep "$idle"
  measure floor "$pid"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

desk() {
  local d="$work/desk$1"; mkdir -p "$d/files"
  printf '{"mcpServers": {"everything": {"command": "%s"}, "filesystem": {"command": "%s", "args": ["%s"]}, "memory": {"command": "%s"}}}' \
    "$npm_bin/mcp-server-everything" "$npm_bin/mcp-server-filesystem" "$d/files" "$npm_bin/mcp-server-memory" >"$d/mcp.config.json"
  "$bin" --data-dir "$d" >"$d/app.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 300); do grep -q "window ready" "$d/app.log" && break; sleep 0.05; done
  sleep "$idle"
  measure "MCP Desk" "$pid"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

# A first, unmeasured window: it builds the font cache of the fresh
# XDG_CACHE_HOME, which would otherwise count against whichever ran first.
"$work/emptywindow" >/dev/null 2>&1 &
warm=$!
sleep 5
kill "$warm"; wait "$warm" 2>/dev/null || true

for i in $(seq 1 "$runs"); do
  floor
  desk "$i"
done
awk '$1=="floor" {f+=$2; fa+=$3; fw+=$4; n++} $1=="MCP" {d+=$3; da+=$4; dw+=$5; m++}
  END {printf "MCP Desk above the empty-window floor (mean of %d runs): %.1f MiB (app process %+.1f, web process %+.1f)\n", n, (d/m-f/n)/1024, (da/m-fa/n)/1024, (dw/m-fw/n)/1024}' "$work/totals"
