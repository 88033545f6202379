package llm

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"mcpdesk/backend/llm/llmtest"
)

// BenchmarkStreamOpenAI streams a 10,000-token reply (one token per SSE
// chunk, as OpenAI sends it) through the fake server and the real go-openai
// client.
//
//   - flushed: the fake renders and flushes every chunk separately (the
//     pacing of a real provider); the figures include the fake's own work.
//   - prerendered: the fake writes the same bytes, rendered once in
//     advance, so the figures are mostly the client's.
func BenchmarkStreamOpenAI(b *testing.B) {
	const tokens = 10000
	chunks := make([]string, tokens)
	for i := range chunks {
		chunks[i] = " tok" + strconv.Itoa(i%100)
	}
	turn := llmtest.Turn{Text: chunks}
	req := userReq("gpt-4o-mini", "write a lot")

	run := func(b *testing.B, srv *llmtest.Server) {
		c := NewOpenAI(Config{BaseURL: srv.BaseURL(), APIKey: "sk-bench"})
		ctx := context.Background()
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			n := 0
			res, err := c.Stream(ctx, req, func(Delta) { n++ })
			if err != nil {
				b.Fatal(err)
			}
			if n != tokens || res.Usage.CompletionTokens != tokens {
				b.Fatalf("deltas=%d usage=%+v", n, res.Usage)
			}
		}
		b.ReportMetric(float64(tokens*b.N)/b.Elapsed().Seconds(), "tokens/s")
	}

	b.Run("flushed", func(b *testing.B) {
		srv := llmtest.NewOpenAI(b)
		srv.Repeat(turn)
		run(b, srv)
	})
	b.Run("prerendered", func(b *testing.B) {
		render := llmtest.NewOpenAI(b)
		render.Script(turn)
		resp, err := http.Post(render.BaseURL()+"/chat/completions", "application/json",
			strings.NewReader(`{"model":"gpt-4o-mini","stream":true,"stream_options":{"include_usage":true}}`))
		if err != nil {
			b.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			b.Fatal(err)
		}
		srv := llmtest.NewOpenAI(b)
		srv.Repeat(llmtest.Turn{Body: string(body)})
		run(b, srv)
	})
}
