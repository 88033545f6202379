package mcpconfig

import (
	"net/url"
	"path"
	"slices"
	"strings"
)

// Warning codes. The UI shows the message "importer.warning." + code with
// the warning's Params; Warning.String is the English text for the
// command line. Each variable of riskyVars has a code of its own.
const (
	// WarnInvisible: a value holds control, invisible or bidirectional
	// characters, shown made visible. Params: field, name (see where).
	WarnInvisible = "invisible"
	// WarnHidden: a value holds the value of a secret, hidden there too.
	// Params: field, name, and secret (the env or header that holds it;
	// "" for a key recognised by its look).
	WarnHidden = "hidden"
	// WarnInput: a VS Code ${input:name} that MCP Desk does not prompt
	// for. Params: name.
	WarnInput = "input"
	// WarnShell: the command is a shell told to run a command line (sh -c,
	// cmd /c, pwsh -Command). Params: program, flag.
	WarnShell = "shell"
	// WarnInlineCode: the command is an interpreter told to run code given
	// on the command line (node -e, python -c, …). Params: program, flag.
	WarnInlineCode = "inlineCode"
	// WarnPlainHTTP: a remote server reached over http:// on another
	// computer. Params: host.
	WarnPlainHTTP = "plainHttp"
)

// riskyVar is an environment variable that changes how programs load code,
// where they find it or where their traffic goes. A server that sets one
// gets a warning with its code and the variable's name.
type riskyVar struct {
	// name in upper case (names are matched ignoring case, as Windows
	// does); a trailing * matches any name with that prefix.
	name string
	// code is the warning's code: the UI's message is
	// "importer.warning." + code.
	code string
	// reason is what setting it does, in English (the CLI's message; the
	// UI's says the same).
	reason string
}

// riskyVars are the variables the preview warns about, with why.
var riskyVars = []riskyVar{
	// Code loaded into a program before it starts.
	{"NODE_OPTIONS", "nodeOptions", "adds options to every Node.js program, such as --require or --import, which load any code before the server's"},
	{"LD_PRELOAD", "preload", "loads a library into every program before it starts"},
	{"LD_AUDIT", "preload", "loads a library into every program before it starts"},
	{"DYLD_INSERT_LIBRARIES", "preload", "loads a library into every program before it starts"},
	{"PYTHONSTARTUP", "pythonStartup", "names a file of Python code that Python runs when it starts"},
	{"PERL5OPT", "perlOptions", "adds options to every Perl program, such as -M, which loads a module first"},
	{"RUBYOPT", "rubyOptions", "adds options to every Ruby program, such as -r, which loads a library first"},
	{"JAVA_TOOL_OPTIONS", "javaOptions", "adds options to every Java program, such as -javaagent, which loads code first"},
	{"_JAVA_OPTIONS", "javaOptions", "adds options to every Java program, such as -javaagent, which loads code first"},
	{"JDK_JAVA_OPTIONS", "javaOptions", "adds options to every Java program, such as -javaagent, which loads code first"},
	{"DOTNET_STARTUP_HOOKS", "dotnetHooks", "loads an assembly into every .NET program before it starts"},
	{"BASH_ENV", "shellStartup", "names a script that every shell the server starts runs first"},
	{"ENV", "shellStartup", "names a script that every shell the server starts runs first"},
	{"ZDOTDIR", "zshStartup", "names the folder whose scripts zsh runs when it starts"},
	{"PROMPT_COMMAND", "promptCommand", "is a command bash runs before each prompt"},
	{"GIT_SSH_COMMAND", "gitCommand", "is a command git runs to connect"},
	{"GIT_SSH", "gitCommand", "is a command git runs to connect"},
	{"GIT_PROXY_COMMAND", "gitCommand", "is a command git runs to connect"},
	{"GIT_ASKPASS", "gitAskpass", "is a command git runs to ask for a password"},
	{"GIT_EXEC_PATH", "gitExecPath", "is the folder git runs its subcommands from"},
	{"GIT_CONFIG_*", "gitConfig", "sets git options, which can name commands git runs"},
	// Where code and libraries are found.
	{"NODE_PATH", "nodePath", "changes where Node.js finds modules"},
	{"LD_LIBRARY_PATH", "libraryPath", "changes where programs load their libraries from"},
	{"DYLD_*", "libraryPath", "changes where programs load their libraries from"},
	{"GCONV_PATH", "libraryPath", "changes where programs load their libraries from"},
	{"PYTHONPATH", "pythonPath", "changes where Python finds modules"},
	{"PYTHONHOME", "pythonPath", "changes where Python finds modules"},
	{"PYTHONUSERBASE", "pythonPath", "changes where Python finds modules"},
	{"PERL5LIB", "perlLib", "changes where Perl finds modules"},
	{"PERLLIB", "perlLib", "changes where Perl finds modules"},
	{"RUBYLIB", "rubyLib", "changes where Ruby finds libraries"},
	{"PATH", "path", "changes which programs are found, the server's own command included"},
	{"PATHEXT", "pathExt", "changes which files Windows runs as programs"},
	{"HOME", "home", "changes where programs read their settings and startup files"},
	{"USERPROFILE", "home", "changes where programs read their settings and startup files"},
	{"XDG_CONFIG_HOME", "home", "changes where programs read their settings and startup files"},
	// Where packages come from (npx and uvx download the server itself).
	{"NPM_CONFIG_*", "npmConfig", "changes how npm and npx install packages, for example from another registry"},
	{"YARN_REGISTRY", "packageSource", "changes where packages are downloaded from"},
	{"BUN_CONFIG_REGISTRY", "packageSource", "changes where packages are downloaded from"},
	{"PIP_INDEX_URL", "packageSource", "changes where packages are downloaded from"},
	{"PIP_EXTRA_INDEX_URL", "packageSource", "changes where packages are downloaded from"},
	{"UV_INDEX", "packageSource", "changes where packages are downloaded from"},
	{"UV_INDEX_URL", "packageSource", "changes where packages are downloaded from"},
	{"UV_DEFAULT_INDEX", "packageSource", "changes where packages are downloaded from"},
	{"UV_EXTRA_INDEX_URL", "packageSource", "changes where packages are downloaded from"},
	{"GOPROXY", "packageSource", "changes where packages are downloaded from"},
	// Where traffic goes and whom it trusts.
	{"HTTP_PROXY", "proxy", "sends the server's web traffic through another computer"},
	{"HTTPS_PROXY", "proxy", "sends the server's web traffic through another computer"},
	{"ALL_PROXY", "proxy", "sends the server's web traffic through another computer"},
	{"NODE_TLS_REJECT_UNAUTHORIZED", "tls", "changes which certificates are trusted for secure connections"},
	{"NODE_EXTRA_CA_CERTS", "tls", "changes which certificates are trusted for secure connections"},
	{"SSL_CERT_FILE", "tls", "changes which certificates are trusted for secure connections"},
	{"SSL_CERT_DIR", "tls", "changes which certificates are trusted for secure connections"},
	{"REQUESTS_CA_BUNDLE", "tls", "changes which certificates are trusted for secure connections"},
	{"CURL_CA_BUNDLE", "tls", "changes which certificates are trusted for secure connections"},
}

// riskyVarOf returns the entry of riskyVars that matches name.
func riskyVarOf(name string) (riskyVar, bool) {
	n := strings.ToUpper(name)
	for _, r := range riskyVars {
		if p, ok := strings.CutSuffix(r.name, "*"); ok && strings.HasPrefix(n, p) || r.name == n {
			return r, true
		}
	}
	return riskyVar{}, false
}

// shells are the programs that run a command line given after -c (or /c,
// -Command): the line is the shell's to interpret — pipes, downloads,
// anything.
var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "nu", "busybox", "cmd", "pwsh", "powershell"}

// inlineFlags are the interpreters that run code given as an argument,
// and the flags that say so.
var inlineFlags = map[string][]string{
	"node":      {"-e", "--eval", "-p", "--print"},
	"bun":       {"-e", "--eval", "-p", "--print"},
	"deno":      {"eval"},
	"python":    {"-c"},
	"perl":      {"-e", "-E"},
	"ruby":      {"-e"},
	"php":       {"-r"},
	"osascript": {"-e"},
}

// warnings returns what the preview warns about in v's server: risky
// variables in its env (or set through env(1) in its command line), a
// shell or interpreter running code from the command line, and plain
// http:// to another computer. Params hold only names and text already
// shown in v.
func (p *previewer) warnings(v ServerPreview) []Warning {
	s := p.srv
	var out []Warning
	if v.Transport != Stdio {
		if u, err := url.Parse(s.URL); err == nil && strings.EqualFold(u.Scheme, "http") && u.Hostname() != "" && !isLoopback(u.Hostname()) {
			out = append(out, Warning{Code: WarnPlainHTTP, Params: map[string]string{"host": v.Host}})
		}
		return out
	}
	set := map[string]string{}
	for k, val := range s.Env {
		set[k] = val
	}
	program, args := s.Command, s.Args
	// env NAME=value … program args: env(1) sets variables too.
	for base(program) == "env" && len(args) > 0 {
		i := 0
		for ; i < len(args); i++ {
			a := args[i]
			if name, val, ok := strings.Cut(a, "="); ok && !strings.HasPrefix(a, "-") && name != "" {
				set[name] = val
				continue
			}
			if a == "-u" || a == "--unset" || a == "-C" || a == "--chdir" {
				i++ // takes a value
				continue
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			break
		}
		if i >= len(args) {
			program, args = "", nil
			break
		}
		program, args = args[i], args[i+1:]
	}
	for _, k := range sortedKeys(set) {
		r, ok := riskyVarOf(k)
		if !ok || set[k] == "${"+k+"}" || set[k] == "${env:"+k+"}" {
			continue // unset, or passed through unchanged
		}
		name, _ := Visible(k)
		out = append(out, Warning{Code: r.code, Params: map[string]string{"name": name}})
	}
	prog := base(program)
	if flag := shellFlag(prog, args); flag != "" {
		out = append(out, Warning{Code: WarnShell, Params: map[string]string{"program": p.shownWord(prog), "flag": p.shownWord(flag)}})
	}
	if flag := inlineFlag(prog, args); flag != "" {
		out = append(out, Warning{Code: WarnInlineCode, Params: map[string]string{"program": p.shownWord(prog), "flag": p.shownWord(flag)}})
	}
	return out
}

// shownWord returns a word of the command line as the preview shows it.
func (p *previewer) shownWord(w string) string {
	t, _, _ := p.hide(w)
	t, _ = Visible(t)
	t, _, _ = p.hide(t)
	return t
}

// base returns a program's name without its folder or Windows extension,
// in lower case: "/usr/bin/Bash.EXE" is "bash".
func base(program string) string {
	b := strings.ToLower(path.Base(strings.ReplaceAll(program, `\`, "/")))
	for _, ext := range []string{".exe", ".cmd", ".bat", ".com"} {
		b = strings.TrimSuffix(b, ext)
	}
	return b
}

// shellFlag returns the flag with which shell program runs a command line
// from args (-c, -lc, /c, -Command…), or "".
func shellFlag(program string, args []string) string {
	if !slices.Contains(shells, program) {
		return ""
	}
	for _, a := range args {
		l := strings.ToLower(a)
		switch program {
		case "cmd":
			if l == "/c" || l == "/k" || l == "/r" {
				return a
			}
		case "pwsh", "powershell":
			// PowerShell takes any unambiguous prefix of a parameter.
			if len(l) >= 2 && (strings.HasPrefix("-command", l) || strings.HasPrefix("/command", l) || l == "-e" || l == "-ec" ||
				len(l) >= 3 && strings.HasPrefix("-encodedcommand", l)) {
				return a
			}
		default:
			// Bundled short options: -c, -lc, -ec, -xec…
			if len(l) >= 2 && l[0] == '-' && l[1] != '-' && strings.Contains(l, "c") && strings.Trim(l[1:], "abcefhiklmnprsuvx") == "" {
				return a
			}
			if l == "--command" {
				return a
			}
		}
	}
	return ""
}

// inlineFlag returns the flag with which interpreter program runs code
// given in args, or "".
func inlineFlag(program string, args []string) string {
	name := program
	if strings.HasPrefix(name, "python") && strings.Trim(name[len("python"):], "0123456789.") == "" {
		name = "python"
	}
	flags, ok := inlineFlags[name]
	if !ok {
		return ""
	}
	for _, a := range args {
		f, _, _ := strings.Cut(a, "=")
		if slices.Contains(flags, f) || (name == "python" && strings.HasPrefix(a, "-c")) {
			return a
		}
		if name == "deno" && !strings.HasPrefix(a, "-") {
			break // deno's first word is its subcommand
		}
	}
	return ""
}

// String returns the warning in English, as the command line prints it.
func (w Warning) String() string {
	p := w.Params
	switch w.Code {
	case WarnInvisible:
		return where(p) + " contains invisible or control characters, shown here as ␛ or [U+202E]"
	case WarnHidden:
		if p["secret"] != "" {
			return where(p) + " contains the secret value of " + p["secret"] + ", hidden here"
		}
		return where(p) + " contains a secret, hidden here"
	case WarnInput:
		return "${input:" + p["name"] + "} is a value VS Code would prompt for; MCP Desk does not: fill it in in the server's settings"
	case WarnShell:
		return "runs its arguments as a command line (" + p["program"] + " " + p["flag"] + "): the shell runs whatever they say"
	case WarnInlineCode:
		return "runs code written in its arguments (" + p["program"] + " " + p["flag"] + ")"
	case WarnPlainHTTP:
		return "connects to " + p["host"] + " over plain http://: anyone on the way can read and change what is sent, headers included"
	}
	for _, r := range riskyVars {
		if r.code == w.Code {
			return "sets " + p["name"] + ", which " + r.reason
		}
	}
	return w.Code
}

// where names the place a warning is about, in English.
func where(p map[string]string) string {
	switch p["field"] {
	case "command":
		return "the command"
	case "arg":
		return "argument " + p["name"]
	case "cwd":
		return "the working folder"
	case "env":
		return "env " + p["name"]
	case "header":
		return "header " + p["name"]
	case "url":
		return "the URL"
	case "root":
		return "a root folder"
	}
	return "the setting " + p["name"]
}
