// Placeholder until `wails generate module` regenerates this file.
export namespace events { export type RPCEntry = any; }
export namespace mcp { export type ServerView = any; export type ServerSpec = any; export type ImportPreview = any; export type ImportResult = any; }
export namespace settings { export type Prefs = any; export type AppInfo = any; }
