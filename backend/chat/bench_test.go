package chat

import (
	"context"
	"sync/atomic"
	"testing"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
)

// countingEmitter counts the deltas a turn emits and signals chat:done.
type countingEmitter struct {
	deltas, bytes atomic.Int64
	done          chan struct{}
}

func (c *countingEmitter) Emit(name events.Name, payload any) {
	switch name {
	case events.ChatDelta:
		d := payload.(events.ChatDeltaPayload)
		c.deltas.Add(1)
		c.bytes.Add(int64(len(d.Text) + len(d.Reasoning)))
	case events.ChatDone:
		c.done <- struct{}{}
	}
}

// tokenTurn is a scripted reply of n one-token chunks.
func tokenTurn(n int) llmtest.Turn {
	chunks := make([]string, n)
	for i := range chunks {
		chunks[i] = "tok "
	}
	return llmtest.Turn{Text: chunks}
}

// BenchmarkStreamTurn10k streams a 10,000-token reply through the whole
// engine — provider client, coalescer, store, emitter — per iteration.
func BenchmarkStreamTurn10k(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(b.TempDir(), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	srv := llmtest.NewOpenAI(b)
	srv.Repeat(tokenTurn(10_000))
	pm := providers.NewManager(providers.Options{Store: st, Secrets: secrets.NewMemory()})
	p, err := pm.Save(ctx, providers.ProviderInput{Name: "Fake AI", Type: "openai", BaseURL: srv.BaseURL()})
	if err != nil {
		b.Fatal(err)
	}
	em := &countingEmitter{done: make(chan struct{}, 1)}
	e := New(Options{Store: st, Models: pm, Emitter: em})
	if err := e.Start(ctx); err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		c, err := e.NewConversation(ctx, NewConversationInput{Settings: store.ConversationSettings{Provider: p.ID, Model: "gpt-4o"}})
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if _, err := e.Send(ctx, SendRequest{ConversationID: c.ID, Text: "go"}); err != nil {
			b.Fatal(err)
		}
		<-em.done
	}
	b.StopTimer()
	b.ReportMetric(float64(em.deltas.Load())/float64(b.N), "deltas/op")
	b.ReportMetric(float64(em.bytes.Load())/float64(b.N), "delta-bytes/op")
}

// BenchmarkStreamBare10k reads the same stream with the bare client, for
// the engine's overhead.
func BenchmarkStreamBare10k(b *testing.B) {
	srv := llmtest.NewOpenAI(b)
	srv.Repeat(tokenTurn(10_000))
	c := llm.NewOpenAI(llm.Config{BaseURL: srv.BaseURL()})
	req := llm.Request{Model: "gpt-4o", Messages: []llm.Message{{Role: llm.RoleUser, Content: "go"}}}
	var n int
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := c.Stream(context.Background(), req, func(llm.Delta) { n++ }); err != nil {
			b.Fatal(err)
		}
	}
}
