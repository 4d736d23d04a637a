package server

import (
	"context"
	"fmt"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/events"
)

// Templates builds and keeps warm templates (templates.Manager; see
// docs/TEMPLATES.md). Errors are *wasmexec.Error codes.
type Templates interface {
	Create(ctx context.Context, spec *wasmexec.TemplateSpec) (*wasmexec.Template, error)
	Get(ctx context.Context, id string) (*wasmexec.Template, error)
	List(ctx context.Context) ([]*wasmexec.Template, error)
	Delete(ctx context.Context, id string) error
}

// routeTemplates adds the /v1/templates routes (501 when Templates is nil).
func (s *Server) routeTemplates() {
	s.e.POST("/v1/templates", s.createTemplate)
	s.e.GET("/v1/templates", s.listTemplates)
	s.e.GET("/v1/templates/:id", s.getTemplate)
	s.e.DELETE("/v1/templates/:id", s.deleteTemplate)
}

func (s *Server) templates() (Templates, error) {
	if s.cfg.Templates == nil {
		return nil, notImplemented("templates")
	}
	return s.cfg.Templates, nil
}

// createTemplate answers 202: the build goes on after the reply (its
// state is building; GET the template or follow /v1/events for its end).
func (s *Server) createTemplate(c echo.Context) error {
	ts, err := s.templates()
	if err != nil {
		return err
	}
	var spec wasmexec.TemplateSpec
	if err := s.decode(c, &spec); err != nil {
		return err
	}
	d, err := ts.Create(c.Request().Context(), &spec)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusAccepted, d)
}

func (s *Server) listTemplates(c echo.Context) error {
	ts, err := s.templates()
	if err != nil {
		return err
	}
	list, err := ts.List(c.Request().Context())
	if err != nil {
		return err
	}
	if list == nil {
		list = []*wasmexec.Template{}
	}
	return c.JSON(http.StatusOK, map[string]any{"templates": list})
}

func (s *Server) getTemplate(c echo.Context) error {
	ts, err := s.templates()
	if err != nil {
		return err
	}
	d, err := ts.Get(c.Request().Context(), c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, d)
}

func (s *Server) deleteTemplate(c echo.Context) error {
	ts, err := s.templates()
	if err != nil {
		return err
	}
	if err := ts.Delete(c.Request().Context(), c.Param("id")); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// TemplateEvent publishes a template's lifecycle event (template.building,
// .ready, .failed, .deleted) to its tenant. cmd calls it from
// templates.Config.OnEvent: a build ends after the request that started
// it.
func (c Config) TemplateEvent(typ string, t *wasmexec.Template) {
	if c.Events != nil {
		c.Events.Publish(events.Event{Type: typ, TemplateID: t.TemplateID, Language: string(t.Language), Tenant: t.Tenant})
	}
}

// guardedTemplates scopes templates to their tenant: another tenant's id
// answers like an unknown one (404 template_not_found). It names every
// method of Templates, as guardedContexts does. A template counts against
// maxTemplates from its create (reserved, quota.go) until it is deleted,
// failed ones too; maxTemplateBytes is checked here before a build starts
// and counted, under the templates manager's lock, when it ends (what a
// build holds is known only then: an over-quota build ends failed with
// quota_exceeded).
type guardedTemplates struct {
	next Templates
	t    *tenancy
}

var _ Templates = guardedTemplates{}

func templateNotFound(id string) error {
	return wasmexec.Errorf(wasmexec.ETemplateNotFound, "no template %q", id)
}

func (g guardedTemplates) Get(ctx context.Context, id string) (*wasmexec.Template, error) {
	d, err := g.next.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if tn := wasmexec.TenantID(ctx); tn != "" && d.Tenant != tn {
		return nil, templateNotFound(id)
	}
	return d, nil
}

func (g guardedTemplates) List(ctx context.Context) ([]*wasmexec.Template, error) {
	all, err := g.next.List(ctx)
	tn := wasmexec.TenantID(ctx)
	if err != nil || tn == "" {
		return all, err
	}
	mine := []*wasmexec.Template{}
	for _, d := range all {
		if d.Tenant == tn {
			mine = append(mine, d)
		}
	}
	return mine, nil
}

func (g guardedTemplates) Delete(ctx context.Context, id string) error {
	if _, err := g.Get(ctx, id); err != nil {
		return err
	}
	return g.next.Delete(ctx, id)
}

func (g guardedTemplates) Create(ctx context.Context, spec *wasmexec.TemplateSpec) (*wasmexec.Template, error) {
	tn := wasmexec.TenantFrom(ctx)
	if tn == nil {
		return g.next.Create(ctx, spec)
	}
	mine := func() ([]*wasmexec.Template, error) {
		all, err := g.List(ctx)
		if err != nil {
			return nil, err
		}
		out := all[:0]
		for _, d := range all {
			if !d.Implicit { // the server's cache, not the tenant's
				out = append(out, d)
			}
		}
		return out, nil
	}
	if q := tn.Quotas.MaxTemplateBytes; q != nil {
		list, err := mine()
		if err != nil {
			return nil, err
		}
		used := int64(0)
		for _, d := range list {
			used += d.Bytes()
		}
		if used >= *q {
			return nil, quotaError("maxTemplateBytes", *q, fmt.Sprintf("the tenant's templates hold %d bytes; delete one first", used))
		}
	}
	end := noEnd
	if q := tn.Quotas.MaxTemplates; q != nil {
		var err error
		end, err = g.t.state(tn.ID).templates.reserve(*q, 1, "", func(map[string]bool) (int64, error) {
			list, err := mine()
			return int64(len(list)), err
		}, func(int64) error { return quotaError("maxTemplates", *q, "delete a template first") })
		if err != nil {
			return nil, err
		}
	}
	// Made (or not), it is counted where the count finds it: the
	// manager lists it from the moment Create returns.
	defer end(nil)
	return g.next.Create(ctx, spec)
}
