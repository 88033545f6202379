import { describe, expect, it } from 'vitest';
import { checkLink } from './fakeLinks';

// The fake backend refuses the links Go's settings.CheckLink refuses, with
// the same words (backend/settings/links_test.go has the full table).
describe('fake OpenLink', () => {
  it.each(['https://example.com/docs?q=1', 'http://example.com', 'mailto:a@example.com', 'HTTPS://Example.com/'])('opens %s', (link) => {
    expect(() => checkLink(link)).not.toThrow();
  });

  it.each([
    ['', 'the link is empty'],
    ['javascript:alert(1)', 'not javascript: links'],
    ['file:///etc/passwd', 'not file: links'],
    ['data:text/html,x', 'not data: links'],
    ['vbscript:x', 'not vbscript: links'],
    ['zoommtg://zoom.us/join', 'not zoommtg: links'],
    ['https:', 'has no host'],
    ['https:example.com', 'has no host'],
    ['https://paypal.com@evil.example/', 'carries a user name before the host'],
    ['https://example.com/\u0000', 'control or invisible character (U+0000'],
    ['https://exa\u200bmple.com/', 'U+200B'],
    ['https://example.com/a b', 'U+0020'],
    ['/relative', 'is not a full link'],
    ['mailto:', 'has no address'],
  ])('refuses %j: %s', (link, says) => {
    expect(() => checkLink(link)).toThrow(says);
  });
});
