package llmtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// Standalone servers run outside a test: for the fakellm command that the
// end-to-end tests, the benchmarks and the window check start next to the
// real app. They serve the same byte-accurate streams as NewOpenAI and
// NewOllama, plus control endpoints under /_:
//
//	GET  /_requests       the chat requests received, as JSON (see RecordedRequest)
//	GET  /_requests?all=1 every request (chat, models, …)
//	POST /_script         queue more turns (a JSON script, see ParseScript)
//	GET  /_health         200 "ok"

// Options configure a standalone server.
type Options struct {
	// Addr is where to listen; default "127.0.0.1:0".
	Addr string
	// Ollama serves the Ollama API instead of the OpenAI one.
	Ollama bool
	// Logf receives what a test would get as an error (an unscripted
	// request, a failed Check); nil discards it.
	Logf func(format string, args ...any)
	// LogRequests logs each request (method, path, status) through Logf.
	LogRequests bool
}

// Start starts a standalone fake OpenAI-compatible server on a free port of
// 127.0.0.1, for use outside tests. logf receives what a test would get as
// an error (nil discards it). Close it when done.
func Start(logf func(format string, args ...any)) *Server {
	s, err := StartWith(Options{Logf: logf})
	if err != nil {
		panic(err)
	}
	return s
}

// StartWith starts a standalone fake server as the options say.
func StartWith(o Options) (*Server, error) {
	addr := o.Addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("llmtest: listen on %s: %w", addr, err)
	}
	f := flavorOpenAI
	if o.Ollama {
		f = flavorOllama
	}
	s := &Server{t: logTB{logf: o.Logf}, flavor: f, version: "0.34.2"}
	var h http.Handler = http.HandlerFunc(s.standalone)
	if o.LogRequests && o.Logf != nil {
		h = logRequests(h, o.Logf)
	}
	if f == flavorOpenAI {
		s.models = []string{"gpt-4o", "gpt-4o-mini"}
	} else {
		s.models = []string{"llama3.2:latest", "qwen3:8b"}
	}
	s.Server = httptest.NewUnstartedServer(h)
	s.Server.Listener.Close()
	s.Server.Listener = l
	s.Server.Start()
	return s, nil
}

// standalone answers the control endpoints and passes the rest on.
func (s *Server) standalone(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/_health":
		fmt.Fprintln(w, "ok")
	case r.URL.Path == "/_requests" && r.Method == http.MethodGet:
		reqs := s.Requests()
		if r.URL.Query().Get("all") != "" {
			reqs = s.AllRequests()
		}
		out := make([]RecordedRequest, 0, len(reqs))
		for _, q := range reqs {
			out = append(out, q.Recorded())
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(out)
	case r.URL.Path == "/_script" && r.Method == http.MethodPost:
		var buf bytes.Buffer
		buf.ReadFrom(r.Body)
		turns, err := ParseScript(buf.Bytes())
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.Script(turns...)
		fmt.Fprintf(w, "%d turns queued\n", len(turns))
	default:
		s.handle(w, r)
	}
}

// logRequests logs each request when its response has been written.
func logRequests(next http.Handler, logf func(string, ...any)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		next.ServeHTTP(sw, r)
		logf("%s %s -> %d (%s)", r.Method, r.URL.RequestURI(), sw.status, time.Since(start).Round(time.Millisecond))
	})
}

// statusWriter remembers the status; it keeps Flush and Hijack working,
// which the streams need.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	w.status = code
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return http.NewResponseController(w.ResponseWriter).Hijack()
}

// RecordedRequest is a Request as /_requests lists it.
type RecordedRequest struct {
	Method string              `json:"method"`
	Path   string              `json:"path"`
	Header map[string][]string `json:"headers"`
	// Body is the body as sent when it is JSON, else null (see Raw).
	Body json.RawMessage `json:"body"`
	// Raw is the body as text when it is not JSON.
	Raw string `json:"raw,omitempty"`
}

// Recorded returns the request as /_requests lists it.
func (r Request) Recorded() RecordedRequest {
	out := RecordedRequest{Method: r.Method, Path: r.Path, Header: r.Header}
	if json.Valid(r.Raw) {
		out.Body = json.RawMessage(r.Raw)
	} else {
		out.Body = json.RawMessage("null")
		out.Raw = string(r.Raw)
	}
	return out
}

// logTB stands in for a testing.TB in a standalone server: what would fail a
// test is logged instead.
type logTB struct {
	testing.TB // nil: only the methods below are called
	logf       func(format string, args ...any)
}

func (l logTB) Helper()        {}
func (l logTB) Cleanup(func()) {}
func (l logTB) Errorf(format string, args ...any) {
	if l.logf != nil {
		l.logf(format, args...)
	}
}
func (l logTB) Fatalf(format string, args ...any) {
	l.Errorf(format, args...)
	panic(fmt.Sprintf(format, args...))
}

// ---- scripts -------------------------------------------------------------------

// ScriptTurn is one turn of a JSON script; it mirrors Turn.
//
//	[
//	  {"toolCalls": [{"name": "everything__echo", "arguments": {"message": "hi"}, "fragments": 4}],
//	   "interleave": true},
//	  {"text": ["# Title\n", "Some ", "text."], "delayMs": 5},
//	  {"textRepeat": {"chunk": "tok ", "count": 10000}},
//	  {"status": 429, "headers": {"Retry-After": "1"}}
//	]
type ScriptTurn struct {
	Model          string   `json:"model,omitempty"`
	ForModel       string   `json:"forModel,omitempty"`
	Reasoning      []string `json:"reasoning,omitempty"`
	ReasoningField string   `json:"reasoningField,omitempty"`
	Text           []string `json:"text,omitempty"`
	// TextRepeat appends Count copies of Chunk to Text (long streams
	// without a long script).
	TextRepeat *struct {
		Chunk string `json:"chunk"`
		Count int    `json:"count"`
	} `json:"textRepeat,omitempty"`
	ToolCalls    []ScriptToolCall `json:"toolCalls,omitempty"`
	Interleave   bool             `json:"interleave,omitempty"`
	NoIndex      bool             `json:"noIndex,omitempty"`
	FinishReason string           `json:"finishReason,omitempty"`
	Usage        *struct {
		Prompt     int `json:"prompt"`
		Completion int `json:"completion"`
		Cached     int `json:"cached"`
		Reasoning  int `json:"reasoning"`
	} `json:"usage,omitempty"`
	KeepAlives int `json:"keepAlives,omitempty"`
	// DelayMs is slept before every content chunk after the first
	// (fractions allowed).
	DelayMs         float64           `json:"delayMs,omitempty"`
	CutAfter        int               `json:"cutAfter,omitempty"`
	StreamError     string            `json:"streamError,omitempty"`
	StreamErrorCode any               `json:"streamErrorCode,omitempty"`
	Status          int               `json:"status,omitempty"`
	Headers         map[string]string `json:"headers,omitempty"`
	Body            string            `json:"body,omitempty"`
	Events          []string          `json:"events,omitempty"`
}

// ScriptToolCall is a tool call of a ScriptTurn. Arguments is a JSON object
// or a string holding the JSON text as sent.
type ScriptToolCall struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Fragments int             `json:"fragments,omitempty"`
}

// ParseScript reads a JSON script: a list of turns (or one turn object).
// Unknown fields are an error, so a typo does not pass silently.
func ParseScript(b []byte) ([]Turn, error) {
	trimmed := bytes.TrimSpace(b)
	if len(trimmed) > 0 && trimmed[0] == '{' {
		trimmed = append(append([]byte{'['}, trimmed...), ']')
	}
	dec := json.NewDecoder(bytes.NewReader(trimmed))
	dec.DisallowUnknownFields()
	var in []ScriptTurn
	if err := dec.Decode(&in); err != nil {
		return nil, fmt.Errorf("llmtest: script: %w", err)
	}
	out := make([]Turn, 0, len(in))
	for i, st := range in {
		t, err := st.Turn()
		if err != nil {
			return nil, fmt.Errorf("llmtest: script turn %d: %w", i+1, err)
		}
		out = append(out, t)
	}
	return out, nil
}

// Turn converts a script turn.
func (st ScriptTurn) Turn() (Turn, error) {
	t := Turn{
		Model: st.Model, ForModel: st.ForModel, Reasoning: st.Reasoning, ReasoningField: st.ReasoningField,
		Text: append([]string(nil), st.Text...), Interleave: st.Interleave, NoIndex: st.NoIndex,
		FinishReason: st.FinishReason, KeepAlives: st.KeepAlives,
		Delay:    time.Duration(st.DelayMs * float64(time.Millisecond)),
		CutAfter: st.CutAfter, StreamError: st.StreamError, StreamErrorCode: st.StreamErrorCode,
		Status: st.Status, Headers: st.Headers, Body: st.Body, Events: st.Events,
	}
	if r := st.TextRepeat; r != nil {
		if r.Count < 0 || r.Count > 10_000_000 {
			return Turn{}, fmt.Errorf("textRepeat.count %d out of range", r.Count)
		}
		for i := 0; i < r.Count; i++ {
			t.Text = append(t.Text, r.Chunk)
		}
	}
	if u := st.Usage; u != nil {
		t.Usage = &Usage{Prompt: u.Prompt, Completion: u.Completion, Cached: u.Cached, Reasoning: u.Reasoning}
	}
	for j, c := range st.ToolCalls {
		if c.Name == "" {
			return Turn{}, fmt.Errorf("tool call %d has no name", j+1)
		}
		args := ""
		raw := bytes.TrimSpace(c.Arguments)
		switch {
		case len(raw) == 0 || string(raw) == "null":
		case raw[0] == '"':
			if err := json.Unmarshal(raw, &args); err != nil {
				return Turn{}, fmt.Errorf("tool call %s: arguments: %w", c.Name, err)
			}
		default:
			var buf bytes.Buffer
			if err := json.Compact(&buf, raw); err != nil {
				return Turn{}, fmt.Errorf("tool call %s: arguments: %w", c.Name, err)
			}
			args = buf.String()
		}
		t.ToolCalls = append(t.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Arguments: args, Fragments: c.Fragments})
	}
	if t.Status != 0 && t.Status != http.StatusOK && (t.Status < 100 || t.Status > 599) {
		return Turn{}, fmt.Errorf("status %d is not an HTTP status", t.Status)
	}
	return t, nil
}
