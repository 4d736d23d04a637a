package contexts

import (
	"context"
	"maps"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/vfs"
)

// createFromTemplate makes a context from a template, as a fork makes one
// from its source: the template's state restored (mapped copy-on-write
// from its file) and a copy of its workspace; its language, env and
// memoryBytes are the template's (the spec may repeat them or leave them
// out). A template being built is waited for, within the guest's start-up
// bound. Errors: those of Create, template_not_found, conflict (its
// build failed).
func (m *Manager) createFromTemplate(ctx context.Context, spec *wasmexec.ContextSpec) (*wasmexec.Context, error) {
	src := m.cfg.Templates
	if src == nil {
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "templates are not enabled on this server")
	}
	t, err := src.Template(ctx, spec.Template)
	if err != nil {
		return nil, err
	}
	tf, err := m.cfg.Runner.Family(t.Language)
	if err != nil {
		return nil, err
	}
	if spec.Language != "" {
		f, err := m.cfg.Runner.Family(spec.Language)
		if err != nil {
			return nil, err
		}
		if f.Name != tf.Name {
			return nil, wasmexec.Errorf(wasmexec.ELanguageMismatch, "template %s is a %s template; a %s context can't start from it", t.TemplateID, t.Language, spec.Language)
		}
	}
	switch {
	case len(spec.Env) > 0 && !maps.Equal(spec.Env, t.Env):
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "env is the template's (set when it was built); leave it out or repeat it")
	case spec.Limits.MemoryBytes != 0 && spec.Limits.MemoryBytes != t.MemoryBytes:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "limits.memoryBytes is the template's (%d); leave it out or repeat it", t.MemoryBytes)
	case len(spec.Secrets) > 0:
		return nil, wasmexec.Errorf(wasmexec.EInvalid, "secrets can't be given to a context made from a template (its guest's environment is the template's)")
	case t.State == wasmexec.TemplateFailed:
		return nil, wasmexec.Errorf(wasmexec.EConflict, "template %s failed to build", t.TemplateID)
	}
	cs := *spec
	cs.Template = ""
	if cs.Language == "" {
		cs.Language = t.Language
	}
	cs.Env, cs.Limits.MemoryBytes = maps.Clone(t.Env), t.MemoryBytes
	return m.create(ctx, &cs, func(ctx context.Context, c *execContext) (wasmexec.Guest, error) {
		for attempt := 0; ; attempt++ {
			ti, err := src.Open(ctx, spec.Template)
			if err != nil {
				return nil, err
			}
			g, err := m.fromTemplate(ctx, c, ti)
			ti.Release()
			if err != nil && m.cfg.Runner.StateRefused(err) && attempt == 0 && ti.Refused != nil {
				ti.Refused(err.Error()) // rebuilt from its recipe: wait for it
				continue
			}
			if err != nil {
				return nil, err
			}
			c.mu.Lock()
			c.hib.dirty = true // its record gets the state at the next snapshot
			c.mu.Unlock()
			return g, nil
		}
	})
}

// fromTemplate fills c's workspace with a copy of the template's and
// restores its guest from the template's state.
func (m *Manager) fromTemplate(ctx context.Context, c *execContext, ti *wasmexec.TemplateImage) (wasmexec.Guest, error) {
	if err := clearDir(c.ws); err != nil {
		return nil, err
	}
	if err := (&vfs.Workspace{Root: ti.Workspace}).CopyTo(c.ws); err != nil {
		return nil, wasmexec.Errorf(wasmexec.EInternal, "copy the workspace of template %s: %v", ti.ID, err)
	}
	return m.cfg.Runner.RestoreGuestFile(ctx, c.guestSpec(), ti.State, ti.StateOffset)
}

// clearDir empties workspace w (a second attempt copies again).
func clearDir(w *vfs.Workspace) error {
	entries, err := w.List("")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := w.Delete(e.Path); err != nil {
			return err
		}
	}
	return nil
}
