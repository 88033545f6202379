// Animation frames: running work on the next one, and sharing one frame's
// time between everything that can wait for the next (issue 16: no frame
// over 50 ms while a long reply arrives).

/** The longest work waits when animation frames do not come (a hidden window), in ms. */
export const FRAME_FALLBACK_MS = 100;

/** Schedule runs fn later and returns what cancels it. */
export type Schedule = (fn: () => void) => () => void;

/**
 * nextFrame runs fn on the next animation frame, or after FRAME_FALLBACK_MS
 * when frames do not come (a hidden window), whichever is first.
 */
export const nextFrame: Schedule = (fn) => {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    cancel();
    fn();
  };
  const raf = typeof requestAnimationFrame === 'function' ? requestAnimationFrame(run) : 0;
  const timer = setTimeout(run, FRAME_FALLBACK_MS);
  function cancel() {
    if (raf && typeof cancelAnimationFrame === 'function') cancelAnimationFrame(raf);
    clearTimeout(timer);
  }
  return () => {
    done = true;
    cancel();
  };
};

/**
 * The time a frame gives deferrable work, in ms. The layout of what that
 * work adds costs as much again or more (text shaping, on a software-
 * rendered machine), so the budget stays well below half of 50 ms. 5 ms
 * against 8, a whole 10,000-token reply, 7 alternating runs each
 * (bench.mjs): frames over 50 ms 6 vs 7, median longest frame 50.1 vs
 * 66.6 ms, median stream 0.35 vs 0.38 s. No worse; better is within this
 * machine's noise.
 */
export const FRAME_BUDGET_MS = 5;

let spent = 0;
let renewing = false;

/**
 * frameBudget is one frame's time for work that can go on in the next
 * frame (the blocks of a long reply). Every user draws on the same budget,
 * so two messages, or one rendered twice in a frame (by the stream's flush
 * and by its own next step), take FRAME_BUDGET_MS together, not each. The
 * budget is whole again at the next frame.
 */
export const frameBudget = {
  /** left reports whether anything is left of this frame's budget. */
  left(): boolean {
    return spent < FRAME_BUDGET_MS;
  },
  /** run runs work and takes the time it took from this frame's budget. */
  run<T>(work: () => T): T {
    const began = performance.now();
    try {
      return work();
    } finally {
      this.spend(performance.now() - began);
    }
  },
  /** spend takes ms from this frame's budget. */
  spend(ms: number): void {
    spent += ms;
    if (renewing) return;
    renewing = true;
    nextFrame(() => {
      spent = 0;
      renewing = false;
    });
  },
};
