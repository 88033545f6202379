// Replays what Go's chat engine really emitted (issue 13, point 2).
//
// backend/chat/recordings_test.go runs real turns — a real database, real
// MCP servers, the scripted model — and writes each one's events, with the
// user's calls in between, to ./recordings (regenerated with `-update`; a
// recording that no longer matches what Go emits fails the Go tests). Here
// a FakeBackend plays one back: when the UI makes the call the recording
// holds next (Send, Regenerate, SelectVersion, Approve, AnswerSampling,
// AnswerElicitation, Stop), it
// gets Go's answer and the events Go emitted after it, in Go's order and
// with Go's payloads; a call the recording does not hold next, or with
// other arguments, is a problem the test sees. The fake's store follows
// the events, so the UI reads back (Conversation) what Go would return.

import type { FakeBackend } from './fakes/fake';
import { FakeTurn } from './fakes/fakeChat';
import type { ChatApprovalPayload, ChatSamplingPayload, ConversationView, Message, SendResult } from '../lib/api/chatTypes';
import type { EventMap, EventName } from '../lib/api/events';

/** A recording as backend/chat/recordings_test.go writes it. */
export interface Recording {
  scenario: string;
  steps: Step[];
}

export type Step = { call: string; args: unknown[]; result?: unknown } | { event: EventName; payload: unknown };

/** The calls a recording may hold, and where the fake keeps them. */
const CALLS = ['Send', 'Regenerate', 'SelectVersion', 'Approve', 'AnswerSampling', 'Stop', 'AnswerElicitation'] as const;
type CallName = (typeof CALLS)[number];

export interface Replay {
  /** Resolves when every step was played. */
  readonly finished: Promise<void>;
  /** Calls the UI made that the recording does not hold next, described. */
  readonly problems: string[];
  /** Steps not played yet. */
  readonly remaining: number;
  /** The call the recording waits for next; "" while it plays or when it is done. */
  readonly next: string;
}

const tick = () => new Promise((r) => setTimeout(r, 0));

/**
 * replay makes fake answer the UI's chat with rec. The conversation the
 * recording's Send names must be the one the UI sends to (a fresh fake's
 * first NewConversation is 1, as Go's first conversation is).
 */
export function replay(fake: FakeBackend, rec: Recording): Replay {
  const steps = structuredClone(rec.steps);
  const problems: string[] = [];
  let i = 0;
  let finish!: () => void;
  const finished = new Promise<void>((r) => (finish = r));

  const describe = (s: Step | undefined) =>
    !s ? 'nothing more' : 'call' in s ? `${s.call}(${JSON.stringify(s.args)})` : `the event ${s.event}`;

  // answer takes the UI's call: it must be the next step, with the
  // recorded arguments (compared as JSON, keys the UI leaves out allowed
  // where Go's value is empty).
  function answer(name: CallName, args: unknown[]): unknown {
    const step = steps[i];
    if (!step || !('call' in step) || step.call !== name || !sameArgs(args, step.args)) {
      const p = `the UI called ${name}(${JSON.stringify(args)}) where Go's recording "${rec.scenario}" has ${describe(step)} next`;
      problems.push(p);
      throw p;
    }
    i++;
    void play();
    return structuredClone(step.result);
  }

  let playing = false;
  async function play(): Promise<void> {
    if (playing) return;
    playing = true;
    try {
      // After the call returned, as Go's turn runs on its own goroutine.
      await tick();
      while (i < steps.length) {
        const step = steps[i];
        if ('call' in step) return;
        i++;
        apply(fake, step.event, step.payload);
        fake.emit(step.event, step.payload as EventMap[typeof step.event]);
        await tick();
      }
      finish();
    } finally {
      playing = false;
    }
  }

  const chat = fake.chat;
  chat.reply = undefined;
  chat.Send = async (input) => {
    chat.host.record('Send', [input]);
    const res = answer('Send', [input]) as SendResult;
    // The turn runs: Conversation reports it until chat:done.
    chat.turns.set(input.conversationId, new FakeTurn(chat, input.conversationId, res.turnId));
    upsert(fake, res.userMessage);
    return res;
  };
  chat.Regenerate = async (conversationId) => {
    chat.host.record('Regenerate', [conversationId]);
    const res = answer('Regenerate', [conversationId]) as SendResult;
    chat.turns.set(conversationId, new FakeTurn(chat, conversationId, res.turnId));
    upsert(fake, res.userMessage);
    return res;
  };
  chat.SelectVersion = async (conversationId, userMessageId, version) => {
    chat.host.record('SelectVersion', [conversationId, userMessageId, version]);
    const view = answer('SelectVersion', [conversationId, userMessageId, version]) as ConversationView;
    const s = chat.conversations.get(conversationId);
    if (s) s.messages = structuredClone(view.messages);
    return view;
  };
  chat.Approve = async (id, d) => {
    chat.host.record('Approve', [id, d]);
    answer('Approve', [id, d]);
  };
  chat.AnswerSampling = async (id, d) => {
    chat.host.record('AnswerSampling', [id, d]);
    answer('AnswerSampling', [id, d]);
  };
  chat.Stop = async (conversationId) => {
    chat.host.record('Stop', [conversationId]);
    answer('Stop', [conversationId]);
  };
  fake.mcp.AnswerElicitation = async (id, action, content) => {
    fake.calls.push({ method: 'AnswerElicitation', args: structuredClone([id, action, content]) });
    answer('AnswerElicitation', [id, action, content]);
  };
  return {
    finished,
    problems,
    get remaining() {
      return steps.length - i;
    },
    get next() {
      const s = steps[i];
      return s && 'call' in s && !playing ? s.call : '';
    },
  };
}

// sameArgs compares the UI's arguments with Go's: equal as JSON, where an
// empty value Go wrote may be left out by the UI.
function sameArgs(got: unknown, want: unknown): boolean {
  if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, k) => sameArgs(got[k], w));
  if (want && typeof want === 'object') {
    if (!got || typeof got !== 'object') return false;
    const g = got as Record<string, unknown>;
    const w = want as Record<string, unknown>;
    const keys = new Set([...Object.keys(g), ...Object.keys(w)]);
    return [...keys].every((k) => (k in g ? sameArgs(g[k], w[k]) : empty(w[k])));
  }
  return got === want || (empty(got) && empty(want));
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

// upsert stores a message as Go does: by id, in its conversation.
function upsert(fake: FakeBackend, m: Message): void {
  const s = fake.chat.conversations.get(m.conversationId);
  if (!s) return;
  const at = s.messages.findIndex((x) => x.id === m.id);
  if (at >= 0) s.messages[at] = structuredClone(m);
  else s.messages.push(structuredClone(m));
  reserve(fake, m.id);
}

// reserve keeps the ids the fake hands out later above Go's.
function reserve(fake: FakeBackend, id: number): void {
  let next = fake.chat.nextId();
  while (next < id) next = fake.chat.nextId();
}

// apply keeps the fake's store as Go's would be after the event, so that
// what the UI reads back agrees with what it was told.
function apply(fake: FakeBackend, name: EventName, payload: unknown): void {
  const chat = fake.chat;
  switch (name) {
    case 'chat:message': {
      upsert(fake, (payload as EventMap['chat:message']).message);
      break;
    }
    case 'chat:delta': {
      const d = payload as EventMap['chat:delta'];
      const m = chat.conversations.get(d.conversationId)?.messages.find((x) => x.id === d.messageId);
      if (m) {
        m.content += d.text ?? '';
        m.reasoning += d.reasoning ?? '';
      }
      break;
    }
    case 'chat:tool-call': {
      const p = payload as EventMap['chat:tool-call'];
      const m = chat.conversations.get(p.conversationId)?.messages.find((x) => x.id === p.messageId);
      if (!m) break;
      const at = m.toolCalls.findIndex((c) => c.id === p.call.id);
      if (at >= 0) m.toolCalls[at] = structuredClone(p.call);
      else m.toolCalls.push(structuredClone(p.call));
      break;
    }
    case 'chat:approval':
      chat.approvals.set((payload as ChatApprovalPayload).id, structuredClone(payload as ChatApprovalPayload));
      break;
    case 'chat:approval-done':
      chat.approvals.delete((payload as EventMap['chat:approval-done']).id);
      break;
    case 'chat:sampling':
      chat.sampling.set((payload as ChatSamplingPayload).id, structuredClone(payload as ChatSamplingPayload));
      break;
    case 'chat:sampling-done':
      chat.sampling.delete((payload as EventMap['chat:sampling-done']).id);
      break;
    case 'mcp:elicitation':
      fake.pendingElicitations.add((payload as EventMap['mcp:elicitation']).id);
      break;
    case 'mcp:elicitation-done':
      fake.pendingElicitations.delete((payload as EventMap['mcp:elicitation-done']).id);
      break;
    case 'chat:done': {
      const d = payload as EventMap['chat:done'];
      if (chat.turns.get(d.conversationId)?.turnId === d.turnId) chat.turns.delete(d.conversationId);
      break;
    }
  }
}
