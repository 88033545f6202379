// Package nonnull checks a value that crosses to the UI against the promise
// of the generated contract (backend/contract): a slice or map field is
// typed as an array or a record, never null, unless it is omitempty or its
// ts_type tag admits null. A nil one would reach the UI as null. Tests of
// the bound services and of the events call Check on what they return or
// emit. It depends on nothing of this module, so any package's tests can
// use it.
package nonnull

import (
	"encoding/json"
	"reflect"
	"strings"
)

var marshaler = reflect.TypeFor[json.Marshaler]()

// Check lists the paths in v of nil slices and maps that encoding/json
// would write as null where the contract promises a value.
func Check(v any) []string {
	var out []string
	walk(reflect.ValueOf(v), "$", &out, true)
	return out
}

func walk(v reflect.Value, path string, out *[]string, promised bool) {
	if !v.IsValid() {
		return
	}
	// A type that writes its own JSON (mcp-go's protocol objects, which
	// leave empty fields out) is not encoded field by field: its fields
	// say nothing of what reaches the UI.
	if t := v.Type(); t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface &&
		(t.Implements(marshaler) || reflect.PointerTo(t).Implements(marshaler)) {
		return
	}
	switch v.Kind() {
	case reflect.Interface, reflect.Pointer:
		if !v.IsNil() {
			walk(v.Elem(), path, out, true)
		}
	case reflect.Slice:
		if v.IsNil() {
			if promised && v.Type().Elem().Kind() != reflect.Uint8 {
				*out = append(*out, path)
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			walk(v.Index(i), path+"[]", out, true)
		}
	case reflect.Map:
		if v.IsNil() {
			if promised {
				*out = append(*out, path)
			}
			return
		}
		iter := v.MapRange()
		for iter.Next() {
			walk(iter.Value(), path+"{}", out, true)
		}
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" || (!f.IsExported() && !f.Anonymous) {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			if name == "" {
				name = f.Name
			}
			optional := strings.Contains(","+opts+",", ",omitempty,") || strings.Contains(","+opts+",", ",omitzero,")
			nullable := strings.Contains(f.Tag.Get("ts_type"), "null")
			if f.Anonymous && tag == "" {
				walk(v.Field(i), path, out, true)
				continue
			}
			walk(v.Field(i), path+"."+name, out, !optional && !nullable)
		}
	}
}
