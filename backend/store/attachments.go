package store

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// Attachments (issue 16, SPEC D10). The files a user attaches to a message
// are stored once each, by the SHA-256 of their bytes, in the attachments
// table; a message keeps references to them (Attachment). Editing or
// regenerating copies references, never bytes, and a file attached twice
// is stored once. The text extracted from a PDF is stored the same way,
// named by its reference's TextHash. Files no message refers to any more
// (removed from the composer, or their conversation deleted) are dropped
// when the database is opened (PruneAttachments).

// AttachmentKind is what an attachment is to the model.
type AttachmentKind string

const (
	// AttachImage goes to vision models as an image.
	AttachImage AttachmentKind = "image"
	// AttachText (a text or code file) goes to every model as its text.
	AttachText AttachmentKind = "text"
	// AttachPDF goes to every model as the text extracted from it.
	AttachPDF AttachmentKind = "pdf"
)

// Attachment is a file attached to a user message: a reference to its
// bytes (Hash) with what the chat needs to know of it without reading them.
type Attachment struct {
	Name     string         `json:"name,omitempty"`
	MIMEType string         `json:"mimeType"`
	Kind     AttachmentKind `json:"kind"`
	// Hash is the SHA-256 of the bytes, in hex: their key in the table.
	Hash string `json:"hash"`
	Size int64  `json:"size"`
	// TextHash names the text extracted from a PDF (UTF-8, stored alike).
	TextHash string `json:"textHash,omitempty"`
	// Width and Height of an image, in pixels (as sent, after any downscaling).
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Pages of a PDF.
	Pages int `json:"pages,omitempty"`
}

// ErrAttachmentNotFound is returned for bytes the table does not hold.
var ErrAttachmentNotFound = errors.New("attachment not found")

// HashOf is the key of data.
func HashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// attachmentRow is a row of attachments.
type attachmentRow struct {
	Hash      string `gorm:"primaryKey"`
	MIMEType  string `gorm:"column:mime_type"`
	Size      int64
	Data      []byte
	CreatedAt time.Time
}

func (attachmentRow) TableName() string { return "attachments" }

// createAttachments is migration 10: the table, and the files messages
// held inline until then moved into it.
func createAttachments(tx *gorm.DB) error {
	if err := tx.Exec(`CREATE TABLE attachments (
		hash       TEXT PRIMARY KEY CHECK (length(hash) = 64),
		mime_type  TEXT NOT NULL,
		size       INTEGER NOT NULL CHECK (size >= 0),
		data       BLOB NOT NULL,
		created_at DATETIME NOT NULL
	)`).Error; err != nil {
		return err
	}
	var rows []struct {
		ID          int64
		Attachments string
	}
	if err := tx.Raw(`SELECT id, attachments FROM messages WHERE attachments IS NOT NULL`).Scan(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		var inline []struct {
			Name     string `json:"name"`
			MIMEType string `json:"mimeType"`
			Data     string `json:"data"`
		}
		if err := json.Unmarshal([]byte(r.Attachments), &inline); err != nil {
			return fmt.Errorf("message %d: attachments: %w", r.ID, err)
		}
		refs := make([]Attachment, 0, len(inline))
		for _, a := range inline {
			data, err := base64.StdEncoding.DecodeString(a.Data)
			if err != nil {
				return fmt.Errorf("message %d: an attachment is not base64: %w", r.ID, err)
			}
			hash, err := putAttachment(tx, a.MIMEType, data)
			if err != nil {
				return err
			}
			kind := AttachText
			if strings.HasPrefix(a.MIMEType, "image/") {
				kind = AttachImage
			}
			refs = append(refs, Attachment{Name: a.Name, MIMEType: a.MIMEType, Kind: kind, Hash: hash, Size: int64(len(data))})
		}
		b, _ := json.Marshal(refs)
		if err := tx.Exec(`UPDATE messages SET attachments = ? WHERE id = ?`, string(b), r.ID).Error; err != nil {
			return err
		}
	}
	return nil
}

func putAttachment(db *gorm.DB, mimeType string, data []byte) (string, error) {
	hash := HashOf(data)
	err := db.Exec(`INSERT INTO attachments (hash, mime_type, size, data, created_at) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (hash) DO UPDATE SET created_at = excluded.created_at`,
		hash, mimeType, len(data), data, now()).Error
	if err != nil {
		return "", fmt.Errorf("store attachment: %w", err)
	}
	return hash, nil
}

// PutAttachment stores data (once: the same bytes again keep their row, as
// fresh as now) and returns its hash.
func (s *Store) PutAttachment(ctx context.Context, mimeType string, data []byte) (string, error) {
	return putAttachment(s.db.WithContext(ctx), mimeType, data)
}

// AttachmentData returns the bytes of hash and the type they were stored as.
func (s *Store) AttachmentData(ctx context.Context, hash string) (mimeType string, data []byte, err error) {
	var r attachmentRow
	err = s.db.WithContext(ctx).Where("hash = ?", hash).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", nil, ErrAttachmentNotFound
	}
	if err != nil {
		return "", nil, fmt.Errorf("read attachment: %w", err)
	}
	return r.MIMEType, r.Data, nil
}

// AttachmentStats is how many files the table holds and their bytes.
func (s *Store) AttachmentStats(ctx context.Context) (count, bytes int64, err error) {
	var r struct{ N, B int64 }
	err = s.db.WithContext(ctx).Raw(`SELECT count(*) AS n, coalesce(sum(size), 0) AS b FROM attachments`).Scan(&r).Error
	return r.N, r.B, err
}

// PruneAttachments drops the files stored before `before` that no message
// refers to (by Hash or TextHash) and returns how many went.
func (s *Store) PruneAttachments(ctx context.Context, before time.Time) (int64, error) {
	res := s.db.WithContext(ctx).Exec(`DELETE FROM attachments WHERE created_at < ? AND hash NOT IN (
		SELECT json_extract(j.value, '$.hash') FROM messages m, json_each(m.attachments) j
		WHERE m.attachments IS NOT NULL AND json_extract(j.value, '$.hash') IS NOT NULL
		UNION
		SELECT json_extract(j.value, '$.textHash') FROM messages m, json_each(m.attachments) j
		WHERE m.attachments IS NOT NULL AND json_extract(j.value, '$.textHash') IS NOT NULL)`, before)
	if res.Error != nil {
		return 0, fmt.Errorf("prune attachments: %w", res.Error)
	}
	return res.RowsAffected, nil
}

// AttachmentType returns the type and size hash was stored with.
func (s *Store) AttachmentType(ctx context.Context, hash string) (mimeType string, size int64, err error) {
	var r struct {
		MIMEType string
		Size     int64
	}
	res := s.db.WithContext(ctx).Raw(`SELECT mime_type, size FROM attachments WHERE hash = ?`, hash).Scan(&r)
	if res.Error != nil {
		return "", 0, fmt.Errorf("read attachment: %w", res.Error)
	}
	if res.RowsAffected == 0 {
		return "", 0, ErrAttachmentNotFound
	}
	return r.MIMEType, r.Size, nil
}
