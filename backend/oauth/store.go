package oauth

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"mcpdesk/backend/secrets"
)

// Store keeps tokens (per server) and dynamically registered clients
// (per authorization server). In the app it is the OS keychain: nothing
// of either reaches SQLite, a log or the frontend.
type Store interface {
	Tokens(key string) (*Tokens, error) // nil, nil when there are none
	SaveTokens(key string, t *Tokens) error
	DeleteTokens(key string) error
	Registration(issuer string) (*Registration, error) // nil, nil when there is none
	SaveRegistration(r *Registration) error
	DeleteRegistration(issuer string) error
}

// KV is a secret store of strings: secrets.Keyring, secrets.Memory.
type KV interface {
	Get(key string) (string, error)
	Set(key, value string) error
	Delete(key string) error
}

// NewStore keeps tokens and registrations as JSON in kv, under keys
// "oauth-tokens:KEY" and "oauth-client:ISSUER".
func NewStore(kv KV) Store { return kvStore{kv} }

type kvStore struct{ kv KV }

// TokensKey and ClientKey are the keychain entries' names.
func TokensKey(key string) string    { return "oauth-tokens:" + key }
func ClientKey(issuer string) string { return "oauth-client:" + strings.TrimSuffix(issuer, "/") }

func (s kvStore) load(key string, v any) (bool, error) {
	raw, err := s.kv.Get(key)
	if errors.Is(err, secrets.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal([]byte(raw), v); err != nil {
		return false, fmt.Errorf("the keychain entry %s is damaged: sign in again", key)
	}
	return true, nil
}

func (s kvStore) save(key string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return s.kv.Set(key, string(b))
}

func (s kvStore) del(key string) error {
	if err := s.kv.Delete(key); err != nil && !errors.Is(err, secrets.ErrNotFound) {
		return err
	}
	return nil
}

func (s kvStore) Tokens(key string) (*Tokens, error) {
	var t Tokens
	ok, err := s.load(TokensKey(key), &t)
	if !ok {
		return nil, err
	}
	return &t, nil
}

func (s kvStore) SaveTokens(key string, t *Tokens) error { return s.save(TokensKey(key), t) }
func (s kvStore) DeleteTokens(key string) error          { return s.del(TokensKey(key)) }

func (s kvStore) Registration(issuer string) (*Registration, error) {
	var r Registration
	ok, err := s.load(ClientKey(issuer), &r)
	if !ok {
		return nil, err
	}
	return &r, nil
}

func (s kvStore) SaveRegistration(r *Registration) error { return s.save(ClientKey(r.Issuer), r) }
func (s kvStore) DeleteRegistration(issuer string) error { return s.del(ClientKey(issuer)) }
