package providers

import (
	"context"
	"strings"
)

// EnvReload is what ReloadEnvironment found. It names variables, never
// their values.
type EnvReload struct {
	// Reloaded is true when the login shell's environment was read again.
	// False means only a restart of MCP Desk sees variables set since it
	// started (Windows, or a login shell that failed).
	Reloaded bool `json:"reloaded"`
	// Vars are the key variables the providers name, each with whether it
	// is set now.
	Vars []EnvVar `json:"vars"`
}

// EnvVar is one environment variable a provider takes its key from.
type EnvVar struct {
	Name string `json:"name"`
	Set  bool   `json:"set"`
	// Providers are the names of the providers that read it.
	Providers []string `json:"providers"`
}

// ReloadEnvironment reads the environment again (Options.ReloadEnv) and
// says which key variables are set now. Verdicts of providers whose key
// comes from a variable are forgotten, since their key may have changed.
// MCP servers already running keep the environment they started with.
func (m *Manager) ReloadEnvironment(ctx context.Context) (EnvReload, error) {
	var out EnvReload
	if m.opts.ReloadEnv != nil {
		out.Reloaded = m.opts.ReloadEnv(ctx)
	}
	m.keys.dropAll() // a key may come from a variable that changed
	rows, err := m.st.Providers(ctx)
	if err != nil {
		return EnvReload{}, err
	}
	out.Vars = []EnvVar{}
	index := map[string]int{}
	for _, p := range rows {
		if p.KeyEnv == "" {
			continue
		}
		m.book.forget(p.ID)
		i, ok := index[p.KeyEnv]
		if !ok {
			v, set := m.opts.LookupEnv(p.KeyEnv)
			i = len(out.Vars)
			index[p.KeyEnv] = i
			out.Vars = append(out.Vars, EnvVar{Name: p.KeyEnv, Set: set && strings.TrimSpace(v) != "", Providers: []string{}})
		}
		out.Vars[i].Providers = append(out.Vars[i].Providers, p.Name)
	}
	m.logger.Info("environment reloaded", "from_shell", out.Reloaded, "key_vars", len(out.Vars))
	return out, nil
}
