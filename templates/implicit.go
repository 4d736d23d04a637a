package templates

// Implicit templates: the first one-shot run with a given package set
// starts, in the background, the build of a template holding that set
// installed and imported where the language allows; later runs with the
// same set start from it (pipeline/template.go packagedGuest). One per
// tenant (a tenant can't learn another's sets from them), language family
// and set as the run wrote it, sorted (the key the package stagers use:
// a set stages once per cache, so it resolves the same for every run).
// They count against no tenant's quotas: they are the server's cache,
// evicted least recently used first past Config.MaxImplicitBytes.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/wasmexec/wasmexec"
)

// implicitKey is the key of an implicit template.
func implicitKey(tenant string, family string, packages []string, memory int64) string {
	set := slices.Clone(packages)
	sort.Strings(set)
	return fmt.Sprintf("%s\x00%s\x00%d\x00%s", tenant, family, memory, strings.Join(set, "\n"))
}

// Implicit implements wasmexec.ImplicitTemplates.
func (m *Manager) Implicit(ctx context.Context, lang wasmexec.Language, packages []string, memory int64) *wasmexec.TemplateImage {
	if m.cfg.MaxImplicitBytes == 0 || len(packages) == 0 {
		return nil
	}
	f, err := m.cfg.Runner.Family(lang)
	if err != nil {
		return nil
	}
	if lang == wasmexec.TypeScript {
		lang = wasmexec.JavaScript // one family, and the setup code is JavaScript
	}
	tenant := wasmexec.TenantID(ctx)
	key := implicitKey(tenant, f.Name, packages, memory)
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil
	}
	if t := m.implicit[key]; t != nil && (m.cfg.Shared == nil || !unfetchedLocked(t)) {
		if t.d.State != wasmexec.TemplateReady || t.cur == nil {
			// Building, failed (not tried again until evicted or
			// restarted), or, in a cluster, its capture being fetched.
			return nil
		}
		ti, err := m.holdLocked(t)
		if err != nil {
			return nil
		}
		return ti
	}
	sum := sha256.Sum256([]byte(key))
	id := "imp_" + hex.EncodeToString(sum[:10])
	if o := m.byID[id]; o != nil && m.cfg.Shared == nil { // the same key, or a client's id: leave it
		return nil
	}
	set := slices.Clone(packages)
	sort.Strings(set)
	now := m.cfg.Now()
	t := &tmpl{key: key, spec: wasmexec.TemplateSpec{TemplateID: id, Language: lang, Packages: set, Limits: wasmexec.Limits{MemoryBytes: memory}},
		d: wasmexec.Template{TemplateID: id, Language: lang, State: wasmexec.TemplateBuilding, Implicit: true, CreatedAtMs: now.UnixMilli(), MemoryBytes: memory, Tenant: tenant}}
	if m.cfg.Shared != nil {
		// The cluster's: found, fetched or built in the background, once
		// per key at a time here (and built once for the cluster), and
		// after a failed lookup not before its retry is due.
		if !m.syncing[key] && m.lookupDueLocked(key) {
			m.syncing[key] = true
			m.wg.Add(1)
			go m.implicitShared(wasmexec.WithTenant(context.Background(), wasmexec.TenantFrom(ctx)), t)
		}
		return nil
	}
	m.byID[id], m.implicit[key] = t, t
	if err := m.writeRecord(t, nil); err != nil {
		m.log.Warn("write an implicit template's record", "templateId", id, "err", err)
	}
	// The build is the server's, on behalf of the tenant (its record is
	// theirs); it outlives the run that asked.
	m.startBuildLocked(t, wasmexec.WithTenant(context.Background(), wasmexec.TenantFrom(ctx)))
	return nil
}

// implicitSetup imports an implicit template's packages where the
// language allows: Python imports each top-level module its installed
// distributions declare (top_level.txt, else the top of their files);
// JavaScript requires each package by name. An import that fails is
// skipped: the template holds the others.
func implicitSetup(lang wasmexec.Language, packages []string) string {
	if lang == wasmexec.Python {
		return pySetup
	}
	names := make([]string, 0, len(packages))
	for _, p := range packages {
		names = append(names, npmName(p))
	}
	b, _ := json.Marshal(names)
	return "for (const name of " + string(b) + ") { try { require(name); } catch (e) {} }"
}

// pySetup is Python's implicit setup: /workspace/.python-packages is
// where a run's packages are installed (languages/python PackagesDir).
const pySetup = `import importlib, importlib.metadata as _md
for _d in _md.distributions(path=["/workspace/.python-packages"]):
    _tops = (_d.read_text("top_level.txt") or "").split()
    if not _tops:
        _tops = sorted({str(_f).split("/")[0].removesuffix(".py") for _f in (_d.files or []) if "/" in str(_f) or str(_f).endswith(".py")})
    for _t in _tops:
        if _t.isidentifier() and not _t.endswith((".dist-info", "-info")):
            try:
                importlib.import_module(_t)
            except Exception:
                pass
del _d, _tops, _md
`

// evictLocked deletes ready implicit templates that no run holds, least
// recently used first, while implicit templates hold more than
// MaxImplicitBytes (negative: no bound). It returns their descriptors
// (for template.deleted). m.mu held.
//
// The order is Manager.uses', not lastUsedAtMs': a run from one template
// and another's build often happen in the same millisecond (the template
// just used was then evicted in place of the older one), and a wall clock
// can step back.
func (m *Manager) evictLocked() []*wasmexec.Template {
	if m.cfg.MaxImplicitBytes < 0 {
		return nil
	}
	var all []*tmpl
	total := int64(0)
	for _, t := range m.implicit {
		total += t.d.Bytes()
		all = append(all, t)
	}
	if total <= m.cfg.MaxImplicitBytes {
		return nil
	}
	sort.Slice(all, func(i, j int) bool { return all[i].used < all[j].used })
	var out []*wasmexec.Template
	for _, t := range all {
		if total <= m.cfg.MaxImplicitBytes {
			break
		}
		if t.d.State != wasmexec.TemplateReady || t.cur == nil || t.cur.refs > 0 {
			// Building, held by a run, or, in a cluster, a row whose
			// capture this node is fetching: evicting that would delete,
			// for every node, a template this node never used.
			continue
		}
		total -= t.d.Bytes()
		m.deleteLocked(t)
		if m.cfg.Shared != nil {
			// The cluster's copy goes too: what it stores is bounded the
			// same way (each node evicting what it uses least).
			id := t.d.TemplateID
			m.wg.Add(1)
			go func() {
				defer m.wg.Done()
				ctx, cancel := context.WithTimeout(m.ctx, sharedTimeout)
				defer cancel()
				m.cfg.Shared.DeleteTemplate(ctx, id)
			}()
		}
		out = append(out, describe(t))
		m.log.Info("implicit template evicted (least recently used)", "templateId", t.d.TemplateID, "bytes", t.d.Bytes())
	}
	return out
}

// usedLocked records a use of t: a run holding it, or it becoming ready
// here. m.mu held.
func (m *Manager) usedLocked(t *tmpl) {
	m.uses++
	t.used = m.uses
}

// lastUse is when t was last used or became ready, as its descriptor
// says (and its record keeps across a restart).
func lastUse(t *tmpl) int64 { return max(t.d.LastUsedAtMs, t.d.ReadyAtMs) }
