package mcpconfig

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Timings of Watch.
const (
	// debounceDelay is how long a burst of events must be quiet before the
	// file is read: editors write, truncate, rename and chmod in quick
	// succession.
	debounceDelay = 100 * time.Millisecond
	// maxDelay bounds the wait for a burst that never goes quiet.
	maxDelay = time.Second
	// pollInterval is how often the file is checked when the directory
	// cannot be watched (it does not exist yet, or the system refused).
	pollInterval = time.Second
)

// Watch calls onChange whenever the file at path changes on disk, until
// ctx ends: onChange(cfg, nil) when the new contents are valid, or
// onChange(nil, err) when they are not (err is what Load would return). A
// deleted file is an empty config. Watch blocks; run it on its own
// goroutine. onChange is called from that goroutine, one call at a time,
// and never after ctx has ended.
//
// Watch watches the directory, not the file, because editors save by
// writing a new file and renaming it over the old one; events for other
// files are ignored, and bursts are coalesced (about 100 ms). Contents
// equal to the last ones seen are not reported: the bytes a Load read
// before Watch started, those of the previous report, and those written by
// WriteFile in this process (whose caller applies them itself). If the
// directory cannot be watched, Watch polls the file every second instead
// and switches to watching when it can.
func Watch(ctx context.Context, path string, onChange func(*Config, error)) {
	w := &watch{path: path, key: fileKey(path), onChange: onChange}
	w.names = map[string]bool{w.key: true}
	w.dirs = []string{filepath.Dir(w.key)}
	if target, err := filepath.EvalSymlinks(w.key); err == nil && target != w.key {
		// A linked file (dotfiles): edits may happen at either end.
		if abs, err := filepath.Abs(target); err == nil {
			w.names[abs] = true
			if d := filepath.Dir(abs); d != w.dirs[0] {
				w.dirs = append(w.dirs, d)
			}
		}
	}
	tracked.add(w)
	defer tracked.remove(w)
	w.run(ctx)
}

// watch is one running Watch.
type watch struct {
	path     string          // as the caller gave it: named in errors
	key      string          // absolute path: identifies and reads the file
	names    map[string]bool // absolute paths whose events matter
	dirs     []string        // directories to watch
	onChange func(*Config, error)

	mu   sync.Mutex
	last fingerprint // the contents last seen
	// own are the contents WriteFile wrote since the file was last seen as
	// last: a reload that reads one of them, an earlier of several quick
	// writes read before the last one landed, is this process's own
	// passing state and not reported.
	own map[fingerprint]bool
}

// run watches until ctx ends.
func (w *watch) run(ctx context.Context) {
	fsw, err := fsnotify.NewWatcher()
	var (
		events   <-chan fsnotify.Event
		errs     <-chan error
		watching bool
	)
	if err == nil {
		defer fsw.Close()
		events, errs = fsw.Events, fsw.Errors
		watching = w.addDirs(fsw)
	}

	// Start from what a Load in this process saw, so that a change made
	// between that Load and now is reported; else from the file as it is.
	if known, ok := tracked.known(w.key); ok {
		w.setLast(known)
		w.reload(ctx)
	} else {
		data, exists, err := readFile(w.key)
		w.setLast(fingerprintFor(data, exists, err))
	}

	debounce := time.NewTimer(time.Hour)
	debounce.Stop()
	defer debounce.Stop()
	var burst time.Time // when the pending burst began; zero when none
	poke := func(now time.Time) {
		if burst.IsZero() {
			burst = now
		}
		debounce.Reset(max(0, min(debounceDelay, maxDelay-now.Sub(burst))))
	}
	var poll *time.Ticker
	var pollC <-chan time.Time
	setPolling := func(on bool) {
		switch {
		case on && poll == nil:
			poll = time.NewTicker(pollInterval)
			pollC = poll.C
		case !on && poll != nil:
			poll.Stop()
			poll, pollC = nil, nil
		}
	}
	defer setPolling(false)
	setPolling(!watching)

	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				events, watching = nil, false
				setPolling(true)
				continue
			}
			name := filepath.Clean(ev.Name)
			if w.isDir(name) && ev.Op.Has(fsnotify.Remove|fsnotify.Rename) {
				// The directory itself went away or moved: its watch is
				// gone or follows it elsewhere. Poll until it is back.
				_ = fsw.Remove(name)
				watching = false
				setPolling(true)
				poke(time.Now())
				continue
			}
			if w.names[name] && ev.Op != fsnotify.Chmod {
				poke(time.Now())
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
				continue
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				poke(time.Now()) // events were lost: look at the file
			}
		case <-debounce.C:
			burst = time.Time{}
			w.reload(ctx)
		case <-pollC:
			if !watching && fsw != nil && w.addDirs(fsw) {
				watching = true
				setPolling(false)
			}
			w.reload(ctx)
		}
	}
}

// addDirs watches every directory of w, or none.
func (w *watch) addDirs(fsw *fsnotify.Watcher) bool {
	for i, d := range w.dirs {
		if err := fsw.Add(d); err != nil {
			for _, added := range w.dirs[:i] {
				_ = fsw.Remove(added)
			}
			return false
		}
	}
	return true
}

// isDir reports whether name is one of the watched directories.
func (w *watch) isDir(name string) bool {
	for _, d := range w.dirs {
		if d == name {
			return true
		}
	}
	return false
}

// setLast records fp as the contents last seen.
func (w *watch) setLast(fp fingerprint) {
	w.mu.Lock()
	w.last = fp
	w.mu.Unlock()
}

// reload reads the file and reports it if it differs from what was last
// seen.
func (w *watch) reload(ctx context.Context) {
	data, exists, err := readFile(w.key)
	fp := fingerprintFor(data, exists, err)
	w.mu.Lock()
	same, passing := fp == w.last, w.own[fp]
	if same || !passing {
		// Caught up with the writes, or changed by someone else.
		w.last, w.own = fp, nil
	}
	w.mu.Unlock()
	if same || passing {
		return
	}
	var cfg *Config
	switch {
	case err != nil:
		err = fmt.Errorf("load config: %w", err)
	case !exists:
		cfg = &Config{}
	default:
		cfg, err = Parse(w.path, data)
	}
	tracked.remember(w.key, fp)
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		w.onChange(nil, err)
		return
	}
	w.onChange(cfg, nil)
}

// fingerprint identifies the contents of a file (or its absence, or a
// failure to read it) without keeping them.
type fingerprint struct {
	state byte // 0 unknown, 'a' absent, 'p' present, 'e' unreadable
	sum   [sha256.Size]byte
}

// fingerprintOf returns the fingerprint of a file's contents, or of its
// absence.
func fingerprintOf(data []byte, exists bool) fingerprint {
	if !exists {
		return fingerprint{state: 'a'}
	}
	return fingerprint{state: 'p', sum: sha256.Sum256(data)}
}

// fingerprintFor is fingerprintOf for the result of readFile, read errors
// included.
func fingerprintFor(data []byte, exists bool, err error) fingerprint {
	if err != nil {
		return fingerprint{state: 'e', sum: sha256.Sum256([]byte(err.Error()))}
	}
	return fingerprintOf(data, exists)
}

// fileKey identifies a file by its absolute path.
func fileKey(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
}

// tracked is what this process last read or wrote per file, shared by
// Load, WriteFile and Watch. It is package state because those are plain
// functions by contract; it holds one small fingerprint per file ever
// loaded.
var tracked = &tracker{
	watches: map[string]map[*watch]bool{},
	seen:    map[string]fingerprint{},
}

// tracker is the type of tracked.
type tracker struct {
	mu      sync.Mutex
	watches map[string]map[*watch]bool // running Watches by file key
	seen    map[string]fingerprint     // last contents read or written by file key
}

// add registers a running Watch.
func (t *tracker) add(w *watch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.watches[w.key] == nil {
		t.watches[w.key] = map[*watch]bool{}
	}
	t.watches[w.key][w] = true
}

// remove unregisters a Watch that has ended.
func (t *tracker) remove(w *watch) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.watches[w.key], w)
	if len(t.watches[w.key]) == 0 {
		delete(t.watches, w.key)
	}
}

// remember records contents read from the file.
func (t *tracker) remember(key string, fp fingerprint) {
	t.mu.Lock()
	t.seen[key] = fp
	t.mu.Unlock()
}

// known returns the contents last read or written, if any.
func (t *tracker) known(key string) (fingerprint, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	fp, ok := t.seen[key]
	return fp, ok
}

// wrote records contents about to be written, marking them seen by every
// Watch of the file; undo restores the previous state if the write fails.
func (t *tracker) wrote(key string, fp fingerprint) (undo func()) {
	t.mu.Lock()
	defer t.mu.Unlock()
	prevSeen, hadSeen := t.seen[key]
	t.seen[key] = fp
	prev := map[*watch]fingerprint{}
	for w := range t.watches[key] {
		w.mu.Lock()
		prev[w] = w.last
		if w.own == nil {
			// The contents before this process's writes: read while the
			// first write is still on its way, they are not news either.
			w.own = map[fingerprint]bool{w.last: true}
		}
		w.last = fp
		w.own[fp] = true
		w.mu.Unlock()
	}
	return func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if hadSeen {
			t.seen[key] = prevSeen
		} else {
			delete(t.seen, key)
		}
		for w, before := range prev {
			w.mu.Lock()
			w.last = before
			delete(w.own, fp)
			w.mu.Unlock()
		}
	}
}
