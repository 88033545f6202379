import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { spec } from '../../../test/fakes/fake';
import type { Tool } from '../../api';
import { go, renderApp } from '../../../test/app';

const tools: Tool[] = [
  { name: 'echo', description: 'Echoes', inputSchema: { type: 'object', properties: { message: { type: 'string' } } } },
  { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } } },
];

describe('Tool selection (offered to models)', () => {
  it('shows the token estimate and switches a tool off and on', async () => {
    const { fake, user } = renderApp({ servers: [spec({ id: 'a', command: 'x' })], tools: { a: tools } });
    await go(user, 'tools');
    const estimate = await screen.findByTestId('tools-token-estimate');
    expect(estimate).toHaveTextContent(/2 of 2 offered to models · ≈ \d+ tokens/);
    const before = Number(estimate.textContent!.match(/≈ (\d+)/)![1]);

    const box = screen.getByTestId('tool-enabled-echo') as HTMLInputElement;
    expect(box.checked).toBe(true);
    await user.click(box);
    await waitFor(() => expect(screen.getByTestId('tools-token-estimate')).toHaveTextContent('1 of 2 offered'));
    expect(fake.callsOf('SetToolEnabled')).toEqual([['a', 'echo', false]]);
    expect((screen.getByTestId('tool-enabled-echo') as HTMLInputElement).checked).toBe(false);
    const after = Number(screen.getByTestId('tools-token-estimate').textContent!.match(/≈ (\d+)/)![1]);
    expect(after).toBeLessThan(before);

    await user.click(screen.getByTestId('tool-enabled-echo'));
    await waitFor(() => expect(screen.getByTestId('tools-token-estimate')).toHaveTextContent('2 of 2 offered'));
  });

  it('warns when the definitions cost many tokens', async () => {
    const big: Tool[] = Array.from({ length: 60 }, (_, i) => ({ name: `t${i}`, description: 'x'.repeat(600), inputSchema: { type: 'object' } }));
    const { user } = renderApp({ servers: [spec({ id: 'a', command: 'x' })], tools: { a: big } });
    await go(user, 'tools');
    expect(await screen.findByTestId('tools-token-estimate')).toHaveTextContent('switch off tools you do not need');
  });
});
