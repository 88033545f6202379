import { screen, waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { FakeBackend, spec } from '../../../test/fakes/fake';
import { go, renderApp } from '../../../test/app';

function fake(): FakeBackend {
  const f = new FakeBackend({
    servers: [spec({ id: 'a', command: 'x' })],
    prompts: { a: [{ name: 'team', arguments: [{ name: 'department' }, { name: 'lead' }] }] },
    templates: { a: [{ name: 'item', uriTemplate: 'test://items/{id}' }] },
  });
  f.completions = {
    'prompt:team:department': ['Engineering', 'Sales', 'Support'],
    'resource:test://items/{id}:id': ['alpha', 'beta'],
  };
  return f;
}

const options = (id: string) =>
  [...screen.getByTestId(id).querySelectorAll('option')].map((o) => (o as HTMLOptionElement).value);

describe('Completions', () => {
  it('suggest prompt argument values as the user types, with the other arguments as context', async () => {
    const f = fake();
    const { user } = renderApp(f);
    await go(user, 'prompts');
    await user.click(await screen.findByTestId('prompt-item-team'));
    await user.type(screen.getByTestId('prompt-arg-lead'), 'Al');
    await user.type(screen.getByTestId('prompt-arg-department'), 'S');
    await waitFor(() => expect(options('prompt-complete-department')).toEqual(['Sales', 'Support']));
    const calls = f.callsOf('Complete');
    expect(calls[calls.length - 1]).toEqual(['a', { kind: 'prompt', name: 'team' }, 'department', 'S', { lead: 'Al' }]);
  });

  it('suggest resource template variables', async () => {
    const f = fake();
    const { user } = renderApp(f);
    await go(user, 'resources');
    await user.click(await screen.findByTestId('template-item-item'));
    await user.type(screen.getByTestId('template-arg-id'), 'b');
    await waitFor(() => expect(options('template-complete-id')).toEqual(['beta']));
    expect(f.callsOf('Complete').at(-1)?.[1]).toEqual({ kind: 'resource', name: 'test://items/{id}' });
  });
});
