//go:build darwin

package tray

// On macOS the status item needs Cocoa's main thread, which Wails owns;
// there is no tray there yet and closing the window quits as usual.

// Tray is absent on macOS.
type Tray struct{}

// Start does nothing on macOS.
func Start(Options) *Tray { return nil }

// Available is false on macOS.
func (t *Tray) Available() bool { return false }

// SetLabels does nothing on macOS.
func (t *Tray) SetLabels(Labels) {}

// Stop does nothing on macOS.
func (t *Tray) Stop() {}
