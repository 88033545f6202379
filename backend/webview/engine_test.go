package webview

import (
	"errors"
	"slices"
	"testing"
)

// fakeEnv is an environment for tuneEngine.
type fakeEnv map[string]string

func (e fakeEnv) lookup(k string) (string, bool) { v, ok := e[k]; return v, ok }
func (e fakeEnv) set(k, v string) error          { e[k] = v; return nil }
func (e fakeEnv) unset(k string) error           { delete(e, k); return nil }

func TestTuneEngineSetsTheOptionsOnLinuxAndReleasesThem(t *testing.T) {
	env := fakeEnv{"PATH": "/bin"}
	tn := tuneEngine("linux", false, env.lookup, env.set, env.unset)
	if len(EngineOptions) == 0 {
		t.Fatal("no engine options")
	}
	for _, o := range EngineOptions {
		if env[o.Name] != o.Value {
			t.Errorf("%s = %q, want %q", o.Name, env[o.Name], o.Value)
		}
		if !slices.Contains(tn.Names(), o.Name) {
			t.Errorf("Names() = %v lacks %s", tn.Names(), o.Name)
		}
	}
	tn.Release()
	if len(env) != 1 || env["PATH"] != "/bin" {
		t.Errorf("after Release the environment is %v, want only PATH", env)
	}
}

func TestTuneEngineLeavesTheUsersChoiceAlone(t *testing.T) {
	first := EngineOptions[0].Name
	env := fakeEnv{first: "true"}
	tn := tuneEngine("linux", false, env.lookup, env.set, env.unset)
	if env[first] != "true" {
		t.Errorf("%s = %q, want the user's true", first, env[first])
	}
	if slices.Contains(tn.Names(), first) {
		t.Errorf("Names() = %v has the user's own %s: it would be hidden from the servers and unset", tn.Names(), first)
	}
	tn.Release()
	if env[first] != "true" {
		t.Errorf("Release unset the user's %s", first)
	}

	// MCPDESK_WEBVIEW_JIT=full: nothing is set.
	env = fakeEnv{FullEngineVar: "full"}
	if tn := tuneEngine("linux", false, env.lookup, env.set, env.unset); len(tn.Names()) != 0 || len(env) != 1 {
		t.Errorf("with %s=full: set %v, environment %v", FullEngineVar, tn.Names(), env)
	}
}

func TestTuneEngineOnlyOnLinux(t *testing.T) {
	for _, goos := range []string{"windows", "darwin"} {
		env := fakeEnv{}
		if tn := tuneEngine(goos, true, env.lookup, env.set, env.unset); len(tn.Names()) != 0 || len(env) != 0 {
			t.Errorf("%s: set %v, environment %v, want nothing (WebView2 and WKWebView do not read JSC_*)", goos, tn.Names(), env)
		}
	}
}

func TestTuneEngineNamesOnlyWhatItSet(t *testing.T) {
	env := fakeEnv{}
	fail := func(k, v string) error {
		if k == EngineOptions[0].Name {
			return errors.New("setenv failed")
		}
		return env.set(k, v)
	}
	tn := tuneEngine("linux", false, env.lookup, fail, env.unset)
	if slices.Contains(tn.Names(), EngineOptions[0].Name) {
		t.Errorf("Names() = %v has %s, which could not be set", tn.Names(), EngineOptions[0].Name)
	}
}

func TestTuneEngineSetsTheRenderOptionsOnlyForSoftwareRendering(t *testing.T) {
	if len(RenderOptions) == 0 {
		t.Fatal("no render options")
	}
	env := fakeEnv{}
	tn := tuneEngine("linux", true, env.lookup, env.set, env.unset)
	for _, o := range append(slices.Clone(EngineOptions), RenderOptions...) {
		if env[o.Name] != o.Value || !slices.Contains(tn.Names(), o.Name) {
			t.Errorf("software rendering: %s = %q (named %v), want %q and named", o.Name, env[o.Name], tn.Names(), o.Value)
		}
	}
	tn.Release()
	if len(env) != 0 {
		t.Errorf("after Release the environment is %v, want empty", env)
	}

	// With the GPU, WebKit needs its DMA-BUF renderer and GTK its GL.
	env = fakeEnv{}
	tuneEngine("linux", false, env.lookup, env.set, env.unset)
	for _, o := range RenderOptions {
		if v, ok := env[o.Name]; ok {
			t.Errorf("with the GPU: %s = %q, want unset", o.Name, v)
		}
	}

	// MCPDESK_WEBVIEW_JIT=full is about the script engine only.
	env = fakeEnv{FullEngineVar: "full"}
	tn = tuneEngine("linux", true, env.lookup, env.set, env.unset)
	for _, o := range EngineOptions {
		if _, ok := env[o.Name]; ok {
			t.Errorf("with %s=full: %s is set", FullEngineVar, o.Name)
		}
	}
	if len(tn.Names()) != len(RenderOptions) {
		t.Errorf("with %s=full: named %v, want only the render options", FullEngineVar, tn.Names())
	}
}
