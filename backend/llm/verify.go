package llm

import (
	"context"
	"strings"

	"github.com/ollama/ollama/api"
)

// Verifier is implemented by the clients of this package. Verify makes the
// cheapest request that proves the endpoint accepts the key for model: a
// one-token completion on an OpenAI-compatible endpoint (many of them list
// models to anyone, so a model list proves nothing), and POST /api/show on
// Ollama (the model is installed; nothing is loaded).
// It returns nil or an *Error.
type Verifier interface {
	Verify(ctx context.Context, model string) error
}

// verifyPrompt is the message of the one-token completion.
const verifyPrompt = "Reply with OK."

// Verify implements Verifier with a streamed completion of at most one
// token, whose text is discarded.
func (c *openAIClient) Verify(ctx context.Context, model string) error {
	_, err := c.Stream(ctx, Request{
		Model:     model,
		Messages:  []Message{{Role: RoleUser, Content: verifyPrompt}},
		MaxTokens: 1,
	}, func(Delta) {})
	return err
}

// Verify implements Verifier by asking Ollama to show model (POST
// /api/show), which proves the server answers, any proxy in front of it
// accepts the key, and the model is installed, without loading it.
func (c *ollamaClient) Verify(ctx context.Context, model string) error {
	ctx, ex := withExchange(ctx)
	if c.urlErr != nil {
		return c.fail(ctx, model, failure{err: c.urlErr, local: true}, ex)
	}
	if strings.TrimSpace(model) == "" {
		return c.fail(ctx, model, failure{err: errNoModel, local: true}, ex)
	}
	if _, err := c.api.Show(ctx, &api.ShowRequest{Model: model}); err != nil {
		return c.fail(ctx, model, c.describe(err, ex), ex)
	}
	return nil
}

type constError string

func (e constError) Error() string { return string(e) }

// errNoModel is the local failure of a request without a model.
const errNoModel = constError("no model selected")
