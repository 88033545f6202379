package cli

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mcpdesk/backend/attach/attachtest"
	"mcpdesk/backend/llm/llmtest"
)

// mcpdesk chat --attach sends files with the message, as the window does:
// an image as the provider's image part, a PDF's text after the message.
func TestChatAttach(t *testing.T) {
	useMemoryKeychain(t)
	fake := llmtest.NewOpenAI(t)
	c := &cliTranscript{t: t, dir: t.TempDir()}
	if code, _, errOut := c.run("", "providers", "add", "--name", "Fake AI", "--type", "openai", "--base-url", fake.BaseURL()); code != 0 {
		t.Fatalf("providers add: %s", errOut)
	}
	files := t.TempDir()
	var img bytes.Buffer
	if err := png.Encode(&img, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	shot, report := filepath.Join(files, "shot.png"), filepath.Join(files, "report.pdf")
	os.WriteFile(shot, img.Bytes(), 0o600)
	os.WriteFile(report, attachtest.PDF("Sales doubled in June"), 0o600)

	fake.Script(llmtest.TextTurn("A chart and a report."))
	code, out, errOut := c.run("", "chat", "--model", "fake ai/gpt-4o", "--servers=", "--attach", shot, "--attach", report, "What", "are", "these?")
	if code != 0 {
		t.Fatalf("chat --attach: exit %d\nstdout %s\nstderr %s", code, out, errOut)
	}
	if !strings.Contains(out, "A chart and a report.") {
		t.Errorf("stdout %q", out)
	}
	raw := string(fake.Requests()[0].Raw)
	for _, want := range []string{`"type":"image_url"`, "data:image/png;base64," + base64.StdEncoding.EncodeToString(img.Bytes()),
		`What are these?`, `Attached file \"report.pdf\" (application/pdf, the text of its 1 pages)`, "Sales doubled in June"} {
		if !strings.Contains(raw, want) {
			t.Errorf("the request lacks %s:\n%s", want, raw)
		}
	}

	// A file that is not there, or not one the chat attaches: named, and nothing is sent.
	exe := filepath.Join(files, "tool.exe")
	os.WriteFile(exe, append([]byte("MZ"), make([]byte, 64)...), 0o600)
	for _, bad := range []string{filepath.Join(files, "missing.png"), exe, files} {
		code, _, errOut := c.run("", "chat", "--model", "fake ai/gpt-4o", "--servers=", "--attach", bad, "hi")
		if code == 0 || !strings.Contains(errOut, "--attach "+bad) {
			t.Errorf("%s: exit %d, stderr %q", bad, code, errOut)
		}
	}
	if n := len(fake.Requests()); n != 1 {
		t.Errorf("%d requests, want 1", n)
	}
}
