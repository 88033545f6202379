#!/usr/bin/env bash
# deps.sh installs what building and testing MCP Desk needs on Debian/Ubuntu,
# skipping whatever is already there. Pinned versions live here and in the
# package.json / go.mod files; nothing is fetched at "latest".
#   deps.sh build   packages to build and run the app
#   deps.sh test    also the packages the test layers need (Xvfb, keychain, Chromium)
#
# A machine with only Debian or Ubuntu gets Go and Node here too:
# - Go older than $GO_VERSION or missing: the Go toolchain module
#   golang.org/toolchain@v0.0.1-go$GO_VERSION.linux-ARCH — the very archive
#   `GOTOOLCHAIN=go$GO_VERSION` downloads — fetched from the Go module proxy into
#   build/.tools/go and checked against the SHA-256 pinned below. (Debian 12's
#   golang-go is Go 1.19, older than GOTOOLCHAIN itself, so "install golang-go
#   and let it switch" cannot work there; fetching the module directly works on
#   every release and needs no Go at all.)
# - Node older than 20 or missing: Debian's nodejs/npm, then the pinned Node as
#   the npm package node-linux-ARCH and the pinned npm, both in build/.tools/node.
# The Makefile puts build/.tools first on PATH, so every later step uses them.
set -euo pipefail
cd "$(dirname "$0")/../.."

WAILS_VERSION=v2.16.0
GO_VERSION=1.26.8
GO_SHA256_amd64=30c2b1bf7dcc88d3eb0a1364e47ddd9128edb3110a30e8a0ef61cd5856b31de7
GO_SHA256_arm64=02b36b6787b3ac767668f630e2998df45a3b1f9ffee08d1bf3ef6487cd658d99
NODE_VERSION=20.20.2
NPM_VERSION=11.19.1
what=${1:-build}
tools=$PWD/build/.tools
export PATH="$tools/go/bin:$tools/node/node_modules/node-linux-$(dpkg --print-architecture | sed 's/amd64/x64/')/bin:$tools/node/node_modules/.bin:$PATH"

pkgs=(make git ca-certificates curl unzip pkg-config gcc libc6-dev libgtk-3-dev libwebkit2gtk-4.1-dev)
if [ "$what" = test ]; then
  pkgs+=(xvfb xauth dbus-x11 gnome-keyring chromium fonts-dejavu-core fonts-noto-cjk imagemagick xdotool procps iproute2)
fi

sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo

missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# version_ge A B: is version A at least version B (dotted numbers)?
version_ge() { [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -1)" = "$2" ]; }

go_version() { go env GOVERSION 2>/dev/null | sed 's/^go//'; }
if ! command -v go >/dev/null || ! version_ge "$(go_version)" 1.26.0; then
  arch=$(dpkg --print-architecture)
  sum_var=GO_SHA256_$arch
  [ -n "${!sum_var:-}" ] || { echo "deps: no pinned Go toolchain for $arch; install Go $GO_VERSION from https://go.dev/dl/"; exit 1; }
  if [ "$(go_version)" != "$GO_VERSION" ]; then
    echo "deps: fetching Go $GO_VERSION (golang.org/toolchain) through the Go module proxy"
    proxy=${GOPROXY:-https://proxy.golang.org}; proxy=${proxy%%,*}; [ "$proxy" != direct ] && [ "$proxy" != off ] || proxy=https://proxy.golang.org
    mod=golang.org/toolchain@v0.0.1-go$GO_VERSION.linux-$arch
    tmp=$(mktemp -d)
    curl -fsSL --retry 3 -o "$tmp/go.zip" "$proxy/golang.org/toolchain/@v/v0.0.1-go$GO_VERSION.linux-$arch.zip"
    echo "${!sum_var}  $tmp/go.zip" | sha256sum -c --quiet - || { echo "deps: the Go toolchain archive does not match its pinned SHA-256"; rm -rf "$tmp"; exit 1; }
    unzip -q "$tmp/go.zip" -d "$tmp"
    rm -rf "$tools/go"; mkdir -p "$tools"
    mv "$tmp/$mod" "$tools/go"
    # Module zips carry no file modes; the go command sets these itself when it switches toolchains.
    chmod +x "$tools"/go/bin/* "$tools"/go/pkg/tool/*/*
    rm -rf "$tmp"
  fi
fi
echo "deps: $(go version)"

node_major() { node --version 2>/dev/null | sed 's/^v\([0-9]*\).*/\1/'; }
if ! command -v node >/dev/null || [ "$(node_major)" -lt 20 ]; then
  if ! command -v npm >/dev/null; then
    echo "deps: installing Debian's nodejs and npm"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends nodejs npm >/dev/null
  fi
  if [ "$(node_major)" -lt 20 ]; then
    nodepkg=node-linux-$(dpkg --print-architecture | sed 's/amd64/x64/')
    echo "deps: installing Node $NODE_VERSION ($nodepkg) and npm $NPM_VERSION into build/.tools/node"
    mkdir -p "$tools/node"
    [ -f "$tools/node/package.json" ] || echo '{"private":true}' > "$tools/node/package.json"
    npm install --prefix "$tools/node" --no-audit --no-fund --loglevel=error "$nodepkg@$NODE_VERSION" "npm@$NPM_VERSION"
    hash -r
  fi
fi
echo "deps: node $(node --version), npm $(npm --version)"

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
  npm_ci backend/mcppool/testdata/npm
  # The MCP conformance suite and the Node 22 it runs on (an npm package:
  # nothing is installed system-wide).
  npm_ci build/conformance
fi
go mod download
