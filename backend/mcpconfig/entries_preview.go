package mcpconfig

import (
	"slices"
	"strings"
	"unicode/utf8"

	"mcpdesk/backend/usererr"
)

// Problem is one thing wrong with an entry of a file to import, as the
// preview shows it: where it is and what is wrong, in plain words. Its
// texts are safe to show: secrets of the file are hidden and control,
// invisible and bidirectional characters made visible.
type Problem struct {
	// Line and Col are the 1-based position in the file (Col counts
	// characters); 0 when not known.
	Line int `json:"line"`
	Col  int `json:"col"`
	// Field is the field the problem is in ("" when it is about the entry
	// as a whole).
	Field string `json:"field"`
	// Message says what is wrong and, where it helps, how to fix it, in
	// English. Code and Params say it for the UI to word in the user's
	// language (errors.<code>); Code is "" when it has no words for it.
	Message string         `json:"message"`
	Code    string         `json:"code,omitempty"`
	Params  map[string]any `json:"params,omitempty" ts_type:"Record<string, unknown>"`
}

// maxProblemText bounds the text of a problem: a message quotes values
// from the file, which may be long.
const maxProblemText = 300

// PreviewEntries returns the preview of every entry of a file to import,
// in file order, judged against the servers already configured: an entry
// that can be imported as PreviewImport shows it (its warnings computed
// for it alone), one with problems with only its id, its position and its
// problems. The secrets of every entry, good or bad, are hidden wherever
// they appear, problem messages included.
func PreviewEntries(existing []Server, entries []Entry) []ServerPreview {
	all := slices.Clone(existing)
	for _, e := range entries {
		all = append(all, e.Server)
	}
	h := newHider(all)
	out := make([]ServerPreview, 0, len(entries))
	for _, e := range entries {
		var v ServerPreview
		if e.Valid() {
			s := e.Server
			var old *Server
			if i := slices.IndexFunc(existing, func(x Server) bool { return x.ID == s.ID }); i >= 0 {
				old = &existing[i]
			}
			v = preview(s, old, h)
		} else {
			v = broken(e, h)
		}
		v.Line, v.Col = e.Line, e.Col
		out = append(out, v)
	}
	return out
}

// broken returns the preview of an entry that cannot be imported: its id
// and its problems, nothing it would run.
func broken(e Entry, h *hider) ServerPreview {
	p := &previewer{srv: e.Server, hider: h}
	v := ServerPreview{
		ID:        safeText(p, e.Server.ID),
		Transport: Stdio,
		Enabled:   true,
		Changes:   []Change{},
		Command:   Shown{Reads: []string{}},
		Args:      []Shown{},
		Cwd:       Shown{Reads: []string{}},
		URL:       Shown{Reads: []string{}},
		Env:       []Pair{},
		Headers:   []Pair{},
		Roots:     []Shown{},
		Reads:     []string{},
		Inputs:    []string{},
		Warnings:  []Warning{},
		Problems:  make([]Problem, 0, len(e.Problems)),
	}
	if t := e.Server.Effective(); t == HTTP || t == SSE {
		v.Transport = t
	}
	for _, pr := range e.Problems {
		v.Problems = append(v.Problems, Problem{Line: pr.Line, Col: pr.Col, Field: safeText(p, pr.Field), Message: safeText(p, pr.Msg),
			Code: string(pr.Code), Params: safeParams(p, pr.Params)})
	}
	return v
}

// safeParams returns the params of a problem for the UI, each text made
// safe to show as safeText makes the message.
func safeParams(p *previewer, params usererr.Params) map[string]any {
	out := usererr.JSONParams(params)
	for k, v := range out {
		if s, ok := v.(string); ok {
			out[k] = safeText(p, s)
		}
	}
	return out
}

// safeText returns a text of the file made safe to show: secrets hidden,
// hidden characters made visible, and cut to maxProblemText characters.
// It is cut after the secrets are hidden: cutting first could leave the
// start of a secret that no longer matches whole.
func safeText(p *previewer, t string) string {
	t, _, _ = p.hide(strings.ToValidUTF8(t, "\uFFFD"))
	t, _ = Visible(t)
	t, _, _ = p.hide(t)
	if utf8.RuneCountInString(t) > maxProblemText {
		t = string([]rune(t)[:maxProblemText]) + "…"
	}
	return t
}
