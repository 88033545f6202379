# bench-session.sh is sourced by a bench script (window-bench.sh,
# mem-bench.sh) once it is in the repository's root:
#   . build/scripts/bench-session.sh
# Unless a D-Bus session bus is there already, or BENCH_BUS=none, it runs
# the script again in a session of its own with an unlocked keyring, as on a
# desktop, where every start finds a session bus. Without one, GTK and both
# WebKit processes have D-Bus autolaunch a bus (dbus-launch --autolaunch) on
# each start, about 50 ms that no user pays, and the autolaunched
# dbus-daemon and the gnome-keyring it activates outlive the bench (a pair
# per run), loading the machine for the next. The session and everything in
# it end with the script. The first start in it brings up the accessibility
# bus, which a desktop has running already: each bench starts a window once,
# unmeasured, before measuring.
if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && [ "${BENCH_BUS:-}" != none ]; then
  exec dbus-run-session -- build/scripts/with-keyring.sh "$PWD/build/scripts/$(basename "$0")" "$@" \
    2> >(grep -vE '^dbus-daemon|^SpiRegistry' >&2)
fi
