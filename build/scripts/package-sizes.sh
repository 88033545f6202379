#!/usr/bin/env bash
# package-sizes.sh prints the sizes of what build/scripts/package.sh built
# (run it first), next to published figures of Electron-based clients. Those
# reference figures are NOT measured here: each names its source.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=build/package/out
[ -f "$out/version.env" ] || { echo "package-sizes: run build/scripts/package.sh first"; exit 1; }
. "$out/version.env"

one() { local m; mapfile -t m < <(compgen -G "$1"); [ ${#m[@]} -ge 1 ] && echo "${m[0]}"; }
deb=$(one "$out/mcpdesk_*.deb" || true)
rpmf=$(one "$out/mcpdesk-*.rpm" || true)
setup=$(one "$out/mcpdesk-*-windows-amd64-setup.exe" || true)
exe=$out/windows/mcpdesk.exe
bin=$out/linux/mcpdesk

mib() { awk -v b="$1" 'BEGIN{printf "%7.1f MiB", b / 1048576}'; }
row() { # row LABEL FILE-OR-BYTES [NOTE]
  local label=$1 v=$2 note=${3:-} b
  if [[ $v =~ ^[0-9]+$ ]]; then b=$v
  elif [ -n "$v" ] && [ -f "$v" ]; then b=$(stat -c %s "$v")
  else printf '  %-42s %s\n' "$label" "(not built)"; return; fi
  printf '  %-42s %s  %12s bytes  %s\n' "$label" "$(mib "$b")" "$b" "$note"
}

echo "MCP Desk $VERSION (packages $PKG_VERSION), measured here:"
row ".deb (xz)" "$deb" "$(basename "${deb:-}")"
row ".rpm (xz)" "$rpmf" "$(basename "${rpmf:-}")"
row "Windows installer (NSIS)" "$setup" "$(basename "${setup:-}") (includes the WebView2 bootstrapper)"
row "Windows mcpdesk.exe" "$exe"
row "Linux binary /usr/bin/mcpdesk" "$bin"
if [ -n "$deb" ]; then
  files=$(dpkg-deb -c "$deb" | awk '$1 !~ /^d/ {s += $3} END {print s + 0}')
  row "installed: files the .deb installs" "$files" "(binary, desktop entry, icons)"
  isz=$(dpkg-deb -f "$deb" Installed-Size)
  row "installed: dpkg Installed-Size" "$((isz * 1024))" "($isz KiB)"
fi
# The web engine is a shared system library, not part of the package; say how
# big it is here so the comparison with Electron (which bundles Chromium) is fair.
wk=$(dpkg-query -W -f='${Installed-Size}\n' libwebkit2gtk-4.1-0 libjavascriptcoregtk-4.1-0 2>/dev/null | awk '{s += $1} END {print s + 0}')
[ "$wk" -gt 0 ] && row "shared, not in the package: WebKitGTK 4.1" "$((wk * 1024))" "(libwebkit2gtk-4.1-0 + libjavascriptcoregtk-4.1-0, dpkg Installed-Size; preinstalled with GNOME; WebView2 on Windows 10/11)"

cat <<'EOF'

Electron-based clients, published figures (approximate, NOT measured here):
  Cherry Studio 1.3.4 Linux AppImage        ~158 MB, ~140 MB after a size cleanup
      source: CherryHQ/cherry-studio pull request #6092 (May 2025)
  An empty Electron app, unpacked           ~121 MB (electron-builder --dir; Chromium + V8 + Node)
      source: Tencent IMWeb team, "How does electron-builder turn your web app into a
      standalone executable" (besthub.dev) — the floor any Electron client starts from
  Claude Desktop, DeepChat                  Electron apps as well: their installers and installs
      are at least the empty-Electron floor above plus their own code; no exact figure
      was checked for this comparison, so none is quoted.
EOF
