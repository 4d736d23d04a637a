package npm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// Registry documents as the registry serves them for old versions of
// popular packages: a field that is not an object of strings costs its
// odd entries, not the document.
func TestPackageVersionReadsOddFields(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		deps      map[string]string
		scripts   map[string]string
	}{
		{"strings", `{"dependencies": {"a": "^1"}, "scripts": {"test": "x"}}`, map[string]string{"a": "^1"}, map[string]string{"test": "x"}},
		{"dependencies as an array (underscore 1.0)", `{"dependencies": ["a"], "scripts": {}}`, nil, map[string]string{}},
		{"a script as an object (joi)", `{"dependencies": {}, "scripts": {"test": "lab", "x": {"y": 1}}}`, map[string]string{}, map[string]string{"test": "lab"}},
		{"null", `{"dependencies": null}`, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v packageVersion
			if err := json.Unmarshal([]byte(tc.doc), &v); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(map[string]string(v.Dependencies), tc.deps) || !reflect.DeepEqual(map[string]string(v.Scripts), tc.scripts) {
				t.Fatalf("dependencies %#v scripts %#v", v.Dependencies, v.Scripts)
			}
		})
	}
}
