// Attachments (issue 16, SPEC D10) in Chromium against the dev build: a
// picture, a PDF, a pasted text file and a dropped CSV attach to the
// message (each checked and stored in Go as it arrives); a file the chat
// does not take says why and holds Send back; the scripted provider gets
// the picture as an image part and the files' text after the message; the
// message shows them, after a reload too. A model known to see no images
// says so before sending.
import { join } from 'node:path';

// A red 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

/** pdf writes a one-page PDF showing text (as backend/attach/attachtest does). */
function pdf(text) {
  const stream = `BT /F1 12 Tf 72 720 Td (${text}) Tj ET`;
  const objs = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R ] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
  ];
  let out = '%PDF-1.4\n';
  const offsets = objs.map((o, i) => {
    const at = out.length;
    out += `${i + 1} 0 obj\n${o}\nendobj\n`;
    return at;
  });
  const xref = out.length;
  out += `xref\n0 ${objs.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objs.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

export default function ({ test, expect, startApp, openPage, shots, startFakeLLM, addFakeProvider }) {
  /** Files given to the page as a paste on the composer, or a drop on its box. */
  const paste = (page, name, type, text) =>
    page.getByTestId('composer-input').evaluate((el, { name, type, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    }, { name, type, text });
  const drop = (page, name, type, text) =>
    page.getByTestId('composer-box').evaluate((el, { name, type, text }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], name, { type }));
      for (const kind of ['dragenter', 'dragover', 'drop']) el.dispatchEvent(new DragEvent(kind, { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, { name, type, text });

  test('attachments: a picture, a PDF, a pasted and a dropped file go with the message, each to the model in its format', async () => {
    const fake = await startFakeLLM([{ text: ['A red pixel, a report and notes.'] }]);
    const app = await startApp('attachments', { mcpServers: {} });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl);
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-attach-input').setInputFiles([
        { name: 'pixel.png', mimeType: 'image/png', buffer: PNG },
        { name: 'q3.pdf', mimeType: 'application/pdf', buffer: pdf('Sales doubled in June') },
      ]);
      await paste(page, 'notes.md', 'text/markdown', '# Notes\nShip on Friday.\n');
      await drop(page, 'data.csv', 'text/csv', 'month,sales\nJune,200\n');
      expect((await page.getByTestId('drop-overlay').count()) === 0, 'the config import took the drop');
      // A file the chat does not take: it says why, and Send waits until it is removed.
      await page.getByTestId('composer-attach-input').setInputFiles([{ name: 'tool.exe', mimeType: 'application/octet-stream', buffer: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(64)]) }]);
      const chips = page.getByTestId('composer-attachments').getByTestId('attachment');
      await chips.filter({ has: page.getByTestId('attachment-error') }).waitFor({ timeout: 10000 });
      expect((await chips.filter({ has: page.getByTestId('attachment-error') }).innerText()).includes('MCP Desk attaches images'), 'the refusal does not say why');
      await page.locator('[data-testid="attachment"][data-status="ready"]').nth(3).waitFor({ timeout: 10000 });
      await page.getByTestId('composer-input').fill('What are these?');
      expect(await page.getByTestId('composer-send').isDisabled(), 'Send is enabled beside a file that was not attached');
      await chips.filter({ has: page.getByTestId('attachment-error') }).getByTestId('attachment-remove').click();
      expect((await chips.count()) === 4, `${await chips.count()} files in the composer`);
      await page.screenshot({ path: join(shots, 'attachments-composer.png') });
      await page.getByTestId('composer-send').click();

      const message = page.getByTestId('message-user').last();
      await page.locator('[data-testid="message-assistant"][data-status="complete"]').filter({ hasText: 'A red pixel' }).waitFor({ timeout: 30000 });
      expect((await message.getByTestId('attachment').count()) === 4, `the message does not show its four files: ${await message.innerHTML()}`);
      // The picture is read back from Go by its hash.
      const thumb = message.getByTestId('attachment-thumb');
      const loaded = await thumb.evaluate((img) => (img.complete ? img.naturalWidth : new Promise((r) => img.addEventListener('load', () => r(img.naturalWidth)))));
      expect(loaded === 1 && (await thumb.getAttribute('src')).startsWith('/mcpdesk-attachment/'), `the thumbnail: ${loaded} ${await thumb.getAttribute('src')}`);

      const req = (await fake.requests()).at(-1);
      const user = req.body.messages.at(-1);
      const parts = Array.isArray(user.content) ? user.content : [];
      const text = parts.find((p) => p.type === 'text')?.text ?? '';
      const image = parts.find((p) => p.type === 'image_url')?.image_url?.url ?? '';
      expect(image === `data:image/png;base64,${PNG.toString('base64')}`, `the image part: ${image.slice(0, 80)}`);
      for (const want of ['What are these?', 'Attached file "q3.pdf" (application/pdf, the text of its 1 pages)', 'Sales doubled in June', '# Notes', 'month,sales']) {
        expect(text.includes(want), `the request's text lacks ${want}:\n${text}`);
      }
      await page.screenshot({ path: join(shots, 'attachments-message.png') });

      // After a reload the message still shows them.
      await page.reload();
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('chat-conversation-open').first().click();
      await page.getByTestId('message-user').last().getByTestId('attachment').nth(3).waitFor({ timeout: 15000 });
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });

  test('attachments: a model known to see no images says so before sending', async () => {
    const fake = await startFakeLLM([{ text: ['ok'] }], { models: ['gpt-3.5-turbo'] });
    const app = await startApp('attachments-text-only', { mcpServers: {} });
    try {
      const { page, errors } = await openPage(app);
      await addFakeProvider(page, fake.baseUrl, 'gpt-3.5-turbo');
      await page.getByTestId('nav-chat').click();
      await page.getByTestId('composer-input').fill('Look');
      await page.getByTestId('composer-attach-input').setInputFiles([{ name: 'pixel.png', mimeType: 'image/png', buffer: PNG }]);
      const warning = page.getByTestId('composer-no-images');
      await warning.waitFor({ timeout: 10000 });
      expect((await warning.innerText()).includes('gpt-3.5-turbo does not take images'), `the warning: ${await warning.innerText()}`);
      expect(await page.getByTestId('composer-send').isDisabled(), 'Send is enabled');
      await page.getByTestId('attachment-remove').click();
      await warning.waitFor({ state: 'detached', timeout: 5000 });
      expect(!(await page.getByTestId('composer-send').isDisabled()), 'Send stays disabled without the image');
      expect((await fake.requests()).length === 0, 'a request was sent');
      expect(errors.length === 0, `page errors: ${errors.join('\n')}`);
    } finally { await app.stop(); await fake.stop?.(); }
  });
}
