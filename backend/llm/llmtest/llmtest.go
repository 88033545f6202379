// Package llmtest provides scripted fake LLM servers for tests: an
// OpenAI-compatible server that streams byte-accurate Server-Sent Events and
// an Ollama server that streams NDJSON, both on httptest.
//
// A test queues Turns (one per expected chat request) and later inspects the
// Requests the server received:
//
//	srv := llmtest.NewOpenAI(t)
//	srv.Script(
//		llmtest.ToolTurn(llmtest.Call("get_weather", `{"city":"Paris"}`)),
//		llmtest.TextTurn("It is ", "sunny."),
//	)
//	client := llm.NewOpenAI(llm.Config{BaseURL: srv.BaseURL(), APIKey: "sk-test"})
//	... run the chat ...
//	second := srv.Requests()[1] // holds the tool result message
//
// The OpenAI stream follows what api.openai.com sends: a role chunk first,
// "usage":null on every chunk when stream_options.include_usage is set,
// tool-call id/name then argument fragments by index, finish_reason, a final
// usage chunk with "choices":[], and "data: [DONE]". Turns can also inject
// keep-alive comments, delays, mid-stream error events, HTTP errors with
// headers, and a connection cut after N chunks.
package llmtest

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

// CutImmediately as Turn.CutAfter closes the connection right after the
// response headers (and the role chunk, for OpenAI).
const CutImmediately = -1

// Turn is one scripted response to a chat request.
type Turn struct {
	// Model is reported in the chunks; default: the requested model.
	Model string
	// ForModel, when set, serves the turn only to a request for that
	// model: each request takes the first queued turn that is for its model
	// or for any. Conversations with different models running at once (one
	// message to several models) then get their own turns whatever order
	// their requests arrive in.
	ForModel string
	// Reasoning chunks stream first (OpenAI "reasoning_content", or the
	// field named by ReasoningField; Ollama "thinking").
	Reasoning []string
	// ReasoningField overrides the OpenAI delta field used for Reasoning,
	// e.g. "reasoning" (OpenRouter). Default "reasoning_content".
	ReasoningField string
	// Text chunks stream after the reasoning.
	Text []string
	// ToolCalls stream after the text.
	ToolCalls []ToolCall
	// Interleave sends all tool-call headers first and then the argument
	// fragments of the calls in turn (OpenAI only).
	Interleave bool
	// NoIndex leaves "index" out of OpenAI tool-call fragments (some
	// providers do).
	NoIndex bool
	// FinishReason defaults to "tool_calls" when there are tool calls,
	// else "stop".
	FinishReason string
	// Usage is reported at the end; nil means a computed estimate. OpenAI
	// sends it only when the request set stream_options.include_usage.
	Usage *Usage

	// KeepAlives is the number of ": keep-alive" comment lines (OpenAI) or
	// blank lines (Ollama) sent before the first content chunk.
	KeepAlives int
	// Delay is slept (until the client goes away) before every content
	// chunk after the first one.
	Delay time.Duration
	// CutAfter hijacks and closes the connection after this many content
	// chunks (text, reasoning, tool fragments); 0 never cuts, and
	// CutImmediately cuts before the first.
	CutAfter int
	// StreamError, when set, is sent as an error event after the content
	// chunks instead of the normal ending (OpenAI: data: {"error":{…}};
	// Ollama: {"error":"…"}).
	StreamError string
	// StreamErrorCode is the "code" of an OpenAI StreamError (string or
	// number), nil for none.
	StreamErrorCode any

	// Status, when not 0 or 200, makes the turn an HTTP error: Status,
	// Headers and Body (a default error body when empty) are sent instead
	// of a stream.
	Status int
	// Headers are added to the response (errors and streams alike).
	Headers map[string]string
	// Body is the raw error body; with Status 0/200 it replaces the whole
	// stream body verbatim (for hand-written SSE).
	Body string
	// Events, when set, replace the generated chunks: each is sent as
	// "data: <event>\n\n" (OpenAI) or "<event>\n" (Ollama) and the stream
	// ends with "data: [DONE]" (OpenAI).
	Events []string

	// Check, when set, is called with the request; an error fails the test
	// and the request gets a 400 with the error text.
	Check func(Request) error
}

// ToolCall is a scripted tool call.
type ToolCall struct {
	// ID defaults to "call_<turn>_<n>" for OpenAI; for Ollama an empty ID
	// is left out (as older Ollama versions do).
	ID   string
	Name string
	// Arguments is the JSON text of the arguments (an object for Ollama).
	Arguments string
	// Fragments is how many pieces the OpenAI stream splits Arguments into
	// (default 3).
	Fragments int
}

// Usage is a scripted token count.
type Usage struct {
	Prompt, Completion, Cached, Reasoning int
}

// TextTurn replies with the given text chunks.
func TextTurn(chunks ...string) Turn { return Turn{Text: chunks} }

// ToolTurn asks for the given tool calls.
func ToolTurn(calls ...ToolCall) Turn { return Turn{ToolCalls: calls} }

// Call is a tool call with the given name and JSON arguments.
func Call(name, args string) ToolCall { return ToolCall{Name: name, Arguments: args} }

// ErrorTurn answers with an HTTP error status and body.
func ErrorTurn(status int, body string) Turn { return Turn{Status: status, Body: body} }

// OpenAIErrorBody is an OpenAI-style error body:
// {"error":{"message":…,"type":…,"param":null,"code":…}}. An empty code is
// sent as null.
func OpenAIErrorBody(message, typ, code string) string {
	var c any
	if code != "" {
		c = code
	}
	b, _ := json.Marshal(map[string]any{"error": map[string]any{
		"message": message, "type": typ, "param": nil, "code": c,
	}})
	return string(b)
}

// RateLimited is a 429 turn with a Retry-After header (seconds or an HTTP
// date; empty for none).
func RateLimited(retryAfter string) Turn {
	t := ErrorTurn(http.StatusTooManyRequests, OpenAIErrorBody(
		"Rate limit reached for requests. Please try again later.", "requests", "rate_limit_exceeded"))
	if retryAfter != "" {
		t.Headers = map[string]string{"Retry-After": retryAfter}
	}
	return t
}

// OllamaModelNotFound is the 404 turn Ollama sends for a model it does not
// have.
func OllamaModelNotFound(model string) Turn {
	b, _ := json.Marshal(map[string]string{"error": fmt.Sprintf("model %q not found, try pulling it first", model)})
	return ErrorTurn(http.StatusNotFound, string(b))
}

// Request is a request the server received.
type Request struct {
	Method string
	Path   string // path with query, e.g. "/v1/chat/completions"
	Header http.Header
	// Raw is the body as sent.
	Raw []byte
	// Body is Raw decoded as a JSON object (nil when it is not one).
	Body map[string]any
}

// Decode unmarshals the body into v (e.g. an openai.ChatCompletionRequest or
// an api.ChatRequest).
func (r Request) Decode(v any) error { return json.Unmarshal(r.Raw, v) }

// Messages returns the "messages" array of the body.
func (r Request) Messages() []map[string]any { return objects(r.Body["messages"]) }

// Tools returns the "tools" array of the body.
func (r Request) Tools() []map[string]any { return objects(r.Body["tools"]) }

func objects(v any) []map[string]any {
	arr, _ := v.([]any)
	out := make([]map[string]any, 0, len(arr))
	for _, x := range arr {
		if m, ok := x.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

type flavor int

const (
	flavorOpenAI flavor = iota
	flavorOllama
)

// Server is a scripted fake provider. It is safe for concurrent use.
type Server struct {
	*httptest.Server

	t      testing.TB
	flavor flavor

	mu     sync.Mutex
	turns  []Turn
	repeat *Turn
	served int
	reqs   []Request
	all    []Request
	models []string
	// vision are the models /api/show says see images.
	vision []string
	key    string
	// openModels lists models without checking the key, as many
	// OpenAI-compatible servers do (OpenModels).
	openModels bool
	version    string
}

// NewOpenAI starts a fake OpenAI-compatible server, closed when the test
// ends. It serves POST …/chat/completions (also under Azure's
// /openai/deployments/NAME/ paths) and GET …/models.
func NewOpenAI(t testing.TB) *Server { return newServer(t, flavorOpenAI) }

// NewOllama starts a fake Ollama server, closed when the test ends. It
// serves POST /api/chat, GET /api/tags and GET /api/version.
func NewOllama(t testing.TB) *Server { return newServer(t, flavorOllama) }

func newServer(t testing.TB, f flavor) *Server {
	t.Helper()
	s := &Server{t: t, flavor: f, version: "0.34.2"}
	if f == flavorOpenAI {
		s.models = []string{"gpt-4o", "gpt-4o-mini"}
	} else {
		s.models = []string{"llama3.2:latest", "qwen3:8b"}
	}
	s.Server = httptest.NewServer(http.HandlerFunc(s.handle))
	t.Cleanup(s.Close)
	return s
}

// BaseURL is what a client is configured with: URL+"/v1" for OpenAI, URL
// for Ollama.
func (s *Server) BaseURL() string {
	if s.flavor == flavorOpenAI {
		return s.URL + "/v1"
	}
	return s.URL
}

// Script queues turns; each chat request takes the next one.
func (s *Server) Script(turns ...Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// Repeat sets the turn served whenever the queue is empty (benchmarks,
// long-running tests). Without it, a request with no turn left gets a 500
// and fails the test.
func (s *Server) Repeat(turn Turn) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.repeat = &turn
}

// SetVisionModels makes /api/show list "vision" among the capabilities of
// these models (Ollama).
func (s *Server) SetVisionModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.vision = append([]string(nil), ids...)
}

// SetModels sets the ids listed by /v1/models or /api/tags.
func (s *Server) SetModels(ids ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.models = append([]string(nil), ids...)
}

// RequireKey makes every request without "Authorization: Bearer key" (or
// Azure's "api-key: key") fail with 401, as real providers do.
func (s *Server) RequireKey(key string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.key = key
}

// OpenModels makes the model list (GET …/models, /api/tags) answer without
// checking the key RequireKey set, as many OpenAI-compatible servers do:
// only chat requests are then refused with 401.
func (s *Server) OpenModels(open bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.openModels = open
}

// Requests returns the chat requests received so far, in order.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// AllRequests returns every request received (chat, models, version…).
func (s *Server) AllRequests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.all...)
}

// LastRequest returns the last chat request; it fails the test if there was
// none.
func (s *Server) LastRequest() Request {
	s.t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		s.t.Fatalf("llmtest: no chat request received")
	}
	return s.reqs[len(s.reqs)-1]
}

// Pending returns how many scripted turns have not been served.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns)
}

// UnreachableURL returns an http URL on 127.0.0.1 where nothing listens.
func UnreachableURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: listen: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	rec := Request{Method: r.Method, Path: r.URL.RequestURI(), Header: r.Header.Clone(), Raw: raw}
	if len(raw) > 0 {
		var body map[string]any
		if json.Unmarshal(raw, &body) == nil {
			rec.Body = body
		}
	}

	s.mu.Lock()
	s.all = append(s.all, rec)
	key := s.key
	open := s.openModels && r.Method == http.MethodGet && (strings.HasSuffix(r.URL.Path, "/models") || r.URL.Path == "/api/tags")
	s.mu.Unlock()

	if key != "" && !open && !s.authorized(r, key) {
		s.writeError(w, Turn{Status: http.StatusUnauthorized})
		return
	}

	p := r.URL.Path
	switch {
	case s.flavor == flavorOpenAI && r.Method == http.MethodPost && strings.HasSuffix(p, "/chat/completions"):
		s.chat(w, r, rec)
	case s.flavor == flavorOpenAI && r.Method == http.MethodGet && strings.HasSuffix(p, "/models"):
		s.openAIModels(w)
	case s.flavor == flavorOllama && r.Method == http.MethodPost && p == "/api/chat":
		s.chat(w, r, rec)
	case s.flavor == flavorOllama && r.Method == http.MethodGet && p == "/api/tags":
		s.ollamaTags(w)
	case s.flavor == flavorOllama && r.Method == http.MethodPost && p == "/api/show":
		s.ollamaShow(w, rec)
	case s.flavor == flavorOllama && r.Method == http.MethodGet && p == "/api/version":
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprintf(w, `{"version":%q}`, s.version)
	default:
		if s.flavor == flavorOllama {
			http.Error(w, "404 page not found", http.StatusNotFound)
			return
		}
		s.writeError(w, Turn{Status: http.StatusNotFound, Body: OpenAIErrorBody(
			fmt.Sprintf("Invalid URL (%s %s)", r.Method, p), "invalid_request_error", "")})
	}
}

func (s *Server) authorized(r *http.Request, key string) bool {
	return r.Header.Get("Authorization") == "Bearer "+key || r.Header.Get("api-key") == key
}

// isProbe reports whether rec is the one-token completion a provider Test
// sends (one message, at most one token): the fake answers it without
// using a scripted turn, as a real provider answers it without touching
// any conversation, "OK" for a listed model and 404 model_not_found for
// any other. Requests lists it only under AllRequests.
func isProbe(rec Request) bool {
	one := func(k string) bool { v, ok := rec.Body[k].(float64); return ok && v == 1 }
	return len(rec.Messages()) == 1 && (one("max_tokens") || one("max_completion_tokens"))
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request, rec Request) {
	if isProbe(rec) {
		model, _ := rec.Body["model"].(string)
		s.mu.Lock()
		known := slices.Contains(s.models, model)
		s.mu.Unlock()
		if !known {
			s.writeError(w, Turn{Status: http.StatusNotFound})
			return
		}
		sw := &streamWriter{w: w, r: r, turn: TextTurn("OK")}
		if s.flavor == flavorOpenAI {
			s.streamOpenAI(sw, rec, model, 0)
		} else {
			s.streamOllama(sw, rec, model)
		}
		return
	}
	requested, _ := rec.Body["model"].(string)
	forRequest := func(t Turn) bool { return t.ForModel == "" || t.ForModel == requested }
	s.mu.Lock()
	s.reqs = append(s.reqs, rec)
	var turn Turn
	ok := true
	switch i := slices.IndexFunc(s.turns, forRequest); {
	case i >= 0:
		turn = s.turns[i]
		s.turns = slices.Delete(s.turns, i, i+1)
	case s.repeat != nil:
		turn = *s.repeat
	default:
		ok = false
	}
	s.served++
	n := s.served
	s.mu.Unlock()

	if !ok {
		s.t.Errorf("llmtest: chat request %d has no scripted turn", n)
		s.writeError(w, Turn{Status: http.StatusInternalServerError, Body: OpenAIErrorBody(
			"llmtest: no scripted turn left", "server_error", "")})
		return
	}
	if turn.Check != nil {
		if err := turn.Check(rec); err != nil {
			s.t.Errorf("llmtest: chat request %d: %v", n, err)
			s.writeError(w, Turn{Status: http.StatusBadRequest, Body: OpenAIErrorBody(err.Error(), "invalid_request_error", "")})
			return
		}
	}
	if turn.Status != 0 && turn.Status != http.StatusOK {
		s.writeError(w, turn)
		return
	}
	model, _ := rec.Body["model"].(string)
	if turn.Model != "" {
		model = turn.Model
	}
	sw := &streamWriter{w: w, r: r, turn: turn}
	for k, v := range turn.Headers {
		w.Header().Set(k, v)
	}
	if turn.Body != "" {
		sw.header(s.contentType())
		io.WriteString(w, turn.Body)
		return
	}
	if s.flavor == flavorOpenAI {
		s.streamOpenAI(sw, rec, model, n)
	} else {
		s.streamOllama(sw, rec, model)
	}
}

func (s *Server) contentType() string {
	if s.flavor == flavorOpenAI {
		return "text/event-stream; charset=utf-8"
	}
	return "application/x-ndjson"
}

func (s *Server) writeError(w http.ResponseWriter, turn Turn) {
	for k, v := range turn.Headers {
		w.Header().Set(k, v)
	}
	body := turn.Body
	if body == "" {
		body = s.defaultErrorBody(turn.Status)
	}
	if strings.HasPrefix(strings.TrimSpace(body), "{") {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	} else if w.Header().Get("Content-Type") == "" {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	}
	w.WriteHeader(turn.Status)
	io.WriteString(w, body)
}

func (s *Server) defaultErrorBody(status int) string {
	if s.flavor == flavorOllama {
		b, _ := json.Marshal(map[string]string{"error": strings.ToLower(http.StatusText(status))})
		return string(b)
	}
	switch status {
	case http.StatusUnauthorized:
		return OpenAIErrorBody("Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", "invalid_api_key")
	case http.StatusNotFound:
		return OpenAIErrorBody("The model does not exist or you do not have access to it.", "invalid_request_error", "model_not_found")
	case http.StatusTooManyRequests:
		return OpenAIErrorBody("Rate limit reached for requests. Please try again later.", "requests", "rate_limit_exceeded")
	}
	if status >= 500 {
		return OpenAIErrorBody("The server had an error while processing your request. Sorry about that!", "server_error", "")
	}
	return OpenAIErrorBody(http.StatusText(status), "invalid_request_error", "")
}

func (s *Server) openAIModels(w http.ResponseWriter) {
	s.mu.Lock()
	ids := append([]string(nil), s.models...)
	s.mu.Unlock()
	type model struct {
		ID      string `json:"id"`
		Object  string `json:"object"`
		Created int64  `json:"created"`
		OwnedBy string `json:"owned_by"`
	}
	out := struct {
		Object string  `json:"object"`
		Data   []model `json:"data"`
	}{Object: "list", Data: []model{}}
	for _, id := range ids {
		out.Data = append(out.Data, model{ID: id, Object: "model", Created: 1700000000, OwnedBy: "llmtest"})
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(out)
}

func (s *Server) ollamaTags(w http.ResponseWriter) {
	s.mu.Lock()
	ids := append([]string(nil), s.models...)
	s.mu.Unlock()
	sort.Strings(ids)
	type details struct {
		Format            string `json:"format"`
		Family            string `json:"family"`
		ParameterSize     string `json:"parameter_size"`
		QuantizationLevel string `json:"quantization_level"`
	}
	type model struct {
		Name       string  `json:"name"`
		Model      string  `json:"model"`
		ModifiedAt string  `json:"modified_at"`
		Size       int64   `json:"size"`
		Digest     string  `json:"digest"`
		Details    details `json:"details"`
	}
	out := struct {
		Models []model `json:"models"`
	}{Models: []model{}}
	for i, id := range ids {
		out.Models = append(out.Models, model{
			Name: id, Model: id, ModifiedAt: "2025-01-01T00:00:00.000000000Z",
			Size: 2019393189, Digest: fmt.Sprintf("%064x", i+1),
			Details: details{Format: "gguf", Family: "llama", ParameterSize: "3.2B", QuantizationLevel: "Q4_K_M"},
		})
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	json.NewEncoder(w).Encode(out)
}

// ollamaShow answers POST /api/show: the model's details when it is one of
// the listed models, else 404 {"error":"model 'x' not found"} as Ollama does.
func (s *Server) ollamaShow(w http.ResponseWriter, rec Request) {
	name, _ := rec.Body["model"].(string)
	if name == "" {
		name, _ = rec.Body["name"].(string)
	}
	s.mu.Lock()
	known := slices.Contains(s.models, name)
	vision := slices.Contains(s.vision, name)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	caps := []string{"completion", "tools"}
	if vision {
		caps = append(caps, "vision")
	}
	if !known {
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprintf(w, `{"error":"model '%s' not found"}`, strings.ReplaceAll(name, `"`, ""))
		return
	}
	json.NewEncoder(w).Encode(map[string]any{
		"modelfile": "FROM " + name, "template": "{{ .Prompt }}",
		"details":      map[string]string{"format": "gguf", "family": "llama", "parameter_size": "3.2B", "quantization_level": "Q4_K_M"},
		"capabilities": caps,
	})
}

// ---- stream writing ----------------------------------------------------------

// streamWriter writes a stream, counting content chunks for CutAfter and
// sleeping Delay between them.
type streamWriter struct {
	w       http.ResponseWriter
	r       *http.Request
	turn    Turn
	content int  // content chunks written
	gone    bool // connection cut or client went away
}

func (sw *streamWriter) header(contentType string) {
	h := sw.w.Header()
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", contentType)
	}
	h.Set("Cache-Control", "no-cache")
	sw.w.WriteHeader(http.StatusOK)
}

// raw writes bytes and flushes.
func (sw *streamWriter) raw(b []byte) {
	if sw.gone {
		return
	}
	if _, err := sw.w.Write(b); err != nil {
		sw.gone = true
		return
	}
	if f, ok := sw.w.(http.Flusher); ok {
		f.Flush()
	}
}

// contentChunk writes one content chunk, applying Delay and CutAfter. It
// returns false when the stream is over (cut or client gone).
func (sw *streamWriter) contentChunk(b []byte) bool {
	if sw.gone {
		return false
	}
	if sw.turn.CutAfter == CutImmediately || (sw.turn.CutAfter > 0 && sw.content >= sw.turn.CutAfter) {
		sw.cut()
		return false
	}
	if sw.content > 0 && sw.turn.Delay > 0 {
		t := time.NewTimer(sw.turn.Delay)
		select {
		case <-t.C:
		case <-sw.r.Context().Done():
			t.Stop()
			sw.gone = true
			return false
		}
	}
	sw.raw(b)
	sw.content++
	return !sw.gone
}

// cut closes the connection without finishing the chunked body, as a
// crashed server or a dropped proxy does.
func (sw *streamWriter) cut() {
	sw.gone = true
	if f, ok := sw.w.(http.Flusher); ok {
		f.Flush()
	}
	hj, ok := sw.w.(http.Hijacker)
	if !ok {
		panic("llmtest: response writer cannot hijack")
	}
	conn, bufrw, err := hj.Hijack()
	if err != nil {
		return
	}
	if bufrw != nil {
		bufrw.Flush()
	}
	conn.Close()
}

// cutAtEnd is called when all content chunks are written: it cuts the
// connection when CutAfter asked for a cut at or before this point, and
// reports whether the stream is over.
func (sw *streamWriter) cutAtEnd() bool {
	if sw.gone {
		return true
	}
	if sw.turn.CutAfter == CutImmediately || (sw.turn.CutAfter > 0 && sw.content >= sw.turn.CutAfter) {
		sw.cut()
		return true
	}
	return false
}

// splitArgs splits s into n pieces on rune boundaries.
func splitArgs(s string, n int) []string {
	if n <= 1 || len(s) <= 1 {
		return []string{s}
	}
	if n > utf8.RuneCountInString(s) {
		n = utf8.RuneCountInString(s)
	}
	size := (len(s) + n - 1) / n
	var out []string
	for len(s) > 0 {
		cut := size
		if cut >= len(s) {
			out = append(out, s)
			break
		}
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	return out
}

// estimateTokens is a crude token count (4 bytes a token) for computed
// usage.
func estimateTokens(b []byte) int {
	n := len(b) / 4
	if n == 0 && len(b) > 0 {
		n = 1
	}
	return n
}
