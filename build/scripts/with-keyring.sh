#!/usr/bin/env bash
# with-keyring.sh starts an unlocked gnome-keyring in the current D-Bus
# session (run it inside dbus-run-session), waits until the Secret Service
# answers on the bus, then runs the command:
#   dbus-run-session -- build/scripts/with-keyring.sh CMD ARGS…
# Without the wait a busy machine can start CMD before org.freedesktop.secrets
# is on the bus, and CMD sees "the keychain is unavailable".
set -euo pipefail
echo -n ci | gnome-keyring-daemon --unlock --components=secrets >/dev/null
for _ in $(seq 1 100); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' && break
  sleep 0.05
done
exec "$@"
