package store

import (
	"sync"
	"testing"

	"gorm.io/gorm/schema"
)

// Every row type names a table the migrations made, through its TableName
// method and not through the namer: the namer does not pluralise (modelNames),
// so a row type that relied on gorm's English plural would name no table.
func TestRowTypesNameTheirTables(t *testing.T) {
	st := openTest(t, t.TempDir())
	rows := []any{
		attachmentRow{}, auditRow{}, conversationRow{}, messageRow{}, schemaMigration{},
		providerRow{}, modelPrefRow{}, settingRow{}, uiStateRow{}, savedRequestRow{}, toolDefinitionRow{},
	}
	for _, row := range rows {
		s, err := schema.Parse(row, &sync.Map{}, modelNames{})
		if err != nil {
			t.Fatalf("parse %T: %v", row, err)
		}
		if !st.db.Migrator().HasTable(s.Table) {
			t.Errorf("%T names table %q, which the migrations did not create", row, s.Table)
		}
	}
}

// The namer names a struct without a TableName (a scan target) by its
// snake-cased type name: no English plural, whose rules would be compiled
// for it (backend/third_party/inflection).
func TestNamerDoesNotPluralise(t *testing.T) {
	for in, want := range map[string]string{"ToolCall": "tool_call", "tipRow": "tip_row", "Person": "person"} {
		if got := (modelNames{}).TableName(in); got != want {
			t.Errorf("TableName(%q) = %q, want %q", in, got, want)
		}
	}
}
