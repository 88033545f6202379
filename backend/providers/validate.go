package providers

import (
	"fmt"
	"net/url"
	"strings"

	"mcpdesk/backend/llm"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

// FieldError says which field of a ProviderInput is wrong. Its message names
// the field in the words of the form.
type FieldError struct {
	Field   string // the JSON name of the field: "name", "type", "baseUrl", …
	Message string
	// Code and Params say it for the UI to word in the user's language;
	// Code is "" for a message it has no words for.
	Code   usererr.Code
	Params usererr.Params
}

// Error returns the message for the user, in English.
func (e *FieldError) Error() string { return e.Message }

// UserError returns e's code and params (usererr.Coded).
func (e *FieldError) UserError() (usererr.Code, usererr.Params) { return e.Code, e.Params }

// UserField returns the field the UI marks (usererr.Fielded).
func (e *FieldError) UserField() string { return e.Field }

func fieldErr(field, format string, a ...any) *FieldError {
	return &FieldError{Field: field, Message: fmt.Sprintf(format, a...)}
}

// with sets the code and params of e.
func (e *FieldError) with(code usererr.Code, params usererr.Params) *FieldError {
	e.Code, e.Params = code, params
	return e
}

// Limits of a ProviderInput.
const (
	maxName    = 100
	maxURL     = 2048
	maxHeaders = 32
)

// Names are checked by their characters, not by a regular expression: a
// bounded repetition such as {0,127} compiles to one instruction per
// repeat, and the two took 78 KB of the heap for as long as the app ran.
const (
	alnum = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	// tchar is what an HTTP header name (an RFC 9110 token) is made of.
	tchar = alnum + "!#$%&'*+.^_`|~-"
)

// isEnvName reports whether s may name an environment variable: letters,
// digits and _, not starting with a digit, at most 128.
func isEnvName(s string) bool {
	return s != "" && len(s) <= 128 && strings.Trim(s, alnum+"_") == "" && (s[0] < '0' || s[0] > '9')
}

// isHTTPToken reports whether s may name an HTTP header: 1 to 128 token
// characters.
func isHTTPToken(s string) bool {
	return s != "" && len(s) <= 128 && strings.Trim(s, tchar) == ""
}

// normalize trims in, fills what its preset implies, checks every field and
// returns the provider to store (without ID, Enabled or timestamps).
func normalize(in ProviderInput) (store.Provider, error) {
	p := store.Provider{
		Name:            strings.TrimSpace(in.Name),
		Type:            strings.TrimSpace(in.Type),
		Preset:          strings.TrimSpace(in.Preset),
		BaseURL:         strings.TrimRight(strings.TrimSpace(in.BaseURL), "/"),
		KeyEnv:          strings.TrimSpace(in.KeyEnv),
		Azure:           in.Azure,
		AzureAPIVersion: strings.TrimSpace(in.AzureAPIVersion),
		Headers:         map[string]string{},
	}
	switch {
	case p.Name == "":
		return p, fieldErr("name", "Name is required").with(usererr.ProviderNameRequired, nil)
	case len(p.Name) > maxName:
		return p, fieldErr("name", "Name is longer than %d characters", maxName).with(usererr.ProviderNameTooLong, usererr.Params{"max": maxName})
	}
	if p.Preset != "" {
		pr, ok := llm.PresetByID(p.Preset)
		if !ok {
			return p, fieldErr("preset", "Preset: unknown preset %q", p.Preset)
		}
		if p.Type == "" {
			p.Type = pr.Type
		}
		if p.Type != pr.Type {
			return p, fieldErr("type", "Type: the %s preset is of type %q, not %q", pr.Name, pr.Type, p.Type)
		}
		if p.BaseURL == "" {
			p.BaseURL = strings.TrimRight(pr.BaseURL, "/")
		}
		p.Azure = p.Azure || pr.Azure
		if in.Headers == nil {
			in.Headers = pr.Headers
		}
	}
	switch p.Type {
	case TypeOpenAI:
	case TypeOllama:
		if p.BaseURL == "" {
			p.BaseURL = DefaultOllamaURL
		}
		if p.Azure {
			return p, fieldErr("azure", "Azure: an Ollama provider cannot use Azure OpenAI")
		}
	case "":
		return p, fieldErr("type", "Type is required: %q or %q", TypeOpenAI, TypeOllama)
	default:
		return p, fieldErr("type", "Type: unknown type %q, want %q or %q", p.Type, TypeOpenAI, TypeOllama)
	}
	if err := checkBaseURL(p.BaseURL); err != nil {
		return p, err
	}
	if p.KeyEnv != "" && !isEnvName(p.KeyEnv) {
		return p, fieldErr("keyEnv", "Key from environment variable: %q is not a variable name (letters, digits and _, not starting with a digit)", p.KeyEnv).with(usererr.ProviderKeyEnvInvalid, usererr.Params{"name": p.KeyEnv})
	}
	if !p.Azure {
		p.AzureAPIVersion = ""
	}
	if len(in.Headers) > maxHeaders {
		return p, fieldErr("headers", "Headers: at most %d", maxHeaders).with(usererr.ProviderTooManyHeaders, usererr.Params{"max": maxHeaders})
	}
	for k, v := range in.Headers {
		name := strings.TrimSpace(k)
		if !isHTTPToken(name) {
			return p, fieldErr("headers", "Headers: %q is not a header name", k).with(usererr.ProviderBadHeaderName, usererr.Params{"name": k})
		}
		if secretHeader(name) {
			return p, fieldErr("headers", "Headers: %q looks like it carries a secret; headers are stored unencrypted, so put the key under API key instead", name).with(usererr.ProviderSecretHeader, usererr.Params{"name": name})
		}
		if strings.ContainsAny(v, "\r\n") {
			return p, fieldErr("headers", "Headers: the value of %q has a line break", name).with(usererr.ProviderHeaderBreak, usererr.Params{"name": name})
		}
		p.Headers[name] = strings.TrimSpace(v)
	}
	return p, nil
}

// checkBaseURL reports a base URL that is not an absolute http(s) URL, or
// that carries credentials, which would end up in the database.
func checkBaseURL(raw string) error {
	if raw == "" {
		return fieldErr("baseUrl", "Base URL is required").with(usererr.ProviderURLRequired, nil)
	}
	if len(raw) > maxURL {
		return fieldErr("baseUrl", "Base URL is longer than %d characters", maxURL).with(usererr.ProviderURLTooLong, usererr.Params{"max": maxURL})
	}
	u, err := url.Parse(raw)
	if err != nil {
		return fieldErr("baseUrl", "Base URL %q does not parse: %v", raw, err).with(usererr.ProviderURLInvalid, usererr.Params{"url": raw})
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fieldErr("baseUrl", "Base URL %q must start with http:// or https://", raw).with(usererr.ProviderURLScheme, usererr.Params{"url": raw})
	}
	if u.Host == "" {
		return fieldErr("baseUrl", "Base URL %q has no host", raw).with(usererr.ProviderURLNoHost, usererr.Params{"url": raw})
	}
	if u.User != nil {
		return fieldErr("baseUrl", "Base URL must not contain a user name or password; put the key under API key instead").with(usererr.ProviderURLUserinfo, nil)
	}
	for k := range u.Query() {
		if secretName(k) {
			return fieldErr("baseUrl", "Base URL must not carry a key in its query (%q); put the key under API key instead", k).with(usererr.ProviderURLQueryKey, usererr.Params{"name": k})
		}
	}
	return nil
}

// secretHeader reports header names that carry credentials.
func secretHeader(name string) bool {
	switch strings.ToLower(name) {
	case "authorization", "proxy-authorization", "cookie":
		return true
	}
	return secretName(name)
}

func secretName(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"key", "token", "secret", "password", "auth"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
