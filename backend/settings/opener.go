package settings

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"

	"mcpdesk/backend/childproc"
)

// Opener shows a folder in the system's file manager. It returns once the
// file manager has been started, without waiting for it.
type Opener func(dir string) error

// WithOpener replaces the system opener (xdg-open, open, explorer) that
// OpenDataFolder uses; tests pass a recorder.
func WithOpener(o Opener) Option {
	return func(s *Service) {
		if o != nil {
			s.opener = o
		}
	}
}

// OpenDataFolder shows the data folder in the system's file manager.
func (s *Service) OpenDataFolder() error {
	dir := s.info.DataDir
	if dir == "" {
		return errors.New("open the data folder: this installation has no data folder")
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return fmt.Errorf("open the data folder: %s is not a folder", dir)
	}
	if err := s.opener(dir); err != nil {
		s.logger.Warn("open data folder", "dir", dir, "err", err)
		return fmt.Errorf("open the data folder: %w", err)
	}
	return nil
}

// openCommand is the program that shows a folder on goos, and its
// arguments.
func openCommand(goos, dir string) (string, []string) {
	switch goos {
	case "darwin":
		return "open", []string{dir}
	case "windows":
		return "explorer", []string{dir}
	default:
		return "xdg-open", []string{dir}
	}
}

// systemOpener starts the platform's opener for dir and reaps it in the
// background; it waits only for the start.
func systemOpener(dir string) error {
	name, args := openCommand(runtime.GOOS, dir)
	path, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf("no file manager could be started: %s was not found; open %s yourself", name, dir)
	}
	cmd := exec.Command(path, args...)
	if err := childproc.Start(cmd); err != nil {
		return fmt.Errorf("no file manager could be started: %s: %w", name, err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
