// An MCP-UI remote-DOM script (application/vnd.mcp-ui.remote-dom), as
// MCP-UI 5 servers wrote them: it builds its UI from ui-* elements under
// root, and acts through MCP-UI messages to its parent. It runs in MCP
// Desk's sandbox; the app draws what it builds. Probe reports what it
// could reach outside the sandbox.
const card = document.createElement('ui-card');
const stack = document.createElement('ui-stack');
stack.setAttribute('direction', 'vertical');
stack.setAttribute('spacing', '8');
const title = document.createElement('ui-text');
title.setAttribute('content', 'Remote card <img src=x onerror=alert(1)>');
const count = document.createElement('ui-text');
count.setAttribute('content', 'presses 0');
const status = document.createElement('ui-text');
status.setAttribute('content', 'ready');
const row = document.createElement('ui-stack');
row.setAttribute('direction', 'horizontal');
row.setAttribute('spacing', '6');

function button(label, onPress) {
  const b = document.createElement('ui-button');
  b.setAttribute('label', label);
  b.addEventListener('press', onPress);
  row.appendChild(b);
  return b;
}

let presses = 0;
button('Press', () => {
  presses++;
  count.setAttribute('content', 'presses ' + presses);
});
button('Vote', () => {
  window.parent.postMessage({ type: 'tool', messageId: 'vote', payload: { toolName: 'card_vote', params: { choice: 'remote' } } }, '*');
});
button('Ask', () => {
  window.parent.postMessage({ type: 'prompt', messageId: 'ask', payload: { prompt: 'What does the remote card say?' } }, '*');
});
button('Probe', () => {
  const out = [];
  try {
    void window.parent.document.title;
    out.push('parent:open');
  } catch (e) {
    out.push('parent:blocked');
  }
  try {
    void window.top.go.mcppool;
    out.push('go:open');
  } catch (e) {
    out.push('go:blocked');
  }
  fetch('https://example.com/').then(
    () => out.push('fetch:open'),
    () => out.push('fetch:blocked'),
  ).finally(() => status.setAttribute('content', out.join(' ')));
});

const image = document.createElement('ui-image');
image.setAttribute('src', 'https://tracker.example/pixel.gif');
image.setAttribute('alt', 'tracker');

window.addEventListener('message', (e) => {
  const m = e.data;
  if (!m || m.type !== 'ui-message-response' || m.messageId !== 'vote') return;
  const r = m.payload && m.payload.response;
  status.setAttribute('content', r ? 'voted: ' + r.structuredContent.choice : 'vote refused: ' + (m.payload && m.payload.error));
});

stack.appendChild(title);
stack.appendChild(count);
stack.appendChild(row);
stack.appendChild(status);
stack.appendChild(image);
card.appendChild(stack);
root.appendChild(card);
