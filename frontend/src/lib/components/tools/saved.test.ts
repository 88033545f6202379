import { screen, waitFor, within } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import type { SavedRequest, Tool } from '../../api';
import { spec, status, type FakeOptions } from '../../../test/fakes/fake';
import { go, renderApp } from '../../../test/app';

const echo: Tool = {
  name: 'echo',
  inputSchema: {
    type: 'object',
    properties: { message: { type: 'string', minLength: 2 }, times: { type: 'integer', default: 1 } },
    required: ['message'],
  },
};
const ping: Tool = { name: 'ping', inputSchema: { type: 'object' } };

const everything = { spec: spec({ id: 'everything', command: 'npx' }), status: status({ id: 'everything', tools: 2 }) };

const hello: SavedRequest = {
  id: 7,
  server: 'everything',
  tool: 'echo',
  name: 'Hello',
  description: 'Says hello',
  arguments: { message: 'hello there', times: 3 },
};

async function open(o: FakeOptions = {}) {
  const app = renderApp({ servers: [everything], tools: { everything: [echo, ping] }, ...o });
  await screen.findByTestId('server-everything');
  await go(app.user, 'tools');
  await screen.findByTestId('tools-summary');
  await app.user.click(screen.getByTestId('tool-item-echo'));
  await screen.findByTestId('tool-detail');
  return app;
}

const input = (path: string) =>
  screen.getByTestId(`schema-field-${path}`).querySelector('input:not([type="checkbox"]), select, textarea') as HTMLInputElement;

describe('Saved requests', () => {
  it('saves the current form value, even an invalid one, under a name', async () => {
    const { fake, user } = await open();
    await waitFor(() => expect(fake.callsOf('ListSavedRequests')).toEqual([['everything']]));
    await user.type(input('message'), 'x');

    await user.click(screen.getByTestId('tool-save'));
    const dlg = within(await screen.findByTestId('save-request-dialog'));
    // The name is required.
    await user.click(dlg.getByTestId('save-request-confirm'));
    expect(fake.callsOf('SaveRequest')).toEqual([]);
    expect(dlg.getByTestId('save-request-name')).toHaveAttribute('aria-invalid', 'true');

    await user.type(dlg.getByTestId('save-request-name'), 'Short one');
    await user.type(dlg.getByTestId('save-request-description'), 'Too short to run');
    await user.click(dlg.getByTestId('save-request-confirm'));

    await waitFor(() => expect(screen.queryByTestId('save-request-dialog')).not.toBeInTheDocument());
    expect(fake.callsOf('SaveRequest')).toEqual([
      [{ id: 0, server: 'everything', tool: 'echo', name: 'Short one', description: 'Too short to run', arguments: { message: 'x', times: 1 } }],
    ]);

    await user.click(screen.getByTestId('tool-tab-saved'));
    const rows = await screen.findAllByTestId('saved-request-item');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('Short one');
    expect(rows[0]).toHaveTextContent('Too short to run');
    expect(rows[0]).toHaveTextContent('echo');
  });

  it('shows an empty state and only the selected tool’s requests', async () => {
    const { user } = await open({ saved: [{ ...hello, id: 8, tool: 'ping', name: 'Ping it', arguments: {} }] });
    await user.click(screen.getByTestId('tool-tab-saved'));
    expect(await screen.findByTestId('saved-requests-empty')).toBeInTheDocument();
    expect(screen.queryByTestId('saved-request-item')).not.toBeInTheDocument();
  });

  it('loads a saved request into the form', async () => {
    const { user } = await open({ saved: [hello] });
    await user.click(screen.getByTestId('tool-tab-saved'));
    const row = within(await screen.findByTestId('saved-request-item'));
    expect(input('message')).toHaveValue('');
    await user.click(row.getByTestId('saved-request-load'));
    await waitFor(() => expect(input('message')).toHaveValue('hello there'));
    expect(input('times')).toHaveValue(3);
  });

  it('renames a saved request keeping its id', async () => {
    const { fake, user } = await open({ saved: [hello] });
    await user.click(screen.getByTestId('tool-tab-saved'));
    await user.click(within(await screen.findByTestId('saved-request-item')).getByTestId('saved-request-rename'));
    const dlg = within(await screen.findByTestId('save-request-dialog'));
    expect(dlg.getByTestId('save-request-name')).toHaveValue('Hello');
    expect(dlg.getByTestId('save-request-description')).toHaveValue('Says hello');
    await user.clear(dlg.getByTestId('save-request-name'));
    await user.type(dlg.getByTestId('save-request-name'), 'Greeting');
    await user.click(dlg.getByTestId('save-request-confirm'));

    await waitFor(() => expect(screen.queryByTestId('save-request-dialog')).not.toBeInTheDocument());
    expect(fake.callsOf('SaveRequest')).toEqual([[{ ...hello, name: 'Greeting' }]]);
    await waitFor(() => expect(screen.getByTestId('saved-request-item')).toHaveTextContent('Greeting'));
    expect(screen.getAllByTestId('saved-request-item')).toHaveLength(1);
  });

  it('deletes a saved request after confirming', async () => {
    const { fake, user } = await open({ saved: [hello] });
    await user.click(screen.getByTestId('tool-tab-saved'));
    const del = within(await screen.findByTestId('saved-request-item')).getByTestId('saved-request-delete');

    await user.click(del);
    await user.click(await screen.findByTestId('confirm-cancel'));
    expect(fake.callsOf('DeleteSavedRequest')).toEqual([]);
    expect(screen.getByTestId('saved-request-item')).toBeInTheDocument();

    await user.click(del);
    await user.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('saved-request-item')).not.toBeInTheDocument());
    expect(fake.callsOf('DeleteSavedRequest')).toEqual([[7]]);
    expect(screen.getByTestId('saved-requests-empty')).toBeInTheDocument();
  });

  it('shows Go’s error in the dialog and keeps it open', async () => {
    const { fake, user } = await open();
    const message = 'save request: "Dup": a saved request with this name already exists for this server';
    fake.failNext('SaveRequest', message);
    await user.click(screen.getByTestId('tool-save'));
    const dlg = within(await screen.findByTestId('save-request-dialog'));
    await user.type(dlg.getByTestId('save-request-name'), 'Dup');
    await user.click(dlg.getByTestId('save-request-confirm'));
    expect(await dlg.findByTestId('save-request-error')).toHaveTextContent(message);
    expect(screen.getByTestId('save-request-dialog')).toBeInTheDocument();
  });

  it('rejects a duplicate name from the backend', async () => {
    const { user } = await open({ saved: [hello] });
    await user.click(screen.getByTestId('tool-save'));
    const dlg = within(await screen.findByTestId('save-request-dialog'));
    await user.type(dlg.getByTestId('save-request-name'), 'Hello');
    await user.click(dlg.getByTestId('save-request-confirm'));
    expect(await dlg.findByTestId('save-request-error')).toHaveTextContent('already exists');
  });
});
