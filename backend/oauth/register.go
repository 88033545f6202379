package oauth

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// identity picks how MCP Desk is known to the authorization server, in the
// order the MCP authorization specification gives: a client the user
// registered beforehand, a client ID metadata document when the server
// takes one, a client registered dynamically earlier with this issuer,
// dynamic registration (RFC 7591).
func (c *Client) identity(ctx context.Context, f *flowEnv, d *Discovery, o SignIn, redirectURI string, scopes []string) (*Registration, error) {
	issuer := d.Server.Issuer
	if o.Client != nil && o.Client.ClientID != "" {
		r := *o.Client
		r.Issuer, r.Kind = issuer, "preregistered"
		if r.AuthMethod == "" {
			r.AuthMethod = pickAuthMethod(d.Server, r.ClientSecret != "")
		}
		f.obs.emit(Event{Step: StepRegister, Status: "ok", Title: "Pre-registered client " + r.ClientID, Rule: "MCP authorization §Client Registration: pre-registered client information first"})
		return &r, nil
	}
	if c.MetadataURL != "" && d.Server.ClientIDMetadataDocumentSupported {
		f.obs.emit(Event{Step: StepRegister, Status: "ok", Title: "Client ID metadata document " + c.MetadataURL, Rule: "MCP authorization §Client ID Metadata Documents: the client_id is the document's HTTPS URL"})
		return &Registration{Issuer: issuer, ClientID: c.MetadataURL, AuthMethod: AuthNone, Kind: "cimd"}, nil
	}
	if r, err := c.Store.Registration(issuer); err != nil {
		return nil, fail(StepRegister, err, "cannot read the client registered with %s from the keychain", issuer)
	} else if r != nil && r.Issuer == issuer && r.ClientID != "" && registeredFor(r, redirectURI) {
		f.obs.emit(Event{Step: StepRegister, Status: "ok", Title: "Client registered earlier: " + r.ClientID, Rule: "RFC 7591: a registered client is reused with the same authorization server"})
		return r, nil
	}
	if err := f.before(ctx, StepRegister); err != nil {
		return nil, err
	}
	if d.Server.RegistrationEndpoint == "" {
		msg := "the authorization server offers no dynamic client registration: enter a client ID registered with " + issuer + " in the server's settings"
		f.obs.emit(Event{Step: StepRegister, Status: "failed", Title: "No way to register", Rule: "MCP authorization §Client Registration", Detail: msg})
		return nil, fail(StepRegister, nil, "%s", msg)
	}
	method := pickAuthMethod(d.Server, false)
	body := map[string]any{
		"client_name":                c.name(),
		"redirect_uris":              []string{redirectURI},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
		"application_type":           "native",
	}
	if len(scopes) > 0 {
		body["scope"] = scopeString(scopes)
	}
	b, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.Server.RegistrationEndpoint, bytes.NewReader(b))
	if err != nil {
		return nil, fail(StepRegister, err, "cannot register with %s", d.Server.RegistrationEndpoint)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, rb, x, err := do(f.hc, req)
	ev := Event{Step: StepRegister, Title: "Dynamic client registration", Rule: "RFC 7591 §3: client registration request, application_type native", HTTP: x}
	if err != nil || resp.StatusCode/100 != 2 {
		ev.Status = "failed"
		if err == nil {
			err = fmt.Errorf("%s", oauthErrorText(resp.StatusCode, rb))
		}
		ev.Detail = err.Error()
		f.obs.emit(ev)
		return nil, fail(StepRegister, err, "the authorization server refused to register MCP Desk")
	}
	var got struct {
		ClientID     string   `json:"client_id"`
		ClientSecret string   `json:"client_secret"`
		AuthMethod   string   `json:"token_endpoint_auth_method"`
		RedirectURIs []string `json:"redirect_uris"`
	}
	if err := json.Unmarshal(rb, &got); err != nil || got.ClientID == "" {
		ev.Status, ev.Detail = "failed", "the registration response has no client_id"
		f.obs.emit(ev)
		return nil, fail(StepRegister, err, "the authorization server's registration response has no client_id")
	}
	r := &Registration{Issuer: issuer, ClientID: got.ClientID, ClientSecret: got.ClientSecret, AuthMethod: got.AuthMethod, RedirectURIs: got.RedirectURIs, Kind: "dynamic"}
	if r.AuthMethod == "" {
		r.AuthMethod = method
		if method == AuthNone && r.ClientSecret != "" {
			r.AuthMethod = AuthBasic // RFC 7591 §2: the default
		}
	}
	if len(r.RedirectURIs) == 0 {
		r.RedirectURIs = []string{redirectURI}
	}
	ev.Status, ev.Title = "ok", "Registered as "+r.ClientID
	f.obs.emit(ev)
	if err := c.Store.SaveRegistration(r); err != nil {
		return nil, fail(StepRegister, err, "cannot keep the registered client in the keychain")
	}
	return r, nil
}

// registeredFor reports whether a stored registration can redirect to
// uri: loopback redirects match whatever the port (RFC 8252 §7.3).
func registeredFor(r *Registration, uri string) bool {
	if len(r.RedirectURIs) == 0 {
		return true
	}
	for _, u := range r.RedirectURIs {
		if u == uri || stripLoopbackPort(u) == stripLoopbackPort(uri) {
			return true
		}
	}
	return false
}

func stripLoopbackPort(u string) string {
	for _, h := range []string{"http://127.0.0.1:", "http://localhost:", "http://[::1]:"} {
		if rest, ok := strings.CutPrefix(u, h); ok {
			if i := strings.IndexByte(rest, '/'); i >= 0 {
				return h + rest[i:]
			}
			return h
		}
	}
	return u
}

// pickAuthMethod chooses the token-endpoint authentication from what the
// server supports: a public client (no secret) uses none; with a secret,
// basic, else post, as the metadata lists them (RFC 8414 §2: absent
// means client_secret_basic).
func pickAuthMethod(m ServerMetadata, haveSecret bool) string {
	list := m.TokenEndpointAuthMethodsSupported
	if !haveSecret {
		if len(list) == 0 || supports(list, AuthNone) {
			return AuthNone
		}
	}
	if len(list) == 0 || supports(list, AuthBasic) {
		return AuthBasic
	}
	if supports(list, AuthPost) {
		return AuthPost
	}
	if supports(list, AuthNone) {
		return AuthNone
	}
	return list[0]
}

// oauthErrorText reads an OAuth error response (RFC 6749 §5.2).
func oauthErrorText(status int, body []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(body, &e) == nil && e.Error != "" {
		if e.Description != "" {
			return fmt.Sprintf("%s (%d): %s", e.Error, status, e.Description)
		}
		return fmt.Sprintf("%s (%d)", e.Error, status)
	}
	return fmt.Sprintf("HTTP %d", status)
}
