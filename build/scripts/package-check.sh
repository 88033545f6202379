#!/usr/bin/env bash
# package-check.sh checks the installers build/scripts/package.sh wrote to
# build/package/out/ and prints one "ok - …" / "not ok - …" line per check,
# then `package: N passed, M failed`; it exits non-zero on any failure.
#   deb      metadata; installed for real with apt-get when root (or with
#            passwordless sudo) and no mcpdesk package is installed already,
#            else unpacked with dpkg -x into a throwaway root; the files are
#            where they belong (binary, a valid desktop entry, hicolor icons);
#            the installed binary prints its version, then opens its window
#            under Xvfb (found with xdotool by title and WM class), and exits
#            cleanly on SIGTERM; a real install is removed again (dpkg -r).
#   rpm      name, version, arch, dependencies, digests, the same file list
#            and the same binary as the deb
#   windows  the NSIS installer is a PE with the Nullsoft signature; 7z
#            extracts mcpdesk.exe from it: PE32+ x86-64 with the real SQLite
#            (not mattn/go-sqlite3's cgo-less stub), our version and our icon
#   macos    build/darwin/package-macos.sh parses (bash -n); it runs on a Mac
# Needs: dpkg, apt-get, rpm, 7z, file, xvfb, xdotool, dbus-run-session,
# desktop-file-validate, imagemagick; installs the missing ones.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=build/package/out
work=$(mktemp -d)
passed=0; failed=0
installed=""; pid=""; xvfb=""

ok() { echo "ok - $*"; passed=$((passed + 1)); }
notok() { echo "not ok - $*"; failed=$((failed + 1)); }
# check DESCRIPTION COMMAND…: ok when COMMAND succeeds.
check() { local d=$1; shift; if "$@" >"$work/check.out" 2>&1; then ok "$d"; else notok "$d"; sed 's/^/#   /' "$work/check.out" | head -20; fi; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
can_root() { [ "$(id -u)" -eq 0 ] || sudo -n true 2>/dev/null; }
remove_pkg() {
  [ -n "$installed" ] || return 0
  DEBIAN_FRONTEND=noninteractive $sudo dpkg -r mcpdesk >"$work/remove.log" 2>&1
  local rc=$?
  installed=""
  return $rc
}
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  [ -n "$xvfb" ] && kill "$xvfb" 2>/dev/null
  remove_pkg
  rm -rf "$work"
}
trap cleanup EXIT

# ---- tools -------------------------------------------------------------------
pkgs=(dpkg rpm cpio p7zip-full file xvfb xauth xdotool dbus desktop-file-utils imagemagick)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "package-check: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# What package.sh built.
if [ ! -f "$out/version.env" ]; then
  notok "build/package/out/version.env exists (run build/scripts/package.sh first)"
  echo "package: $passed passed, $failed failed"; exit 1
fi
# shellcheck disable=SC1091
. "$out/version.env"
echo "# version $VERSION, packages $PKG_VERSION"
# nfpm: semver pre-release "-x" becomes "~x" in deb and rpm; build metadata stays "+x".
core=${PKG_VERSION%%[-+]*}; rest=${PKG_VERSION#"$core"}
pre=""; meta=""
case $rest in
  -*) pre=${rest#-}; pre=${pre%%+*}; [[ $rest == *+* ]] && meta=${rest#*+} ;;
  +*) meta=${rest#+} ;;
esac
deb_version="$core${pre:+~$pre}${meta:++$meta}-1"
rpm_version="$core${pre:+~${pre//-/_}}${meta:++$meta}"

one() { # one GLOB: the single file matching GLOB, or nothing
  local m
  mapfile -t m < <(compgen -G "$1")
  [ ${#m[@]} -eq 1 ] && [ -f "${m[0]}" ] && echo "${m[0]}"
}
deb=$(one "$out/mcpdesk_*.deb")
rpmf=$(one "$out/mcpdesk-*.rpm")
setup=$(one "$out/mcpdesk-*-windows-amd64-setup.exe")
# real SQLite FILE: the amalgamation is compiled in, not go-sqlite3's stub.
real_sqlite() { grep -aq "SQLite format 3" "$1" && ! grep -aq "go-sqlite3 requires cgo to work" "$1"; }
# same_image A B: B looks like A (RMSE under 2 %), B resized to A's size.
same_image() {
  local size d
  size=$(identify -format '%wx%h' "$1" 2>/dev/null | head -1) || return 1
  d=$(convert "$2" -resize "$size!" png:- | compare -metric RMSE "$1" - null: 2>&1 | sed -nE 's/.*\((.*)\).*/\1/p')
  echo "RMSE $d ($1 vs $2)"
  awk -v d="${d:-1}" 'BEGIN{exit !(d + 0 < 0.02)}'
}

# ---- .deb --------------------------------------------------------------------
echo "# deb"
if [ -z "$deb" ]; then
  notok "one .deb in $out"
else
  ok "one .deb in $out: $(basename "$deb")"
  field() { dpkg-deb -f "$deb" "$1"; }
  check "deb Package is mcpdesk, Version $deb_version, Architecture $(dpkg --print-architecture)" \
    test "$(field Package) $(field Version) $(field Architecture)" = "mcpdesk $deb_version $(dpkg --print-architecture)"
  check "deb depends on libgtk-3-0 and libwebkit2gtk-4.1-0 ($(field Depends))" \
    bash -c '[[ ", $1," == *", libgtk-3-0,"* && ", $1," == *", libwebkit2gtk-4.1-0,"* ]]' _ "$(field Depends)"
  check "deb declares Installed-Size ($(field Installed-Size) KiB)" test "$(field Installed-Size)" -gt 0

  # Install for real, or unpack into a throwaway root.
  root=""
  if can_root && ! dpkg-query -W -f='${Status}' mcpdesk 2>/dev/null | grep -q "install ok installed"; then
    if DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "$(realpath "$deb")" >"$work/install.log" 2>&1; then
      installed=1
      ok "deb installs with apt-get (dependencies resolved)"
      check "dpkg lists mcpdesk $deb_version as installed" \
        test "$(dpkg-query -W -f='${Status} ${Version}' mcpdesk)" = "install ok installed $deb_version"
      check "mcpdesk on PATH is /usr/bin/mcpdesk" test "$(command -v mcpdesk)" = /usr/bin/mcpdesk
    else
      notok "deb installs with apt-get"; sed 's/^/#   /' "$work/install.log" | tail -20
    fi
  else
    root="$work/root"
    why="not root and no passwordless sudo"; can_root && why="a mcpdesk package is installed already"
    echo "# $why: unpacking with dpkg -x instead of installing"
    check "deb unpacks (dpkg -x)" dpkg -x "$deb" "$root"
    # The runtime libraries the package depends on must be there to run it.
    check "the deb's dependencies are installed here" dpkg-query -W libgtk-3-0 libwebkit2gtk-4.1-0
  fi

  if [ -n "$installed" ] || [ -n "$root" ]; then
    bin="$root/usr/bin/mcpdesk"
    desktop="$root/usr/share/applications/mcpdesk.desktop"
    check "/usr/bin/mcpdesk is an executable ELF" bash -c '[ -x "$1" ] && file -b "$1" | grep -q "^ELF .* executable"' _ "$bin"
    check "/usr/bin/mcpdesk has the real SQLite compiled in" real_sqlite "$bin"
    check "/usr/share/applications/mcpdesk.desktop passes desktop-file-validate" desktop-file-validate "$desktop"
    check "the desktop entry runs mcpdesk with Icon=mcpdesk and StartupWMClass=mcpdesk" \
      bash -c 'grep -qx "Exec=mcpdesk" "$1" && grep -qx "Icon=mcpdesk" "$1" && grep -qx "StartupWMClass=mcpdesk" "$1"' _ "$desktop"
    icons_ok=1; msg=""
    for s in 16 24 32 48 64 128 256 512; do
      png="$root/usr/share/icons/hicolor/${s}x$s/apps/mcpdesk.png"
      file -b "$png" 2>/dev/null | grep -q "PNG image data, $s x $s," || { icons_ok=0; msg+=" ${s}x$s"; }
    done
    file -b "$root/usr/share/icons/hicolor/scalable/apps/mcpdesk.svg" 2>/dev/null | grep -q SVG || { icons_ok=0; msg+=" scalable"; }
    if [ $icons_ok -eq 1 ]; then ok "hicolor icons: PNG 16…512 at their sizes and the scalable SVG"; else notok "hicolor icons: missing or wrong:$msg"; fi
    check "the 256 px icon is build/appicon.png" same_image "$root/usr/share/icons/hicolor/256x256/apps/mcpdesk.png" build/appicon.png
    check "the package ships exactly these files" bash -c '
      diff <(dpkg-deb -c "$1" | awk "\$1 !~ /^d/ {sub(/^\\./, \"\", \$6); print \$6}" | sort) - <<EOF
/usr/bin/mcpdesk
/usr/share/applications/mcpdesk.desktop
/usr/share/icons/hicolor/128x128/apps/mcpdesk.png
/usr/share/icons/hicolor/16x16/apps/mcpdesk.png
/usr/share/icons/hicolor/24x24/apps/mcpdesk.png
/usr/share/icons/hicolor/256x256/apps/mcpdesk.png
/usr/share/icons/hicolor/32x32/apps/mcpdesk.png
/usr/share/icons/hicolor/48x48/apps/mcpdesk.png
/usr/share/icons/hicolor/512x512/apps/mcpdesk.png
/usr/share/icons/hicolor/64x64/apps/mcpdesk.png
/usr/share/icons/hicolor/scalable/apps/mcpdesk.svg
EOF' _ "$deb"
    v=$(env -u DISPLAY "$bin" version 2>&1)
    check "mcpdesk version prints the stamped version ($v)" grep -qF "$VERSION" <<<"$v"

    # ---- the installed binary opens its window under Xvfb ----
    export XDG_DATA_HOME="$work/xdg-data" XDG_CACHE_HOME="$work/xdg-cache" XDG_CONFIG_HOME="$work/xdg-config"
    mkdir -p "$XDG_DATA_HOME" "$XDG_CACHE_HOME" "$XDG_CONFIG_HOME" "$work/data"
    display=""
    for n in $(shuf -i 100-299 -n 20); do
      [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ] && continue
      display=":$n"; break
    done
    Xvfb "$display" -screen 0 1280x820x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
    xvfb=$!
    for _ in $(seq 1 50); do [ -e "/tmp/.X11-unix/X${display#:}" ] && break; sleep 0.1; done
    export DISPLAY=$display
    BIN="$bin" DATA="$work/data" W="$work" dbus-run-session -- bash -c '
      "$BIN" --data-dir "$DATA" & echo $! >"$W/app.pid"; wait $!; echo $? >"$W/app.rc"' >"$work/app.log" 2>&1 &
    session=$!
    for _ in $(seq 1 50); do [ -s "$work/app.pid" ] && break; sleep 0.1; done
    pid=$(cat "$work/app.pid" 2>/dev/null)
    win=""; t0=$SECONDS
    while [ -n "$pid" ] && [ $((SECONDS - t0)) -lt 30 ]; do
      win=$(xdotool search --onlyvisible --name '^MCP Desk$' 2>/dev/null | head -1)
      [ -n "$win" ] && break
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if [ -n "$win" ]; then
      ok "the installed mcpdesk shows its window \"$(xdotool getwindowname "$win")\" under Xvfb after $((SECONDS - t0))s"
      check "the window's WM class matches StartupWMClass (xdotool search --class mcpdesk)" \
        bash -c 'xdotool search --onlyvisible --classname "^mcpdesk$" | grep -qx "$1"' _ "$win"
      for _ in $(seq 1 100); do grep -q "window ready" "$work/app.log" && break; sleep 0.1; done
      check "the interface loads in the window (log: window ready)" grep -q "window ready" "$work/app.log"
    else
      notok "the installed mcpdesk shows a window named \"MCP Desk\" under Xvfb within 30s"
      sed 's/^/#   /' "$work/app.log" | tail -20
    fi
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid"
      for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      if kill -0 "$pid" 2>/dev/null; then
        notok "mcpdesk exits within 10s of SIGTERM"; kill -KILL "$pid" 2>/dev/null
      else
        wait "$session" 2>/dev/null
        rc=$(cat "$work/app.rc" 2>/dev/null || echo "?")
        # Failing, it shows the end of the app's log: a crash after "shut
        # down" prints its trace there (one CI run saw exit 2, unexplained).
        check "mcpdesk exits cleanly on SIGTERM (exit $rc, log: shut down)" \
          bash -c '[ "$1" = 0 ] && grep -q "shut down" "$2" && exit 0
            { grep -a -m1 -A18 -E "^(panic|fatal error|SIG[A-Z]+:)" "$2" || tail -n 20 "$2"; } | tr -d "\000-\010\013-\037"; exit 1' _ "$rc" "$work/app.log"
      fi
    else
      notok "mcpdesk was still running when it should be stopped"; sed 's/^/#   /' "$work/app.log" | tail -20
    fi
    pid=""
    kill "$xvfb" 2>/dev/null; wait "$xvfb" 2>/dev/null; xvfb=""
    unset DISPLAY

    if [ -n "$installed" ]; then
      if remove_pkg; then
        check "dpkg -r mcpdesk removes the package and its files" bash -c '
          ! dpkg-query -W -f="\${Status}" mcpdesk 2>/dev/null | grep -q "install ok installed" &&
          [ ! -e /usr/bin/mcpdesk ] && [ ! -e /usr/share/applications/mcpdesk.desktop ] &&
          [ ! -e /usr/share/icons/hicolor/256x256/apps/mcpdesk.png ]'
      else
        notok "dpkg -r mcpdesk"; sed 's/^/#   /' "$work/remove.log" | tail -10
      fi
    fi
  fi
fi

# ---- .rpm --------------------------------------------------------------------
echo "# rpm"
if [ -z "$rpmf" ]; then
  notok "one .rpm in $out"
else
  ok "one .rpm in $out: $(basename "$rpmf")"
  arch=$(rpm --eval '%{_arch}' 2>/dev/null); [ "$arch" = amd64 ] && arch=x86_64
  rpm_arch=$(case $(go env GOARCH 2>/dev/null || echo amd64) in amd64) echo x86_64;; arm64) echo aarch64;; *) echo "$arch";; esac)
  q=$(rpm -qp --qf '%{NAME} %{VERSION} %{RELEASE} %{ARCH}' "$rpmf" 2>/dev/null)
  check "rpm is mcpdesk $rpm_version release 1 for $rpm_arch ($q)" test "$q" = "mcpdesk $rpm_version 1 $rpm_arch"
  info=$(rpm -qpi "$rpmf" 2>/dev/null)
  check "rpm -qpi shows the summary and the description" \
    bash -c 'grep -q "^Summary *: Native desktop client for Model Context Protocol servers" <<<"$1" && grep -q "JSON-RPC message" <<<"$1"' _ "$info"
  req=$(rpm -qpR "$rpmf" 2>/dev/null | tr '\n' ' ')
  check "rpm requires gtk3 and webkit2gtk4.1 ($req)" bash -c 'grep -qw "gtk3" <<<"$1" && grep -q "webkit2gtk4\.1" <<<"$1"' _ "$req"
  check "rpm digests are valid (rpm -K --nosignature)" rpm -K --nosignature "$rpmf"
  if [ -n "$deb" ]; then
    check "rpm -qpl lists the same files as the deb" bash -c '
      diff <(rpm -qpl "$1" | sort) <(dpkg-deb -c "$2" | awk "\$1 !~ /^d/ {sub(/^\\./, \"\", \$6); print \$6}" | sort)' _ "$rpmf" "$deb"
    mkdir -p "$work/rpm" "$work/deb"
    rpm_abs=$(realpath "$rpmf")
    (cd "$work/rpm" && rpm2cpio "$rpm_abs" | cpio -idm --quiet --no-absolute-filenames) 2>/dev/null
    dpkg -x "$deb" "$work/deb"
    check "the rpm's files are byte-identical to the deb's" diff -r "$work/rpm/usr" "$work/deb/usr"
    check "the rpm's /usr/bin/mcpdesk is executable (mode 0755)" \
      test "$(rpm -qp --qf '[%{FILEMODES:perms} %{FILENAMES}\n]' "$rpmf" | awk '$2 == "/usr/bin/mcpdesk" {print $1}')" = "-rwxr-xr-x"
  fi
fi

# ---- Windows installer -------------------------------------------------------
echo "# windows"
if [ -z "$setup" ]; then
  notok "one Windows installer in $out"
else
  ok "one Windows installer in $out: $(basename "$setup")"
  ft=$(file -b "$setup")
  check "the installer is a PE32 Nullsoft installer ($ft)" bash -c '[[ "$1" == PE32* && "$1" == *Nullsoft* ]]' _ "$ft"
  check "the installer carries the NSIS signature (NullsoftInst)" grep -aq NullsoftInst "$setup"
  mkdir -p "$work/nsis-pe"
  7z x -tPE -y -o"$work/nsis-pe" "$setup" .rsrc/version.txt >/dev/null 2>&1
  vt=$(tr -d '\0' <"$work/nsis-pe/.rsrc/version.txt" 2>/dev/null)
  check "the installer's version resource: MCP Desk, ProductVersion $VERSION" \
    bash -c 'grep -q "ProductName.*\"MCP Desk\"" <<<"$1" && grep -qF "\"ProductVersion\",    \"$2\"" <<<"$1"' _ "$vt" "$VERSION"
  mkdir -p "$work/nsis"
  check "7z extracts the installer" 7z x -y -o"$work/nsis" "$setup"
  exe="$work/nsis/mcpdesk.exe"
  ft=$(file -b "$exe" 2>/dev/null)
  check "it contains mcpdesk.exe, a PE32+ x86-64 GUI executable ($ft)" bash -c '[[ "$1" == "PE32+ executable (GUI) x86-64"* ]]' _ "$ft"
  check "mcpdesk.exe has the real SQLite compiled in (no cgo-less stub)" real_sqlite "$exe"
  check "mcpdesk.exe is stamped with version $VERSION" grep -aqF "$VERSION" "$exe"
  check "it contains the uninstaller and the WebView2 bootstrapper" \
    test -f "$work/nsis/uninstall.exe" -a -f "$work/nsis/\$PLUGINSDIR/webview2bootstrapper/MicrosoftEdgeWebview2Setup.exe"
  [ -f "$out/windows/mcpdesk.exe" ] && check "the installed mcpdesk.exe is the one package.sh built" cmp -s "$exe" "$out/windows/mcpdesk.exe"
  mkdir -p "$work/rsrc"
  7z x -y -o"$work/rsrc" "$exe" '.rsrc/*/ICON/*' '.rsrc/*/version.txt' >/dev/null 2>&1
  big=""; bw=0 # the largest image of the icon
  for f in "$work"/rsrc/.rsrc/*/ICON/*; do
    w=$(identify -format '%w\n' "$f" 2>/dev/null | sort -n | tail -1)
    [ "${w:-0}" -gt "$bw" ] && { bw=$w; big=$f; }
  done
  check "mcpdesk.exe's icon (${bw} px) is build/appicon.png" same_image "$big" build/appicon.png
  vt=$(cat "$work"/rsrc/.rsrc/*/version.txt 2>/dev/null | tr -d '\0')
  check "mcpdesk.exe's version resource is ours (MCP Desk, no Wails placeholder)" \
    bash -c 'grep -q "ProductName.*\"MCP Desk\"" <<<"$1" && grep -q "LegalCopyright.*MCP Desk" <<<"$1"' _ "$vt"
fi

# ---- macOS -------------------------------------------------------------------
echo "# macos (built on a Mac only)"
check "build/darwin/package-macos.sh parses (bash -n)" bash -n build/darwin/package-macos.sh

echo "package: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
