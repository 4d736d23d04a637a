package server

import (
	"reflect"
	"testing"
)

// Every wrapper around a service names the service it wraps instead of
// embedding it: an embedded interface would let a method added to it later
// reach the service unguarded (no tenant check, no event), while a named
// field makes the wrapper fail to compile (its var _ Iface = assertions)
// until the method is written, and guarded, there.
func TestWrappersEmbedNoInterface(t *testing.T) {
	for _, w := range []struct {
		name  string
		value any
		iface reflect.Type
	}{
		{"guardedContexts", guardedContexts{}, reflect.TypeFor[Contexts]()},
		{"eventContexts", eventContexts{}, reflect.TypeFor[Contexts]()},
		{"clusterContexts", clusterContexts{}, reflect.TypeFor[Contexts]()},
		{"guardedNPM", guardedNPM{}, reflect.TypeFor[NPM]()},
		{"guardedHistory", guardedHistory{}, reflect.TypeFor[History]()},
		{"guardedChecker", guardedChecker{}, reflect.TypeFor[Checker]()},
	} {
		t.Run(w.name, func(t *testing.T) {
			typ := reflect.TypeOf(w.value)
			for i := range typ.NumField() {
				if f := typ.Field(i); f.Anonymous {
					t.Errorf("%s embeds %s: name it, and write each method of %s", w.name, f.Type, w.iface)
				}
			}
			// Each method of the interface is declared on the wrapper
			// itself (pointer or value receiver), not promoted.
			ptr := reflect.PointerTo(typ)
			for i := range w.iface.NumMethod() {
				name := w.iface.Method(i).Name
				if _, ok := ptr.MethodByName(name); !ok {
					t.Errorf("%s does not declare %s", w.name, name)
				}
			}
		})
	}
}
