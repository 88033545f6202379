package llm

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/ollama/ollama/api"
)

// ollamaClient streams from Ollama's native API (/api/chat).
type ollamaClient struct {
	api    *api.Client
	urlErr error
	cls    classifier
	log    *slog.Logger
	host   string
	// vision remembers which models see images (images.go).
	vision visionCache
}

// NewOllama returns a Client for an Ollama server. An empty BaseURL means
// DefaultOllamaBaseURL; a trailing "/v1" or "/api" is removed. An APIKey, if
// any, is sent as "Authorization: Bearer" (for Ollama behind an
// authenticating proxy). NewOllama does not validate cfg; use New for that.
func NewOllama(cfg Config) Client {
	base := ollamaBase(cfg.BaseURL)
	cfg.BaseURL = base
	name := cfg.Provider
	if name == "" {
		name = "Ollama"
	}
	c := &ollamaClient{
		cls: classifier{provider: name, baseURL: base, apiKey: cfg.APIKey, ollama: true},
		log: logger(cfg).With("provider", name),
	}
	c.host = c.cls.host()
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		c.urlErr = errors.New("the base URL is not an http(s) URL")
		u = &url.URL{Scheme: "http", Host: "invalid.invalid"}
	}
	// api.NewClient with a nil *http.Client panics on first use.
	c.api = api.NewClient(u, httpClient(cfg, cfg.APIKey))
	return c
}

func ollamaBase(raw string) string {
	base := strings.TrimRight(strings.TrimSpace(raw), "/")
	if base == "" {
		return DefaultOllamaBaseURL
	}
	for _, suffix := range []string{"/v1", "/api"} {
		base = strings.TrimSuffix(base, suffix)
	}
	return base
}

// Stream implements Client.
func (c *ollamaClient) Stream(ctx context.Context, req Request, onDelta func(Delta)) (*Result, error) {
	res := &Result{Model: req.Model}
	ctx, ex := withExchange(ctx)
	if c.urlErr != nil {
		return res, c.fail(ctx, req.Model, failure{err: c.urlErr, local: true}, ex)
	}
	creq, err := c.buildRequest(req)
	if err != nil {
		return res, c.fail(ctx, req.Model, failure{err: err, local: true}, ex)
	}
	c.log.Debug("llm stream start", "host", c.host, "model", req.Model,
		"messages", len(req.Messages), "tools", len(req.Tools))

	asm := newAssembler(res, onDelta)
	done := false
	err = c.api.Chat(ctx, creq, func(r api.ChatResponse) error {
		if r.Model != "" {
			res.Model = r.Model
		}
		asm.reasoningText(r.Message.Thinking)
		asm.text(r.Message.Content)
		for _, tc := range r.Message.ToolCalls {
			asm.wholeToolCall(tc.ID, tc.Function.Name, tc.Function.Arguments.String())
		}
		if r.Done {
			done = true
			res.FinishReason = r.DoneReason
			res.Usage = Usage{PromptTokens: r.PromptEvalCount, CompletionTokens: r.EvalCount}
			if r.PromptEvalCachedCount != nil {
				res.Usage.CachedTokens = *r.PromptEvalCachedCount
			}
		}
		return nil
	})
	if err == nil && !done {
		err = io.ErrUnexpectedEOF // the stream ended without its final "done" line
	}
	if err != nil {
		asm.flush()
		f := c.describe(err, ex)
		f.partial = asm.delivered
		return res, c.fail(ctx, req.Model, f, ex)
	}
	asm.finish()
	c.log.Debug("llm stream done", "model", res.Model, "finish", res.FinishReason,
		"prompt_tokens", res.Usage.PromptTokens, "completion_tokens", res.Usage.CompletionTokens,
		"tool_calls", len(res.ToolCalls))
	return res, nil
}

// Models implements Client (GET /api/tags).
func (c *ollamaClient) Models(ctx context.Context) ([]Model, error) {
	ctx, ex := withExchange(ctx)
	if c.urlErr != nil {
		return nil, c.fail(ctx, "", failure{err: c.urlErr, local: true}, ex)
	}
	list, err := c.api.List(ctx)
	if err != nil {
		return nil, c.fail(ctx, "", c.describe(err, ex), ex)
	}
	out := make([]Model, 0, len(list.Models))
	for _, m := range list.Models {
		id := m.Name
		if id == "" {
			id = m.Model
		}
		out = append(out, Model{ID: id})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// ProbeOllama asks an Ollama server for its version (GET /api/version). It is
// how the app detects a local Ollama (SPEC C1). An empty baseURL means
// DefaultOllamaBaseURL; a nil client means http.DefaultClient.
func ProbeOllama(ctx context.Context, baseURL string, hc *http.Client) (string, error) {
	if hc == nil {
		hc = http.DefaultClient
	}
	u, err := url.Parse(ollamaBase(baseURL))
	if err != nil {
		return "", err
	}
	return api.NewClient(u, hc).Version(ctx)
}

func (c *ollamaClient) fail(ctx context.Context, model string, f failure, ex *exchange) *Error {
	return finishFailure(ctx, c.cls, c.log, model, f, ex)
}

// describe extracts what ollama/api's error says.
func (c *ollamaClient) describe(err error, ex *exchange) failure {
	f := failure{err: err}
	var se api.StatusError
	var ae api.AuthorizationError
	switch {
	case errors.As(err, &ae):
		f.provider = true
		f.status = ae.StatusCode
		f.detail = ae.Status
	case errors.As(err, &se):
		f.provider = true
		f.status = se.StatusCode
		f.detail = se.ErrorMessage
		if f.detail == "" {
			f.detail = se.Status
		}
	default:
		responded, status, _ := ex.snapshot()
		if responded && status < 400 {
			f.started = true
			// ollama/api returns an {"error": "…"} line of a 200 stream
			// as a plain error; network failures are not provider words.
			if _, isNet := netReason(err); !isNet && !errors.Is(err, context.Canceled) {
				f.provider = true
				f.detail = err.Error()
			}
		}
	}
	return f
}

// buildRequest translates a Request to ollama/api's shape.
func (c *ollamaClient) buildRequest(req Request) (*api.ChatRequest, error) {
	if strings.TrimSpace(req.Model) == "" {
		return nil, errors.New("no model selected")
	}
	stream := true
	out := &api.ChatRequest{Model: req.Model, Stream: &stream}
	opts := map[string]any{}
	if req.Temperature != nil {
		opts["temperature"] = *req.Temperature
	}
	if req.MaxTokens > 0 {
		opts["num_predict"] = req.MaxTokens
	}
	if len(opts) > 0 {
		out.Options = opts
	}
	for _, t := range req.Tools {
		var params api.ToolFunctionParameters
		if len(t.Parameters) > 0 && string(t.Parameters) != "null" {
			if err := json.Unmarshal(t.Parameters, &params); err != nil {
				c.log.Warn("llm: tool schema not representable for Ollama; sending it without parameters",
					"tool", t.Name, "error", err)
				params = api.ToolFunctionParameters{}
			}
		}
		if params.Type == "" {
			params.Type = "object"
		}
		if params.Properties == nil {
			params.Properties = api.NewToolPropertiesMap()
		}
		out.Tools = append(out.Tools, api.Tool{
			Type: "function",
			Function: api.ToolFunction{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		})
	}
	names := map[string]string{} // tool call id → tool name
	for _, m := range req.Messages {
		om := api.Message{Role: string(m.Role), Content: m.Content}
		for _, img := range m.Images {
			data, err := base64.StdEncoding.DecodeString(img.Data)
			if err != nil {
				return nil, errors.New("an attached image is not valid base64")
			}
			om.Images = append(om.Images, api.ImageData(data))
		}
		for i, tc := range m.ToolCalls {
			args := api.NewToolCallFunctionArguments()
			if s := strings.TrimSpace(tc.Arguments); s != "" {
				if err := args.UnmarshalJSON([]byte(s)); err != nil {
					c.log.Warn("llm: tool call arguments are not a JSON object; sending empty arguments",
						"tool", tc.Name)
					args = api.NewToolCallFunctionArguments()
				}
			}
			names[tc.ID] = tc.Name
			om.ToolCalls = append(om.ToolCalls, api.ToolCall{
				ID:       tc.ID,
				Function: api.ToolCallFunction{Index: i, Name: tc.Name, Arguments: args},
			})
		}
		if m.Role == RoleTool {
			om.ToolCallID = m.ToolCallID
			om.ToolName = names[m.ToolCallID]
		}
		out.Messages = append(out.Messages, om)
	}
	return out, nil
}
