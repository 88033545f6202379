#!/usr/bin/env bash
# free-display.sh prints an X display number no server holds (":N", N from
# FROM, 100, to FROM+99), for an Xvfb of the checks and benchmarks. A display
# whose lock file or socket is there is skipped: Xvfb refuses a display
# whose stale lock names a PID that another process has since taken.
from=${1:-100}
for _ in $(seq 1 200); do
  n=$((from + RANDOM % 100))
  [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] || { echo ":$n"; exit 0; }
done
echo "free-display: no free display in :$from-:$((from + 99))" >&2
exit 1
