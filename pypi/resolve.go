package pypi

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// release is one version of a project as the indexes list it.
type release struct {
	name     string // the project's display name
	key      string
	version  Version
	raw      string
	wheel    *File // the best pure wheel, nil when none
	platform []string
	sdist    bool
	reqPy    string // requires-python of the chosen wheel
	pyOK     bool
	yanked   bool
}

// projectInfo is every release of one project, newest first.
type projectInfo struct {
	name     string
	releases []*release
}

// choice is a release the resolver picked, with the extras asked of it.
type choice struct {
	rel    *release
	extras map[string]bool
	by     string // who asked first
}

type pending struct {
	req Requirement
	by  string // "the request" or "name==version"
}

type resolver struct {
	c        *Client
	ctx      context.Context
	indexes  []string
	projects map[string]*projectInfo
	meta     map[string]*metadata // by wheel sha256
	chosen   map[string]*choice
	prefer   map[string]string // key → version to keep (installed), unless upgrade
	steps    int
	log      func(string)
	env      Environment
}

// softError is a conflict the resolver may backtrack from.
type softError struct{ err *Error }

func (e *softError) Error() string { return e.err.Error() }

const maxSteps = 20000

func (r *resolver) project(key, display string) (*projectInfo, error) {
	if p, ok := r.projects[key]; ok {
		return p, nil
	}
	byVersion := map[string]*release{}
	found := false
	for _, ix := range r.indexes {
		files, ok, err := r.c.project(r.ctx, ix, display)
		if err != nil {
			return nil, err
		}
		found = found || ok
		for _, f := range files {
			f := f
			var raw string
			w, isWheel := ParseWheelName(f.Filename)
			if isWheel {
				if Normalize(w.Name) != key {
					continue
				}
				raw = w.Version
			} else if v, ok := sdistVersion(f.Filename, key); ok {
				raw = v
			} else {
				continue
			}
			v, err := ParseVersion(raw)
			if err != nil {
				continue
			}
			norm := v.String()
			rel := byVersion[norm]
			if rel == nil {
				rel = &release{name: display, key: key, version: v, raw: raw, yanked: true}
				byVersion[norm] = rel
			}
			if isWheel {
				rel.name = w.Name
			}
			if !f.Yanked {
				rel.yanked = false
			}
			if !isWheel {
				rel.sdist = true
				continue
			}
			rank, pure := w.Pure()
			if !pure {
				rel.platform = append(rel.platform, strings.Join(w.Tags, "."))
				continue
			}
			pyOK := true
			if f.RequiresPython != "" {
				if set, err := ParseSpecifiers(f.RequiresPython); err == nil {
					pyOK = set.Contains(mustVersion(r.env["python_full_version"]), true)
				}
			}
			if rel.wheel == nil || (pyOK && !rel.pyOK) || (pyOK == rel.pyOK && rank < rel.wheel0rank()) {
				f2 := f
				rel.wheel, rel.reqPy, rel.pyOK = &f2, f.RequiresPython, pyOK
			}
		}
	}
	if !found {
		return nil, failf(display, "no such project on %s", strings.Join(r.indexes, ", "))
	}
	p := &projectInfo{name: display}
	for _, rel := range byVersion {
		p.releases = append(p.releases, rel)
	}
	sort.Slice(p.releases, func(i, j int) bool { return p.releases[i].version.Compare(p.releases[j].version) > 0 })
	r.projects[key] = p
	r.log(fmt.Sprintf("found %s: %d versions", display, len(p.releases)))
	return p, nil
}

func (rel *release) wheel0rank() int {
	if rel.wheel == nil {
		return 1 << 30
	}
	w, _ := ParseWheelName(rel.wheel.Filename)
	rank, _ := w.Pure()
	return rank
}

func mustVersion(s string) Version {
	v, _ := ParseVersion(s)
	return v
}

func (rel *release) usable() bool { return rel.wheel != nil && rel.pyOK }

// whyNot says why no release of p can satisfy set.
func whyNot(p *projectInfo, set SpecifierSet) string {
	var matching []*release
	for _, rel := range p.releases {
		if set.Contains(rel.version, true) {
			matching = append(matching, rel)
		}
	}
	if len(matching) == 0 {
		var avail []string
		for i, rel := range p.releases {
			if i == 8 {
				avail = append(avail, "...")
				break
			}
			avail = append(avail, rel.version.String())
		}
		if len(avail) == 0 {
			return "the index lists no files"
		}
		if len(set) == 0 {
			return "no release (available: " + strings.Join(avail, ", ") + ")"
		}
		return fmt.Sprintf("no version matches %s (available: %s)", set, strings.Join(avail, ", "))
	}
	best := matching[0]
	switch {
	case best.wheel != nil && !best.pyOK:
		return fmt.Sprintf("%s %s requires Python %s; the guest is CPython 3.11", p.name, best.version, best.reqPy)
	case len(best.platform) > 0:
		plats := best.platform
		if len(plats) > 3 {
			plats = append(plats[:3:3], "...")
		}
		return fmt.Sprintf("no pure-Python wheel for wasm32-wasi: %s %s has only platform wheels (%s)", p.name, best.version, strings.Join(plats, ", "))
	case best.sdist:
		return fmt.Sprintf("%s %s has only a source distribution (sdist); wasmexec installs wheels only (no pure-Python wheel for wasm32-wasi)", p.name, best.version)
	}
	return fmt.Sprintf("no installable file for %s %s", p.name, best.version)
}

// solve resolves the queue depth first, backtracking over versions.
func (r *resolver) solve(queue []pending) error {
	if len(queue) == 0 {
		return nil
	}
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.steps++
	if r.steps > maxSteps {
		return failf(queue[0].req.Name, "resolution took more than %d steps; pin versions to help it", maxSteps)
	}
	p, rest := queue[0], queue[1:]
	if !p.req.Marker.Evaluate(r.env, nil) {
		return r.solve(rest)
	}
	key := p.req.Key()
	if c, ok := r.chosen[key]; ok {
		if !p.req.Specifier.Contains(c.rel.version, true) {
			return &softError{failf(p.req.Name, "conflict: %s needs %s%s, but %s chose %s", p.by, p.req.Name, p.req.Specifier, c.by, c.rel.version)}
		}
		var added []string
		for _, e := range p.req.Extras {
			if !c.extras[e] {
				c.extras[e] = true
				added = append(added, e)
			}
		}
		if len(added) == 0 {
			return r.solve(rest)
		}
		deps, err := r.deps(c.rel, false, added)
		if err != nil {
			return err
		}
		err = r.solve(append(append([]pending(nil), rest...), deps...))
		if err != nil {
			for _, e := range added {
				delete(c.extras, e)
			}
		}
		return err
	}
	proj, err := r.project(key, p.req.Name)
	if err != nil {
		var fe *Error
		if p.by != "the request" && errors.As(err, &fe) && strings.Contains(fe.Reason, "no such project") {
			return &softError{fe}
		}
		return err
	}
	// Every constraint on key still queued narrows the candidates now.
	set := append(SpecifierSet(nil), p.req.Specifier...)
	for _, q := range rest {
		if q.req.Key() == key && q.req.Marker.Evaluate(r.env, nil) {
			set = append(set, q.req.Specifier...)
		}
	}
	pre := set.AllowsPrereleases()
	var cands []*release
	for _, rel := range proj.releases {
		if rel.usable() && !rel.yanked && set.Contains(rel.version, pre) {
			cands = append(cands, rel)
		}
	}
	if len(cands) == 0 && !pre {
		// Pre-releases count when nothing else matches (PEP 440).
		for _, rel := range proj.releases {
			if rel.usable() && !rel.yanked && set.Contains(rel.version, true) {
				cands = append(cands, rel)
			}
		}
	}
	if len(cands) == 0 {
		// A yanked release still serves an exact pin (PEP 592).
		for _, rel := range proj.releases {
			if rel.usable() && rel.yanked && len(set) == 1 && set[0].Op == "==" && set.Contains(rel.version, true) {
				cands = append(cands, rel)
			}
		}
	}
	if len(cands) == 0 {
		e := failf(proj.name, "%s", whyNot(proj, set))
		if p.by == "the request" {
			return e
		}
		e.Reason += " (required by " + p.by + ")"
		return &softError{e}
	}
	if want, ok := r.prefer[key]; ok {
		for i, rel := range cands {
			if rel.version.String() == want {
				cands = append([]*release{rel}, append(cands[:i:i], cands[i+1:]...)...)
				break
			}
		}
	}
	var last error
	for _, rel := range cands {
		c := &choice{rel: rel, extras: map[string]bool{}, by: p.by}
		for _, e := range p.req.Extras {
			c.extras[e] = true
		}
		r.chosen[key] = c
		deps, err := r.deps(rel, true, p.req.Extras)
		if err != nil {
			delete(r.chosen, key)
			return err
		}
		err = r.solve(append(append([]pending(nil), rest...), deps...))
		if err == nil {
			return nil
		}
		delete(r.chosen, key)
		var soft *softError
		if !errors.As(err, &soft) {
			return err
		}
		last = err
	}
	return last
}

// deps are rel's requirements for the guest: its own (base) and those the
// given extras add.
func (r *resolver) deps(rel *release, base bool, extras []string) ([]pending, error) {
	md, err := r.c.metadataOf(r.ctx, r, rel)
	if err != nil {
		return nil, err
	}
	by := rel.name + "==" + rel.version.String()
	var out []pending
	for _, line := range md.requires {
		req, err := ParseRequirement(line)
		if err != nil {
			return nil, failf(rel.name, "bad Requires-Dist %q in its metadata: %v", line, err)
		}
		plain := req.Marker.Evaluate(r.env, nil)
		if (base && plain) || (len(extras) > 0 && !plain && req.Marker.Evaluate(r.env, extras)) {
			req.Marker = nil // evaluated here, with the extras
			out = append(out, pending{req: req, by: by})
		}
	}
	return out, nil
}
