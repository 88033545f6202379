package mcppool

import (
	"errors"
	"fmt"
	"maps"
	"slices"

	"mcpdesk/backend/mcpconfig"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/usererr"
)

// Server env values and headers that are secrets live in the OS keychain;
// mcp.config.json holds a reference in their place (see
// mcpconfig.KeychainRef). A reference resolves when the server starts, and
// its value then joins the session's Redactor like any other env or header
// value, so it reaches no log. Deleting a server or a value deletes its
// keychain entry.

// SecretStore keeps the secret values of servers' env and headers: the OS
// keychain in the app (secrets.Keyring), in memory in tests. Get returns an
// error wrapping secrets.ErrNotFound for a missing entry.
type SecretStore interface {
	Get(key string) (string, error)
	Set(key, value string) error
	Delete(key string) error
}

// KeychainError is a keychain reference in a server's env or headers that
// cannot be resolved. Its text names the server and the variable and says
// what to do; it never contains a secret.
type KeychainError struct {
	Server string
	Kind   mcpconfig.PairKind
	Name   string
	// Reason says what is wrong and what to do about it.
	Reason string
	Err    error
}

func (e *KeychainError) Error() string {
	return fmt.Sprintf("%s %s of server %q is kept in the OS keychain, but %s", e.Kind, e.Name, e.Server, e.Reason)
}

func (e *KeychainError) Unwrap() error { return e.Err }

// resolveKeychain returns the value raw stands for when it uses the
// keychain syntax: ok is false for any other value, which the caller
// expands as usual.
func resolveKeychain(store SecretStore, server string, kind mcpconfig.PairKind, name, raw string) (value string, ok bool, err error) {
	if !mcpconfig.MentionsKeychain(raw) {
		return "", false, nil
	}
	fail := func(reason string, cause error) (string, bool, error) {
		return "", true, &KeychainError{Server: server, Kind: kind, Name: name, Reason: reason, Err: cause}
	}
	want := mcpconfig.KeychainRef(server, kind, name)
	if raw != want {
		// Only the reference built for this very place is honoured: a file
		// must not send another server's secret (or a provider's key).
		return fail(fmt.Sprintf("its value is not the reference of this %s: write exactly %s, or enter the value again in the server's settings", kind, want), nil)
	}
	if store == nil {
		return fail("no keychain is available to this command", nil)
	}
	v, err := store.Get(mcpconfig.KeychainEntry(server, kind, name))
	var ue *secrets.UnavailableError
	switch {
	case err == nil:
		return v, true, nil
	case errors.Is(err, secrets.ErrNotFound):
		return fail("the keychain has no entry for it: enter the value again in the server's settings", err)
	case errors.As(err, &ue):
		return fail("the keychain cannot be read: "+ue.Reason, err)
	default:
		return fail("the keychain cannot be read", err)
	}
}

// pairsOf returns the env or header map of srv.
func pairsOf(srv mcpconfig.Server, kind mcpconfig.PairKind) map[string]string {
	switch kind {
	case mcpconfig.HeaderPair:
		return srv.Headers
	case mcpconfig.OAuthPair:
		return srv.OAuth
	}
	return srv.Env
}

// errNoKeychain is returned when a secret must be stored but the pool has no
// SecretStore.
var errNoKeychain error = usererr.New(usererr.KeychainNone, nil)

// storeSecrets writes put (keychain entry → value) to the keychain. On an
// error it deletes what it wrote and says which value failed.
func (p *Pool) storeSecrets(put map[string]string) error {
	if len(put) == 0 {
		return nil
	}
	if p.opts.Secrets == nil {
		return fmt.Errorf("store secrets: %w", errNoKeychain)
	}
	if entry, err := secrets.SetAll(p.opts.Secrets, put); err != nil {
		return usererr.Wrap(err, usererr.KeychainStoreSecret, usererr.Params{"entry": entry, "reason": err.Error()})
	}
	return nil
}

// forgetSecrets deletes the keychain entries of old that next no longer
// refers to. Failures are logged: the config is already written.
func (p *Pool) forgetSecrets(old []string, next ...mcpconfig.Server) {
	if p.opts.Secrets == nil || len(old) == 0 {
		return
	}
	keep := map[string]bool{}
	for _, s := range next {
		for _, e := range s.KeychainEntries() {
			keep[e] = true
		}
	}
	for _, e := range old {
		if keep[e] {
			continue
		}
		if err := p.opts.Secrets.Delete(e); err != nil {
			p.logger.Warn("delete a server secret from the keychain", "entry", e, "err", err)
		}
	}
}

// takeSecrets deletes the keychain entries old and returns what puts them
// back as they were.
func (p *Pool) takeSecrets(old []string) (restore func()) {
	if p.opts.Secrets == nil || len(old) == 0 {
		return func() {}
	}
	taken := map[string]string{}
	for _, e := range old {
		v, err := p.opts.Secrets.Get(e)
		if errors.Is(err, secrets.ErrNotFound) {
			continue
		}
		if derr := p.opts.Secrets.Delete(e); derr != nil {
			p.logger.Warn("delete a server secret from the keychain", "entry", e, "err", derr)
			continue
		}
		if err == nil { // a value that could not be read cannot be put back
			taken[e] = v
		}
	}
	return func() {
		for e, v := range taken {
			if err := p.opts.Secrets.Set(e, v); err != nil {
				p.logger.Warn("put a server secret back in the keychain", "entry", e, "err", err)
			}
		}
	}
}

// SaveServerSecrets is SaveServer for a server whose secrets put (keychain
// entry → value) go to the keychain in the same step: they are stored once
// the config may be written, and the entries the old server referred to and
// the new one does not are deleted afterwards.
func (p *Pool) SaveServerSecrets(originalID string, srv mcpconfig.Server, put map[string]string) error {
	var old []string
	err := p.update(func(cfg *mcpconfig.Config) error {
		i, err := placeServer(cfg, originalID, srv)
		if err != nil {
			return err
		}
		if originalID != "" {
			old = cfg.Servers[i].KeychainEntries()
		}
		if err := p.storeSecrets(put); err != nil {
			return err
		}
		if i < 0 {
			cfg.Servers = append(cfg.Servers, srv)
		} else {
			cfg.Servers[i] = srv
		}
		return nil
	})
	if err != nil {
		return err
	}
	p.forgetSecrets(old, srv)
	return nil
}

// placeServer checks that srv may be saved over originalID ("" adds it)
// and returns the index it replaces, -1 for a new server.
func placeServer(cfg *mcpconfig.Config, originalID string, srv mcpconfig.Server) (int, error) {
	i := slices.IndexFunc(cfg.Servers, func(s mcpconfig.Server) bool { return s.ID == originalID })
	if originalID != "" && i < 0 {
		return -1, unknownServer(originalID)
	}
	if originalID == "" {
		i = -1
	}
	if srv.ID != originalID && slices.ContainsFunc(cfg.Servers, func(s mcpconfig.Server) bool { return s.ID == srv.ID }) {
		return -1, usererr.New(usererr.FormDuplicateID, usererr.Params{"server": srv.ID})
	}
	return i, nil
}

// MoveSecretsToKeychain moves the literal values of the given servers' env
// and headers that look secret (mcpconfig.LooksSecret) into the keychain
// and writes references in their place; no ids means every server. It
// returns how many values it moved. Either all of them move or none.
func (p *Pool) MoveSecretsToKeychain(ids []string) (int, error) {
	moved := 0
	err := p.update(func(cfg *mcpconfig.Config) error {
		for _, id := range ids {
			if !slices.ContainsFunc(cfg.Servers, func(s mcpconfig.Server) bool { return s.ID == id }) {
				return unknownServer(id)
			}
		}
		put := map[string]string{}
		for i, s := range cfg.Servers {
			if len(ids) > 0 && !slices.Contains(ids, s.ID) {
				continue
			}
			next, found := s.WithSecretsReferenced()
			if len(found) == 0 {
				continue
			}
			maps.Copy(put, found)
			cfg.Servers[i] = next
			moved += len(found)
		}
		return p.storeSecrets(put)
	})
	if err != nil {
		return 0, err
	}
	return moved, nil
}

// SecretValue returns the stored value of one env variable or header of a
// server: read from the keychain when the config holds its reference.
func (p *Pool) SecretValue(id string, kind mcpconfig.PairKind, name string) (string, error) {
	srv, err := p.Server(id)
	if err != nil {
		return "", err
	}
	raw, ok := pairsOf(srv, kind)[name]
	if !ok {
		return "", fmt.Errorf("server %q has no %s %q", id, kind, name)
	}
	v, isRef, err := resolveKeychain(p.opts.Secrets, id, kind, name, raw)
	if err != nil {
		return "", err
	}
	if !isRef {
		return raw, nil
	}
	return v, nil
}
