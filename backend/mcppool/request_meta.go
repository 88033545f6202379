package mcppool

import (
	"bytes"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"
)

// Revision 2026-07-28 has no handshake: every request declares its protocol
// version, in the MCP-Protocol-Version header and in _meta (SEP-2575). A
// server that does not take the version answers HTTP 400 with the JSON-RPC
// error -32022 and the versions it does take in error.data.supported, and
// the client retries with one of them.
//
// mcp-go retries server/discover when the list names another version it
// speaks, and otherwise gives up on the revision. A server that names the
// very version it refused (a rolling upgrade behind a load balancer, a
// gateway that answers the first request of a client that way) makes it
// fall back to initialize, which such a server no longer has. versionRetry
// covers that case in the HTTP client: the same request, at the version the
// server just said it supports, once.

// maxVersionErrorBody bounds how much of a 400 body is read to look for the
// -32022 error; a longer body is passed on untouched.
const maxVersionErrorBody = 64 << 10

// withVersionRetry returns a copy of hc whose requests are sent again, once,
// when the server refuses their protocol version while listing it as
// supported.
func withVersionRetry(hc *http.Client) *http.Client {
	c := *hc
	base := c.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	c.Transport = &versionRetry{base: base}
	return &c
}

// versionRetry is the round tripper of withVersionRetry.
type versionRetry struct {
	base http.RoundTripper
}

// RoundTrip sends req and, when the answer is a -32022 refusal of the
// version req declares although the server lists that version, sends it
// once more.
func (t *versionRetry) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	version := req.Header.Get(mcp.HeaderProtocolVersion)
	if err != nil || req.Method != http.MethodPost || version == "" || req.GetBody == nil ||
		resp.StatusCode != http.StatusBadRequest {
		return resp, err
	}
	supported, refused := versionRefusal(resp)
	if !refused || !slices.Contains(supported, version) {
		return resp, nil
	}
	body, err := req.GetBody()
	if err != nil {
		return resp, nil
	}
	_ = resp.Body.Close()
	again := req.Clone(req.Context())
	again.Body = body
	return t.base.RoundTrip(again)
}

// versionRefusal reports whether resp carries the JSON-RPC error -32022
// (unsupported protocol version) and the versions it lists. It reads at most
// maxVersionErrorBody bytes of the body and leaves resp.Body as it was for
// the next reader.
func versionRefusal(resp *http.Response) (supported []string, refused bool) {
	if mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); mt != "application/json" {
		return nil, false
	}
	head, err := io.ReadAll(io.LimitReader(resp.Body, maxVersionErrorBody+1))
	rest := resp.Body
	resp.Body = readCloser{io.MultiReader(bytes.NewReader(head), rest), rest}
	if err != nil || len(head) > maxVersionErrorBody {
		return nil, false
	}
	var msg struct {
		Error *struct {
			Code int `json:"code"`
			Data struct {
				Supported []string `json:"supported"`
			} `json:"data"`
		} `json:"error"`
	}
	if json.Unmarshal(head, &msg) != nil || msg.Error == nil || msg.Error.Code != mcp.UNSUPPORTED_PROTOCOL_VERSION {
		return nil, false
	}
	return msg.Error.Data.Supported, true
}

// readCloser reads from r and closes c.
type readCloser struct {
	io.Reader
	c io.Closer
}

func (r readCloser) Close() error { return r.c.Close() }
