import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRAME_BUDGET_MS, FRAME_FALLBACK_MS, frameBudget, nextFrame } from './frames';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'] });
});
afterEach(() => {
  vi.runAllTimers();
  vi.useRealTimers();
});

describe('nextFrame', () => {
  it('runs once on the next frame, and not at all when cancelled', () => {
    const fn = vi.fn();
    nextFrame(fn);
    expect(fn).not.toHaveBeenCalled();
    vi.advanceTimersToNextFrame();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(FRAME_FALLBACK_MS * 2);
    expect(fn).toHaveBeenCalledTimes(1);

    const cancelled = vi.fn();
    nextFrame(cancelled)();
    vi.advanceTimersByTime(FRAME_FALLBACK_MS * 2);
    expect(cancelled).not.toHaveBeenCalled();
  });

  it('runs after the fallback when frames do not come (a hidden window)', () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    try {
      const fn = vi.fn();
      nextFrame(fn);
      vi.advanceTimersByTime(FRAME_FALLBACK_MS - 1);
      expect(fn).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(fn).toHaveBeenCalledTimes(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});

describe('frameBudget', () => {
  it('is shared by everyone in a frame and whole again in the next', () => {
    expect(frameBudget.left()).toBe(true);
    // One message takes most of it, another the rest: a third finds none.
    frameBudget.spend(FRAME_BUDGET_MS - 1);
    expect(frameBudget.left()).toBe(true);
    frameBudget.spend(1);
    expect(frameBudget.left()).toBe(false);
    vi.advanceTimersToNextFrame();
    expect(frameBudget.left()).toBe(true);
    // A block that overran the budget does not carry into the next frame.
    frameBudget.spend(FRAME_BUDGET_MS * 5);
    expect(frameBudget.left()).toBe(false);
    vi.advanceTimersToNextFrame();
    expect(frameBudget.left()).toBe(true);
  });

  it('run takes what its work took, also when the work throws', () => {
    expect(frameBudget.run(() => (vi.advanceTimersByTime(FRAME_BUDGET_MS / 2), 'html'))).toBe('html');
    expect(frameBudget.left()).toBe(true);
    expect(() =>
      frameBudget.run(() => {
        vi.advanceTimersByTime(FRAME_BUDGET_MS / 2);
        throw new Error('bad block');
      }),
    ).toThrow('bad block');
    expect(frameBudget.left()).toBe(false);
    vi.advanceTimersToNextFrame();
    expect(frameBudget.left()).toBe(true);
  });

  it('is whole again after the fallback when frames do not come', () => {
    vi.stubGlobal('requestAnimationFrame', undefined);
    try {
      frameBudget.spend(FRAME_BUDGET_MS);
      expect(frameBudget.left()).toBe(false);
      vi.advanceTimersByTime(FRAME_FALLBACK_MS);
      expect(frameBudget.left()).toBe(true);
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
