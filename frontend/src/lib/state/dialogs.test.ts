import { describe, expect, it } from 'vitest';
import { Dialogs } from './dialogs.svelte';

const opts = { title: { key: 't' }, message: { key: 'm' }, confirm: { key: 'c' }, option: { key: 'o' } };

describe('Dialogs', () => {
  it('says whether the option was ticked, only with a confirmation', async () => {
    const d = new Dialogs();
    const first = d.confirmChoice(opts);
    expect(d.pending?.option).toEqual({ key: 'o' });
    d.answer(true, true);
    expect(await first).toEqual({ ok: true, option: true });
    const second = d.confirmChoice(opts);
    d.answer(false, true);
    expect(await second).toEqual({ ok: false, option: false });
    // A dialog replaced by another is cancelled.
    const third = d.confirm(opts);
    const fourth = d.confirm(opts);
    d.answer(true);
    expect([await third, await fourth]).toEqual([false, true]);
  });
});
