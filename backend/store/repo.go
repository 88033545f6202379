package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// settingRow is a row of settings: one JSON value per key.
type settingRow struct {
	Key       string `gorm:"column:key;primaryKey"`
	Value     string `gorm:"column:value"`
	UpdatedAt time.Time
}

// TableName names the table of settingRow.
func (settingRow) TableName() string { return "settings" }

// uiStateRow is a row of ui_state: one opaque string per key.
type uiStateRow struct {
	Key       string `gorm:"column:key;primaryKey"`
	Value     string `gorm:"column:value"`
	UpdatedAt time.Time
}

// TableName names the table of uiStateRow.
func (uiStateRow) TableName() string { return "ui_state" }

// upsertOnKey replaces value and updated_at of an existing row with the same key.
var upsertOnKey = clause.OnConflict{
	Columns:   []clause.Column{{Name: "key"}},
	DoUpdates: clause.AssignmentColumns([]string{"value", "updated_at"}),
}

// GetSetting decodes the JSON value stored under key into into, which must be
// a pointer. It reports found == false, and leaves into alone, when the key is
// unset.
func (s *Store) GetSetting(ctx context.Context, key string, into any) (found bool, err error) {
	var row settingRow
	err = s.db.WithContext(ctx).Where("key = ?", key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("get setting %q: %w", key, err)
	}
	if err := json.Unmarshal([]byte(row.Value), into); err != nil {
		return true, fmt.Errorf("decode setting %q: %w", key, err)
	}
	return true, nil
}

// PutSetting stores v as JSON under key, replacing any previous value.
func (s *Store) PutSetting(ctx context.Context, key string, v any) error {
	if key == "" {
		return errors.New("put setting: empty key")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode setting %q: %w", key, err)
	}
	row := settingRow{Key: key, Value: string(b), UpdatedAt: time.Now().UTC()}
	if err := s.db.WithContext(ctx).Clauses(upsertOnKey).Create(&row).Error; err != nil {
		return fmt.Errorf("put setting %q: %w", key, err)
	}
	return nil
}

// GetUIState returns the value stored under key and whether it was set.
func (s *Store) GetUIState(ctx context.Context, key string) (string, bool, error) {
	var row uiStateRow
	err := s.db.WithContext(ctx).Where("key = ?", key).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("get ui state %q: %w", key, err)
	}
	return row.Value, true, nil
}

// PutUIState stores value under key, replacing any previous value.
func (s *Store) PutUIState(ctx context.Context, key, value string) error {
	if key == "" {
		return errors.New("put ui state: empty key")
	}
	row := uiStateRow{Key: key, Value: value, UpdatedAt: time.Now().UTC()}
	if err := s.db.WithContext(ctx).Clauses(upsertOnKey).Create(&row).Error; err != nil {
		return fmt.Errorf("put ui state %q: %w", key, err)
	}
	return nil
}
