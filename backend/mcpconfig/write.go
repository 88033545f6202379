package mcpconfig

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// WriteFile validates cfg and writes it to path atomically: to a temporary
// file in the same directory, synced, then renamed over path, so a reader
// sees the old file or the new one and never a torn one. The file gets
// mode 0600 (it holds secrets) and a missing directory is created with
// 0700. If path is a symbolic link, the file it points to is replaced and
// the link kept. The JSON is {"mcpServers": {...}} indented by two spaces,
// servers in Config order, each server's own fields first and its Extra
// fields after them in name order, then the top-level Extra fields in name
// order. Comments in the previous file are not kept.
//
// An invalid cfg is refused with the same errors Validate returns, and the
// file is left untouched. Every Watch of path in this process treats the
// written bytes as already seen: the writer is expected to apply cfg
// itself.
func WriteFile(path string, cfg *Config) error {
	if err := Validate(path, cfg); err != nil {
		return err
	}
	data, err := encode(cfg)
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := writeAtomic(path, data); err != nil {
		return fmt.Errorf("write config: %w", err)
	}
	return nil
}

// writeAtomic replaces path with data through a temporary file.
func writeAtomic(path string, data []byte) (err error) {
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved
	}
	dir := filepath.Dir(target)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	undo := tracked.wrote(fileKey(path), fingerprintOf(data, true))
	if err := os.Rename(tmp.Name(), target); err != nil {
		undo()
		return err
	}
	syncDir(dir)
	return nil
}

// syncDir makes a rename in dir durable where the system allows it
// (not on Windows, where directories cannot be synced).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// encode renders cfg as the indented JSON WriteFile writes.
func encode(cfg *Config) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"mcpServers":{`)
	for i, s := range cfg.Servers {
		if i > 0 {
			b.WriteByte(',')
		}
		if err := writeKey(&b, s.ID); err != nil {
			return nil, err
		}
		if err := encodeServer(&b, s); err != nil {
			return nil, fmt.Errorf("server %q: %w", s.ID, err)
		}
	}
	b.WriteByte('}')
	if err := writeFields(&b, cfg.Extra, true); err != nil {
		return nil, err
	}
	b.WriteByte('}')
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// encodeServer writes one server object: its own fields in struct order,
// then Extra.
func encodeServer(b *bytes.Buffer, s Server) error {
	own, err := marshal(s)
	if err != nil {
		return err
	}
	b.Write(own[:len(own)-1]) // leave the object open for Extra
	if err := writeFields(b, s.Extra, len(own) > 2); err != nil {
		return err
	}
	b.WriteByte('}')
	return nil
}

// writeFields writes "key":value for each field of extra in name order,
// starting with a comma if comma is set.
func writeFields(b *bytes.Buffer, extra map[string]json.RawMessage, comma bool) error {
	for _, k := range sortedKeys(extra) {
		if comma {
			b.WriteByte(',')
		}
		comma = true
		if err := writeKey(b, k); err != nil {
			return err
		}
		if err := json.Compact(b, extra[k]); err != nil {
			return fmt.Errorf("field %q: %w", k, err)
		}
	}
	return nil
}

// writeKey writes "key":.
func writeKey(b *bytes.Buffer, k string) error {
	q, err := marshal(k)
	if err != nil {
		return err
	}
	b.Write(q)
	b.WriteByte(':')
	return nil
}

// marshal is json.Marshal without HTML escaping, so that <, > and & stay
// readable in the file.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// sortedKeys returns the keys of m in order.
func sortedKeys[M ~map[K]V, K cmp.Ordered, V any](m M) []K {
	return slices.Sorted(maps.Keys(m))
}
