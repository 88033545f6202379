package inflection

// MCP Desk's fork: the rules are compiled on first use, not in init (see
// backend/third_party/README.md in MCP Desk).

import (
	"os"
	"testing"
)

// What the package looked like before any test changed its rules.
var (
	compiledAtStart bool
	firstPlural     string
	addedFirst      string
)

func TestMain(m *testing.M) {
	compiledAtStart = compiledPluralMaps != nil || compiledSingularMaps != nil
	firstPlural = Plural("person")
	AddIrregular("octopus", "octopodes")
	addedFirst = Plural("octopus")
	setUp()
	os.Exit(m.Run())
}

func TestRulesCompileOnFirstUse(t *testing.T) {
	if compiledAtStart {
		t.Fatal("the rules were compiled before any word was inflected")
	}
	if firstPlural != "people" {
		t.Fatalf("Plural(person) = %q on first use", firstPlural)
	}
}

// A rule added after first use is compiled in.
func TestRuleAddedAfterFirstUse(t *testing.T) {
	if addedFirst != "octopodes" {
		t.Fatalf("Plural(octopus) = %q", addedFirst)
	}
}
