package mcppool

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/events"
)

// RPCLog is the JSON-RPC logger: a bounded ring of messages from every
// server, with secrets redacted before they are stored. New entries are
// pushed to the frontend in batches coalesced on a short ticker, so a burst
// of traffic costs one event per tick, not one per message.
type RPCLog struct {
	mu       sync.Mutex
	entries  []events.RPCEntry // ring storage, grown up to capacity as entries come
	capacity int
	head     int // index of the oldest entry
	n        int // number of entries held
	bytes    int // payload bytes held
	maxBytes int
	seq      uint64
	pending  []events.RPCEntry // not yet emitted
	queued   []lazyEntry       // payloads not yet computed
	settleMu sync.Mutex        // one settle at a time, in order

	emit   events.Emitter
	notify chan struct{}
	stop   chan struct{}
	wg     sync.WaitGroup
}

// Limits of the logger.
const (
	DefaultLogEntries   = 5000
	initialLogEntries   = 64
	DefaultLogBytes     = 64 << 20
	maxPayloadBytes     = 256 << 10
	logFlushInterval    = 50 * time.Millisecond
	redactedPlaceholder = "[redacted]"
)

// NewRPCLog returns a logger holding at most capacity entries and maxBytes
// of payload, emitting batches through emit until Close.
func NewRPCLog(capacity, maxBytes int, emit events.Emitter) *RPCLog {
	if capacity <= 0 {
		capacity = DefaultLogEntries
	}
	if maxBytes <= 0 {
		maxBytes = DefaultLogBytes
	}
	if emit == nil {
		emit = events.Discard{}
	}
	l := &RPCLog{
		entries:  make([]events.RPCEntry, min(capacity, initialLogEntries)),
		capacity: capacity,
		maxBytes: maxBytes,
		emit:     emit,
		notify:   make(chan struct{}, 1),
		stop:     make(chan struct{}),
	}
	l.wg.Add(1)
	go l.flushLoop()
	return l
}

// Add stores one entry, assigning its sequence number. The payload must
// already be redacted.
func (l *RPCLog) Add(e events.RPCEntry) {
	p := e.Payload
	l.addLazy(e, func() string { return p })
}

// addLazy queues one entry whose payload is computed later by payload, off
// the caller's path: by the flush loop, or by the next reader. Sequence
// numbers follow the order of calls.
func (l *RPCLog) addLazy(e events.RPCEntry, payload func() string) {
	l.mu.Lock()
	l.seq++
	e.Seq = l.seq
	if len(l.queued) >= l.capacity {
		// The ring could not hold the oldest queued entry after this one
		// anyway: drop it before its payload costs anything.
		l.queued[0] = lazyEntry{}
		l.queued = l.queued[1:]
	}
	l.queued = append(l.queued, lazyEntry{e, payload})
	l.mu.Unlock()
	select {
	case l.notify <- struct{}{}:
	default:
	}
}

type lazyEntry struct {
	entry   events.RPCEntry
	payload func() string
}

// settle computes the payloads of queued entries and moves them into the
// ring and the pending batch. Payloads are computed outside the lock; the
// settle lock keeps entries in sequence order.
func (l *RPCLog) settle() {
	l.settleMu.Lock()
	defer l.settleMu.Unlock()
	l.mu.Lock()
	queued := l.queued
	l.queued = nil
	l.mu.Unlock()
	if len(queued) == 0 {
		return
	}
	for i := range queued {
		q := &queued[i]
		q.entry.Payload = q.payload()
		if len(q.entry.Payload) > maxPayloadBytes {
			// A copy: the cut would keep the whole payload alive.
			q.entry.Payload = strings.Clone(q.entry.Payload[:maxPayloadBytes])
			q.entry.Truncated = true
		}
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, q := range queued {
		l.store(q.entry)
	}
}

// store puts e in the ring, evicting the oldest entries past the limits.
// l.mu must be held.
func (l *RPCLog) store(e events.RPCEntry) {
	for l.n > 0 && (l.n == l.capacity || l.bytes+len(e.Payload) > l.maxBytes) {
		l.bytes -= len(l.entries[l.head].Payload)
		l.entries[l.head] = events.RPCEntry{}
		l.head = (l.head + 1) % len(l.entries)
		l.n--
	}
	if l.n == len(l.entries) {
		l.grow()
	}
	l.entries[(l.head+l.n)%len(l.entries)] = e
	l.n++
	l.bytes += len(e.Payload)
	l.pending = append(l.pending, e)
}

// grow doubles the ring's storage (up to capacity), oldest entry first. A
// logger that never sees much traffic never holds the whole ring (5,000
// entries are about 1 MB before any payload). l.mu must be held.
func (l *RPCLog) grow() {
	next := make([]events.RPCEntry, min(l.capacity, max(2*len(l.entries), initialLogEntries)))
	for i := range l.n {
		next[i] = l.entries[(l.head+i)%len(l.entries)]
	}
	l.entries, l.head = next, 0
}

// Entries returns a copy of the held entries, oldest first.
func (l *RPCLog) Entries() []events.RPCEntry {
	l.settle()
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]events.RPCEntry, l.n)
	for i := range out {
		out[i] = l.entries[(l.head+i)%len(l.entries)]
	}
	return out
}

// Clear drops every held entry.
func (l *RPCLog) Clear() {
	l.settle()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = make([]events.RPCEntry, min(l.capacity, initialLogEntries))
	l.head, l.n, l.bytes = 0, 0, 0
	l.pending = nil
}

// Close flushes what is pending and stops the flush loop.
func (l *RPCLog) Close() {
	select {
	case <-l.stop:
		return
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

func (l *RPCLog) flushLoop() {
	defer l.wg.Done()
	for {
		select {
		case <-l.stop:
			l.flush()
			return
		case <-l.notify:
		}
		l.flush()
		// Coalesce: whatever arrives during the interval goes out together.
		select {
		case <-l.stop:
			l.flush()
			return
		case <-time.After(logFlushInterval):
		}
	}
}

func (l *RPCLog) flush() {
	l.settle()
	l.mu.Lock()
	batch := l.pending
	l.pending = nil
	l.mu.Unlock()
	// Entries the ring no longer holds are not sent either.
	if over := len(batch) - l.capacity; over > 0 {
		batch = batch[over:]
	}
	if len(batch) > 0 {
		l.emit.Emit(events.RPCLog, events.RPCLogBatch{Entries: batch})
	}
}

// Redactor scrubs secrets from logged payloads: the literal values of a
// server's env variables and headers, bearer tokens, and the values of JSON
// fields whose names say they hold a secret.
type Redactor struct {
	literal *strings.Replacer
	secrets []string // the values it was made for
	// keychain are the values read from the OS keychain: also scrubbed
	// from tool results (see Session.scrubResult).
	keychain []string
}

var (
	secretField = regexp.MustCompile(`(?i)("(?:[a-z0-9_-]*(?:authorization|api[_-]?key|apikey|access[_-]?token|refresh[_-]?token|id[_-]?token|client[_-]?secret|secret|password|passwd|token))"\s*:\s*)"(?:[^"\\]|\\.)*"`)
	bearer      = regexp.MustCompile(`(?i)\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}`)
)

// NewRedactor returns a Redactor for the given literal secret values.
// Values shorter than four characters are ignored: they would redact noise.
func NewRedactor(secrets []string) *Redactor {
	// Longest first: a secret that contains another is replaced whole.
	secrets = slices.Clone(secrets)
	slices.SortStableFunc(secrets, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, s := range secrets {
		if len(s) < 4 {
			continue
		}
		pairs = append(pairs, s, redactedPlaceholder)
		// The value may appear JSON-escaped inside a payload.
		if b, err := json.Marshal(s); err == nil {
			if esc := string(b[1 : len(b)-1]); esc != s {
				pairs = append(pairs, esc, redactedPlaceholder)
			}
		}
	}
	r := &Redactor{secrets: secrets}
	if len(pairs) > 0 {
		r.literal = strings.NewReplacer(pairs...)
	}
	return r
}

// Redact returns s with secrets replaced by a placeholder.
func (r *Redactor) Redact(s string) string {
	if r != nil && r.literal != nil {
		s = r.literal.Replace(s)
	}
	// The patterns are slow on large payloads; most payloads hold none of
	// their keywords, which a plain search rules out cheaply.
	lower := strings.ToLower(s)
	if strings.Contains(lower, "bearer") || strings.Contains(lower, "basic") {
		s = bearer.ReplaceAllString(s, `${1} `+redactedPlaceholder)
	}
	if !containsAny(lower, secretKeywords) {
		return s
	}
	return secretField.ReplaceAllStringFunc(s, func(m string) string {
		sub := secretField.FindStringSubmatch(m)
		// A progress token identifies a request; it is not a credential.
		if strings.Contains(strings.ToLower(sub[1]), `"progresstoken"`) {
			return m
		}
		return sub[1] + `"` + redactedPlaceholder + `"`
	})
}

// secretKeywords covers every field name secretField matches.
var secretKeywords = []string{"auth", "key", "secret", "passw", "token"}

func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
