package llm

import (
	"context"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"
)

// VisionReporter is a Client that knows whether its models see images;
// Ollama says so for each installed model (/api/show capabilities).
type VisionReporter interface {
	// ModelTakesImages returns whether model takes images, and whether the
	// provider said so (known false: ask TakesImages).
	ModelTakesImages(ctx context.Context, model string) (takes, known bool)
}

// ImagesFor is whether model of client may be sent images: what the
// provider says when it says it, else TakesImages.
func ImagesFor(ctx context.Context, client Client, model string) bool {
	if r, ok := client.(VisionReporter); ok {
		if takes, known := r.ModelTakesImages(ctx, model); known {
			return takes
		}
	}
	return TakesImages(model)
}

// visionCache keeps what Ollama said of each model (it does not change
// while the model is installed under that name).
type visionCache struct {
	mu sync.Mutex
	m  map[string]bool
}

// ModelTakesImages asks Ollama for model's capabilities (POST /api/show)
// once and remembers the answer; a failed request is not an answer.
func (c *ollamaClient) ModelTakesImages(ctx context.Context, model string) (takes, known bool) {
	c.vision.mu.Lock()
	v, ok := c.vision.m[model]
	c.vision.mu.Unlock()
	if ok {
		return v, true
	}
	if c.urlErr != nil || strings.TrimSpace(model) == "" {
		return false, false
	}
	res, err := c.api.Show(ctx, &api.ShowRequest{Model: model})
	if err != nil || len(res.Capabilities) == 0 {
		return false, false
	}
	for _, cp := range res.Capabilities {
		v = v || string(cp) == "vision"
	}
	c.vision.mu.Lock()
	if c.vision.m == nil {
		c.vision.m = map[string]bool{}
	}
	c.vision.m[model] = v
	c.vision.mu.Unlock()
	return v, true
}

// TakesImages reports whether model may be sent images (issue 16, SPEC
// D10). Providers do not say which of their models see images (OpenAI's
// model list does not; Ollama says so per model, one request each), so
// this knows the families that do not, by name, whatever the provider: a
// model it does not know is given the images, and a provider that refuses
// them says so in its error. The name is taken without the provider's
// path and Ollama's tag ("library/llama3.1:8b" → "llama3.1").
func TakesImages(model string) bool {
	name := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		name = name[i+1:]
	}
	if i := strings.IndexByte(name, ':'); i >= 0 {
		name = name[:i]
	}
	for _, vision := range []string{"vision", "-vl", "vl-", "llava", "pixtral", "moondream", "minicpm-v"} {
		if strings.Contains(name, vision) {
			return true
		}
	}
	for _, family := range textOnly {
		// The family itself, or a dated or sized one of it
		// ("gpt-3.5-turbo-0125", "llama3.1-70b-instruct"), never another
		// family that shares its start ("mistral-small3.1" sees images).
		rest, ok := strings.CutPrefix(name, family+"-")
		if name == family || ok && rest != "" && (rest[0] >= '0' && rest[0] <= '9' || strings.HasPrefix(rest, "instruct")) {
			return false
		}
	}
	return true
}

// textOnly are model families that take no images.
var textOnly = []string{
	// OpenAI.
	"gpt-3.5-turbo", "gpt-4-0613", "gpt-4-32k", "o1-mini", "o3-mini", "davinci-002", "babbage-002",
	// DeepSeek.
	"deepseek-chat", "deepseek-reasoner", "deepseek-r1", "deepseek-v3", "deepseek-coder", "deepseek-coder-v2",
	// Open-weight families as Ollama names them.
	"llama2", "llama3", "llama3.1", "llama3.2", "llama3.3", "codellama", "mistral", "mistral-nemo", "mixtral",
	"phi3", "phi3.5", "qwen", "qwen2", "qwen2.5", "qwen2.5-coder", "qwen3", "qwen3-coder", "qwq", "gemma", "gemma2",
	"tinyllama", "starcoder2", "smollm2", "command-r", "nomic-embed-text",
}
