package mcpconfig

import (
	"encoding/json"
	"strings"
	"testing"
)

// A server's identity changes with what runs or where the app connects,
// not with a rotated secret or a client-side setting, and its facts hold
// no secret.
func TestIdentity(t *testing.T) {
	on := true
	stdio := Server{ID: "fs", Command: "npx", Args: []string{"-y", "@mcp/server-fs", "--token", "ghp_aaaaaaaaaaaaaaaaaaaa", "/home/me"},
		Env: map[string]string{"API_KEY": "k1", "DEBUG": "1", "NODE_OPTIONS": "--max-old-space-size=512"}, Cwd: "/home/me"}
	remote := Server{ID: "r", URL: "https://user:pw@Example.com:8443/mcp?api_key=sk-secret1234567890&team=a#frag", Headers: map[string]string{"Authorization": "Bearer t1"}}
	with := func(s Server, f func(*Server)) Server {
		c := s
		c.Args = append([]string(nil), s.Args...)
		c.Env = map[string]string{}
		for k, v := range s.Env {
			c.Env[k] = v
		}
		f(&c)
		return c
	}
	tests := []struct {
		name string
		a, b Server
		same bool
	}{
		{"same", stdio, with(stdio, func(*Server) {}), true},
		{"rotated env secret", stdio, with(stdio, func(s *Server) { s.Env["API_KEY"] = "k2" }), true},
		{"other env value", stdio, with(stdio, func(s *Server) { s.Env["DEBUG"] = "0" }), true},
		{"rotated token argument", stdio, with(stdio, func(s *Server) { s.Args[3] = "ghp_bbbbbbbbbbbbbbbbbbbb" }), true},
		{"client-side settings", stdio, with(stdio, func(s *Server) {
			s.TimeoutMs, s.MaxConcurrency, s.Enabled, s.DenyTools, s.ID = 5, 2, &on, []string{"x"}, "renamed"
		}), true},
		{"other command", stdio, with(stdio, func(s *Server) { s.Command = "/tmp/npx" }), false},
		{"other package", stdio, with(stdio, func(s *Server) { s.Args[1] = "@evil/server-fs" }), false},
		{"extra argument", stdio, with(stdio, func(s *Server) { s.Args = append(s.Args, "--allow-all") }), false},
		{"new env variable", stdio, with(stdio, func(s *Server) { s.Env["LD_PRELOAD"] = "/tmp/x.so" }), false},
		{"code-loading value", stdio, with(stdio, func(s *Server) { s.Env["NODE_OPTIONS"] = "--require /tmp/x.js" }), false},
		{"other cwd", stdio, with(stdio, func(s *Server) { s.Cwd = "/tmp" }), false},
		{"other transport", stdio, with(stdio, func(s *Server) { s.Type = HTTP }), false},
		{"rotated URL token", remote, with(remote, func(s *Server) {
			s.URL = "https://other:pw2@example.com:8443/mcp?api_key=sk-other000000000000&team=a"
			s.Headers = map[string]string{"Authorization": "Bearer t2"}
		}), true},
		{"other host", remote, with(remote, func(s *Server) { s.URL = "https://evil.com:8443/mcp?api_key=sk-secret1234567890&team=a" }), false},
		{"other path", remote, with(remote, func(s *Server) { s.URL = "https://example.com:8443/mcp2?api_key=sk-secret1234567890&team=a" }), false},
		{"rotated key in the path", Server{URL: "https://mcp.example.com/api/mcp/s/Zk3q9XvL2mTn8RbW4yHc/mcp"},
			Server{URL: "https://mcp.example.com/api/mcp/s/Qp7w2ErT9uYi4OaS6dFg/mcp"}, true},
		{"other plain query", remote, with(remote, func(s *Server) { s.URL = "https://example.com:8443/mcp?api_key=sk-secret1234567890&team=b" }), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a, b := tc.a.Identity(), tc.b.Identity()
			if len(a) != 64 {
				t.Fatalf("identity %q", a)
			}
			if (a == b) != tc.same {
				t.Errorf("same identity = %v, want %v\n%+v\n%+v", a == b, tc.same, tc.a.Facts(), tc.b.Facts())
			}
		})
	}
	pathKey := Server{URL: "https://mcp.example.com/api/mcp/s/Zk3q9XvL2mTn8RbW4yHc/mcp"}
	if f := pathKey.Facts(); strings.Contains(f.URL+f.Command, "Zk3q9") || !strings.Contains(f.URL, "/s/***/mcp") {
		t.Errorf("a key in the path is kept: %+v", f)
	}
	for _, s := range []Server{stdio, remote} {
		b, _ := json.Marshal(s.Facts())
		for _, secret := range []string{"ghp_aaaa", "k1", "pw", "sk-secret", "Bearer", "512"} {
			if strings.Contains(string(b), secret) {
				t.Errorf("facts hold %q: %s", secret, b)
			}
		}
	}
}
