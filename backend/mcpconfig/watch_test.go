package mcpconfig

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// waitLimit bounds every wait: generous, for a loaded CI machine. Tests
// never assert that something happens quickly.
const waitLimit = 5 * time.Second

// change is one call of Watch's callback.
type change struct {
	cfg *Config
	err error
}

// watcher runs Watch on path for a test.
type watcher struct {
	t       *testing.T
	changes chan change
	cancel  context.CancelFunc
	done    chan struct{}
}

func startWatch(t *testing.T, path string) *watcher {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	w := &watcher{t: t, changes: make(chan change, 100), cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(w.done)
		Watch(ctx, path, func(cfg *Config, err error) { w.changes <- change{cfg, err} })
	}()
	t.Cleanup(w.stop)
	return w
}

func (w *watcher) stop() {
	w.cancel()
	select {
	case <-w.done:
	case <-time.After(waitLimit):
		w.t.Fatal("Watch did not return after its context ended")
	}
}

// next waits for a change that satisfies ok, failing on a change that
// satisfies bad. Changes satisfying neither (such as the empty file an
// in-place write passes through) are skipped.
func (w *watcher) next(what string, ok, bad func(change) bool) change {
	w.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case c := <-w.changes:
			if bad != nil && bad(c) {
				w.t.Fatalf("while waiting for %s: unexpected change %+v (err %v)", what, c.cfg, c.err)
			}
			if ok(c) {
				return c
			}
		case <-deadline:
			w.t.Fatalf("no change within %s: %s", waitLimit, what)
			return change{}
		}
	}
}

// hasServer matches a valid config whose first server has this command.
func hasServer(command string) func(change) bool {
	return func(c change) bool {
		return c.err == nil && len(c.cfg.Servers) == 1 && c.cfg.Servers[0].Command == command
	}
}

func serverFile(command string) string {
	return `{"mcpServers": {"s": {"command": "` + command + `"}}}`
}

// replaceFile saves like an editor that writes a temp file and renames it
// over the original: one atomic change.
func replaceFile(t *testing.T, path, content string) {
	t.Helper()
	tmp := path + ".swp"
	if err := os.WriteFile(tmp, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// loadedFile writes content to a new config file and Loads it, as the
// pool does before it starts watching.
func loadedFile(t *testing.T, content string) string {
	t.Helper()
	path := writeTemp(t, "mcp.config.json", content)
	if _, err := Load(path); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestWatchExternalEdits(t *testing.T) {
	path := loadedFile(t, serverFile("one"))
	w := startWatch(t, path)

	// An in-place write (truncate, then write).
	if err := os.WriteFile(path, []byte(serverFile("two")), 0o600); err != nil {
		t.Fatal(err)
	}
	w.next("in-place edit", hasServer("two"), hasServer("one"))

	// An edit into broken JSON reports the error with its position.
	if err := os.WriteFile(path, []byte("{\n  \"mcpServers\": {,}\n}"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := w.next("broken edit", func(c change) bool { return c.err != nil }, hasServer("one"))
	if !strings.Contains(c.err.Error(), path+":2:") {
		t.Errorf("error without position: %v", c.err)
	}

	// Writing a temp file and renaming it over the config is seen.
	replaceFile(t, path, serverFile("three"))
	w.next("rename over", hasServer("three"), nil)

	// A deleted file is an empty config.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	w.next("delete", func(c change) bool { return c.err == nil && len(c.cfg.Servers) == 0 }, nil)

	// And a new file is seen again.
	replaceFile(t, path, serverFile("four"))
	w.next("re-create", hasServer("four"), nil)
}

func TestWatchIgnoresOtherFiles(t *testing.T) {
	path := loadedFile(t, serverFile("one"))
	w := startWatch(t, path)
	dir := filepath.Dir(path)
	for _, name := range []string{"other.json", "mcp.config.json.bak", "notes.txt"} {
		os.WriteFile(filepath.Join(dir, name), []byte(serverFile("other")), 0o600)
	}
	// The first change reported is the one to our file.
	replaceFile(t, path, serverFile("two"))
	w.next("edit after unrelated files", hasServer("two"), func(c change) bool { return !hasServer("two")(c) })
}

func TestWatchSkipsOwnWrites(t *testing.T) {
	path := loadedFile(t, serverFile("one"))
	w := startWatch(t, path)

	// WriteFile of the bytes already there, then of new bytes: the writer
	// applies its config itself, so neither is reported. The next change
	// reported must be the external edit that follows.
	cfg, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(path, cfg); err != nil { // normalises the file once
		t.Fatal(err)
	}
	if err := WriteFile(path, cfg); err != nil { // identical bytes
		t.Fatal(err)
	}
	if err := WriteFile(path, &Config{Servers: []Server{{ID: "s", Command: "ours"}}}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // let the events of our writes arrive (not a speed assertion)
	replaceFile(t, path, serverFile("theirs"))
	w.next("external edit after our writes", hasServer("theirs"), func(c change) bool { return !hasServer("theirs")(c) })

	// Saving the same bytes again (touching the file) reports nothing;
	// the next change reported is the next real edit.
	replaceFile(t, path, serverFile("theirs"))
	time.Sleep(300 * time.Millisecond)
	replaceFile(t, path, serverFile("again"))
	w.next("edit after an identical save", hasServer("again"), func(c change) bool { return !hasServer("again")(c) })
}

func TestWatchReportsChangeBeforeStart(t *testing.T) {
	// The file changes between the Load and the start of Watch: Watch
	// reports it, so the change is not lost.
	path := loadedFile(t, serverFile("one"))
	replaceFile(t, path, serverFile("two"))
	w := startWatch(t, path)
	w.next("change before start", hasServer("two"), nil)
}

func TestWatchMissingDirectory(t *testing.T) {
	// The directory does not exist yet: Watch polls until it does.
	dir := filepath.Join(t.TempDir(), "later")
	path := filepath.Join(dir, "mcp.config.json")
	if cfg, err := Load(path); err != nil || len(cfg.Servers) != 0 {
		t.Fatalf("load a missing file: %+v %v", cfg, err)
	}
	w := startWatch(t, path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, path, serverFile("one"))
	w.next("file in new directory", hasServer("one"), nil)
	// Once watching, edits are still seen.
	replaceFile(t, path, serverFile("two"))
	w.next("later edit", hasServer("two"), nil)
	// The directory goes away (an empty config) and comes back.
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	w.next("directory removed", func(c change) bool { return c.err == nil && len(c.cfg.Servers) == 0 }, nil)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, path, serverFile("three"))
	w.next("directory re-created", hasServer("three"), nil)
	replaceFile(t, path, serverFile("four"))
	w.next("edit in re-created directory", hasServer("four"), nil)
}

func TestWatchStopsWithContext(t *testing.T) {
	path := loadedFile(t, serverFile("one"))
	w := startWatch(t, path)
	w.stop()
	replaceFile(t, path, serverFile("two"))
	time.Sleep(300 * time.Millisecond)
	select {
	case c := <-w.changes:
		t.Fatalf("callback after the context ended: %+v %v", c.cfg, c.err)
	default:
	}
}

// A reload that runs while this process's writes are on their way reads
// the file before the last of them landed: the contents before the first
// write, or an earlier write's. Neither is an edit from elsewhere (a CI
// run under load reported the earlier write's contents as one). Driven
// step by step, without fsnotify.
func TestReloadDuringOwnWritesReportsNothing(t *testing.T) {
	path := loadedFile(t, serverFile("one"))
	var got []string
	w := &watch{path: path, key: fileKey(path), onChange: func(cfg *Config, err error) {
		if err != nil {
			got = append(got, "error")
			return
		}
		got = append(got, cfg.Servers[0].Command)
	}}
	data, exists, err := readFile(w.key)
	w.setLast(fingerprintFor(data, exists, err))
	tracked.add(w)
	defer tracked.remove(w)
	ctx := context.Background()
	own := func(command string) []byte {
		b, err := encode(&Config{Servers: []Server{{ID: "s", Command: command}}})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}

	// A write recorded, its bytes not yet on disk: the file still holds
	// what it held before.
	tracked.wrote(w.key, fingerprintOf(own("ours1"), true))
	w.reload(ctx)
	// It lands; a second write is recorded and has not landed yet.
	if err := os.WriteFile(path, own("ours1"), 0o600); err != nil {
		t.Fatal(err)
	}
	tracked.wrote(w.key, fingerprintOf(own("ours2"), true))
	w.reload(ctx)
	// It lands: caught up.
	if err := os.WriteFile(path, own("ours2"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.reload(ctx)
	if len(got) != 0 {
		t.Fatalf("this process's own writes were reported: %v", got)
	}

	// Once caught up, the contents of an earlier write are news again:
	// someone put them back.
	replaceFile(t, path, string(own("ours1")))
	w.reload(ctx)
	replaceFile(t, path, serverFile("theirs"))
	w.reload(ctx)
	if strings.Join(got, ",") != "ours1,theirs" {
		t.Fatalf("edits from elsewhere after the writes: reported %v, want ours1, theirs", got)
	}
}
