#!/usr/bin/env bash
# test-fresh.sh proves the README's two commands on a machine that has only
# Debian: it builds a clean Debian 12 root file system with debootstrap (the
# minimal base plus git and make, which cloning this repository needs), clones
# the committed HEAD into it, and inside it (chroot) runs
#   1. `make run` — timed until the app is up (its process alive 10 s after
#      it started, under Xvfb: the only thing added beforehand is the screen);
#   2. `make test` — every test layer, as CI runs it.
# It prints both durations. It needs root (debootstrap, chroot, mounts) and
# the network to Debian, the Go module proxy and the npm registry. Not part of
# `make test`: run it with `make test-fresh`.
#   FRESH_SUITE=bookworm   the Debian release (default bookworm)
#   FRESH_SKIP_TEST=1      stop after `make run`
set -euo pipefail
cd "$(dirname "$0")/../.."
repo=$PWD
suite=${FRESH_SUITE:-bookworm}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
base=$repo/build/.fresh
root=$base/root

[ "$(id -u)" -eq 0 ] || { echo "test-fresh: needs root (debootstrap, chroot, mount); run it with sudo"; exit 1; }
command -v debootstrap >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null; }
[ -z "$(git status --porcelain --untracked-files=no)" ] || echo "test-fresh: note: uncommitted changes are not tested, only HEAD $(git rev-parse --short HEAD)"

mounts=()
cleanup() {
  for ((i=${#mounts[@]}-1; i>=0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  pkill -f "^$root/" 2>/dev/null || true
}
trap cleanup EXIT

if mountpoint -q "$root/proc" 2>/dev/null; then umount -l "$root"/{dev/shm,dev/pts,dev,sys,proc} 2>/dev/null || true; fi
rm -rf "$root"; mkdir -p "$base"
echo "test-fresh: debootstrap $suite (minbase + git, make, ca-certificates)"
t0=$(date +%s)
debootstrap --variant=minbase --include=git,make,ca-certificates "$suite" "$root" "$mirror" > "$base/debootstrap.log" 2>&1 \
  || { tail -20 "$base/debootstrap.log"; exit 1; }
echo "test-fresh: root file system ready in $(( $(date +%s) - t0 )) s"

for m in proc sys dev dev/pts dev/shm; do
  mkdir -p "$root/$m"
  case $m in
    proc) mount -t proc proc "$root/proc" ;;
    sys) mount --rbind /sys "$root/sys" ;;
    dev/shm) mount -t tmpfs -o mode=1777 shm "$root/dev/shm" ;;
    *) mount --bind "/$m" "$root/$m" ;;
  esac
  mounts+=("$root/$m")
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# debootstrap writes no /etc/hosts (an installed system has one): without it
# "localhost" does not resolve.
[ -e "$root/etc/hosts" ] || printf '127.0.0.1\tlocalhost\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > "$root/etc/hosts"
# The host's own network set-up, not the project's: certificate authorities it
# added locally (e.g. a TLS-inspecting egress proxy) are trusted inside too,
# and Node is told to use the system's list as it is on the host.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
git clone -q --no-local "$repo" "$root/src/mcpdesk"
git -C "$root/src/mcpdesk" checkout -q "$(git rev-parse HEAD)"

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin CI=true \
    ${NODE_EXTRA_CA_CERTS:+NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS} \
    bash -c "cd /src/mcpdesk && $1"
}

# The screen for `make run`: Xvfb stands in for the user's display.
in_root "apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends xvfb xauth >/dev/null"
in_root "command -v go node || true; echo 'test-fresh: no Go, no Node before make run (as expected)'"

echo "test-fresh: make run (first time) …"
t0=$(date +%s)
in_root "xvfb-run -a make run" > "$base/make-run.log" 2>&1 &
runner=$!
up=""
for _ in $(seq 1 3600); do
  if ! kill -0 "$runner" 2>/dev/null; then break; fi
  pid=""
  for p in $(pgrep -f "build/bin/mcpdesk$" || true); do
    [ "$(readlink "/proc/$p/root" 2>/dev/null)" = "$root" ] && { pid=$p; break; }
  done
  if [ -n "$pid" ]; then
    started=$(date +%s)
    sleep 10
    if kill -0 "$pid" 2>/dev/null; then up=$(( started - t0 )); fi
    break
  fi
  sleep 1
done
[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null || true
wait "$runner" 2>/dev/null || true
if [ -z "$up" ]; then
  echo "test-fresh: make run did not bring the app up; the last lines it printed:"; tail -30 "$base/make-run.log"; exit 1
fi
echo "test-fresh: first make run: the app was up after $up s (log: build/.fresh/make-run.log)"

[ -n "${FRESH_SKIP_TEST:-}" ] && exit 0
echo "test-fresh: make test …"
t0=$(date +%s)
if ! in_root "make test" > "$base/make-test.log" 2>&1; then
  echo "test-fresh: make test failed; the last lines it printed:"; tail -40 "$base/make-test.log"; exit 1
fi
grep -E '^tests:' "$base/make-test.log" | tail -1 || true
echo "test-fresh: make test passed in $(( $(date +%s) - t0 )) s (log: build/.fresh/make-test.log)"
