package usererr_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mcpdesk/backend/usererr"
)

func TestErrorKeepsEnglishAndCause(t *testing.T) {
	cause := errors.New("dial tcp: connection refused")
	err := usererr.Wrap(cause, usererr.CallTimeout, usererr.Params{"server": "files", "timeout": 30 * time.Second})
	if got, want := err.Error(), `server "files" did not answer within 30 s (the limit restarts with each progress notification)`; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(err, cause) {
		t.Error("errors.Is does not see the cause")
	}
}

func TestFormatFindsCodeAnywhereInTheChain(t *testing.T) {
	inner := usererr.New(usererr.CallTimeout, usererr.Params{"server": "files", "timeout": 1500 * time.Millisecond})
	err := fmt.Errorf("files › read: %w", inner)
	p := usererr.PayloadOf(err)
	if p.Code != usererr.CallTimeout {
		t.Errorf("code = %q, want %q", p.Code, usererr.CallTimeout)
	}
	if p.Message != err.Error() {
		t.Errorf("message = %q, want the whole English text %q", p.Message, err.Error())
	}
	if p.Params["server"] != "files" {
		t.Errorf("params[server] = %v", p.Params["server"])
	}
	b, _ := json.Marshal(p)
	if !strings.Contains(string(b), `"timeout":{"ms":1500}`) {
		t.Errorf("a duration param is not {ms}: %s", b)
	}

	wire, _ := usererr.Format(err).(string)
	var back usererr.Payload
	if json.Unmarshal([]byte(wire), &back) != nil || back.Code != usererr.CallTimeout || back.Message != err.Error() {
		t.Errorf("Format sends %q, want the payload's JSON text", wire)
	}
	if got := usererr.Format(errors.New("something else")); got != "something else" {
		t.Errorf("an uncoded error is sent as %#v, want its message", got)
	}
	plain := usererr.PayloadOf(errors.New("something else"))
	if plain.Code != "" || plain.Params != nil || plain.Message != "something else" {
		t.Errorf("an uncoded error gives %+v, want the message alone", plain)
	}
	b, _ = json.Marshal(plain)
	if string(b) != `{"message":"something else"}` {
		t.Errorf("an uncoded error marshals as %s", b)
	}
}

func TestEnglishDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{
		3 * time.Millisecond:       "3 ms",
		9500 * time.Millisecond:    "9.5 s",
		125 * time.Second:          "2 min 5 s",
		2 * time.Minute:            "2 min",
		90 * time.Minute:           "1 h 30 min",
		30 * time.Second:           "30 s",
		24*time.Hour + time.Minute: "24 h 1 min",
	} {
		if got := usererr.EnglishDuration(d); got != want {
			t.Errorf("EnglishDuration(%v) = %q, want %q", d, got, want)
		}
	}
}

// TestEveryCodeIsInEveryCatalogue checks that each code has errors.<code>
// in en.json and zh-CN.json, with exactly the placeholders Go fills in,
// and that the catalogues have no error entry Go never sends.
func TestEveryCodeIsInEveryCatalogue(t *testing.T) {
	for _, file := range []string{"en.json", "zh-CN.json"} {
		t.Run(file, func(t *testing.T) {
			entries := catalogueErrors(t, filepath.Join("..", "..", "frontend", "src", "lib", "i18n", file))
			for _, code := range usererr.Codes() {
				text, ok := entries[string(code)]
				if !ok {
					t.Errorf("errors.%s is missing", code)
					continue
				}
				got, err := icuArgs(text)
				if err != nil {
					t.Errorf("errors.%s: %v", code, err)
					continue
				}
				want := slices.Clone(usererr.Placeholders(code))
				slices.Sort(want)
				want = slices.Compact(want)
				if !slices.Equal(got, want) {
					t.Errorf("errors.%s has placeholders %v, Go fills in %v", code, got, want)
				}
			}
			codes := usererr.Codes()
			for key := range entries {
				if !slices.Contains(codes, usererr.Code(key)) {
					t.Errorf("errors.%s is not a code Go sends", key)
				}
			}
		})
	}
}

// catalogueErrors returns the entries under "errors" in a catalogue, by
// their dotted key below it.
func catalogueErrors(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch v := v.(type) {
		case string:
			out[prefix] = v
		case map[string]any:
			for k, inner := range v {
				if prefix != "" {
					k = prefix + "." + k
				}
				walk(k, inner)
			}
		default:
			t.Errorf("%s: errors.%s is neither text nor an object", path, prefix)
		}
	}
	walk("", doc["errors"])
	if len(out) == 0 {
		t.Fatalf("%s has no errors section", path)
	}
	return out
}

// icuArgs returns the sorted names of the arguments of an ICU message, at
// any depth (inside select and plural cases too).
func icuArgs(s string) ([]string, error) {
	names := map[string]bool{}
	r := []rune(s)
	var message func(i int, nested bool) (int, error)
	var argument func(i int) (int, error)
	message = func(i int, nested bool) (int, error) {
		for i < len(r) {
			switch r[i] {
			case '\'':
				// '' is a quote; '{…' quotes up to the next quote.
				if i+1 < len(r) && r[i+1] == '\'' {
					i += 2
					continue
				}
				if i+1 < len(r) && (r[i+1] == '{' || r[i+1] == '}') {
					j := strings.IndexRune(string(r[i+1:]), '\'')
					if j < 0 {
						return 0, fmt.Errorf("unclosed quote in %q", s)
					}
					i += len([]rune(string(r[i+1:])[:j])) + 2
					continue
				}
				i++
			case '{':
				var err error
				if i, err = argument(i + 1); err != nil {
					return 0, err
				}
			case '}':
				if !nested {
					return 0, fmt.Errorf("unbalanced } in %q", s)
				}
				return i + 1, nil
			default:
				i++
			}
		}
		if nested {
			return 0, fmt.Errorf("unclosed { in %q", s)
		}
		return i, nil
	}
	argument = func(i int) (int, error) {
		start := i
		for i < len(r) && r[i] != ',' && r[i] != '}' {
			i++
		}
		if i >= len(r) {
			return 0, fmt.Errorf("unclosed argument in %q", s)
		}
		name := strings.TrimSpace(string(r[start:i]))
		if name == "" {
			return 0, fmt.Errorf("empty argument in %q", s)
		}
		names[name] = true
		if r[i] == '}' {
			return i + 1, nil
		}
		i++ // ','
		start = i
		for i < len(r) && r[i] != ',' && r[i] != '}' {
			i++
		}
		if i >= len(r) {
			return 0, fmt.Errorf("unclosed argument in %q", s)
		}
		kind := strings.TrimSpace(string(r[start:i]))
		if r[i] == '}' {
			return i + 1, nil
		}
		if kind != "select" && kind != "plural" && kind != "selectordinal" {
			for i < len(r) && r[i] != '}' {
				i++
			}
			return i + 1, nil
		}
		i++ // ','
		for {
			for i < len(r) && r[i] != '{' && r[i] != '}' {
				i++ // the case's key
			}
			if i >= len(r) {
				return 0, fmt.Errorf("unclosed %s in %q", kind, s)
			}
			if r[i] == '}' {
				return i + 1, nil
			}
			var err error
			if i, err = message(i+1, true); err != nil {
				return 0, err
			}
		}
	}
	if _, err := message(0, false); err != nil {
		return nil, err
	}
	out := make([]string, 0, len(names))
	for n := range names {
		out = append(out, n)
	}
	slices.Sort(out)
	return out, nil
}
