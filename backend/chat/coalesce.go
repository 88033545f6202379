package chat

import (
	"strings"
	"sync"
	"time"

	"mcpdesk/backend/events"
)

// coalescer turns a stream of text and reasoning fragments into few
// chat:delta events (SPEC D2): the first fragment goes out at once, later
// ones at most every interval, and flush or close sends whatever is held,
// so that no text is ever lost and deltas always precede the turn's next
// event. Emitting happens under the lock, which keeps deltas in order
// between the stream goroutine and the timer.
type coalescer struct {
	emit     events.Emitter
	conv     int64
	turn     string
	msgID    int64
	interval time.Duration

	mu        sync.Mutex
	text      strings.Builder
	reasoning strings.Builder
	last      time.Time // last emit
	timer     *time.Timer
	gen       int // invalidates a timer that fired while being stopped
	closed    bool
}

func newCoalescer(emit events.Emitter, t *turn, msgID int64, interval time.Duration) *coalescer {
	return &coalescer{emit: emit, conv: t.conv, turn: t.id, msgID: msgID, interval: interval}
}

// add queues text and reasoning.
func (c *coalescer) add(text, reasoning string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	c.text.WriteString(text)
	c.reasoning.WriteString(reasoning)
	since := time.Since(c.last)
	if since >= c.interval {
		c.flushLocked()
		return
	}
	if c.timer == nil {
		gen := c.gen
		c.timer = time.AfterFunc(c.interval-since, func() { c.fire(gen) })
	}
}

func (c *coalescer) fire(gen int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen || c.closed {
		return
	}
	c.timer = nil
	c.gen++
	c.flushLocked()
}

// flush sends what is held now.
func (c *coalescer) flush() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopTimerLocked()
	c.flushLocked()
}

// close sends what is held; later adds are dropped.
func (c *coalescer) close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopTimerLocked()
	c.flushLocked()
	c.closed = true
}

func (c *coalescer) stopTimerLocked() {
	if c.timer != nil {
		c.timer.Stop()
		c.timer = nil
	}
	c.gen++
}

func (c *coalescer) flushLocked() {
	if c.text.Len() == 0 && c.reasoning.Len() == 0 {
		return
	}
	c.emit.Emit(events.ChatDelta, events.ChatDeltaPayload{
		ConversationID: c.conv, TurnID: c.turn, MessageID: c.msgID,
		Text: c.text.String(), Reasoning: c.reasoning.String(),
	})
	c.text.Reset()
	c.reasoning.Reset()
	c.last = time.Now()
}
