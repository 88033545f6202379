package nonnull

import (
	"reflect"
	"testing"
)

type inner struct {
	List []string `json:"list"`
}

type outer struct {
	Items    []inner           `json:"items"`
	Optional []string          `json:"optional,omitempty"`
	Nullable []string          `json:"nullable" ts_type:"string[] | null"`
	Map      map[string]string `json:"map"`
	Bytes    []byte            `json:"bytes"`
	Ptr      *inner            `json:"ptr,omitempty"`
}

func TestCheck(t *testing.T) {
	got := Check(outer{Items: []inner{{}}, Ptr: &inner{}})
	want := []string{"$.items[].list", "$.map", "$.ptr.list"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Check = %q, want %q", got, want)
	}
	if got := Check(outer{Items: []inner{{List: []string{}}}, Map: map[string]string{}}); len(got) != 0 {
		t.Fatalf("Check of a filled value = %q", got)
	}
}
