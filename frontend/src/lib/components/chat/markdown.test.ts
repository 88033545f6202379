import { waitFor } from '@testing-library/svelte';
import { describe, expect, it } from 'vitest';
import { plainPreview, snippetParts } from './format';
import { renderChatNodes, splitBlocks } from './markdown';

// The nodes as the chat places them.
const render = (md: string) => {
  const div = document.createElement('div');
  div.append(renderChatNodes(md, 'Copy code'));
  return div;
};

describe('chat markdown', () => {
  it('sanitises what a model writes', () => {
    const div = render(
      'Hi <img src=x onerror="alert(1)"> <script>alert(2)</script> <button onclick="x()">b</button> <a href="javascript:alert(3)">j</a> <input type="text" value="v"> <div style="color:red" data-x="1">d</div>',
    );
    const html = div.innerHTML;
    expect(html).not.toMatch(/onerror|onclick|<script|javascript:|style=|data-x/);
    expect(div.querySelector('button')).toBeNull();
    const input = div.querySelector('input')!;
    expect([input.type, input.disabled]).toEqual(['checkbox', true]);
  });

  it('highlights known languages, adds one copy button per code block, and leaves unknown ones plain', async () => {
    const div = render('```python\ndef f(): return 1\n```\n\n```nosuchlang\n<b>x</b>\n```\n\n    indented');
    const blocks = div.querySelectorAll('.code-block');
    expect(blocks).toHaveLength(3);
    expect(blocks[0].querySelector('.code-lang')).toHaveTextContent('python');
    await waitFor(() => expect(blocks[0].querySelector('.hljs-keyword')).toHaveTextContent('def'));
    expect(blocks[1].querySelector('code')!.innerHTML).toBe('&lt;b&gt;x&lt;/b&gt;');
    expect(div.querySelectorAll('button.code-copy')).toHaveLength(3);
    expect(div.querySelector('button.code-copy')).toHaveAttribute('aria-label', 'Copy code');
  });

  it('a language name cannot inject markup', () => {
    const div = render('```"><img src=x onerror=alert(1)>\ncode\n```');
    expect(div.querySelector('img')).toBeNull();
    expect(div.innerHTML).not.toContain('onerror=');
  });

  it('splits into blocks at blank lines outside fences, before unindented lines', () => {
    const text = 'Para one\n\n```js\na\n\nb\n```\n\n- item\n\n  more of item\n\nLast';
    const cuts = splitBlocks(text);
    const blocks = [0, ...cuts].map((s, i) => text.slice(s, cuts[i] ?? text.length));
    expect(blocks).toEqual(['Para one\n\n', '```js\na\n\nb\n```\n\n', '- item\n\n  more of item\n\n', 'Last']);
    // From a block start, only later cuts; an unfinished fence cuts nothing.
    expect(splitBlocks(text, cuts[1])).toEqual(cuts.slice(2));
    expect(splitBlocks('```\nopen\n\nfence')).toEqual([]);
  });

  it('splits search snippets at their markers', () => {
    expect(snippetParts('…a \u0002Banana\u0003 and \u0002banana\u0003')).toEqual([
      { text: '…a ', mark: false },
      { text: 'Banana', mark: true },
      { text: ' and ', mark: false },
      { text: 'banana', mark: true },
    ]);
  });
});

describe('plainPreview', () => {
  it('drops markdown syntax from a sidebar preview', () => {
    expect(plainPreview('## Both tools ran\nThe server answered both calls:\n- **echo** returned *Echo: hi*\n- `get-sum` returned [5](http://x)')).toBe(
      'Both tools ran The server answered both calls: echo returned Echo: hi get-sum returned 5',
    );
    expect(plainPreview('```go\nfmt.Println(1)\n```')).toBe('fmt.Println(1)');
    expect(plainPreview('2 * 3 * 4 = 24, snake_case_name')).toBe('2 * 3 * 4 = 24, snake_case_name');
  });
});
