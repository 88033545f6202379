import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { renderApp } from '../../../test/app';

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Name' },
    team: { type: 'string', default: 'core' },
    count: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
  },
  required: ['name'],
};

describe('Elicitation dialog', () => {
  it('shows the question with defaults filled in, validates, and accepts with the content', async () => {
    const { fake, user } = renderApp({});
    fake.elicit({ id: 'q1', server: 'demo', mode: 'form', message: 'Who is asking?', requestedSchema: schema });
    const dlg = await screen.findByTestId('elicitation-dialog');
    expect(dlg).toHaveTextContent('demo asks');
    expect(screen.getByTestId('elicitation-message')).toHaveTextContent('Who is asking?');
    expect(screen.getByTestId('elicitation-countdown')).toHaveTextContent('5:00');
    const team = within(screen.getByTestId('schema-field-team')).getByRole('textbox');
    expect(team).toHaveValue('core');

    // name is required: Accept is refused until it is filled in.
    await user.click(screen.getByTestId('elicitation-accept'));
    expect(fake.callsOf('AnswerElicitation')).toEqual([]);
    expect(screen.getByTestId('elicitation-dialog')).toBeInTheDocument();

    await user.type(within(screen.getByTestId('schema-field-name')).getByRole('textbox'), 'Ada');
    await user.click(screen.getByTestId('elicitation-accept'));
    await waitFor(() =>
      expect(fake.callsOf('AnswerElicitation')).toEqual([['q1', 'accept', { name: 'Ada', team: 'core', count: 3 }]]),
    );
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).toBeNull());
  });

  it('asks several questions in turn; decline and Esc (cancel) answer them', async () => {
    const { fake, user } = renderApp({});
    fake.elicit({ id: 'a', server: 's', mode: 'form', message: 'First?', requestedSchema: { type: 'object', properties: {} } });
    fake.elicit({ id: 'b', server: 's', mode: 'form', message: 'Second?', requestedSchema: { type: 'object', properties: {} } });
    await screen.findByTestId('elicitation-dialog');
    expect(screen.getByTestId('elicitation-message')).toHaveTextContent('First?');
    expect(screen.getByTestId('elicitation-waiting')).toHaveTextContent('1 more question waits');
    await user.click(screen.getByTestId('elicitation-decline'));
    await waitFor(() => expect(screen.getByTestId('elicitation-message')).toHaveTextContent('Second?'));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).toBeNull());
    expect(fake.callsOf('AnswerElicitation')).toEqual([
      ['a', 'decline', null],
      ['b', 'cancel', null],
    ]);
  });

  it('closes when Go settles the question (timeout or the call ended)', async () => {
    const { fake } = renderApp({});
    fake.elicit({ id: 'gone', server: 's', mode: 'form', message: 'Hello?', requestedSchema: { type: 'object' } });
    await screen.findByTestId('elicitation-dialog');
    fake.emit('mcp:elicitation-done', { id: 'gone', action: 'cancel' });
    await waitFor(() => expect(screen.queryByTestId('elicitation-dialog')).toBeNull());
  });

  it('URL mode shows the whole address and opens it in the browser only on accept', async () => {
    const { fake, user } = renderApp({});
    const url = 'https://auth.example.com/connect?state=abc&scope=repo';
    fake.elicit({ id: 'u', server: 'github', mode: 'url', message: 'Authorise GitHub', url });
    const consent = await screen.findByTestId('elicitation-url');
    expect(consent).toHaveTextContent(url);
    expect(consent).toHaveTextContent('auth.example.com');
    expect(fake.opened).toEqual([]);
    await user.click(screen.getByTestId('elicitation-accept'));
    expect(fake.opened).toEqual([url]);
    await waitFor(() => expect(fake.callsOf('AnswerElicitation')).toEqual([['u', 'accept', null]]));
  });

  it('reports an answer that came too late', async () => {
    const { fake, user } = renderApp({});
    fake.elicit({ id: 'late', server: 's', mode: 'form', message: 'Quick?', requestedSchema: { type: 'object' } });
    await screen.findByTestId('elicitation-dialog');
    fake.pendingElicitations.delete('late');
    await user.click(screen.getByTestId('elicitation-decline'));
    expect(await screen.findByTestId('toast')).toHaveTextContent('no longer waiting');
  });
});
