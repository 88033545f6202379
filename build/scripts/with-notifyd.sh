#!/usr/bin/env bash
# with-notifyd.sh starts a fake desktop notification daemon
# (backend/notify/notifytest/fakenotifyd) in the current D-Bus session (run
# it inside dbus-run-session), waits until it answers on the bus, then runs
# the command:
#   dbus-run-session -- build/scripts/with-notifyd.sh FAKENOTIFYD DIR CMD ARGS…
set -euo pipefail
daemon=$1 dir=$2
shift 2
"$daemon" "$dir" &
for _ in $(seq 1 100); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q 'boolean true' && break
  sleep 0.05
done
exec "$@"
