// The chat frame benches' reply and figures, shared by bench.mjs (Chromium,
// dev build) and window-frames.mjs (the real production window).
import { readFileSync } from 'node:fs';

/** The reply's length in tokens (one chunk of the stream each). */
export const TOKENS = 10000;
/** The reply ends with this: the probe waits for it in the message. */
export const REPLY_END = 'END-OF-REPLY.';
/** probeSource is frames/probe.js, which defines measureReplyFrames in the page. */
export const probeSource = readFileSync(new URL('./probe.js', import.meta.url), 'utf8');

/**
 * longReply is the 10,000-token reply: words (one token each) in
 * paragraphs, with a list and a fenced code block now and then, as a long
 * real answer has. The code blocks take langs in turn (a grammar's first
 * use is compiled, up to 54 ms for Java).
 */
export function longReply(langs = ['go']) {
  const chunks = [];
  const words = ['the', 'model', 'streams', 'a', 'long', 'answer', 'into', 'chat', 'while', 'tools', 'wait', 'and', 'frames', 'must', 'stay', 'smooth'];
  for (let i = 0; chunks.length < TOKENS; i++) {
    if (i % 600 === 300) {
      const lang = langs[Math.floor(i / 600) % langs.length];
      chunks.push(`\n\n\`\`\`${lang}\n`, 'func', ' main', '()', ' {\n', '\tfmt', '.Println', '("hi")', '\n}\n', '```\n\n');
    } else if (i % 600 === 500) {
      for (let j = 0; j < 5; j++) chunks.push(`\n- item`, ` ${j}`, ' of', ' the', ' list');
      chunks.push('\n\n');
    } else {
      chunks.push(`${i % 80 === 0 ? '\n\n' : ' '}${words[i % words.length]}`);
    }
  }
  const reply = chunks.slice(0, TOKENS);
  reply[reply.length - 1] += ` ${REPLY_END}`;
  return reply;
}

/** The fake LLM's script: the reply as fast as it can, then paced over a few seconds. */
export const RUNS = [
  { label: 'as fast as it can', delayMs: 0 },
  { label: 'paced', delayMs: 0.1 },
];

/** replyLangs are the code blocks' languages: BENCH_LANGS=java,php,… (default go). */
export const replyLangs = () => (process.env.BENCH_LANGS || 'go').split(',');

/** fakeScript is the fake LLM's script: the reply once for each of RUNS, in order. */
export const fakeScript = (reply) => RUNS.map((r) => ({ text: reply, ...(r.delayMs ? { delayMs: r.delayMs } : {}) }));

/** prompt is the message that asks for a run's reply. */
export const prompt = (label) => `Write ${TOKENS} tokens (${label}).`;

/**
 * frameStats describes frame deltas: p50 / p95 / max, and how many missed
 * a vsync (over 1.5 frames at 60 Hz) or took over 50 ms.
 */
export function frameStats(frames) {
  const xs = [...frames].sort((a, b) => a - b);
  const q = (p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))];
  // rAF timestamps jitter around the 16.7 ms vsync (16.6–16.8).
  const missed = xs.filter((x) => x > 25).length;
  const long = xs.filter((x) => x > 50).length;
  return {
    p95: q(0.95),
    text: `${xs.length} frames: p50 ${q(0.5).toFixed(1)} ms, p95 ${q(0.95).toFixed(1)} ms, max ${xs.at(-1).toFixed(1)} ms;` +
      ` ${missed} frames > 25 ms (a vsync missed), ${long} > 50 ms`,
  };
}

/** describeFrames is one line of figures for a run's result r (from measureReplyFrames). */
export function describeFrames(what, label, r) {
  const s = frameStats(r.frames);
  return `${what}, ${TOKENS.toLocaleString('en')}-token reply (${label}): stream ${(r.stream / 1000).toFixed(2)} s from first text to complete` +
    ` (first text ${r.firstText.toFixed(0)} ms after Send), ${s.text}; target p95 < 16.7 ms: ${s.p95 < 17.2 ? 'met (within vsync jitter)' : 'NOT met'}`;
}
