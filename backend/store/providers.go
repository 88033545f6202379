package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"gorm.io/gorm"
)

// createProviders is migration 4: the LLM providers (SPEC C2) and the model
// preferences. No column holds an API key: keys live in the OS keychain, and
// a provider only names the environment variable a key may come from.
//
// model_preferences holds the default model (role 'default', position 0) and
// the ordered fallbacks (role 'fallback', positions 0…). Each row references
// its provider, so deleting a provider drops the preferences that used it.
func createProviders(tx *gorm.DB) error {
	for _, stmt := range []string{
		`CREATE TABLE providers (
			id                TEXT PRIMARY KEY CHECK (id <> ''),
			name              TEXT NOT NULL UNIQUE COLLATE NOCASE CHECK (name <> ''),
			type              TEXT NOT NULL CHECK (type IN ('openai', 'ollama')),
			preset            TEXT NOT NULL DEFAULT '',
			base_url          TEXT NOT NULL,
			key_env           TEXT NOT NULL DEFAULT '',
			azure             INTEGER NOT NULL DEFAULT 0 CHECK (azure IN (0, 1)),
			azure_api_version TEXT NOT NULL DEFAULT '',
			headers           TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(headers) AND json_type(headers) = 'object'),
			enabled           INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
			manual_models     TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(manual_models) AND json_type(manual_models) = 'array'),
			position          INTEGER NOT NULL,
			created_at        DATETIME NOT NULL,
			updated_at        DATETIME NOT NULL
		)`,
		`CREATE TABLE model_preferences (
			role        TEXT NOT NULL CHECK (role IN ('default', 'fallback')),
			position    INTEGER NOT NULL CHECK (position >= 0 AND (role = 'fallback' OR position = 0)),
			provider_id TEXT NOT NULL REFERENCES providers (id) ON DELETE CASCADE,
			model       TEXT NOT NULL CHECK (model <> ''),
			PRIMARY KEY (role, position)
		)`,
		`CREATE INDEX model_preferences_provider ON model_preferences (provider_id)`,
	} {
		if err := tx.Exec(stmt).Error; err != nil {
			return err
		}
	}
	return nil
}

// Provider is a configured LLM endpoint (SPEC C1, C2) as stored. It never
// holds an API key.
type Provider struct {
	ID              string
	Name            string
	Type            string // "openai" | "ollama"
	Preset          string // id of an llm preset, or ""
	BaseURL         string
	KeyEnv          string // environment variable that may hold the key, or ""
	Azure           bool
	AzureAPIVersion string
	Headers         map[string]string // non-secret extra headers
	Enabled         bool
	ManualModels    []string // model ids the user added by hand
	Position        int
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// ModelRef names one model of one provider.
type ModelRef struct {
	Provider string // provider id
	Model    string // model id as the provider knows it
}

type providerRow struct {
	ID              string `gorm:"primaryKey"`
	Name            string
	Type            string
	Preset          string
	BaseURL         string `gorm:"column:base_url"`
	KeyEnv          string
	Azure           bool
	AzureAPIVersion string `gorm:"column:azure_api_version"`
	Headers         string
	Enabled         bool
	ManualModels    string
	Position        int
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

func (providerRow) TableName() string { return "providers" }

type modelPrefRow struct {
	Role       string `gorm:"primaryKey"`
	Position   int    `gorm:"primaryKey;autoIncrement:false"`
	ProviderID string
	Model      string
}

func (modelPrefRow) TableName() string { return "model_preferences" }

// Roles of model_preferences rows.
const (
	prefDefault  = "default"
	prefFallback = "fallback"
)

// ErrProviderNotFound is wrapped by the error for an unknown provider id.
var ErrProviderNotFound = errors.New("no such provider")

// ErrProviderNameTaken is returned when another provider has the name
// (compared without case).
var ErrProviderNameTaken = errors.New("another provider already has this name")

// Providers returns every provider in display order.
func (s *Store) Providers(ctx context.Context) ([]Provider, error) {
	var rows []providerRow
	if err := s.db.WithContext(ctx).Order("position, name COLLATE NOCASE").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("list providers: %w", err)
	}
	out := make([]Provider, 0, len(rows))
	for _, r := range rows {
		p, err := r.provider()
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ProviderNames are the names the providers have in Settings, by id.
type ProviderNames map[string]string

// ProviderNames returns the name of every provider, by id.
func (s *Store) ProviderNames(ctx context.Context) (ProviderNames, error) {
	var rows []providerRow
	if err := s.db.WithContext(ctx).Select("id", "name").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read provider names: %w", err)
	}
	names := make(ProviderNames, len(rows))
	for _, r := range rows {
		names[r.ID] = r.Name
	}
	return names, nil
}

// ModelLabel names a model for people as the app does: the provider's name
// and the model, "Fake LLM · fake-1". A provider no longer in Settings is
// named by its id, marked "(removed)"; by nil names (not read), by its id
// alone; without a provider it is the model.
func (n ProviderNames) ModelLabel(provider, model string) string {
	switch name, ok := n[provider]; {
	case provider == "":
		return model
	case ok:
		return name + " · " + model
	case n == nil:
		return provider + " · " + model
	default:
		return provider + " (removed) · " + model
	}
}

// Provider returns the provider with id, or an error wrapping
// ErrProviderNotFound.
func (s *Store) Provider(ctx context.Context, id string) (Provider, error) {
	var row providerRow
	err := s.db.WithContext(ctx).Where("id = ?", id).Take(&row).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Provider{}, fmt.Errorf("provider %q: %w", id, ErrProviderNotFound)
	}
	if err != nil {
		return Provider{}, fmt.Errorf("get provider %q: %w", id, err)
	}
	return row.provider()
}

// CreateProvider inserts p, whose ID the caller chose, after every other
// provider, and returns it as stored. A name another provider has is an error
// wrapping ErrProviderNameTaken.
func (s *Store) CreateProvider(ctx context.Context, p Provider) (Provider, error) {
	if p.ID == "" || p.Name == "" {
		return Provider{}, errors.New("create provider: empty id or name")
	}
	now := time.Now().UTC()
	p.CreatedAt, p.UpdatedAt = now, now
	row, err := rowOf(p)
	if err != nil {
		return Provider{}, fmt.Errorf("create provider: %w", err)
	}
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := nameFree(tx, p.Name, p.ID); err != nil {
			return err
		}
		var last int
		if err := tx.Raw(`SELECT COALESCE(MAX(position), -1) FROM providers`).Scan(&last).Error; err != nil {
			return err
		}
		row.Position = last + 1
		return tx.Create(&row).Error
	})
	if err != nil {
		return Provider{}, fmt.Errorf("create provider: %w", err)
	}
	return row.provider()
}

// UpdateProvider replaces the settings of the provider with p.ID: name, type,
// preset, base URL, key variable, Azure fields, headers and enabled. Its
// manual models, position and creation time stay. It returns the provider as
// stored.
func (s *Store) UpdateProvider(ctx context.Context, p Provider) (Provider, error) {
	row, err := rowOf(p)
	if err != nil {
		return Provider{}, fmt.Errorf("update provider: %w", err)
	}
	var out Provider
	err = s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var old providerRow
		if err := tx.Where("id = ?", p.ID).Take(&old).Error; err != nil {
			if errors.Is(err, gorm.ErrRecordNotFound) {
				return fmt.Errorf("provider %q: %w", p.ID, ErrProviderNotFound)
			}
			return err
		}
		if err := nameFree(tx, p.Name, p.ID); err != nil {
			return err
		}
		row.ManualModels, row.Position, row.CreatedAt = old.ManualModels, old.Position, old.CreatedAt
		row.UpdatedAt = time.Now().UTC()
		if err := tx.Save(&row).Error; err != nil {
			return err
		}
		out, err = row.provider()
		return err
	})
	if err != nil {
		return Provider{}, fmt.Errorf("update provider: %w", err)
	}
	return out, nil
}

// SetProviderEnabled enables or disables a provider.
func (s *Store) SetProviderEnabled(ctx context.Context, id string, enabled bool) error {
	return s.updateProviderColumn(ctx, id, "enabled", enabled)
}

// SetProviderManualModels replaces the model ids the user added by hand.
func (s *Store) SetProviderManualModels(ctx context.Context, id string, models []string) error {
	if models == nil {
		models = []string{}
	}
	b, err := json.Marshal(models)
	if err != nil {
		return fmt.Errorf("set manual models: %w", err)
	}
	return s.updateProviderColumn(ctx, id, "manual_models", string(b))
}

func (s *Store) updateProviderColumn(ctx context.Context, id, column string, value any) error {
	res := s.db.WithContext(ctx).Model(&providerRow{}).Where("id = ?", id).
		Updates(map[string]any{column: value, "updated_at": time.Now().UTC()})
	if res.Error != nil {
		return fmt.Errorf("update provider %q: %w", id, res.Error)
	}
	if res.RowsAffected == 0 {
		return fmt.Errorf("provider %q: %w", id, ErrProviderNotFound)
	}
	return nil
}

// DeleteProvider removes a provider and the model preferences that name it.
// A missing provider is not an error.
func (s *Store) DeleteProvider(ctx context.Context, id string) error {
	if err := s.db.WithContext(ctx).Delete(&providerRow{}, "id = ?", id).Error; err != nil {
		return fmt.Errorf("delete provider %q: %w", id, err)
	}
	return nil
}

// DefaultModel returns the default model and whether one is set.
func (s *Store) DefaultModel(ctx context.Context) (ModelRef, bool, error) {
	refs, err := s.modelPrefs(ctx, prefDefault)
	if err != nil || len(refs) == 0 {
		return ModelRef{}, false, err
	}
	return refs[0], true, nil
}

// SetDefaultModel makes ref the default model; a zero ref clears it. The
// provider must exist.
func (s *Store) SetDefaultModel(ctx context.Context, ref ModelRef) error {
	var refs []ModelRef
	if ref != (ModelRef{}) {
		refs = []ModelRef{ref}
	}
	return s.setModelPrefs(ctx, prefDefault, refs)
}

// FallbackModels returns the fallback models in order.
func (s *Store) FallbackModels(ctx context.Context) ([]ModelRef, error) {
	return s.modelPrefs(ctx, prefFallback)
}

// SetFallbackModels replaces the fallback models with refs, in order. Every
// provider must exist.
func (s *Store) SetFallbackModels(ctx context.Context, refs []ModelRef) error {
	return s.setModelPrefs(ctx, prefFallback, refs)
}

func (s *Store) modelPrefs(ctx context.Context, role string) ([]ModelRef, error) {
	var rows []modelPrefRow
	if err := s.db.WithContext(ctx).Where("role = ?", role).Order("position").Find(&rows).Error; err != nil {
		return nil, fmt.Errorf("read %s models: %w", role, err)
	}
	out := make([]ModelRef, 0, len(rows))
	for _, r := range rows {
		out = append(out, ModelRef{Provider: r.ProviderID, Model: r.Model})
	}
	return out, nil
}

func (s *Store) setModelPrefs(ctx context.Context, role string, refs []ModelRef) error {
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := tx.Where("role = ?", role).Delete(&modelPrefRow{}).Error; err != nil {
			return err
		}
		for i, r := range refs {
			var n int64
			if err := tx.Model(&providerRow{}).Where("id = ?", r.Provider).Count(&n).Error; err != nil {
				return err
			}
			if n == 0 {
				return fmt.Errorf("provider %q: %w", r.Provider, ErrProviderNotFound)
			}
			if err := tx.Create(&modelPrefRow{Role: role, Position: i, ProviderID: r.Provider, Model: r.Model}).Error; err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save %s models: %w", role, err)
	}
	return nil
}

// nameFree reports ErrProviderNameTaken when a provider other than id has
// name, compared without case.
func nameFree(tx *gorm.DB, name, id string) error {
	var n int64
	if err := tx.Model(&providerRow{}).Where("name = ? COLLATE NOCASE AND id <> ?", name, id).Count(&n).Error; err != nil {
		return err
	}
	if n > 0 {
		return fmt.Errorf("%q: %w", name, ErrProviderNameTaken)
	}
	return nil
}

func rowOf(p Provider) (providerRow, error) {
	headers := p.Headers
	if headers == nil {
		headers = map[string]string{}
	}
	h, err := json.Marshal(headers)
	if err != nil {
		return providerRow{}, fmt.Errorf("headers: %w", err)
	}
	models := p.ManualModels
	if models == nil {
		models = []string{}
	}
	m, err := json.Marshal(models)
	if err != nil {
		return providerRow{}, fmt.Errorf("manual models: %w", err)
	}
	return providerRow{
		ID: p.ID, Name: p.Name, Type: p.Type, Preset: p.Preset, BaseURL: p.BaseURL, KeyEnv: p.KeyEnv,
		Azure: p.Azure, AzureAPIVersion: p.AzureAPIVersion, Headers: string(h), Enabled: p.Enabled,
		ManualModels: string(m), Position: p.Position, CreatedAt: p.CreatedAt, UpdatedAt: p.UpdatedAt,
	}, nil
}

func (r providerRow) provider() (Provider, error) {
	p := Provider{
		ID: r.ID, Name: r.Name, Type: r.Type, Preset: r.Preset, BaseURL: r.BaseURL, KeyEnv: r.KeyEnv,
		Azure: r.Azure, AzureAPIVersion: r.AzureAPIVersion, Enabled: r.Enabled, Position: r.Position,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt,
	}
	if err := json.Unmarshal([]byte(r.Headers), &p.Headers); err != nil {
		return Provider{}, fmt.Errorf("provider %q: headers: %w", r.ID, err)
	}
	if err := json.Unmarshal([]byte(r.ManualModels), &p.ManualModels); err != nil {
		return Provider{}, fmt.Errorf("provider %q: manual models: %w", r.ID, err)
	}
	if p.Headers == nil {
		p.Headers = map[string]string{}
	}
	if p.ManualModels == nil {
		p.ManualModels = []string{}
	}
	return p, nil
}
