#!/usr/bin/env bash
# window-bench.sh prints two figures of the production window under Xvfb:
#   - cold start: process start → frontend ready (the app logs "window ready"
#     with since_start when the DOM is ready), 5 runs, each beside a run of
#     the floor: an empty Wails window (build/bench/emptywindow) on the same
#     WebKitGTK, which prints the same line, once as Wails sets it up and
#     once with the engine and rendering options MCP Desk sets (-tuned). The
#     difference of the medians to the tuned floor is what MCP Desk adds to
#     the start of its toolkit on this machine. The very first launch, which
#     also creates the data folder, is printed apart, and so is the time
#     until the app's interface is mounted ("interface mounted"): ready is
#     when the page's scripts have run, before the saved preferences are
#     read and the interface is drawn;
#   - resident memory of the app plus its WebKit processes, idle, with 3
#     stdio servers connected (their own memory is reported apart).
#
# It runs in a D-Bus session of its own (bench-session.sh), as a desktop
# start does; BENCH_BUS=none runs it without a session bus, as the figures
# before 2026-12-03 were taken.
set -euo pipefail
cd "$(dirname "$0")/../.."
. build/scripts/bench-session.sh
bin=${1:-build/bin/mcpdesk}
[ -x "$bin" ] || make --no-print-directory build
work=$(mktemp -d)
xvfb=""
trap '[ -n "$xvfb" ] && kill $xvfb 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/testserver" ./backend/mcppool/testserver
go build -tags desktop,production,webkit2_41 -trimpath -ldflags "-w -s" -o "$work/emptywindow" ./build/bench/emptywindow
display=$(build/scripts/free-display.sh)
Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
sleep 0.5
export DISPLAY=$display

run_app() { # $1 = data dir; starts the app, waits for its interface, echoes the pid
  XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg-cache" "$bin" --data-dir "$1" >"$1/app.log" 2>&1 &
  local pid=$!
  for _ in $(seq 1 300); do grep -q "interface mounted" "$1/app.log" && break; sleep 0.05; done
  echo "$pid"
}

# ms LOG [LINE]: the since_start of the first LINE ("window ready") in LOG, in ms.
ms() { grep "${2:-window ready}" "$1" | grep -o 'since_start=[0-9.]*m\?s' | head -1 | cut -d= -f2 | awk '/ms$/ {print $0+0; next} {print ($0+0)*1000}'; }
median() { tr ' ' '\n' | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# A first, unmeasured start: it builds the font cache of the fresh
# XDG_CACHE_HOME, which would otherwise count against whichever ran first.
XDG_CACHE_HOME="$work/xdg-cache" "$work/emptywindow" >/dev/null 2>&1 &
warm=$!
sleep 3
kill "$warm"; wait "$warm" 2>/dev/null || true

# floor N [-tuned]: starts the empty window, waits for ready, echoes its ms.
floor() {
  local log="$work/empty$1${2:-}.log" pid
  XDG_DATA_HOME="$work/xdg" XDG_CACHE_HOME="$work/xdg-cache" "$work/emptywindow" ${2:-} >"$log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do grep -q "window ready" "$log" && break; sleep 0.05; done
  kill "$pid"; wait "$pid" 2>/dev/null || true
  ms "$log"
}

# The first launch creates the data folder and its database; the measured
# starts open them again, as every later launch does.
d="$work/desk"; mkdir -p "$d"
pid=$(run_app "$d")
first=$(ms "$d/app.log")
kill "$pid"; wait "$pid" 2>/dev/null || true

starts=(); mounts=(); floors=(); tuned=()
for i in 1 2 3 4 5; do
  floors+=("$(floor "$i")")
  tuned+=("$(floor "$i" -tuned)")
  pid=$(run_app "$d")
  starts+=("$(ms "$d/app.log")")
  mounts+=("$(ms "$d/app.log" "interface mounted")")
  kill "$pid"; wait "$pid" 2>/dev/null || true
done
desk=$(echo "${starts[*]}" | median)
empty=$(echo "${floors[*]}" | median)
etuned=$(echo "${tuned[*]}" | median)
echo "cold start to frontend ready, ms (5 alternating runs): MCP Desk ${starts[*]}; empty Wails window ${floors[*]}; the same, tuned as MCP Desk ${tuned[*]}"
echo "first launch (a new data folder): $first ms"
echo "MCP Desk to its interface mounted (the saved theme and language applied, the stores listening), ms: ${mounts[*]}; median $(echo "${mounts[*]}" | median)"
echo "cold start medians: MCP Desk $desk ms, empty Wails window $empty ms, tuned $etuned ms: MCP Desk adds $((desk - etuned)) ms to the tuned floor"

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
