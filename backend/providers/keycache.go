package providers

import (
	"sync"
	"time"

	"mcpdesk/backend/store"
)

// keyCacheTTL is how long a chat reuses the key it read for a provider.
// Reading the OS keychain costs a few D-Bus round trips (1.7 ms a read on
// the Linux Secret Service here), which every reply paid once per model it
// may try, before its first token.
const keyCacheTTL = 2 * time.Minute

// keyCache keeps the keys the chat's routes were built with. Only the chat
// path reads through it (Routes, Client): the keychain status, Test and the
// providers screen read the keychain itself, so what they say is true now.
// An entry is dropped when the app changes the provider or its key, when
// the environment is read again, and when the provider rejects the key (it
// may have been changed outside the app); a keychain that could not be read
// is never cached.
type keyCache struct {
	mu      sync.Mutex
	entries map[string]keyEntry
	now     func() time.Time
}

type keyEntry struct {
	keyEnv      string // the provider's KeyEnv when read: a new one reads again
	key, source string
	at          time.Time
}

// get returns p's key as resolve finds it, from the cache while fresh.
func (c *keyCache) get(p store.Provider, resolve func(store.Provider) (key, source, problem string)) (key, source, problem string) {
	now := c.clock()
	c.mu.Lock()
	e, ok := c.entries[p.ID]
	c.mu.Unlock()
	if ok && e.keyEnv == p.KeyEnv && now.Sub(e.at) < keyCacheTTL {
		return e.key, e.source, ""
	}
	key, source, problem = resolve(p)
	if problem != "" {
		c.drop(p.ID)
		return key, source, problem
	}
	c.mu.Lock()
	if c.entries == nil {
		c.entries = map[string]keyEntry{}
	}
	c.entries[p.ID] = keyEntry{keyEnv: p.KeyEnv, key: key, source: source, at: now}
	c.mu.Unlock()
	return key, source, ""
}

// drop forgets provider id's key.
func (c *keyCache) drop(id string) {
	c.mu.Lock()
	delete(c.entries, id)
	c.mu.Unlock()
}

// dropAll forgets every key.
func (c *keyCache) dropAll() {
	c.mu.Lock()
	clear(c.entries)
	c.mu.Unlock()
}

func (c *keyCache) clock() time.Time {
	if c.now != nil {
		return c.now()
	}
	return time.Now()
}
