#!/usr/bin/env bash
# package.sh builds MCP Desk's installers into build/package/out/ (the body of
# `make package`, which builds the frontend first):
#   linux    mcpdesk_<ver>-1_<arch>.deb and mcpdesk-<ver>-1.<arch>.rpm (nfpm):
#            /usr/bin/mcpdesk, /usr/share/applications/mcpdesk.desktop and
#            hicolor icons (PNG 16…512 from build/appicon.png, scalable SVG)
#   windows  mcpdesk-<ver>-windows-amd64-setup.exe: the NSIS installer of the
#            cgo cross-built mcpdesk.exe (mingw-w64, real SQLite compiled in),
#            plus windows/mcpdesk.exe itself
# Run with no argument for both, or name one. macOS: build/darwin/package-macos.sh
# on a Mac. The tools it needs are installed when missing (apt-get, with sudo
# when not root; Go tools pinned with go install).
#
# Versions. VERSION is the Makefile's (`git describe --tags --always --dirty`)
# and is stamped into the binaries as is (-X main.version). Packages need a
# version that sorts, so it is mapped to semver, which nfpm turns into deb/rpm:
#   v1.2.3                  -> 1.2.3                     (deb 1.2.3-1)
#   v1.2.3-4-gabc1234[-dirty] -> 1.2.3+git.4.abc1234[.dirty]  (sorts after 1.2.3)
#   abc1234[-dirty] (no tag)  -> <base>-gitabc1234[.dirty]  (deb/rpm <base>~gitabc1234…,
#                              a pre-release: sorts before <base>)
#   anything else, e.g. 0.1.0-dev -> kept if semver, else <base>-<sanitised>
# <base> is wails.json's info.productVersion (0.1.0). The Windows version
# resources need X.Y.Z: they get the numeric part, the installer's
# ProductVersion string gets the full VERSION.
set -euo pipefail
cd "$(dirname "$0")/../.."

NFPM_VERSION=v2.45.0
WAILS_VERSION=v2.16.0
out=build/package/out
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(linux windows)
for t in "${targets[@]}"; do
  case $t in linux|windows) ;; *) echo "package: unknown target $t (linux, windows)"; exit 2 ;; esac
done
want() { [[ " ${targets[*]} " == *" $1 "* ]]; }

gopath=$(go env GOPATH)
export PATH="$gopath/bin:$PATH"
VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-dev)}

# ---- tools -------------------------------------------------------------------
pkgs=(imagemagick)
want windows && pkgs+=(nsis gcc-mingw-w64-x86-64)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "package: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
gobin=$gopath/bin
if ! go version -m "$gobin/nfpm" 2>/dev/null | grep -qE "mod\s+github.com/goreleaser/nfpm/v2\s+$NFPM_VERSION\b"; then
  echo "package: installing nfpm $NFPM_VERSION"
  go install "github.com/goreleaser/nfpm/v2/cmd/nfpm@$NFPM_VERSION"
fi
if want windows && ! "$gobin/wails" version 2>/dev/null | grep -q "$WAILS_VERSION"; then
  echo "package: installing wails $WAILS_VERSION"
  go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION"
fi

# ---- version -----------------------------------------------------------------
base=$(sed -nE 's/.*"productVersion": *"([0-9]+\.[0-9]+\.[0-9]+)".*/\1/p' wails.json)
base=${base:-0.1.0}
pkg_version() {
  local v=${1#v} dirty="" ahead="" hash="" meta="" s
  if [[ $v == *-dirty ]]; then dirty=1; v=${v%-dirty}; fi
  if [[ $v =~ ^(.+)-([0-9]+)-g([0-9a-f]+)$ ]]; then
    v=${BASH_REMATCH[1]#v}; ahead=${BASH_REMATCH[2]}; hash=${BASH_REMATCH[3]}
  fi
  if [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
    [ -n "$ahead" ] && meta="git.$ahead.$hash"
    [ -n "$dirty" ] && meta="${meta:+$meta.}dirty"
    echo "$v${meta:++$meta}"
  elif [[ $v =~ ^[0-9a-f]{4,40}$ ]]; then
    echo "$base-git$v${dirty:+.dirty}"
  else
    s=$(printf %s "$v" | tr -c '0-9A-Za-z.' '.' | sed -E 's/\.+/./g; s/^\.//; s/\.$//')
    echo "$base-${s:-dev}${dirty:+.dirty}"
  fi
}
pkgver=$(pkg_version "$VERSION")
numver=${pkgver%%[-+]*}
echo "package: version $VERSION -> packages $pkgver"

[ -f frontend/dist/index.html ] || { echo "package: building the frontend"; (cd frontend && npm run build); }
mkdir -p "$out"
start=$SECONDS
# package-check.sh and package-sizes.sh read what was built from here.
printf 'VERSION=%s\nPKG_VERSION=%s\n' "$VERSION" "$pkgver" >"$out/version.env"

# ---- Linux: .deb and .rpm ----------------------------------------------------
if want linux; then
  rm -f "$out"/*.deb "$out"/*.rpm
  echo "package: linux binary"
  go build -tags desktop,production,webkit2_41,sqlite_fts5 -trimpath \
    -ldflags "-w -s -X main.version=$VERSION" -o "$out/linux/mcpdesk" .
  echo "package: icons"
  for s in 16 24 32 48 64 128 256 512; do
    mkdir -p "$out/icons/${s}x$s"
    convert build/appicon.png -resize "${s}x$s" -strip \
      -define png:exclude-chunks=date,time "PNG32:$out/icons/${s}x$s/mcpdesk.png"
  done
  for p in deb rpm; do
    MCPDESK_PKG_VERSION=$pkgver MCPDESK_ARCH=$(go env GOARCH) \
      nfpm package --config build/package/nfpm.yaml --packager "$p" --target "$out/" | sed 's/^/package: /'
  done
fi

# ---- Windows: NSIS installer of the cgo cross-build --------------------------
if want windows; then
  rm -f "$out"/*-setup.exe build/bin/mcpdesk-amd64-installer.exe
  # The exe's and the installer's icon: ours, not Wails' default. Regenerated
  # from build/appicon.png when its 256 px image differs from it.
  ico=build/windows/icon.ico
  diff=$(convert build/appicon.png -resize 256x256 png:- | compare -metric RMSE "${ico}[0]" - null: 2>&1 | sed -nE 's/.*\((.*)\).*/\1/p')
  if [ ! -f "$ico" ] || ! awk -v d="${diff:-1}" 'BEGIN{exit !(d + 0 < 0.02)}'; then
    echo "package: generating $ico from build/appicon.png"
    convert build/appicon.png -define icon:auto-resize=256,128,64,48,32,24,16 "$ico"
  fi
  printf '!define INFO_PRODUCTVERSION "%s"\n!define MCPDESK_VERSION "%s"\n' "$numver" "$VERSION" \
    >build/windows/installer/version.nsh
  echo "package: windows/amd64 (cgo with mingw-w64) and its NSIS installer"
  # -s: the frontend is built; -m/-nosyncgomod: leave go.mod alone;
  # -skipbindings: the committed bindings are checked by the test suite.
  # wails adds the desktop,production tags, wails.json's build:tags
  # (webkit2_41,sqlite_fts5) and -w -s -H windowsgui.
  CGO_ENABLED=1 CC=x86_64-w64-mingw32-gcc CXX=x86_64-w64-mingw32-g++ \
    wails build -platform windows/amd64 -nsis -s -m -nosyncgomod -skipbindings -trimpath \
      -tags sqlite_fts5 -ldflags "-X main.version=$VERSION" -o mcpdesk.exe -nocolour -v 1 \
      | sed 's/^/package: /'
  rm -f build/windows/installer/version.nsh
  [ -f build/bin/mcpdesk-amd64-installer.exe ] || { echo "package: wails wrote no installer (is makensis installed?)"; exit 1; }
  mkdir -p "$out/windows"
  cp build/bin/mcpdesk.exe "$out/windows/mcpdesk.exe"
  mv build/bin/mcpdesk-amd64-installer.exe "$out/mcpdesk-$pkgver-windows-amd64-setup.exe"
fi

echo "package: done in $((SECONDS - start))s:"
for f in "$out"/*; do
  if [ -f "$f" ]; then printf '  %s  %s bytes\n' "${f##*/}" "$(stat -c %s "$f")"; fi
done
