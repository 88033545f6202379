package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strconv"
	"strings"

	openai "github.com/sashabaranov/go-openai"
)

// emptyMessagesLimit is how many non-data SSE lines (comments such as
// ": keep-alive" or ": OPENROUTER PROCESSING", and blank lines) may arrive in
// a row. go-openai's default of 300 kills slow streams.
const emptyMessagesLimit = 10000

// openAIClient streams from an OpenAI-compatible endpoint with go-openai.
type openAIClient struct {
	api  *openai.Client
	cls  classifier
	log  *slog.Logger
	host string
}

// NewOpenAI returns a Client for an OpenAI-compatible endpoint (OpenAI,
// Azure OpenAI, DeepSeek, OpenRouter, Gemini, Anthropic, Groq, xAI, Mistral,
// LM Studio, vLLM, …). An empty BaseURL means DefaultOpenAIBaseURL. NewOpenAI
// does not validate cfg; use New for that.
func NewOpenAI(cfg Config) Client {
	base := strings.TrimRight(strings.TrimSpace(cfg.BaseURL), "/")
	if base == "" {
		base = DefaultOpenAIBaseURL
	}
	cfg.BaseURL = base

	var oc openai.ClientConfig
	if cfg.Azure {
		oc = openai.DefaultAzureConfig(cfg.APIKey, base)
		oc.APIVersion = cfg.AzureAPIVersion
		if oc.APIVersion == "" {
			oc.APIVersion = DefaultAzureAPIVersion
		}
		// The deployment is named by the model the user picked, verbatim.
		oc.AzureModelMapperFunc = func(model string) string { return model }
	} else {
		oc = openai.DefaultConfig(cfg.APIKey)
		oc.BaseURL = base
	}
	oc.HTTPClient = httpClient(cfg, "")
	oc.EmptyMessagesLimit = emptyMessagesLimit

	name := providerName(cfg, "OpenAI")
	c := &openAIClient{
		api: openai.NewClientWithConfig(oc),
		cls: classifier{provider: name, baseURL: base, apiKey: cfg.APIKey},
		log: logger(cfg).With("provider", name),
	}
	c.host = c.cls.host()
	return c
}

// Stream implements Client.
func (c *openAIClient) Stream(ctx context.Context, req Request, onDelta func(Delta)) (*Result, error) {
	res := &Result{Model: req.Model}
	ctx, ex := withExchange(ctx)

	creq, err := c.buildRequest(req)
	if err != nil {
		return res, c.fail(ctx, req.Model, failure{err: err, local: true}, ex)
	}
	c.log.Debug("llm stream start", "host", c.host, "model", req.Model,
		"messages", len(req.Messages), "tools", len(req.Tools))

	stream, err := c.api.CreateChatCompletionStream(ctx, creq)
	if err != nil {
		return res, c.fail(ctx, req.Model, c.describe(err, false), ex)
	}
	defer stream.Close()

	asm := newAssembler(res, onDelta)
	var chunk streamChunk
	for {
		raw, err := stream.RecvRaw()
		if errors.Is(err, io.EOF) {
			if res.FinishReason == "" {
				// The body ended cleanly but without a finish_reason: the
				// reply was cut short (a proxy closed the stream).
				err = io.ErrUnexpectedEOF
			} else {
				break
			}
		}
		if err == nil && raw == nil {
			// go-openai lost an error event it could not decode (it
			// happens when comment lines came first); say so rather than
			// loop.
			asm.flush()
			msg := "the provider sent an error event that could not be read"
			f := failure{err: errors.New(msg), detail: msg, provider: true, started: true, partial: asm.delivered}
			return res, c.fail(ctx, req.Model, f, ex)
		}
		if err != nil {
			asm.flush()
			f := c.describe(err, true)
			f.partial = asm.delivered
			return res, c.fail(ctx, req.Model, f, ex)
		}

		chunk.reset()
		if err := json.Unmarshal(raw, &chunk); err != nil {
			c.log.Debug("llm stream: skipping undecodable chunk", "error", err, "bytes", len(raw))
			continue
		}
		if len(chunk.Error) > 0 && !bytes.Equal(chunk.Error, []byte("null")) {
			asm.flush()
			f := describeErrorEvent(chunk.Error)
			f.partial = asm.delivered
			return res, c.fail(ctx, req.Model, f, ex)
		}
		if chunk.Model != "" {
			res.Model = chunk.Model
		}
		if u := chunk.Usage; u != nil {
			res.Usage = Usage{
				PromptTokens:     u.PromptTokens,
				CompletionTokens: u.CompletionTokens,
			}
			if u.PromptTokensDetails != nil {
				res.Usage.CachedTokens = u.PromptTokensDetails.CachedTokens
			}
			if res.Usage.CachedTokens == 0 && u.PromptCacheHitTokens > 0 { // DeepSeek
				res.Usage.CachedTokens = u.PromptCacheHitTokens
			}
			if u.CompletionTokensDetails != nil {
				res.Usage.ReasoningTokens = u.CompletionTokensDetails.ReasoningTokens
			}
		}
		for i := range chunk.Choices {
			ch := &chunk.Choices[i]
			if ch.Index != 0 {
				continue // we ask for one choice
			}
			d := &ch.Delta
			if d.ReasoningContent != "" {
				asm.reasoningText(d.ReasoningContent)
			} else if d.Reasoning != "" {
				asm.reasoningText(d.Reasoning)
			}
			asm.text(d.Content)
			asm.text(d.Refusal)
			for j := range d.ToolCalls {
				tc := &d.ToolCalls[j]
				asm.toolFragment(tc.Index, tc.ID, tc.Function.Name, tc.Function.arguments())
			}
			if ch.FinishReason != "" {
				res.FinishReason = ch.FinishReason
			}
		}
	}
	asm.finish()
	if res.FinishReason == "error" {
		// OpenRouter ends a failed generation with finish_reason "error".
		f := failure{err: errors.New("the provider ended the reply with an error"), started: true, partial: asm.delivered}
		return res, c.fail(ctx, req.Model, f, ex)
	}
	c.log.Debug("llm stream done", "model", res.Model, "finish", res.FinishReason,
		"prompt_tokens", res.Usage.PromptTokens, "completion_tokens", res.Usage.CompletionTokens,
		"tool_calls", len(res.ToolCalls))
	return res, nil
}

// Models implements Client.
func (c *openAIClient) Models(ctx context.Context) ([]Model, error) {
	ctx, ex := withExchange(ctx)
	list, err := c.api.ListModels(ctx)
	if err != nil {
		return nil, c.fail(ctx, "", c.describe(err, false), ex)
	}
	out := make([]Model, 0, len(list.Models))
	for _, m := range list.Models {
		out = append(out, Model{ID: m.ID, OwnedBy: m.OwnedBy})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// fail completes a failure with what the transport saw, builds the *Error
// and logs it (redacted).
func (c *openAIClient) fail(ctx context.Context, model string, f failure, ex *exchange) *Error {
	return finishFailure(ctx, c.cls, c.log, model, f, ex)
}

func finishFailure(ctx context.Context, cls classifier, log *slog.Logger, model string, f failure, ex *exchange) *Error {
	responded, status, retryAfter := ex.snapshot()
	if f.retryAfter == 0 {
		f.retryAfter = retryAfter
	}
	if responded && status >= 400 && f.status == 0 && !f.started {
		f.status = status
		f.provider = true
	}
	if responded && status < 400 && !f.local {
		f.started = true
	}
	e := cls.build(ctx, model, f)
	level := slog.LevelWarn
	if e.Kind == KindCancelled {
		level = slog.LevelDebug
	}
	log.Log(context.WithoutCancel(ctx), level, "llm call failed", "model", model, "kind", string(e.Kind),
		"status", e.Status, "retry_after", e.RetryAfter, "partial", e.Partial, "error", e.Error())
	return e
}

// describe extracts what go-openai's error says.
func (c *openAIClient) describe(err error, inStream bool) failure {
	f := failure{err: err, started: inStream}
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	switch {
	case errors.As(err, &apiErr):
		apiErr.Message = Redact(apiErr.Message, c.cls.apiKey)
		f.provider = true
		f.status = apiErr.HTTPStatusCode
		f.typ = apiErr.Type
		f.detail = apiErr.Message
		switch code := apiErr.Code.(type) {
		case string:
			f.code = code
		case int:
			f.code = strconv.Itoa(code)
			if f.status == 0 && code >= 400 && code < 600 {
				f.status = code // OpenRouter puts the HTTP status in code
			}
		case float64:
			f.code = strconv.Itoa(int(code))
		}
	case errors.As(err, &reqErr):
		reqErr.Body = []byte(Redact(string(reqErr.Body), c.cls.apiKey))
		f.provider = true
		f.status = reqErr.HTTPStatusCode
		f.detail = bodyDetail(reqErr.Body)
	case isLocalOpenAIError(err):
		f.local = true
	}
	return f
}

// describeErrorEvent reads an "error" object sent inside the stream.
func describeErrorEvent(raw json.RawMessage) failure {
	var ev struct {
		Message json.RawMessage `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
	}
	f := failure{provider: true, started: true}
	if err := json.Unmarshal(raw, &ev); err != nil {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			f.detail = s
		} else {
			f.detail = string(raw)
		}
	} else {
		var msg string
		if json.Unmarshal(ev.Message, &msg) != nil {
			msg = string(ev.Message)
		}
		f.detail = msg
		f.typ = ev.Type
		var n int
		var s string
		switch {
		case json.Unmarshal(ev.Code, &n) == nil:
			f.code = strconv.Itoa(n)
			if n >= 400 && n < 600 {
				f.status = n
			}
		case json.Unmarshal(ev.Code, &s) == nil:
			f.code = s
		}
	}
	f.err = fmt.Errorf("error event in stream: %s", f.detail)
	return f
}

// bodyDetail makes a short message from an error body that go-openai could
// not decode (HTML pages, plain text, {"error":"…"}).
func bodyDetail(body []byte) string {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return ""
	}
	var obj struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  string          `json:"detail"`
	}
	if json.Unmarshal(b, &obj) == nil {
		var s string
		switch {
		case json.Unmarshal(obj.Error, &s) == nil && s != "":
			return s
		case obj.Message != "":
			return obj.Message
		case obj.Detail != "":
			return obj.Detail
		}
		var inner struct {
			Message string `json:"message"`
		}
		if json.Unmarshal(obj.Error, &inner) == nil && inner.Message != "" {
			return inner.Message
		}
	}
	if bytes.HasPrefix(b, []byte("<")) {
		return "" // an HTML error page says nothing useful
	}
	return truncate(string(b), 300)
}

func isLocalOpenAIError(err error) bool {
	for _, e := range []error{
		openai.ErrChatCompletionInvalidModel,
		openai.ErrContentFieldsMisused,
		openai.ErrReasoningModelMaxTokensDeprecated,
		openai.ErrReasoningModelLimitationsLogprobs,
		openai.ErrReasoningModelLimitationsOther,
		openai.ErrReasoningEffortUnsupported,
		openai.ErrReasoningToolsRequireResponses,
		openai.ErrReasoningSamplingUnsupported,
	} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// reasoningModel reports whether model is one of OpenAI's reasoning models,
// which take max_completion_tokens and no temperature.
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// buildRequest translates a Request to go-openai's shape.
func (c *openAIClient) buildRequest(req Request) (openai.ChatCompletionRequest, error) {
	out := openai.ChatCompletionRequest{
		Model:         req.Model,
		Stream:        true,
		StreamOptions: &openai.StreamOptions{IncludeUsage: true},
	}
	if strings.TrimSpace(req.Model) == "" {
		return out, errors.New("no model selected")
	}
	reasoning := reasoningModel(req.Model)
	if req.MaxTokens > 0 {
		if reasoning {
			out.MaxCompletionTokens = req.MaxTokens
		} else {
			out.MaxTokens = req.MaxTokens
		}
	}
	if req.Temperature != nil && !reasoning {
		t := *req.Temperature
		if t == 0 {
			// go-openai omits a zero temperature (omitempty), which would
			// mean the provider default (usually 1). A tiny positive value
			// is greedy decoding in practice.
			t = 1e-6
		}
		out.Temperature = t
	}
	for _, t := range req.Tools {
		params := json.RawMessage(t.Parameters)
		if len(bytes.TrimSpace(params)) == 0 || string(bytes.TrimSpace(params)) == "null" {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out.Tools = append(out.Tools, openai.Tool{
			Type: openai.ToolTypeFunction,
			Function: &openai.FunctionDefinition{
				Name:        t.Name,
				Description: t.Description,
				Parameters:  params,
			},
		})
	}
	for _, m := range req.Messages {
		om := openai.ChatCompletionMessage{Role: string(m.Role)}
		switch m.Role {
		case RoleTool:
			om.ToolCallID = m.ToolCallID
			om.Content = m.Content
			if om.Content == "" {
				om.Content = "(empty result)" // go-openai drops an empty content
			}
		case RoleAssistant:
			om.Content = m.Content
			for _, tc := range m.ToolCalls {
				args := tc.Arguments
				if strings.TrimSpace(args) == "" {
					args = "{}"
				}
				om.ToolCalls = append(om.ToolCalls, openai.ToolCall{
					ID:       tc.ID,
					Type:     openai.ToolTypeFunction,
					Function: openai.FunctionCall{Name: tc.Name, Arguments: args},
				})
			}
		default:
			if len(m.Images) > 0 {
				if m.Content != "" {
					om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{
						Type: openai.ChatMessagePartTypeText, Text: m.Content,
					})
				}
				for _, img := range m.Images {
					mt := img.MIMEType
					if mt == "" {
						mt = "image/png"
					}
					om.MultiContent = append(om.MultiContent, openai.ChatMessagePart{
						Type:     openai.ChatMessagePartTypeImageURL,
						ImageURL: &openai.ChatMessageImageURL{URL: "data:" + mt + ";base64," + img.Data},
					})
				}
			} else {
				om.Content = m.Content
			}
		}
		out.Messages = append(out.Messages, om)
	}
	return out, nil
}

// ---- stream chunk --------------------------------------------------------------

// streamChunk is one SSE data payload. It is decoded here rather than by
// go-openai so that OpenRouter's "reasoning", DeepSeek's cache counters and
// in-stream "error" objects are not lost.
type streamChunk struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Choices []chunkChoice   `json:"choices"`
	Usage   *chunkUsage     `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

func (c *streamChunk) reset() {
	c.ID, c.Model = "", ""
	clear(c.Choices) // json reuses slice elements: zero them first
	c.Choices = c.Choices[:0]
	c.Usage = nil
	c.Error = nil
}

type chunkChoice struct {
	Index        int        `json:"index"`
	Delta        chunkDelta `json:"delta"`
	FinishReason string     `json:"finish_reason"`
}

type chunkDelta struct {
	Content          string          `json:"content"`
	Refusal          string          `json:"refusal"`
	ReasoningContent string          `json:"reasoning_content"`
	Reasoning        string          `json:"reasoning"`
	ToolCalls        []chunkToolCall `json:"tool_calls"`
}

type chunkToolCall struct {
	Index    *int          `json:"index"`
	ID       string        `json:"id"`
	Function chunkFunction `json:"function"`
}

type chunkFunction struct {
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type chunkUsage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails *struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails *struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	PromptCacheHitTokens int `json:"prompt_cache_hit_tokens"`
}

// arguments returns the arguments fragment: normally a JSON string; some
// servers send the arguments as an object, which is kept as JSON text.
func (f *chunkFunction) arguments() string {
	a := f.Arguments
	if len(a) == 0 || string(a) == "null" {
		return ""
	}
	if a[0] == '"' {
		var s string
		if json.Unmarshal(a, &s) == nil {
			return s
		}
	}
	return string(a)
}
