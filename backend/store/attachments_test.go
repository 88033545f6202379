package store

import (
	"context"
	"encoding/base64"
	"path/filepath"
	"testing"
	"time"

	"gorm.io/driver/sqlite"
	"gorm.io/gorm"
)

// A file attached to several messages, an edit and a regenerate is stored
// once; what no message refers to is dropped when the database opens.
func TestAttachmentsAreStoredOnceByContent(t *testing.T) {
	dir := t.TempDir()
	st := openTest(t, dir)
	ctx := context.Background()
	c := newConversation(t, st, "files")
	photo := []byte("a photo's bytes")
	h1, err := st.PutAttachment(ctx, "image/png", photo)
	if err != nil {
		t.Fatal(err)
	}
	h2, _ := st.PutAttachment(ctx, "image/png", photo)
	if h1 != h2 || h1 != HashOf(photo) {
		t.Fatalf("hashes %s %s", h1, h2)
	}
	ref := Attachment{Name: "p.png", MIMEType: "image/png", Kind: AttachImage, Hash: h1, Size: int64(len(photo))}
	for range 3 {
		appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "again", Attachments: []Attachment{ref}})
	}
	if n, size, _ := st.AttachmentStats(ctx); n != 1 || size != int64(len(photo)) {
		t.Errorf("%d files of %d bytes, want 1 of %d", n, size, len(photo))
	}
	mt, data, err := st.AttachmentData(ctx, h1)
	if err != nil || mt != "image/png" || string(data) != string(photo) {
		t.Errorf("read back %q %q %v", mt, data, err)
	}
	if _, _, err := st.AttachmentData(ctx, HashOf([]byte("nothing"))); err != ErrAttachmentNotFound {
		t.Errorf("missing: %v", err)
	}

	// Not referred to: a file left in a closed composer, a PDF's text.
	orphan, _ := st.PutAttachment(ctx, "text/plain", []byte("never sent"))
	pdf, _ := st.PutAttachment(ctx, "application/pdf", []byte("%PDF"))
	text, _ := st.PutAttachment(ctx, "text/plain", []byte("the PDF's text"))
	appendMsg(t, st, Message{ConversationID: c.ID, Role: RoleUser, Content: "pdf",
		Attachments: []Attachment{{Name: "r.pdf", MIMEType: "application/pdf", Kind: AttachPDF, Hash: pdf, TextHash: text}}})
	// Within the grace period nothing goes.
	if n, err := st.PruneAttachments(ctx, time.Now().Add(-time.Hour)); err != nil || n != 0 {
		t.Errorf("pruned %d (%v) within the grace period", n, err)
	}
	if n, err := st.PruneAttachments(ctx, time.Now().Add(time.Minute)); err != nil || n != 1 {
		t.Errorf("pruned %d (%v), want the orphan alone", n, err)
	}
	if _, _, err := st.AttachmentData(ctx, orphan); err != ErrAttachmentNotFound {
		t.Errorf("the orphan is still stored: %v", err)
	}
	for _, h := range []string{h1, pdf, text} {
		if _, _, err := st.AttachmentData(ctx, h); err != nil {
			t.Errorf("%s: %v", h, err)
		}
	}
	// The conversation deleted, its files go too.
	if err := st.DeleteConversation(ctx, c.ID); err != nil {
		t.Fatal(err)
	}
	if n, _ := st.PruneAttachments(ctx, time.Now().Add(time.Minute)); n != 3 {
		t.Errorf("pruned %d after the conversation went, want 3", n)
	}
}

// A database written before attachments had their table (schema 9) kept
// files in the message rows: they move into the table, each once.
func TestMigrationMovesInlineAttachments(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()
	path := filepath.Join(dir, DBFileName)
	dsn, _ := buildDSN(path)
	old, err := gorm.Open(sqlite.Open(dsn), &gorm.Config{})
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, old, path, migrations[:9]); err != nil {
		t.Fatalf("migrate to 9: %v", err)
	}
	ts := time.Now().UTC()
	old.Exec(`INSERT INTO conversations (id, title, provider, model, created_at, updated_at) VALUES (1, 'old', 'p', 'm', ?, ?)`, ts, ts)
	img := base64.StdEncoding.EncodeToString([]byte("old image"))
	for seq, atts := range []string{
		`[{"name":"a.png","mimeType":"image/png","data":"` + img + `"}]`,
		`[{"name":"again.png","mimeType":"image/png","data":"` + img + `"},{"name":"n.txt","mimeType":"text/plain","data":"` + base64.StdEncoding.EncodeToString([]byte("notes")) + `"}]`,
	} {
		if err := old.Exec(`INSERT INTO messages (conversation_id, seq, role, content, attachments, created_at, updated_at) VALUES (1, ?, 'user', 'q', ?, ?, ?)`,
			seq+1, atts, ts, ts).Error; err != nil {
			t.Fatal(err)
		}
	}
	sqlDB, _ := old.DB()
	sqlDB.Close()

	st := openTest(t, dir)
	msgs, err := st.Messages(ctx, 1)
	if err != nil || len(msgs) != 2 {
		t.Fatalf("%d messages: %v", len(msgs), err)
	}
	a, b := msgs[0].Attachments[0], msgs[1].Attachments
	if a.Hash != HashOf([]byte("old image")) || a.Kind != AttachImage || a.Size != 9 || a.Name != "a.png" || b[0].Hash != a.Hash || b[1].Kind != AttachText {
		t.Errorf("migrated: %+v %+v", a, b)
	}
	if n, size, _ := st.AttachmentStats(ctx); n != 2 || size != 9+5 {
		t.Errorf("%d files of %d bytes, want 2 of 14", n, size)
	}
	if _, data, err := st.AttachmentData(ctx, b[1].Hash); err != nil || string(data) != "notes" {
		t.Errorf("notes: %q %v", data, err)
	}
}
