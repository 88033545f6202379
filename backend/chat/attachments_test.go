package chat

import (
	"bytes"
	"encoding/base64"
	"errors"
	"image"
	"image/png"
	"strings"
	"testing"

	"mcpdesk/backend/attach"
	"mcpdesk/backend/attach/attachtest"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/store"
	"mcpdesk/backend/usererr"
)

func pngBytes(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// An image reaches each provider in its own byte format, a text file after
// the message as a fenced block; regenerating stores no second copy.
func TestAttachmentsReachTheModel(t *testing.T) {
	for _, ollama := range []bool{false, true} {
		name := "openai"
		if ollama {
			name = "ollama"
		}
		t.Run(name, func(t *testing.T) {
			en := newEnv(t, envConfig{ollama: ollama})
			en.llm.Script(llmtest.TextTurn("A red square."), llmtest.TextTurn("Still a square."))
			img := pngBytes(t, 4, 3)
			pic, err := en.e.AddAttachment(en.ctx, "/home/me/square.png", img)
			if err != nil {
				t.Fatal(err)
			}
			if pic.Kind != store.AttachImage || pic.Name != "square.png" || pic.Width != 4 || pic.Hash != store.HashOf(img) {
				t.Fatalf("image ref %+v", pic)
			}
			notes, err := en.e.AddAttachment(en.ctx, "notes.md", []byte("# Notes\n```go\nx := 1\n```\n"))
			if err != nil {
				t.Fatal(err)
			}
			conv := en.newConv(nil)
			// What the caller says of a file does not count: Go's own record does.
			lying := pic
			lying.MIMEType, lying.Kind, lying.Size = "text/plain", store.AttachText, 1
			res, err := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "What is this?", Attachments: []store.Attachment{lying, notes}})
			if err != nil {
				t.Fatal(err)
			}
			en.done(res.TurnID)
			req := en.llm.Requests()[0]
			user := req.Messages()[len(req.Messages())-1]
			want := base64.StdEncoding.EncodeToString(img)
			if ollama {
				// Ollama: the message's images, base64, and its text content.
				imgs, _ := user["images"].([]any)
				if len(imgs) != 1 || imgs[0] != want {
					t.Errorf("ollama images = %v", user["images"])
				}
				if c, _ := user["content"].(string); !strings.HasPrefix(c, "What is this?") || !strings.Contains(c, "Attached file \"notes.md\" (text/markdown):\n````\n# Notes\n```go") {
					t.Errorf("ollama content = %q", c)
				}
			} else {
				// OpenAI: content parts, the text first, then the image as a data: URL.
				parts, _ := user["content"].([]any)
				if len(parts) != 2 {
					t.Fatalf("openai content = %s", req.Raw)
				}
				text, _ := parts[0].(map[string]any)
				image, _ := parts[1].(map[string]any)
				url, _ := image["image_url"].(map[string]any)
				if text["type"] != "text" || !strings.Contains(text["text"].(string), "x := 1") || image["type"] != "image_url" || url["url"] != "data:image/png;base64,"+want {
					t.Errorf("openai parts = %v", parts)
				}
			}
			msgs := en.messages(conv.ID)
			if a := msgs[0].Attachments; len(a) != 2 || a[0].MIMEType != "image/png" || a[0].Kind != store.AttachImage || a[0].Size != int64(len(img)) {
				t.Errorf("stored refs %+v", a)
			}
			res, err = en.e.Regenerate(en.ctx, conv.ID)
			if err != nil {
				t.Fatal(err)
			}
			en.done(res.TurnID)
			if n, _, _ := en.st.AttachmentStats(en.ctx); n != 2 {
				t.Errorf("%d files stored after a regenerate, want 2", n)
			}
			if second := en.llm.Requests()[1]; !bytes.Contains(second.Raw, []byte(want)) {
				t.Error("the regenerated request lacks the image")
			}
		})
	}
}

// A PDF goes to the model as its text, named with its pages.
func TestPDFAttachmentGoesAsText(t *testing.T) {
	en := newEnv(t, envConfig{})
	en.llm.Script(llmtest.TextTurn("Revenue grew."))
	pdf := attachtest.PDF("Quarterly revenue grew by 12 percent")
	a, err := en.e.AddAttachment(en.ctx, "q3.pdf", pdf)
	if err != nil {
		t.Fatal(err)
	}
	if a.Kind != store.AttachPDF || a.Pages != 1 || a.TextHash == "" {
		t.Fatalf("%+v", a)
	}
	conv := en.newConv(nil)
	res, err := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "Summarise", Attachments: []store.Attachment{a}})
	if err != nil {
		t.Fatal(err)
	}
	en.done(res.TurnID)
	body := string(en.llm.Requests()[0].Raw)
	if !strings.Contains(body, `Attached file \"q3.pdf\" (application/pdf, the text of its 1 pages)`) || !strings.Contains(body, "Quarterly revenue grew by 12 percent") || strings.Contains(body, "%PDF") {
		t.Errorf("request = %s", body)
	}
}

// Refused before anything is stored: an image for a model known to see
// none, and a file that is not (or no longer) stored.
func TestAttachmentsRefusedBeforeSending(t *testing.T) {
	en := newEnv(t, envConfig{})
	pic, err := en.e.AddAttachment(en.ctx, "a.png", pngBytes(t, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	conv := en.newConv(func(s *store.ConversationSettings) { s.Provider, s.Model = en.provider.ID, "gpt-3.5-turbo" })
	_, err = en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "see", Attachments: []store.Attachment{pic}})
	var ue *usererr.Error
	if !errors.As(err, &ue) || ue.Code != usererr.ChatNoImages || !strings.Contains(err.Error(), "gpt-3.5-turbo does not take images") {
		t.Errorf("text-only model: %v", err)
	}
	gone := store.Attachment{Name: "gone.png", Hash: store.HashOf([]byte("never stored"))}
	_, err = en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "see", Attachments: []store.Attachment{gone}})
	if !errors.As(err, &ue) || ue.Code != usererr.ChatNoAttachment || !strings.Contains(err.Error(), "gone.png") {
		t.Errorf("missing file: %v", err)
	}
	if msgs := en.messages(conv.ID); len(msgs) != 0 || len(en.llm.Requests()) != 0 {
		t.Errorf("%d messages stored, %d requests sent", len(msgs), len(en.llm.Requests()))
	}
	if _, err := en.e.AddAttachment(en.ctx, "tool.exe", append([]byte("MZ"), make([]byte, 64)...)); !errors.Is(err, attach.ErrUnsupported) {
		t.Errorf("an executable: %v", err)
	}
}

// Ollama says which installed models see images (/api/show capabilities):
// its word wins over the name table both ways.
func TestOllamaSaysWhichModelsSeeImages(t *testing.T) {
	en := newEnv(t, envConfig{ollama: true})
	en.llm.SetModels("llama3.2-vision:11b", "llava:7b", "qwen3:8b")
	en.llm.SetVisionModels("llava:7b")
	ref := func(m string) providers.ModelRef { return providers.ModelRef{Provider: en.provider.ID, Model: m} }
	if !en.e.ModelTakesImages(en.ctx, ref("llava:7b")) {
		t.Error("llava: Ollama lists vision")
	}
	// A name that says vision, installed without it (a text-only build).
	if en.e.ModelTakesImages(en.ctx, ref("llama3.2-vision:11b")) {
		t.Error("llama3.2-vision: Ollama does not list vision")
	}
	// Not installed: Ollama cannot say, the name table decides.
	if !en.e.ModelTakesImages(en.ctx, ref("gemma3:27b")) || en.e.ModelTakesImages(en.ctx, ref("llama3.1:8b")) {
		t.Error("models Ollama does not know fall back to the name table")
	}
	pic, err := en.e.AddAttachment(en.ctx, "a.png", pngBytes(t, 2, 2))
	if err != nil {
		t.Fatal(err)
	}
	conv := en.newConv(func(s *store.ConversationSettings) { s.Provider, s.Model = en.provider.ID, "qwen3:8b" })
	if _, err := en.e.Send(en.ctx, SendRequest{ConversationID: conv.ID, Text: "see", Attachments: []store.Attachment{pic}}); err == nil || !strings.Contains(err.Error(), "does not take images") {
		t.Errorf("qwen3 without vision: %v", err)
	}
}
