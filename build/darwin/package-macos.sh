#!/usr/bin/env bash
# package-macos.sh builds MCP Desk for macOS on a Mac (it cannot be
# cross-built): a universal (arm64 + x86_64) "MCP Desk.app" and a .dmg with
# the app and a link to /Applications, in build/package/out/:
#   mcpdesk-<version>-macos-universal.dmg
# Needs the Xcode command-line tools, Go 1.26 and Node 20; installs the pinned
# Wails CLI when missing.
#
#   VERSION=v1.2.3 build/darwin/package-macos.sh
#
# VERSION defaults to `git describe --tags --always --dirty`, as in the
# Makefile, and is stamped into the binary (-X main.version). The bundle's
# CFBundleShortVersionString/CFBundleVersion need X.Y.Z: the tag's numbers, or
# wails.json's productVersion for untagged builds. The dmg is named with the
# same semver form as the Linux packages (see build/scripts/package.sh).
#
# Signing: ad hoc ("-") unless MACOS_SIGN_IDENTITY names a Developer ID
# Application certificate in the keychain (then with the hardened runtime).
# With MACOS_NOTARY_PROFILE (a `xcrun notarytool store-credentials` profile)
# the dmg is also notarized and stapled.
set -euo pipefail
cd "$(dirname "$0")/../.."

WAILS_VERSION=v2.16.0
MIN_MACOS=12.0 # Go 1.26 runs on macOS 12 Monterey and later
out=build/package/out

[ "$(uname -s)" = Darwin ] || { echo "package-macos: run this on macOS"; exit 1; }
xcode-select -p >/dev/null 2>&1 || { echo "package-macos: install the Xcode command-line tools: xcode-select --install"; exit 1; }
for t in go node npm hdiutil codesign lipo; do
  command -v "$t" >/dev/null || { echo "package-macos: $t is required"; exit 1; }
done
gopath=$(go env GOPATH)
export PATH="$gopath/bin:$PATH"
if ! wails version 2>/dev/null | grep -q "$WAILS_VERSION"; then
  echo "package-macos: installing wails $WAILS_VERSION"
  go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION"
fi

VERSION=${VERSION:-$(git describe --tags --always --dirty 2>/dev/null || echo 0.1.0-dev)}
base=$(sed -nE 's/.*"productVersion": *"([0-9]+\.[0-9]+\.[0-9]+)".*/\1/p' wails.json)
base=${base:-0.1.0}
v=${VERSION#v}
if [[ $v =~ ^([0-9]+\.[0-9]+\.[0-9]+)(.*)$ ]]; then
  numver=${BASH_REMATCH[1]}
else
  numver=$base
fi
# The semver form used for file names: as package.sh does.
dirty=""; [[ $v == *-dirty ]] && { dirty=1; v=${v%-dirty}; }
ahead=""; hash=""
if [[ $v =~ ^(.+)-([0-9]+)-g([0-9a-f]+)$ ]]; then
  v=${BASH_REMATCH[1]#v}; ahead=${BASH_REMATCH[2]}; hash=${BASH_REMATCH[3]}
fi
if [[ $v =~ ^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?$ ]]; then
  meta=""
  [ -n "$ahead" ] && meta="git.$ahead.$hash"
  [ -n "$dirty" ] && meta="${meta:+$meta.}dirty"
  pkgver="$v${meta:++$meta}"
elif [[ $v =~ ^[0-9a-f]{4,40}$ ]]; then
  pkgver="$base-git$v${dirty:+.dirty}"
else
  s=$(printf %s "$v" | tr -c '0-9A-Za-z.' '.' | sed -E 's/\.+/./g; s/^\.//; s/\.$//')
  pkgver="$base-${s:-dev}${dirty:+.dirty}"
fi
echo "package-macos: version $VERSION (bundle $numver, dmg $pkgver)"

# The frontend is embedded: build it first.
if [ ! -d frontend/node_modules ]; then (cd frontend && npm ci --no-audit --no-fund --loglevel=error); fi
(cd frontend && npm run build)

# -s: the frontend is built; -m/-nosyncgomod: leave go.mod alone;
# -skipbindings: the committed bindings are used. wails adds the
# desktop,production tags, wails.json's build:tags and -w -s, builds arm64
# and amd64 and joins them with lipo.
export MACOSX_DEPLOYMENT_TARGET=$MIN_MACOS
export CGO_CFLAGS="${CGO_CFLAGS:-} -mmacosx-version-min=$MIN_MACOS"
export CGO_LDFLAGS="${CGO_LDFLAGS:-} -mmacosx-version-min=$MIN_MACOS"
export CGO_ENABLED=1
wails build -platform darwin/universal -s -m -nosyncgomod -skipbindings -trimpath \
  -tags sqlite_fts5 -ldflags "-X main.version=$VERSION" -o mcpdesk -nocolour

app="build/bin/MCP Desk.app"
exe="$app/Contents/MacOS/mcpdesk"
[ -x "$exe" ] || { echo "package-macos: $exe was not built"; exit 1; }

# Versions and the minimum system in the bundle.
plist="$app/Contents/Info.plist"
pb=/usr/libexec/PlistBuddy
set_plist() { "$pb" -c "Set :$1 $2" "$plist" 2>/dev/null || "$pb" -c "Add :$1 string $2" "$plist"; }
set_plist CFBundleShortVersionString "$numver"
set_plist CFBundleVersion "$numver"
set_plist LSMinimumSystemVersion "$MIN_MACOS"
plutil -lint "$plist"

archs=$(lipo -archs "$exe")
[[ " $archs " == *" arm64 "* && " $archs " == *" x86_64 "* ]] || { echo "package-macos: $exe is not universal ($archs)"; exit 1; }
"$exe" version | grep -qF "$VERSION" || { echo "package-macos: $exe does not report version $VERSION"; exit 1; }

# Sign (again: the Info.plist changed after wails' ad-hoc signature).
identity=${MACOS_SIGN_IDENTITY:--}
if [ "$identity" = "-" ]; then
  codesign --force --deep --sign - "$app"
else
  codesign --force --deep --options runtime --timestamp --sign "$identity" "$app"
fi
codesign --verify --deep --strict --verbose=1 "$app"

# The disk image: the app and a link to /Applications to drag it onto.
mkdir -p "$out"
dmg="$out/mcpdesk-$pkgver-macos-universal.dmg"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
ditto "$app" "$stage/MCP Desk.app"
ln -s /Applications "$stage/Applications"
rm -f "$dmg"
hdiutil create -volname "MCP Desk" -srcfolder "$stage" -fs HFS+ -format UDZO -imagekey zlib-level=9 -ov "$dmg"
[ "$identity" = "-" ] || codesign --force --timestamp --sign "$identity" "$dmg"
hdiutil verify "$dmg"

if [ -n "${MACOS_NOTARY_PROFILE:-}" ]; then
  xcrun notarytool submit "$dmg" --keychain-profile "$MACOS_NOTARY_PROFILE" --wait
  xcrun stapler staple "$dmg"
fi

echo "package-macos: $dmg ($(du -h "$dmg" | cut -f1)); $app ($(du -sh "$app" | cut -f1))"
