package mcppool

import (
	"fmt"

	"mcpdesk/backend/mcpconfig"
)

// RevealSecret returns the stored value of one env variable (kind "env") or
// header (kind "header") of a server, read from the OS keychain when it is
// kept there. The form calls it only when the user asks to see the value.
func (s *MCPPool) RevealSecret(id, kind, name string) (string, error) {
	k, err := pairKind(kind)
	if err != nil {
		return "", err
	}
	return s.pool.SecretValue(id, k, name)
}

// MoveSecretsToKeychain moves the env and header values of the given
// servers (none: every server) that look secret and are written in the
// config file in plain text into the OS keychain, leaving references in the
// file. It returns how many values moved; on an error none did.
func (s *MCPPool) MoveSecretsToKeychain(ids []string) (int, error) {
	return s.pool.MoveSecretsToKeychain(ids)
}

func pairKind(kind string) (mcpconfig.PairKind, error) {
	switch k := mcpconfig.PairKind(kind); k {
	case mcpconfig.EnvPair, mcpconfig.HeaderPair:
		return k, nil
	}
	return "", fmt.Errorf("unknown kind %q: want env or header", kind)
}
