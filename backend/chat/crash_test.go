package chat

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mcpdesk/backend/events"
	"mcpdesk/backend/llm/llmtest"
	"mcpdesk/backend/providers"
	"mcpdesk/backend/secrets"
	"mcpdesk/backend/store"
)

// Crash consistency (issue: "Killing the app (SIGKILL) while a reply
// streams leaves a consistent database; on the next start the partial
// reply is there, marked interrupted").
//
// TestSIGKILLMidStream re-executes this test binary as a child that runs
// only TestCrashChild: the child is "the app" — it opens the store in a
// data folder the parent owns, saves a provider pointing at the parent's
// scripted server and starts a turn whose reply streams slowly, printing a
// line per chat:delta. The parent waits until enough text has arrived and
// a periodic save is visible in the database, kills the child with
// SIGKILL, and then plays the next start of the app on the same folder.

// Environment of the child.
const (
	crashEnvDir = "MCPDESK_CRASH_CHILD_DIR" // data folder; set only for the child
	crashEnvLLM = "MCPDESK_CRASH_CHILD_LLM" // base URL of the parent's fake provider
	crashEnvKey = "MCPDESK_CRASH_CHILD_KEY" // the provider's key (the provider's KeyEnv)
)

const (
	crashKey = "sk-crash-0123456789abcdef"
	// crashChunks chunks of crashDelay each: the reply would take 5 s,
	// the kill comes after about a second.
	crashChunks = 200
	crashDelay  = 25 * time.Millisecond
	// crashMinDeltas is how many deltas the parent waits for before the
	// kill.
	crashMinDeltas = 30
	// crashSaveInterval is the child's SaveInterval.
	crashSaveInterval = 100 * time.Millisecond
	// crashPrefix starts every line the child prints for the parent.
	crashPrefix = "crashchild "
	// crashPrompt is the user message the child sends.
	crashPrompt = "Tell me a long story"
)

// crashText is the scripted reply: distinct words, so that a prefix
// check means something.
func crashText() []string {
	chunks := make([]string, crashChunks)
	for i := range chunks {
		chunks[i] = fmt.Sprintf("w%03d ", i)
	}
	return chunks
}

// TestCrashChild is the child of TestSIGKILLMidStream; it skips itself
// unless run as that child. It never ends by itself within the parent's
// timing: the parent kills it mid-stream.
func TestCrashChild(t *testing.T) {
	dir := os.Getenv(crashEnvDir)
	if dir == "" {
		t.Skip("run by TestSIGKILLMidStream as a child process")
	}
	ctx := context.Background()
	st, err := store.Open(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	pm := providers.NewManager(providers.Options{Store: st, Secrets: secrets.NewMemory()})
	p, err := pm.Save(ctx, providers.ProviderInput{
		Name: "Fake AI", Type: "openai", BaseURL: os.Getenv(crashEnvLLM), KeyEnv: crashEnvKey,
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := pm.SetDefaultModel(ctx, providers.ModelRef{Provider: p.ID, Model: "gpt-4o"}); err != nil {
		t.Fatal(err)
	}
	em := &printEmitter{done: make(chan events.ChatDonePayload, 1)}
	e := New(Options{
		Store: st, Models: pm, Emitter: em,
		// One chat:delta per chunk, and a save every 100 ms.
		FlushInterval: time.Millisecond, SaveInterval: crashSaveInterval,
	})
	if err := e.Start(ctx); err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	c, err := e.NewConversation(ctx, NewConversationInput{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Send(ctx, SendRequest{ConversationID: c.ID, Text: crashPrompt})
	if err != nil {
		t.Fatal(err)
	}
	em.printf("ready %d %s", c.ID, res.TurnID)
	select {
	case d := <-em.done:
		// The parent was too slow (or the stream failed): it reports
		// this as a failure.
		em.printf("done %s", d.Reason)
		t.Fatalf("the turn ended (%s) before the parent killed the child", d.Reason)
	case <-time.After(30 * time.Second):
		t.Fatal("never killed")
	}
}

// printEmitter prints one line per chat:delta for the parent.
type printEmitter struct {
	mu   sync.Mutex
	done chan events.ChatDonePayload
}

func (p *printEmitter) printf(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	// Straight to the file: the line is in the pipe before the engine
	// goes on (and before it saves what it has just emitted).
	fmt.Fprintf(os.Stdout, crashPrefix+format+"\n", args...)
}

func (p *printEmitter) Emit(name events.Name, payload any) {
	switch v := payload.(type) {
	case events.ChatDeltaPayload:
		p.printf("delta %d %q", v.MessageID, v.Text)
	case events.ChatErrorPayload:
		p.printf("error %s %q", v.Kind, v.Message)
	case events.ChatDonePayload:
		select {
		case p.done <- v:
		default:
		}
	}
}

// childOutput parses the child's stdout as it arrives.
type childOutput struct {
	mu      sync.Mutex
	partial []byte
	all     bytes.Buffer
	conv    int64
	msg     int64
	deltas  int
	text    strings.Builder // concatenated delta text
	bad     []string        // lines that did not parse
}

func (o *childOutput) Write(b []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.all.Write(b)
	o.partial = append(o.partial, b...)
	for {
		i := bytes.IndexByte(o.partial, '\n')
		if i < 0 {
			break
		}
		o.line(string(o.partial[:i]))
		o.partial = o.partial[i+1:]
	}
	return len(b), nil
}

func (o *childOutput) line(l string) {
	rest, ok := strings.CutPrefix(l, crashPrefix)
	if !ok {
		return // go test's own output
	}
	kind, args, _ := strings.Cut(rest, " ")
	switch kind {
	case "ready":
		if _, err := fmt.Sscanf(args, "%d", &o.conv); err != nil {
			o.bad = append(o.bad, l)
		}
	case "delta":
		id, q, _ := strings.Cut(args, " ")
		msg, err1 := strconv.ParseInt(id, 10, 64)
		text, err2 := strconv.Unquote(q)
		if err1 != nil || err2 != nil || (o.msg != 0 && msg != o.msg) {
			o.bad = append(o.bad, l)
			return
		}
		o.msg = msg
		o.deltas++
		o.text.WriteString(text)
	}
}

type childState struct {
	conv, msg int64
	deltas    int
	text      string
	bad       []string
}

func (o *childOutput) state() childState {
	o.mu.Lock()
	defer o.mu.Unlock()
	return childState{conv: o.conv, msg: o.msg, deltas: o.deltas, text: o.text.String(), bad: o.bad}
}

func (o *childOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.all.String()
}

// lockedBuffer is a bytes.Buffer safe for exec's copying goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestSIGKILLMidStream(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no SIGKILL: Process.Kill there is TerminateProcess, and the re-exec/signal check is Unix-only")
	}
	began := time.Now()
	ctx := context.Background()
	dataDir := t.TempDir()
	// The child's temporary files (TestMain's test server build, its
	// t.TempDir) go here: a killed child cleans nothing up itself.
	childTmp := t.TempDir()

	chunks := crashText()
	full := strings.Join(chunks, "")
	srv := llmtest.NewOpenAI(t)
	srv.RequireKey(crashKey)
	srv.Script(llmtest.Turn{Text: chunks, Delay: crashDelay})

	cmd := exec.Command(os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1", "-test.timeout=60s")
	cmd.Env = append(os.Environ(),
		crashEnvDir+"="+dataDir,
		crashEnvLLM+"="+srv.BaseURL(),
		crashEnvKey+"="+crashKey,
		"TMPDIR="+childTmp,
	)
	out := &childOutput{}
	stderr := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = out, stderr
	cmd.WaitDelay = 5 * time.Second // should a grandchild hold the pipes
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var waitErr error
	exited := make(chan struct{})
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
		default:
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	childLog := func() string {
		return fmt.Sprintf("child stdout:\n%s\nchild stderr:\n%s", out.String(), stderr.String())
	}

	// Wait for crashMinDeltas deltas and a periodic save: the streaming
	// reply has content in the database. The database is read through a
	// read-only connection, closed before the kill so that the next open
	// finds the files exactly as the dead process left them.
	dbPath := filepath.Join(dataDir, store.DBFileName)
	var ro *sql.DB
	defer func() {
		if ro != nil {
			ro.Close()
		}
	}()
	savedBefore := 0
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for savedBefore == 0 {
		select {
		case <-exited:
			t.Fatalf("the child exited before it was killed (%v)\n%s", waitErr, childLog())
		case <-deadline.C:
			t.Fatalf("no %d deltas and a saved partial reply within 30 s (%d deltas)\n%s",
				crashMinDeltas, out.state().deltas, childLog())
		case <-tick.C:
		}
		if out.state().deltas < crashMinDeltas {
			continue
		}
		if ro == nil {
			var err error
			if ro, err = sql.Open("sqlite3", "file:"+dbPath+"?mode=ro&_busy_timeout=5000"); err != nil {
				t.Fatal(err)
			}
		}
		err := ro.QueryRowContext(ctx, `SELECT COALESCE(MAX(length(content)), 0) FROM messages
			WHERE role = 'assistant' AND status = ?`, store.MessageStreaming).Scan(&savedBefore)
		if err != nil {
			t.Fatalf("read the child's database: %v", err)
		}
	}
	ro.Close()
	ro = nil

	atKill := out.state()
	killedAt := time.Since(began)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child did not die of SIGKILL: %v\n%s", cmd.ProcessState, childLog())
	}
	var ee *exec.ExitError
	if !errors.As(waitErr, &ee) {
		t.Fatalf("wait: %v", waitErr)
	}
	got := out.state() // everything the child printed, pipe drained
	if len(got.bad) > 0 || got.conv == 0 || got.msg == 0 {
		t.Fatalf("bad child output (conv %d, message %d, unparsed %q)\n%s", got.conv, got.msg, got.bad, childLog())
	}
	if !strings.HasPrefix(full, got.text) || len(got.text) >= len(full) {
		t.Fatalf("the child received %q, not a strict prefix of the scripted reply", got.text)
	}
	t.Logf("killed after %s: %d deltas (%d bytes) printed by then, %d in all; %d bytes saved before the kill",
		killedAt.Round(time.Millisecond), atKill.deltas, len(atKill.text), got.deltas, savedBefore)

	// ---- the next start ----
	st, err := store.Open(dataDir, nil)
	if err != nil {
		t.Fatalf("open the database after the crash: %v", err)
	}
	t.Cleanup(func() { st.Close() })
	checkDBIntegrity(t, st)

	// As the crash left it: the reply still "streaming", with what the
	// last periodic save wrote.
	before := crashReply(t, st, got.conv, got.msg)
	if before.Status != store.MessageStreaming {
		t.Fatalf("before recovery the reply is %s, want %s", before.Status, store.MessageStreaming)
	}

	pm := providers.NewManager(providers.Options{Store: st, Secrets: secrets.NewMemory(),
		LookupEnv: func(k string) (string, bool) {
			if k == crashEnvKey {
				return crashKey, true
			}
			return os.LookupEnv(k)
		}})
	evs := newRecorder()
	e := New(Options{Store: st, Models: pm, Emitter: evs})
	if err := e.Start(ctx); err != nil { // runs RecoverInterrupted
		t.Fatal(err)
	}
	t.Cleanup(func() { checkOneDonePerTurn(t, evs) })
	t.Cleanup(e.Close)

	msgs, err := st.Messages(ctx, got.conv)
	if err != nil {
		t.Fatal(err)
	}
	if roles(msgs) != "user,assistant" || msgs[0].Content != crashPrompt {
		t.Fatalf("after recovery the conversation holds %s (first %q), want user,assistant", roles(msgs), msgs[0].Content)
	}
	reply := msgs[1]
	switch {
	case reply.ID != got.msg:
		t.Errorf("reply id %d, the child streamed into %d", reply.ID, got.msg)
	case reply.Status != store.MessageInterrupted:
		t.Errorf("reply status %s after recovery, want %s", reply.Status, store.MessageInterrupted)
	case reply.Content == "":
		t.Errorf("the partial reply was lost")
	case !strings.HasPrefix(full, reply.Content) || len(reply.Content) >= len(full):
		t.Errorf("reply %q is not a strict prefix of the scripted text", clip(reply.Content, 80))
	case !strings.HasPrefix(got.text, reply.Content):
		// Each save writes what was already emitted.
		t.Errorf("reply %q holds more than the child ever emitted (%d bytes)", clip(reply.Content, 80), len(got.text))
	case len(reply.Content) < savedBefore:
		t.Errorf("reply has %d bytes, %d were already saved before the kill", len(reply.Content), savedBefore)
	case reply.Content != before.Content:
		t.Errorf("recovery changed the content")
	}
	t.Logf("recovered reply: %d of %d bytes (%d emitted), status %s", len(reply.Content), len(full), len(got.text), reply.Status)

	// Search sees the saved text: the index followed the periodic saves.
	hits, err := e.Search(ctx, "w000", 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 || hits[0].MessageID != reply.ID {
		t.Errorf("search w000 = %+v, want the recovered reply", hits)
	}
	if v, err := e.Conversation(ctx, got.conv); err != nil || v.Running != "" {
		t.Errorf("conversation view: running %q, err %v", v.Running, err)
	}

	// The conversation takes a new turn; the model gets the partial reply
	// as context.
	srv.Script(llmtest.TextTurn("Recovered ", "fine."))
	res, err := e.Send(ctx, SendRequest{ConversationID: got.conv, Text: "Go on"})
	if err != nil {
		t.Fatal(err)
	}
	done := evs.waitFor(t, "chat:done", func(r rec) bool {
		d, ok := r.payload.(events.ChatDonePayload)
		return ok && d.TurnID == res.TurnID
	}).payload.(events.ChatDonePayload)
	if done.Reason != DoneStop {
		t.Fatalf("new turn ended %q, want %q; events:\n%s", done.Reason, DoneStop, evs.dump())
	}
	msgs, err = st.Messages(ctx, got.conv)
	if err != nil {
		t.Fatal(err)
	}
	last := lastAssistant(t, msgs)
	if roles(msgs) != "user,assistant,user,assistant" || last.Status != store.MessageComplete || last.Content != "Recovered fine." {
		t.Fatalf("after the new turn: %s, last reply %s %q", roles(msgs), last.Status, last.Content)
	}
	reqs := srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("the provider got %d chat requests, want 2", len(reqs))
	}
	var sent []string
	for _, m := range reqs[1].Messages() {
		c, _ := m["content"].(string)
		sent = append(sent, fmt.Sprintf("%s:%s", m["role"], c))
	}
	want := []string{"user:" + crashPrompt, "assistant:" + reply.Content, "user:Go on"}
	if strings.Join(sent, "\n") != strings.Join(want, "\n") {
		t.Errorf("second request's messages:\n%s\nwant:\n%s", strings.Join(sent, "\n"), strings.Join(want, "\n"))
	}
	checkDBIntegrity(t, st)
	t.Logf("whole test: %s", time.Since(began).Round(time.Millisecond))
}

// crashReply reads the reply the child was streaming.
func crashReply(t *testing.T, st *store.Store, conv, id int64) store.Message {
	t.Helper()
	m, err := st.GetMessage(context.Background(), id)
	if err != nil {
		t.Fatalf("the reply the child streamed (%d) is not in the database: %v", id, err)
	}
	if m.ConversationID != conv || m.Role != store.RoleAssistant {
		t.Fatalf("message %d: conversation %d role %s", id, m.ConversationID, m.Role)
	}
	return m
}

// checkDBIntegrity runs SQLite's integrity check and FTS5's, which with
// rank 1 also compares the search index with the messages table (as the
// store's own tests do).
func checkDBIntegrity(t *testing.T, st *store.Store) {
	t.Helper()
	var res []string
	if err := st.DB().Raw(`PRAGMA integrity_check`).Scan(&res).Error; err != nil {
		t.Fatalf("integrity_check: %v", err)
	}
	if len(res) != 1 || res[0] != "ok" {
		t.Fatalf("integrity_check = %q", res)
	}
	if err := st.DB().Exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)`).Error; err != nil {
		t.Fatalf("FTS index out of sync with messages: %v", err)
	}
}
