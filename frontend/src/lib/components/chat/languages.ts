// The fence names chat code blocks are highlighted for: highlight.ts's
// grammars and their aliases, lower-case. They are listed here so that the
// window knows them without loading highlight.js, which runs in a worker
// (codeHighlight.ts); highlight.test.ts holds this list to the grammars.

const NAMES = new Set([
  'atom', 'bash', 'c', 'c#', 'c++', 'cc', 'cjs', 'console', 'cpp', 'cs', 'csharp', 'css', 'cts', 'cxx',
  'diff', 'docker', 'dockerfile', 'gemspec', 'go', 'golang', 'gyp', 'h', 'h++', 'hh', 'hpp', 'html', 'hxx',
  'ini', 'ipython', 'irb', 'java', 'javascript', 'js', 'json', 'json5', 'jsonc', 'jsp', 'jsx', 'markdown',
  'md', 'mjs', 'mkd', 'mkdown', 'mts', 'output', 'patch', 'php', 'plain', 'plaintext', 'plist', 'podspec',
  'py', 'python', 'rb', 'rs', 'rss', 'ruby', 'rust', 'sh', 'shell', 'shellsession', 'sql', 'svg', 'text',
  'thor', 'toml', 'ts', 'tsx', 'txt', 'typescript', 'wsf', 'xhtml', 'xjb', 'xml', 'xsd', 'xsl', 'yaml',
  'yml', 'zsh',
]);

/** languageNames lists every name knownLanguage takes (for the test). */
export const languageNames = (): string[] => [...NAMES];

/** knownLanguage reports whether a fence's language name is highlighted. */
export function knownLanguage(lang: string): boolean {
  return NAMES.has(lang.toLowerCase());
}
