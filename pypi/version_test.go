package pypi

import (
	"testing"
)

func TestVersionOrder(t *testing.T) {
	// Each is smaller than the next (PEP 440's examples and corner cases).
	order := []string{
		"1.0.dev456", "1.0a1", "1.0a2.dev456", "1.0a12.dev456", "1.0a12", "1.0b1.dev456", "1.0b2",
		"1.0b2.post345.dev456", "1.0b2.post345", "1.0rc1.dev456", "1.0rc1", "1.0", "1.0+abc.5", "1.0+abc.7",
		"1.0+5", "1.0.post456.dev34", "1.0.post456", "1.0.15", "1.1.dev1", "1!0.1",
	}
	for i := 0; i+1 < len(order); i++ {
		a, err := ParseVersion(order[i])
		if err != nil {
			t.Fatal(err)
		}
		b, err := ParseVersion(order[i+1])
		if err != nil {
			t.Fatal(err)
		}
		if a.Compare(b) >= 0 || b.Compare(a) <= 0 {
			t.Errorf("%s should be < %s", order[i], order[i+1])
		}
	}
	for _, tc := range []struct{ in, norm string }{
		{"1.0", "1.0"}, {"v1.0", "1.0"}, {"1.0-1", "1.0.post1"}, {"1.0alpha1", "1.0a1"}, {"1.0.RC1", "1.0rc1"},
		{"1.0-dev", "1.0.dev0"}, {"1.0+ubuntu_1", "1.0+ubuntu.1"}, {"2!1.0c3", "2!1.0rc3"}, {"1.0.rev2", "1.0.post2"},
	} {
		v, err := ParseVersion(tc.in)
		if err != nil || v.String() != tc.norm {
			t.Errorf("%q: %v %v, want %s", tc.in, v, err, tc.norm)
		}
	}
	if a, b := mustVersion("1.0"), mustVersion("1.0.0"); a.Compare(b) != 0 {
		t.Error("1.0 == 1.0.0")
	}
	for _, bad := range []string{"", "1.0.", "abc", "1..0", "1.0+", "1.0 beta"} {
		if _, err := ParseVersion(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestSpecifiers(t *testing.T) {
	for _, tc := range []struct {
		spec    string
		version string
		pre     bool
		want    bool
	}{
		{"==1.0", "1.0.0", false, true},
		{"==1.0", "1.0+local", false, true},
		{"==1.0+local", "1.0", false, false},
		{"==1.4.*", "1.4.5", false, true},
		{"==1.4.*", "1.40", false, false},
		{"!=1.4.*", "1.5", false, true},
		{"~=2.2", "2.9", false, true},
		{"~=2.2", "3.0", false, false},
		{"~=1.4.5", "1.4.9", false, true},
		{"~=1.4.5", "1.5.0", false, false},
		{">=1.0,<2", "1.9.9", false, true},
		{">=1.0,<2", "2.0", false, false},
		{"<2.0", "2.0rc1", true, false},
		{"<2.0rc2", "2.0rc1", true, true},
		{">1.7", "1.7.post1", false, false},
		{">1.7", "1.7.1", false, true},
		{">=1.0", "2.0a1", false, false},
		{">=1.0", "2.0a1", true, true},
		{"", "5", false, true},
		{"===1.0", "1.0", false, true},
	} {
		set, err := ParseSpecifiers(tc.spec)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		if got := set.Contains(mustVersion(tc.version), tc.pre); got != tc.want {
			t.Errorf("%q contains %s (pre %v): %v, want %v", tc.spec, tc.version, tc.pre, got, tc.want)
		}
	}
	for _, bad := range []string{"1.0", ">=1.0.*", "~=1", "=>1", "<1.0+local"} {
		if _, err := ParseSpecifiers(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	if set, _ := ParseSpecifiers(">=1.0b1"); !set.AllowsPrereleases() {
		t.Error(">=1.0b1 allows pre-releases")
	}
}

func TestMarkers(t *testing.T) {
	for _, tc := range []struct {
		marker string
		extras []string
		want   bool
	}{
		{`python_version >= "3.8"`, nil, true},
		{`python_version < "3.10"`, nil, false},
		{`python_full_version >= '3.11.1'`, nil, true},
		{`sys_platform == "win32"`, nil, false},
		{`sys_platform != "win32" and os_name == "posix"`, nil, true},
		{`platform_system == "Windows" or python_version > "3"`, nil, true},
		{`(sys_platform == "linux" or sys_platform == "darwin") and python_version >= "3.6"`, nil, false},
		{`extra == "test"`, nil, false},
		{`extra == "test"`, []string{"test"}, true},
		{`extra == "Test_Utils"`, []string{"test-utils"}, true},
		{`"wasm" in platform_machine`, nil, true},
		{`platform_python_implementation == "PyPy"`, nil, false},
		{`implementation_name == "cpython"`, nil, true},
		{`python_version not in "2.7, 3.4"`, nil, true},
	} {
		m, err := ParseMarker(tc.marker)
		if err != nil {
			t.Fatalf("%q: %v", tc.marker, err)
		}
		if got := m.Evaluate(GuestEnvironment, tc.extras); got != tc.want {
			t.Errorf("%q %v: %v, want %v", tc.marker, tc.extras, got, tc.want)
		}
	}
	for _, bad := range []string{`python_version`, `foo == "1"`, `python_version == "3" and`, `(python_version == "3"`, `python_version =! "3"`, `"3`} {
		if _, err := ParseMarker(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseRequirement(t *testing.T) {
	r, err := ParseRequirement(`Foo.Bar[Extra1, extra_2] >=1.0, <2 ; python_version >= "3.8"`)
	if err != nil {
		t.Fatal(err)
	}
	if r.Name != "Foo.Bar" || r.Key() != "foo-bar" || len(r.Extras) != 2 || r.Extras[1] != "extra-2" || r.Specifier.String() != ">=1.0,<2" || r.Marker == nil {
		t.Fatalf("%+v", r)
	}
	for _, good := range []string{"attrs", "attrs==23.1.0", "tomli (>=1.0)", "a_b-c.d~=1.2"} {
		if _, err := ParseRequirement(good); err != nil {
			t.Errorf("%q: %v", good, err)
		}
	}
	for _, bad := range []string{"", "-e .", "foo @ https://example.com/foo.whl", "foo[", "foo ==", "foo; bogus", "foo bar", "../x", "x\x00"} {
		if _, err := ParseRequirement(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	reqs, err := ParseRequirementsFile("# deps\nattrs==23.1.0  # pinned\n\ntomli \\\n  >=2\n")
	if err != nil || len(reqs) != 2 || reqs[1].Specifier.String() != ">=2" {
		t.Fatalf("%v %+v", err, reqs)
	}
	if _, err := ParseRequirementsFile("attrs\n--index-url https://evil.example/simple\n"); err == nil || err.Error()[:6] != "line 2" {
		t.Fatalf("an option line: %v", err)
	}
}

func TestWheelNames(t *testing.T) {
	for _, tc := range []struct {
		name string
		pure bool
	}{
		{"attrs-23.1.0-py3-none-any.whl", true},
		{"six-1.16.0-py2.py3-none-any.whl", true},
		{"x-1.0-cp311-none-any.whl", true},
		{"x-1.0-1-py3-none-any.whl", true},
		{"numpy-2.1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl", false},
		{"x-1.0-cp310-none-any.whl", false},
		{"x-1.0-py2-none-any.whl", false},
		{"x-1.0-cp311-abi3-any.whl", false},
	} {
		w, ok := ParseWheelName(tc.name)
		if !ok {
			t.Fatalf("%s: not a wheel name", tc.name)
		}
		if _, pure := w.Pure(); pure != tc.pure {
			t.Errorf("%s: pure %v, want %v", tc.name, pure, tc.pure)
		}
	}
}

func FuzzParseRequirement(f *testing.F) {
	for _, s := range []string{"attrs==1", `a[b]>=1; python_version<"3" or extra=="x"`, "x (>=1)"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := ParseRequirement(s)
		if err == nil {
			r.Marker.Evaluate(GuestEnvironment, []string{"x"})
		}
	})
}
