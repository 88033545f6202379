/// <reference types="svelte" />
/// <reference types="vite/client" />

// The Wails runtime puts the bound Go services on window.go (package →
// service → method); src/lib/api/wails.ts reaches them through the
// generated contract's types.
interface Window {
  go: Record<string, Record<string, Record<string, (...args: unknown[]) => Promise<never>>>>;
}

// A string table compiled and packed at build time (src/lib/i18n/compile.ts,
// the `messages` plugin of vite.config.ts): virtual:messages/en, …/zh-CN.
declare module 'virtual:messages/*' {
  const table: import('./lib/i18n/compile').Packed;
  export default table;
}
