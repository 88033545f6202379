//go:build bindings

package main

// Wails builds the app with the "bindings" tag and runs it to read the
// bound methods (`wails generate module`). That run must not open — or
// migrate — the user's database: it gets a throwaway data folder.
func init() { generatingBindings = true }
