package llm

import "strings"

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
