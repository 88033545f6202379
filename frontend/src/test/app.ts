// Renders the whole app against an in-memory backend.

import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach } from 'vitest';
import App from '../App.svelte';
import { setBackend } from '../lib/api';
import { FakeBackend, type FakeOptions } from './fakes/fake';
import { createStores } from '../lib/state/context';

const live: FakeBackend[] = [];
afterEach(() => {
  while (live.length) live.pop()!.dispose();
});

export function renderApp(options: FakeOptions | FakeBackend = {}) {
  const fake = options instanceof FakeBackend ? options : new FakeBackend(options);
  live.push(fake);
  setBackend(fake);
  const stores = createStores();
  const result = render(App, { props: { stores } });
  const user = userEvent.setup();
  return { ...result, fake, stores, user };
}

/** row returns the server row of id and helpers scoped to it. */
export function serverRow(id: string) {
  const el = screen.getByTestId(`server-${id}`);
  return { el, ...within(el) };
}

/** go opens a screen through the navigation rail. */
export async function go(user: ReturnType<typeof userEvent.setup>, name: string) {
  await user.click(screen.getByTestId(`nav-${name}`));
}
