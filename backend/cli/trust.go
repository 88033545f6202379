package cli

import (
	"fmt"
	"strings"

	"mcpdesk/backend/events"
	"mcpdesk/backend/trust"
)

// trustText says, for the approval prompt of `mcpdesk chat`, what looks
// suspicious in the tool's definition and what changed since a standing
// approval was given (SPEC G1). Every server-supplied byte goes through
// trust.Reveal: invisible and control characters are printed as their
// code points, so the server cannot rewrite the prompt. "" when there is
// nothing to say.
func trustText(a events.ChatApprovalPayload) string {
	var b strings.Builder
	if len(a.Warnings) > 0 {
		b.WriteString("  ⚠ This tool's definition looks like an attack on the model:\n")
		for _, w := range a.Warnings {
			fmt.Fprintf(&b, "    - %s: %s\n", warningPlace(w), warningText(w))
		}
	}
	c := a.Change
	if c == nil {
		return b.String()
	}
	policy := map[string]string{
		"always":       `"Always allow this tool"`,
		"conversation": `"Allow in this conversation"`,
		"server":       fmt.Sprintf(`"Auto-approve %s"`, trust.Reveal(a.Server)),
	}[c.Policy]
	switch {
	case c.Server != nil:
		fmt.Fprintf(&b, "  ! %s is suspended: the server changed since you approved it.\n", policy)
		s := c.Server
		if s.Before.Command != s.After.Command {
			fmt.Fprintf(&b, "    command was: %s\n    command now: %s\n", trust.Reveal(s.Before.Command), trust.Reveal(s.After.Command))
		}
		if s.Before.Cwd != s.After.Cwd {
			fmt.Fprintf(&b, "    folder was: %s\n    folder now: %s\n", trust.Reveal(s.Before.Cwd), trust.Reveal(s.After.Cwd))
		}
		if len(s.EnvAdded) > 0 {
			fmt.Fprintf(&b, "    env added: %s\n", trust.Reveal(strings.Join(s.EnvAdded, ", ")))
		}
		if len(s.EnvRemoved) > 0 {
			fmt.Fprintf(&b, "    env removed: %s\n", trust.Reveal(strings.Join(s.EnvRemoved, ", ")))
		}
		if len(s.LoadEnvChanged) > 0 {
			fmt.Fprintf(&b, "    env changed: %s\n", trust.Reveal(strings.Join(s.LoadEnvChanged, ", ")))
		}
	case c.New:
		fmt.Fprintf(&b, "  ! %s does not cover this tool: the server added it after you approved the server.\n", policy)
	default:
		fmt.Fprintf(&b, "  ! %s is suspended: the tool changed since you approved it.\n", policy)
	}
	if t := c.Tool; t != nil {
		if !t.Known {
			fmt.Fprintf(&b, "    definition %s… is now %s… (the approved one was not kept)\n", short(t.HashBefore), short(t.HashAfter))
		}
		if len(t.Title) > 0 {
			fmt.Fprintf(&b, "    title: %s\n", wordDiff(t.Title))
		}
		if len(t.Description) > 0 {
			fmt.Fprintf(&b, "    description: %s\n", wordDiff(t.Description))
		}
		for _, s := range t.InputSchema {
			fmt.Fprintf(&b, "    input schema %s\n", schemaLine(s))
		}
		for _, s := range t.Annotations {
			fmt.Fprintf(&b, "    annotations %s\n", schemaLine(s))
		}
	}
	return b.String()
}

// wordDiff writes a word diff as git's --word-diff does: [-old-]{+new+}.
func wordDiff(spans []trust.Span) string {
	var b strings.Builder
	for _, s := range spans {
		text := trust.Reveal(s.Text)
		switch s.Op {
		case trust.OpInsert:
			b.WriteString("{+" + text + "+}")
		case trust.OpDelete:
			b.WriteString("[-" + text + "-]")
		default:
			b.WriteString(text)
		}
	}
	return strings.ReplaceAll(b.String(), "\n", "\n      ")
}

func schemaLine(s trust.SchemaChange) string {
	path := trust.Reveal(s.Path)
	if path == "" {
		path = "(whole)"
	}
	switch s.Op {
	case trust.SchemaAdded:
		return fmt.Sprintf("+ %s: %s", path, trust.Reveal(s.After))
	case trust.SchemaRemoved:
		return fmt.Sprintf("- %s: %s", path, trust.Reveal(s.Before))
	}
	if len(s.Text) > 0 {
		return fmt.Sprintf("~ %s: %s", path, wordDiff(s.Text))
	}
	return fmt.Sprintf("~ %s: %s → %s", path, trust.Reveal(s.Before), trust.Reveal(s.After))
}

func short(h string) string { return h[:min(len(h), 12)] }

// warningPlace says where a warning was found.
func warningPlace(w trust.Warning) string {
	if p := w.Params["path"]; p != "" {
		return "input schema " + trust.Reveal(p)
	}
	return w.Field
}

// warningText is a warning in words (the window's texts are in the i18n
// files under trust.warning).
func warningText(w trust.Warning) string {
	p := func(k string) string { return trust.Reveal(w.Params[k]) }
	switch w.Kind {
	case trust.WarnHiddenText:
		return fmt.Sprintf("text hidden in %s invisible tag characters: %q", p("count"), p("text"))
	case trust.WarnBidi:
		return fmt.Sprintf("%s bidirectional control(s) (%s) make it read differently from how it looks", p("count"), p("chars"))
	case trust.WarnInvisible:
		return fmt.Sprintf("%s invisible character(s) (%s)", p("count"), p("chars"))
	case trust.WarnInstructions:
		return fmt.Sprintf("text addressed to the model: %q", p("phrase"))
	case trust.WarnSensitive:
		return fmt.Sprintf("asks for keys, credentials or other apps' settings: %q", p("phrase"))
	case trust.WarnExfiltration:
		return fmt.Sprintf("asks to send data out: %q", p("phrase"))
	case trust.WarnOtherServer:
		return fmt.Sprintf("mentions %s's tool %s", p("server"), p("tool"))
	}
	return trust.Reveal(w.Kind)
}
