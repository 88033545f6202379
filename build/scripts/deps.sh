#!/usr/bin/env bash
# deps.sh installs what building and testing MCP Desk needs on Debian/Ubuntu,
# skipping whatever is already there. Pinned versions live here and in the
# package.json / go.mod files; nothing is fetched at "latest".
#   deps.sh build   packages to build and run the app
#   deps.sh test    also the packages the test layers need (Xvfb, keychain, Chromium)
set -euo pipefail
cd "$(dirname "$0")/../.."

WAILS_VERSION=v2.16.0
what=${1:-build}

pkgs=(pkg-config gcc libgtk-3-dev libwebkit2gtk-4.1-dev)
if [ "$what" = test ]; then
  pkgs+=(xvfb xauth dbus-x11 gnome-keyring chromium fonts-dejavu-core fonts-noto-cjk imagemagick xdotool procps)
fi

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

command -v go >/dev/null || { echo "deps: Go 1.26 is required (https://go.dev/dl/)"; exit 1; }
command -v node >/dev/null || { echo "deps: Node.js 20 is required"; exit 1; }

gobin=$(go env GOPATH)/bin
if ! "$gobin/wails" version 2>/dev/null | grep -q "$WAILS_VERSION"; then
  echo "deps: installing wails $WAILS_VERSION"
  go install "github.com/wailsapp/wails/v2/cmd/wails@$WAILS_VERSION"
fi

# npm ci only when the lock file changed since the last install.
npm_ci() {
  local dir=$1 stamp=$1/node_modules/.mcpdesk-lock
  if [ ! -f "$stamp" ] || ! cmp -s "$dir/package-lock.json" "$stamp"; then
    echo "deps: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$stamp"
  fi
}
npm_ci frontend
if [ "$what" = test ]; then
  npm_ci backend/mcp/testdata/npm
fi
go mod download
