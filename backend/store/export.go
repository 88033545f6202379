package store

// Export of one conversation to Markdown or JSON (SPEC D1).
//
// Exports contain only what the conversations and messages tables hold —
// titles, settings, message text, tool arguments and results. No API key or
// other secret is ever stored in these tables (keys live in the system
// keychain, see package secrets), so an export cannot leak one.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"
)

// ExportFormat names and versions the JSON export.
const ExportFormat = "mcpdesk.conversation/v1"

// resultSummaryLen is how much of a tool result the Markdown export shows.
const resultSummaryLen = 500

// ConversationExport is the JSON export of one conversation.
type ConversationExport struct {
	// Format is always ExportFormat.
	Format       string       `json:"format"`
	ExportedAt   time.Time    `json:"exportedAt"`
	Conversation Conversation `json:"conversation"`
	// Messages are every message in seq order, every version of every
	// answer included: versionGroup and version say which version of which
	// user message's answer a message belongs to, and selectedVersion on a
	// user message is the version shown and sent to the model.
	Messages []Message `json:"messages"`
	// Providers are the names, at export time, of the providers the
	// conversation and its messages name by id (settings.provider, the
	// "provider-id/model" of each answer); a provider removed since is
	// absent.
	Providers map[string]string `json:"providers,omitempty"`
	// Attachments are the files the messages attached, by their hash
	// (Attachment.Hash and TextHash), each once.
	Attachments map[string]ExportedFile `json:"attachments,omitempty"`
}

// ExportJSON returns conversation id and all its messages, hidden ones and
// every answer version included, as indented JSON in the ExportFormat shape.
func (s *Store) ExportJSON(ctx context.Context, id int64) ([]byte, error) {
	c, msgs, names, files, err := s.exportData(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		files = nil
	}
	used := map[string]string{}
	for _, m := range msgs {
		if p, _ := SplitModel(m.Model); names[p] != "" {
			used[p] = names[p]
		}
	}
	if p := c.Settings.Provider; names[p] != "" {
		used[p] = names[p]
	}
	if len(used) == 0 {
		used = nil
	}
	b, err := json.MarshalIndent(ConversationExport{
		Format: ExportFormat, ExportedAt: now(), Conversation: c, Messages: msgs, Providers: used, Attachments: files,
	}, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("export conversation %d: %w", id, err)
	}
	return append(b, '\n'), nil
}

// ExportMarkdown renders conversation id for people: a title, the model
// ("Fake LLM · fake-1", by the provider's name in Settings) and date, then
// each visible message under a role heading (an answer by another model
// than the conversation's names it), reasoning
// in a <details> block, each tool call as a fenced JSON block of its
// arguments followed by a summary of its result. Tool messages answering a
// call shown above are folded into that call; hidden messages are left out.
// An answer with several versions shows each, in order, under an "Answer
// version i of n" line that names the one selected.
func (s *Store) ExportMarkdown(ctx context.Context, id int64) (string, error) {
	c, msgs, names, files, err := s.exportData(ctx, id)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	title := c.Title
	if title == "" {
		title = "Untitled conversation"
	}
	fmt.Fprintf(&b, "# %s\n\n", oneLine(title))
	fmt.Fprintf(&b, "- **Model:** %s\n", oneLine(names.ModelLabel(c.Settings.Provider, c.Settings.Model)))
	fmt.Fprintf(&b, "- **Created:** %s\n", c.CreatedAt.UTC().Format("2006-01-02 15:04 UTC"))
	if c.Settings.Temperature != nil {
		fmt.Fprintf(&b, "- **Temperature:** %g\n", *c.Settings.Temperature)
	}
	b.WriteString("- Exported from MCP Desk\n")
	if c.Settings.SystemPrompt != "" {
		writeDetails(&b, "System prompt", c.Settings.SystemPrompt)
	}

	w := markdownWriter{b: &b, shown: map[string]bool{}, branches: map[versionKey][]Message{},
		names: names, model: JoinModel(c.Settings.Provider, c.Settings.Model), files: files}
	var roots []Message
	for _, m := range msgs {
		if m.VersionGroup == 0 {
			roots = append(roots, m)
			continue
		}
		k := versionKey{m.VersionGroup, m.Version}
		w.branches[k] = append(w.branches[k], m)
	}
	w.writeAll(roots)
	return b.String(), nil
}

// writeAttachment writes an attached file: a line naming it, then the
// image itself (a data: URL) or the file's text (a PDF's extracted text)
// folded in a <details> block.
func (w *markdownWriter) writeAttachment(a Attachment) {
	name := a.Name
	if name == "" {
		name = "attachment"
	}
	what := oneLine(a.MIMEType)
	if a.Kind == AttachPDF && a.Pages > 0 {
		what += fmt.Sprintf(", %d pages", a.Pages)
	}
	fmt.Fprintf(w.b, "\n*Attached: %s (%s)*\n", oneLine(name), what)
	switch a.Kind {
	case AttachImage:
		if f, ok := w.files[a.Hash]; ok {
			fmt.Fprintf(w.b, "\n![%s](data:%s;base64,%s)\n", strings.NewReplacer("[", "", "]", "").Replace(oneLine(name)), oneLine(f.MIMEType),
				base64.StdEncoding.EncodeToString(f.Data))
		}
	case AttachText, AttachPDF:
		h := a.Hash
		if a.Kind == AttachPDF {
			h = a.TextHash
		}
		if f, ok := w.files[h]; ok {
			writeDetails(w.b, "Text of "+html.EscapeString(oneLine(name)), Fenced("", string(f.Data)))
		}
	}
}

// versionKey names one version of the answer to a user message.
type versionKey struct {
	group   int64
	version int
}

// markdownWriter writes messages, and under each user message every
// version of its answer.
type markdownWriter struct {
	b        *strings.Builder
	shown    map[string]bool // tool call ids rendered with their result
	branches map[versionKey][]Message
	names    ProviderNames
	model    string // the conversation's model, as JoinModel writes it
	files    map[string]ExportedFile
}

// writeAll writes msgs in order, each user message followed by its answer.
func (w *markdownWriter) writeAll(msgs []Message) {
	for _, m := range msgs {
		w.write(m)
		if m.Role != RoleUser {
			continue
		}
		n := m.Versions
		if n <= 1 {
			w.writeAll(w.branches[versionKey{m.ID, max(m.SelectedVersion, 1)}])
			continue
		}
		for v := 1; v <= n; v++ {
			answer := w.branches[versionKey{m.ID, v}]
			note := ""
			if v == m.SelectedVersion {
				note = " (selected)"
			}
			for _, a := range answer {
				if a.Role == RoleAssistant && a.Status == MessageInterrupted {
					note += " (stopped)"
					break
				}
			}
			fmt.Fprintf(w.b, "\n---\n\n**Answer version %d of %d**%s\n", v, n, note)
			if len(answer) == 0 {
				w.b.WriteString("\n*(empty)*\n")
			}
			w.writeAll(answer)
		}
		fmt.Fprintf(w.b, "\n---\n\n*End of the %d answer versions.*\n", n)
	}
}

// write writes one message under a role heading.
func (w *markdownWriter) write(m Message) {
	b := w.b
	if m.Hidden || m.Role == RoleTool && w.shown[m.ToolCallID] {
		return
	}
	fmt.Fprintf(b, "\n## %s\n", roleHeading(m.Role))
	if m.Role == RoleAssistant && m.Model != "" && m.Model != w.model {
		fmt.Fprintf(b, "\n*Model: %s*\n", oneLine(w.names.ModelLabel(SplitModel(m.Model))))
	}
	if m.Reasoning != "" {
		writeDetails(b, "Reasoning", m.Reasoning)
	}
	if m.Role == RoleTool {
		fmt.Fprintf(b, "\nResult of call `%s`:\n\n", m.ToolCallID)
		b.WriteString(Fenced("text", clip(m.Content, resultSummaryLen)))
	} else if m.Content != "" {
		b.WriteString("\n" + strings.TrimRight(m.Content, "\n") + "\n")
	}
	for _, a := range m.Attachments {
		w.writeAttachment(a)
	}
	for _, tc := range m.ToolCalls {
		writeToolCall(b, tc)
		w.shown[tc.ID] = true
	}
	switch m.Status {
	case MessageInterrupted:
		b.WriteString("\n*(interrupted)*\n")
	case MessageStreaming:
		b.WriteString("\n*(still streaming when exported)*\n")
	case MessageError:
		fmt.Fprintf(b, "\n*Error: %s*\n", oneLine(m.Error))
	}
}

// exportData reads a conversation, its messages, the providers' names and
// the files its messages have attached.
func (s *Store) exportData(ctx context.Context, id int64) (Conversation, []Message, ProviderNames, map[string]ExportedFile, error) {
	c, err := s.GetConversation(ctx, id)
	if err != nil {
		return Conversation{}, nil, nil, nil, err
	}
	msgs, err := s.AllMessages(ctx, id)
	if err != nil {
		return Conversation{}, nil, nil, nil, err
	}
	names, err := s.ProviderNames(ctx)
	if err != nil {
		return Conversation{}, nil, nil, nil, err
	}
	files := map[string]ExportedFile{}
	for _, m := range msgs {
		for _, a := range m.Attachments {
			for _, h := range []string{a.Hash, a.TextHash} {
				if _, done := files[h]; h == "" || done {
					continue
				}
				mt, data, err := s.AttachmentData(ctx, h)
				if errors.Is(err, ErrAttachmentNotFound) {
					continue // pruned: the reference stays, the bytes are gone
				}
				if err != nil {
					return Conversation{}, nil, nil, nil, err
				}
				files[h] = ExportedFile{MIMEType: mt, Data: data}
			}
		}
	}
	return c, msgs, names, files, nil
}

// ExportedFile is an attached file in an export: its type and bytes
// (base64 in JSON).
type ExportedFile struct {
	MIMEType string `json:"mimeType"`
	Data     []byte `json:"data"`
}

// writeToolCall renders one tool call: a heading line with server, tool,
// status, duration and approval, the arguments as JSON, then the result.
func writeToolCall(b *strings.Builder, tc ToolCall) {
	name := tc.Name
	if tc.Server != "" && tc.Tool != "" {
		name = tc.Server + " / " + tc.Tool
	}
	facts := []string{string(tc.Status)}
	if tc.DurationMs > 0 {
		facts = append(facts, fmt.Sprintf("%d ms", tc.DurationMs))
	}
	if tc.Approval != "" {
		facts = append(facts, "approval: "+string(tc.Approval))
	}
	fmt.Fprintf(b, "\n**Tool call** `%s` — %s\n\n", oneLine(name), strings.Join(facts, ", "))
	b.WriteString(Fenced("json", prettyJSON(tc.Arguments)))
	if summary := resultSummary(tc); summary != "" {
		b.WriteString("\nResult:\n\n")
		b.WriteString(Fenced("text", summary))
	}
}

// resultSummary is the text of a tool call's outcome, cut to
// resultSummaryLen characters: its error, or the text blocks of its
// CallToolResult with a note for each non-text block.
func resultSummary(tc ToolCall) string {
	var parts []string
	if tc.Error != "" {
		parts = append(parts, "Error: "+tc.Error)
	}
	if len(tc.Result) > 0 {
		var res struct {
			Content []struct {
				Type     string `json:"type"`
				Text     string `json:"text"`
				MIMEType string `json:"mimeType"`
				URI      string `json:"uri"`
				Resource *struct {
					URI  string `json:"uri"`
					Text string `json:"text"`
				} `json:"resource"`
			} `json:"content"`
			IsError bool `json:"isError"`
		}
		if err := json.Unmarshal(tc.Result, &res); err != nil || res.Content == nil {
			parts = append(parts, string(tc.Result))
		} else {
			if res.IsError {
				parts = append(parts, "(the tool reported an error)")
			}
			for _, c := range res.Content {
				switch {
				case c.Type == "text":
					parts = append(parts, c.Text)
				case c.Type == "resource" && c.Resource != nil:
					parts = append(parts, "[resource "+c.Resource.URI+"] "+c.Resource.Text)
				case c.Type == "resource_link":
					parts = append(parts, "[link "+c.URI+"]")
				default:
					parts = append(parts, strings.TrimSpace("["+c.Type+" "+c.MIMEType+"]"))
				}
			}
		}
	}
	if len(parts) == 0 && tc.Status == ToolCallDeclined {
		parts = append(parts, "Declined")
	}
	return clip(strings.TrimSpace(strings.Join(parts, "\n")), resultSummaryLen)
}

// writeDetails writes a collapsed <details> block around Markdown text.
func writeDetails(b *strings.Builder, summary, body string) {
	fmt.Fprintf(b, "\n<details>\n<summary>%s</summary>\n\n%s\n\n</details>\n", summary, strings.TrimRight(body, "\n"))
}

// Fenced returns body in a code fence longer than any backtick run inside
// it, so no content can close the fence early.
func Fenced(lang, body string) string {
	longest, run := 0, 0
	for _, r := range body {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	fence := strings.Repeat("`", max(3, longest+1))
	return fence + lang + "\n" + strings.TrimRight(body, "\n") + "\n" + fence + "\n"
}

// prettyJSON indents JSON text, keeping its key order; text that is not
// JSON comes back as is.
func prettyJSON(s string) string {
	if strings.TrimSpace(s) == "" {
		return "{}"
	}
	var b bytes.Buffer
	if err := json.Indent(&b, []byte(s), "", "  "); err != nil {
		return s
	}
	return b.String()
}

// roleHeading names a role for a heading.
func roleHeading(r Role) string {
	switch r {
	case RoleUser:
		return "User"
	case RoleAssistant:
		return "Assistant"
	case RoleSystem:
		return "System"
	case RoleTool:
		return "Tool result"
	}
	return string(r)
}

// oneLine collapses whitespace so a value cannot break a heading or list item.
func oneLine(s string) string { return collapseSpace(s) }
