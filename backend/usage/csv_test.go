package usage

import (
	"encoding/csv"
	"strings"
	"testing"
)

func TestCSVExportContent(t *testing.T) {
	f := newFixture(t)
	q := UsageQuery{From: "2025-05-01", To: "2025-05-03"}
	crlf := func(lines ...string) string { return strings.Join(lines, "\r\n") + "\r\n" }
	for by, want := range map[ExportBy]string{
		ByDay: crlf(
			"day,calls,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,cost_note",
			"2025-05-01,2,3000,600,200,40,0.01325,",
			"2025-05-02,3,11500,1150,4400,600,,no price set for 1 of 3 calls; the others cost 0.002881",
			"2025-05-03,1,100,20,0,0,0.00014,",
		),
		ByProvider: crlf(
			"provider,provider_name,calls,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,cost_note",
			"openai-a1,OpenAI,3,3100,620,200,40,0.01339,",
			"ds-b2,DeepSeek,1,10000,1000,4000,600,0.002212,",
			"groq-d4,Groq,1,1000,100,400,0,0.000669,",
			"local-c3,Local,1,500,50,0,0,,no price set",
		),
		ByModel: crlf(
			"provider,provider_name,model,calls,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,cost_note",
			"openai-a1,OpenAI,gpt-4o,1,1000,500,200,0,0.00725,",
			"openai-a1,OpenAI,gpt-4o-2024-08-06,1,2000,100,0,40,0.006,",
			"ds-b2,DeepSeek,deepseek-reasoner,1,10000,1000,4000,600,0.002212,",
			"groq-d4,Groq,llama-3.3-70b-versatile,1,1000,100,400,0,0.000669,",
			"openai-a1,OpenAI,gpt-4o-mini,1,100,20,0,0,0.00014,",
			"local-c3,Local,llama3.2,1,500,50,0,0,,no price set",
		),
		ByConversation: crlf(
			"conversation_id,title,calls,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,cost_note",
			`1,"First chat, with ""quotes""",2,3000,600,200,40,0.01325,`,
			"2,Second,2,10500,1050,4000,600,,no price set for 1 of 2 calls; the others cost 0.002212",
			"3,Deleted conversation #3,1,1000,100,400,0,0.000669,",
			"0,No conversation,1,100,20,0,0,0.00014,",
		),
		ByCalls: crlf(
			"time,conversation_id,provider,provider_name,preset,model,kind,prompt_tokens,completion_tokens,cached_tokens,reasoning_tokens,cost_usd,cost_note",
			"2025-05-01T10:00:00.000Z,1,openai-a1,OpenAI,openai,gpt-4o,chat,1000,500,200,0,0.00725,",
			"2025-05-01T11:00:00.000Z,1,openai-a1,OpenAI,openai,gpt-4o-2024-08-06,chat,2000,100,0,40,0.006,",
			"2025-05-02T09:00:00.000Z,2,ds-b2,DeepSeek,deepseek,deepseek-reasoner,chat,10000,1000,4000,600,0.002212,",
			"2025-05-02T12:00:00.000Z,3,groq-d4,Groq,groq,llama-3.3-70b-versatile,fallback,1000,100,400,0,0.000669,",
			"2025-05-02T23:30:00.000Z,2,local-c3,Local,,llama3.2,chat,500,50,0,0,,no price set",
			"2025-05-03T00:10:00.000Z,,openai-a1,OpenAI,openai,gpt-4o-mini,sampling,100,20,0,0,0.00014,",
		),
	} {
		var b strings.Builder
		if err := f.e.WriteCSV(f.ctx, &b, q, by); err != nil {
			t.Fatalf("by %s: %v", by, err)
		}
		if b.String() != want {
			t.Errorf("by %s:\n%s\nwant:\n%s", by, b.String(), want)
		}
		// It reads back as RFC 4180, every line as wide as the header.
		recs, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
		if err != nil || len(recs) < 2 {
			t.Errorf("by %s: read back %d lines, %v", by, len(recs), err)
		}
	}

	// Times of the per-call export are in the query's zone.
	var b strings.Builder
	if err := f.e.WriteCSV(f.ctx, &b, UsageQuery{From: "2025-05-01", To: "2025-05-01", TzOffsetMinutes: 5*60 + 30}, ByCalls); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(b.String()), "\r\n"); len(lines) != 4 || !strings.HasPrefix(lines[1], "2025-05-01T05:29:00.000+05:30,1,") {
		t.Errorf("UTC+05:30 export:\n%s", b.String())
	}
}
