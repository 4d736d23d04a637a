package pipeline

// Runs that start from a template (docs/TEMPLATES.md): the guest step
// restores the template's state into a fresh guest (its pages mapped
// copy-on-write from the template's file, as a hibernated context wakes)
// whose workspace is a fresh copy of the template's. The copy is the
// run's own and goes with the guest, like a one-shot run's workspace.

import (
	"context"
	"maps"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/copytree"
)

// template validates a run naming a template and returns it (nil when the
// run names none). The guest's settings are the template's: the run may
// repeat its env and memoryBytes or leave them out (limits takes the
// template's memory), as a context's run may.
func (p *Pipeline) template(ctx context.Context, req *wasmexec.Request, opts wasmexec.RunOptions, family wasmexec.Family, limits *wasmexec.Limits) (*wasmexec.Template, error) {
	if req.Template == "" {
		return nil, nil
	}
	src := p.templates()
	switch {
	case src == nil:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "templates are not enabled on this server")
	case req.ContextID != "" || opts.Guest != nil || opts.Workspace != "":
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "a run in a context runs in the context's guest; create the context from the template instead")
	case len(req.Packages) > 0:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "packages come with the template; build a template with them instead")
	case len(req.Secrets) > 0:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "secrets can't be given to a run from a template (its guest's environment is the template's)")
	}
	t, err := src.Template(ctx, req.Template)
	if err != nil {
		return nil, err
	}
	tf, err := p.Family(t.Language)
	if err != nil {
		return nil, err
	}
	switch {
	case tf.Name != family.Name:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "template %s is a %s template; a %s run can't start from it", t.TemplateID, t.Language, req.Language)
	case len(req.Env) > 0 && !maps.Equal(req.Env, t.Env):
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "env is the template's (set when it was built); leave it out or repeat it")
	case limits.MemoryBytes != 0 && limits.MemoryBytes != t.MemoryBytes:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "limits.memoryBytes is the template's (%d); leave it out or repeat it", t.MemoryBytes)
	case t.State == wasmexec.TemplateFailed:
		return nil, wasmexec.Errorf(wasmexec.EConflict, "template %s failed to build: %s", t.TemplateID, failureOf(t))
	}
	limits.MemoryBytes = t.MemoryBytes
	return t, nil
}

func failureOf(t *wasmexec.Template) string {
	if t.Error == nil {
		return "no reason given"
	}
	return t.Error.Message
}

// templateGuest starts the run's guest from its template, waiting for a
// template being built. A state the engine refuses (made for another
// image or engine) is reported to the template's owner, which rebuilds
// it from its recipe, and the run waits for that once.
func (p *Pipeline) templateGuest(ctx context.Context, j *job) (wasmexec.Guest, error) {
	for attempt := 0; ; attempt++ {
		ti, err := p.templates().Open(ctx, j.req.Template)
		if err != nil {
			return nil, err
		}
		g, err := p.fromTemplate(ctx, j, ti)
		ti.Release()
		if err != nil && p.cfg.Driver.StateRefused(err) && attempt == 0 && ti.Refused != nil {
			ti.Refused(err.Error())
			continue
		}
		return g, err
	}
}

// packagedGuest returns a guest of the implicit template of a one-shot
// run's packages, or nil: the run then seeds its packages as usual (and
// the template is built in the background for the runs after it).
func (p *Pipeline) packagedGuest(ctx context.Context, j *job) wasmexec.Guest {
	it, ok := p.templates().(wasmexec.ImplicitTemplates)
	if !ok || len(j.req.Packages) == 0 || j.opts.Workspace != "" || len(j.req.Env) > 0 || len(j.req.Secrets) > 0 {
		return nil
	}
	ti := it.Implicit(ctx, j.req.Language, j.req.Packages, j.limits.MemoryBytes)
	if ti == nil {
		return nil
	}
	g, err := p.fromTemplate(ctx, j, ti)
	ti.Release()
	if err != nil {
		if p.cfg.Driver.StateRefused(err) && ti.Refused != nil {
			ti.Refused(err.Error())
		} else {
			p.log.Warn("a run's packages' template could not be used; the run installs them", "template", ti.ID, "err", err)
		}
		return nil
	}
	j.packaged = true
	return g
}

// fromTemplate restores template ti into a fresh guest with a fresh copy
// of its workspace, both the run's own.
func (p *Pipeline) fromTemplate(ctx context.Context, j *job, ti *wasmexec.TemplateImage) (wasmexec.Guest, error) {
	if p.cfg.Workspaces == nil {
		return nil, wasmexec.Errorf(wasmexec.EInternal, "a run from a template needs a workspace factory")
	}
	if ti.SpareGuest != nil {
		if g, dir, done := ti.SpareGuest(); g != nil {
			return &ownGuest{Guest: g, remove: func() {
				p.cfg.Workspaces.RemoveWorkspace(dir)
				if done != nil {
					done()
				}
			}}, nil
		}
	}
	dir := ""
	if ti.Spare != nil {
		dir = ti.Spare()
	}
	if dir == "" {
		var err error
		if dir, err = p.cfg.Workspaces.NewWorkspace(); err != nil {
			return nil, err
		}
		if _, err := copytree.CopyTimes(ti.Workspace, dir); err != nil {
			p.cfg.Workspaces.RemoveWorkspace(dir)
			return nil, wasmexec.Errorf(wasmexec.EInternal, "copy the workspace of template %s: %v", ti.ID, err)
		}
	}
	g, err := p.cfg.Driver.RestoreGuestFile(ctx, GuestSpec{Image: j.lang.Image(), Env: ti.Env, MemoryBytes: ti.MemoryBytes, Workspace: dir, StateChecked: ti.Checked, Template: true}, ti.State, ti.StateOffset)
	if err != nil {
		p.cfg.Workspaces.RemoveWorkspace(dir)
		return nil, err
	}
	if !ti.Checked && ti.Restored != nil {
		ti.Restored()
	}
	return &ownGuest{Guest: g, remove: func() { p.cfg.Workspaces.RemoveWorkspace(dir) }}, nil
}

// ownGuest is a restored guest that serves one run in a workspace of its
// own: Close discards both, off the request's path.
type ownGuest struct {
	wasmexec.Guest
	remove func()
}

func (g *ownGuest) Close() {
	go func() {
		g.Guest.Close()
		g.remove()
	}()
}
