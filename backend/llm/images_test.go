package llm

import "testing"

func TestTakesImages(t *testing.T) {
	for model, want := range map[string]bool{
		"gpt-4o": true, "gpt-4.1-mini": true, "gpt-5": true, "claude-sonnet-4": true, "gemini-2.5-pro": true,
		"llava:13b": true, "llama3.2-vision:11b": true, "qwen2.5vl:7b": true, "qwen2.5-vl-72b-instruct": true, "gemma3:27b": true,
		"mistral-small3.1": true, "fake-1": true, "": true,
		"gpt-3.5-turbo": false, "gpt-3.5-turbo-0125": false, "o3-mini": false, "deepseek-chat": false, "deepseek-r1:32b": false,
		"llama3.1:8b": false, "library/llama3.3:70b": false, "llama3.2": false, "mistral:7b": false, "qwen2.5-coder:14b": false,
		"qwen3:8b": false, "phi3:mini": false, "meta-llama/llama3.1-70b-instruct": false,
	} {
		if got := TakesImages(model); got != want {
			t.Errorf("TakesImages(%q) = %v, want %v", model, got, want)
		}
	}
}
