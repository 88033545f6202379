package oauth

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// The steps of a sign-in, in order (the debugger numbers them so).
const (
	StepUnauthorized = "unauthorized"      // the server's 401 and its challenge
	StepResource     = "resource-metadata" // RFC 9728
	StepServer       = "server-metadata"   // RFC 8414 / OpenID discovery
	StepRegister     = "client"            // CIMD, pre-registered or RFC 7591
	StepAuthorize    = "authorize"         // the authorization URL
	StepCallback     = "callback"          // code, state, iss
	StepToken        = "token"             // the code exchange
	StepRequest      = "request"           // the first authenticated request
	StepRefresh      = "refresh"
	StepRevoke       = "revoke"
)

// Event is one thing a sign-in did. Secrets never appear in it: tokens,
// codes, verifiers and client secrets are replaced by "[redacted]".
type Event struct {
	Step string `json:"step"`
	// Status is "ok", "failed" or "info".
	Status string `json:"status"`
	// Title says what happened in a line; Rule, the specification rule
	// the step follows; Detail, what went wrong and what to do.
	Title  string        `json:"title"`
	Rule   string        `json:"rule,omitempty"`
	Detail string        `json:"detail,omitempty"`
	HTTP   *HTTPExchange `json:"http,omitempty"`
}

// HTTPExchange is one request and its response, redacted.
type HTTPExchange struct {
	Method          string            `json:"method"`
	URL             string            `json:"url"`
	RequestHeaders  map[string]string `json:"requestHeaders,omitempty"`
	RequestBody     string            `json:"requestBody,omitempty"`
	Status          int               `json:"status"`
	ResponseHeaders map[string]string `json:"responseHeaders,omitempty"`
	ResponseBody    string            `json:"responseBody,omitempty"`
	Error           string            `json:"error,omitempty"`
}

// Observer receives a sign-in's events as they happen; nil ignores them.
type Observer func(Event)

func (o Observer) emit(e Event) {
	if o != nil {
		o(e)
	}
}

// secretKeys are the parameters whose values never leave this package
// unredacted.
var secretKeys = map[string]bool{
	"access_token": true, "refresh_token": true, "id_token": true, "code": true,
	"code_verifier": true, "client_secret": true, "registration_access_token": true,
	"assertion": true, "client_assertion": true, "token": true,
}

const redacted = "[redacted]"

// redactForm redacts a form-encoded body or query.
func redactForm(s string) string {
	v, err := url.ParseQuery(s)
	if err != nil {
		return redacted
	}
	for k := range v {
		if secretKeys[k] {
			v[k] = []string{redacted}
		}
	}
	return v.Encode()
}

// redactJSON redacts a JSON body; a body that is not JSON is kept only
// when short and free of the secret words.
func redactJSON(b []byte) string {
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		s := string(b)
		if len(s) > 2000 {
			s = s[:2000] + "…"
		}
		for k := range secretKeys {
			if strings.Contains(s, k) {
				return redacted
			}
		}
		return s
	}
	var walk func(any) any
	walk = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if secretKeys[k] {
					x[k] = redacted
				} else {
					x[k] = walk(e)
				}
			}
		case []any:
			for i, e := range x {
				x[i] = walk(e)
			}
		}
		return v
	}
	out, _ := json.MarshalIndent(walk(v), "", "  ")
	return string(out)
}

// redactURL redacts secret query parameters of a URL.
func redactURL(u *url.URL) string {
	c := *u
	c.RawQuery = redactForm(u.RawQuery)
	return c.String()
}

func headerMap(h http.Header, skipAuth bool) map[string]string {
	if len(h) == 0 {
		return nil
	}
	m := map[string]string{}
	for k, v := range h {
		if strings.EqualFold(k, "Authorization") || strings.EqualFold(k, "Cookie") || strings.EqualFold(k, "Set-Cookie") {
			if skipAuth {
				scheme, _, _ := strings.Cut(strings.Join(v, ", "), " ")
				m[k] = scheme + " " + redacted
				continue
			}
		}
		m[k] = strings.Join(v, ", ")
	}
	return m
}

// maxBody bounds what is read of any metadata, registration or token response.
const maxBody = 1 << 20

// do sends req with hc and returns the response with its body read
// (bounded), recording the exchange for the observer's event.
func do(hc *http.Client, req *http.Request) (*http.Response, []byte, *HTTPExchange, error) {
	x := &HTTPExchange{Method: req.Method, URL: redactURL(req.URL), RequestHeaders: headerMap(req.Header, true)}
	if req.GetBody != nil {
		if rc, err := req.GetBody(); err == nil {
			b, _ := io.ReadAll(io.LimitReader(rc, maxBody))
			rc.Close()
			if strings.Contains(req.Header.Get("Content-Type"), "json") {
				x.RequestBody = redactJSON(b)
			} else {
				x.RequestBody = redactForm(string(b))
			}
		}
	}
	resp, err := hc.Do(req)
	if err != nil {
		x.Error = err.Error()
		return nil, nil, x, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err == nil && len(body) > maxBody {
		err = fmt.Errorf("the response is larger than %d bytes", maxBody)
	}
	x.Status = resp.StatusCode
	x.ResponseHeaders = headerMap(resp.Header, true)
	x.ResponseBody = redactJSON(bytes.TrimSpace(body))
	if err != nil {
		x.Error = err.Error()
	}
	return resp, body, x, err
}
