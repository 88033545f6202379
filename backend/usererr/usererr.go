// Package usererr carries the errors a person reads. Each has a code the
// UI looks up in its catalogue (errors.<code> in frontend/src/lib/i18n),
// named parameters the translation fills in, and an English message for
// logs, the command line and as the fallback. Codes are constants of this
// package, built and looked up, never parsed out of a message.
package usererr

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Code names one kind of error; its English template is in the registry
// (codes.go) and its translations in the UI's catalogues.
type Code string

// Params are the named values a message is filled in with. A value is a
// string, an integer or a time.Duration (the UI formats numbers and
// durations for the user's locale). Never put a secret in one: params
// reach the UI and the logs as they are.
type Params map[string]any

// Error is an error with a code and parameters, and optionally the error
// that caused it (Unwrap).
type Error struct {
	Code   Code
	Params Params
	Cause  error
}

// New returns an error with code and params.
func New(code Code, params Params) *Error { return &Error{Code: code, Params: params} }

// Wrap returns an error with code and params caused by cause: errors.Is
// and errors.As see cause through it.
func Wrap(cause error, code Code, params Params) *Error {
	return &Error{Code: code, Params: params, Cause: cause}
}

// Error returns the English message: the code's template filled in.
func (e *Error) Error() string { return English(e.Code, e.Params) }

// Unwrap returns the cause, or nil.
func (e *Error) Unwrap() error { return e.Cause }

// UserError returns e's code and params (Coded).
func (e *Error) UserError() (Code, Params) { return e.Code, e.Params }

// Coded is an error that names a code and params of this package. *Error
// is one; other packages' error types (mcpconfig.Error) implement it to
// keep fields of their own.
type Coded interface {
	error
	UserError() (Code, Params)
}

// Fielded is an error about one field of a form, which the UI marks.
type Fielded interface {
	error
	UserField() string
}

// Find returns the first Coded error in err's chain.
func Find(err error) (Coded, bool) {
	var c Coded
	if err == nil || !errors.As(err, &c) {
		return nil, false
	}
	return c, true
}

// Payload is what the UI receives for a failed call: the code and params
// of the first coded error in the chain (none when there is none) and the
// whole English message.
type Payload struct {
	Code    Code           `json:"code,omitempty"`
	Params  map[string]any `json:"params,omitempty"`
	Message string         `json:"message"`
	// Field is the form field the error is about (Fielded), if any.
	Field string `json:"field,omitempty"`
}

// Format shapes err for the UI (main.go's ErrorFormatter). Wails' runtime
// rejects a call with new Error(value), which keeps a string and turns an
// object into "[object Object]" (runtime/desktop/calls.js, v2.16), so a
// Payload with a code or a field travels as its JSON text, which the UI
// decodes (frontend/src/lib/api/call.ts); an error without either is its
// plain English message.
func Format(err error) any {
	p := PayloadOf(err)
	if p.Code == "" && p.Field == "" {
		return p.Message
	}
	b, jerr := json.Marshal(p)
	if jerr != nil {
		return p.Message
	}
	return string(b)
}

// PayloadOf returns the Payload of err.
func PayloadOf(err error) Payload {
	if err == nil {
		return Payload{}
	}
	p := Payload{Message: err.Error()}
	if c, ok := Find(err); ok {
		code, params := c.UserError()
		if code != "" {
			p.Code, p.Params = code, JSONParams(params)
		}
	}
	var f Fielded
	if errors.As(err, &f) {
		p.Field = f.UserField()
	}
	return p
}

// JSONParams returns params as the UI receives them: strings and numbers
// as they are, a duration as {"ms": milliseconds}.
func JSONParams(params Params) map[string]any {
	if len(params) == 0 {
		return nil
	}
	out := make(map[string]any, len(params))
	for k, v := range params {
		switch v := v.(type) {
		case time.Duration:
			out[k] = map[string]float64{"ms": float64(v) / float64(time.Millisecond)}
		case string, int, int64, int32, uint, uint32, uint64, float64:
			out[k] = v
		default:
			out[k] = fmt.Sprint(v)
		}
	}
	return out
}

// English fills in code's English template with params; an unknown code
// gives the code itself, followed by the params.
func English(code Code, params Params) string {
	tmpl, ok := registry[code]
	if !ok {
		return string(code) + fmt.Sprint(map[string]any(params))
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		b.WriteString(tmpl[:i])
		b.WriteString(englishValue(params[tmpl[i+1:i+j]]))
		tmpl = tmpl[i+j+1:]
	}
}

// englishValue writes one param in English.
func englishValue(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case time.Duration:
		return EnglishDuration(v)
	default:
		return fmt.Sprint(v)
	}
}

// EnglishDuration writes d as the UI's English does: "250 ms", "9.5 s",
// "2 min 5 s", "1 h 30 min".
func EnglishDuration(d time.Duration) string {
	switch {
	case d < time.Second:
		return strconv.FormatInt(d.Milliseconds(), 10) + " ms"
	case d < time.Minute:
		s := strconv.FormatFloat(d.Round(100*time.Millisecond).Seconds(), 'f', -1, 64)
		return s + " s"
	case d < time.Hour:
		m, s := int(d/time.Minute), int((d%time.Minute)/time.Second)
		if s == 0 {
			return fmt.Sprintf("%d min", m)
		}
		return fmt.Sprintf("%d min %d s", m, s)
	default:
		h, m := int(d/time.Hour), int((d%time.Hour)/time.Minute)
		if m == 0 {
			return fmt.Sprintf("%d h", h)
		}
		return fmt.Sprintf("%d h %d min", h, m)
	}
}

// Placeholders returns the names of the placeholders of code's English
// template, in order.
func Placeholders(code Code) []string {
	return placeholders(registry[code])
}

func placeholders(tmpl string) []string {
	var out []string
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			return out
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			return out
		}
		out = append(out, tmpl[i+1:i+j])
		tmpl = tmpl[i+j+1:]
	}
}
