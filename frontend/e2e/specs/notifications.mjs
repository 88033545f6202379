// Desktop notifications (issue 16) end to end: the app runs in a D-Bus
// session with a notification daemon of the test's own. While the window
// is not looked at, a finished reply is sent over D-Bus naming its
// conversation; the daemon's click (ActionInvoked) brings the window to
// that conversation, from another screen.
import { join } from 'node:path';

export default function ({ test, expect, startApp, openPage, shots, startFakeLLM, addFakeProvider }) {
  test('notifications: a reply that finishes while the window is away is sent over D-Bus, and its click opens the conversation', async () => {
    const fake = await startFakeLLM([{ text: ['The answer is 42.'] }]);
    const app = await startApp('notify', { mcpServers: {} }, { notify: true });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await page.getByTestId('nav-chat').click();
      // The window is in the background (the browser cannot be unfocused for real here).
      await page.evaluate(() => { document.hasFocus = () => false; });
      await page.getByTestId('composer-input').fill('What is the answer?');
      await page.getByTestId('composer-send').click();
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'The answer is 42.' }).waitFor({ timeout: 30000 });
      let shown = [];
      for (let i = 0; i < 50 && shown.length === 0; i++) {
        shown = app.notifications();
        if (shown.length === 0) await page.waitForTimeout(100);
      }
      expect(shown.length === 1, `the daemon showed ${JSON.stringify(shown)}`);
      const [n] = shown;
      expect(n.app === 'MCP Desk' && n.summary === 'Reply finished' && n.body === 'in “What is the answer?”' && n.actions[0] === 'default',
        `the notification: ${JSON.stringify(n)}`);

      // Elsewhere in the app, the user clicks it: the conversation opens.
      await page.getByTestId('nav-servers').click();
      await page.getByTestId('chat-screen').waitFor({ state: 'detached', timeout: 5000 });
      app.click(n.id);
      await page.getByTestId('chat-screen').waitFor({ timeout: 10000 });
      await page.locator('[data-testid^="chat-conversation-"][aria-current="true"]').filter({ hasText: 'What is the answer?' }).waitFor({ timeout: 10000 });
      await page.screenshot({ path: join(shots, 'notification-click.png') });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });
}
