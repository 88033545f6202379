package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"
)

// SavedRequest is a tool call the user kept for later (SPEC B1): a name,
// a description and the arguments, per server.
type SavedRequest struct {
	ID          int64          `json:"id"`
	Server      string         `json:"server"`
	Tool        string         `json:"tool"`
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Arguments   map[string]any `json:"arguments"`
	CreatedAt   time.Time      `json:"createdAt,omitzero"`
	UpdatedAt   time.Time      `json:"updatedAt,omitzero"`
}

type savedRequestRow struct {
	ID          int64 `gorm:"primaryKey"`
	Server      string
	Tool        string
	Name        string
	Description string
	Arguments   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

func (savedRequestRow) TableName() string { return "saved_requests" }

// ErrNameTaken is returned when a server already has a saved request of
// that name.
var ErrNameTaken = errors.New("a saved request with this name already exists for this server")

// SavedRequests returns a server's saved requests, by name.
func (s *Store) SavedRequests(ctx context.Context, server string) ([]SavedRequest, error) {
	var rows []savedRequestRow
	if err := s.db.WithContext(ctx).Where("server = ?", server).Order("name COLLATE NOCASE").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list saved requests: %w", err)
	}
	out := make([]SavedRequest, 0, len(rows))
	for _, r := range rows {
		sr := SavedRequest{ID: r.ID, Server: r.Server, Tool: r.Tool, Name: r.Name, Description: r.Description, CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt}
		if err := json.Unmarshal([]byte(r.Arguments), &sr.Arguments); err != nil {
			return nil, fmt.Errorf("saved request %q: arguments: %w", r.Name, err)
		}
		out = append(out, sr)
	}
	return out, nil
}

// MaxSavedArguments bounds the JSON of a saved request's arguments.
const MaxSavedArguments = 256 << 10

// SaveRequest inserts r (ID 0) or updates the request with r.ID, and
// returns it as stored. Names are trimmed and must be unique per server.
func (s *Store) SaveRequest(ctx context.Context, r SavedRequest) (SavedRequest, error) {
	r.Name = strings.TrimSpace(r.Name)
	switch {
	case r.Server == "" || r.Tool == "":
		return SavedRequest{}, errors.New("a saved request needs a server and a tool")
	case r.Name == "":
		return SavedRequest{}, errors.New("give the request a name")
	case len(r.Name) > 200 || len(r.Description) > 4000:
		return SavedRequest{}, errors.New("the name (200) or description (4000 characters) is too long")
	}
	if r.Arguments == nil {
		r.Arguments = map[string]any{}
	}
	args, err := json.Marshal(r.Arguments)
	if err != nil {
		return SavedRequest{}, fmt.Errorf("arguments: %w", err)
	}
	if len(args) > MaxSavedArguments {
		return SavedRequest{}, fmt.Errorf("the arguments are too large to save: %d KB as JSON, at most %d KB", len(args)>>10, MaxSavedArguments>>10)
	}
	now := time.Now().UTC()
	row := savedRequestRow{ID: r.ID, Server: r.Server, Tool: r.Tool, Name: r.Name, Description: r.Description, Arguments: string(args), UpdatedAt: now}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var clash int64
		if err := tx.Model(&savedRequestRow{}).Where("server = ? AND name = ? AND id <> ?", r.Server, r.Name, r.ID).Count(&clash).Error; err != nil {
			return err
		}
		if clash > 0 {
			return fmt.Errorf("%q: %w", r.Name, ErrNameTaken)
		}
		if r.ID == 0 {
			row.CreatedAt = now
			return tx.Create(&row).Error
		}
		var old savedRequestRow
		if err := tx.First(&old, r.ID).Error; err != nil {
			return fmt.Errorf("saved request %d: %w", r.ID, err)
		}
		row.CreatedAt = old.CreatedAt
		return tx.Save(&row).Error
	})
	if err != nil {
		return SavedRequest{}, fmt.Errorf("save request: %w", err)
	}
	r.ID, r.CreatedAt, r.UpdatedAt = row.ID, row.CreatedAt, row.UpdatedAt
	return r, nil
}

// DeleteSavedRequest removes one saved request; a missing one is not an error.
func (s *Store) DeleteSavedRequest(ctx context.Context, id int64) error {
	if err := s.db.WithContext(ctx).Delete(&savedRequestRow{}, id).Error; err != nil {
		return fmt.Errorf("delete saved request: %w", err)
	}
	return nil
}
