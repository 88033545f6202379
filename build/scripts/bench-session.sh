#!/usr/bin/env bash
# bench-session.sh runs a bench script in a D-Bus session of its own, with an
# unlocked keyring, as on a desktop, where every start finds a session bus:
#   build/scripts/bench-session.sh SCRIPT ARGS…
# Without one, GTK and both WebKit processes have D-Bus autolaunch a bus
# (dbus-launch --autolaunch) on each start, about 50 ms that no user pays,
# and the autolaunched dbus-daemon and the gnome-keyring it activates
# outlive the bench (a pair per run), loading the machine for the next.
# The session and everything in it end with the script. The first start in
# it brings up the accessibility bus, which a desktop has running already:
# each bench starts a window once, unmeasured, before measuring.
set -euo pipefail
cd "$(dirname "$0")/../.."
exec dbus-run-session -- build/scripts/with-keyring.sh "$@" 2> >(grep -vE '^dbus-daemon|^SpiRegistry' >&2)
