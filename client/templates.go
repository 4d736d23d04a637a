package client

import (
	"context"
	"net/url"
	"time"

	"github.com/wasmexec/wasmexec"
)

// CreateTemplate starts building a template; the descriptor it returns is
// building (WaitTemplate waits for the end of the build).
func (c *Client) CreateTemplate(ctx context.Context, spec *wasmexec.TemplateSpec) (*wasmexec.Template, error) {
	return call[wasmexec.Template](c, ctx, "POST", "/v1/templates", spec)
}

// Template returns a template's descriptor.
func (c *Client) Template(ctx context.Context, id string) (*wasmexec.Template, error) {
	return call[wasmexec.Template](c, ctx, "GET", "/v1/templates/"+url.PathEscape(id), nil)
}

// Templates lists the templates.
func (c *Client) Templates(ctx context.Context) ([]*wasmexec.Template, error) {
	var l struct{ Templates []*wasmexec.Template }
	return l.Templates, c.do(ctx, "GET", "/v1/templates", nil, &l)
}

// DeleteTemplate deletes a template.
func (c *Client) DeleteTemplate(ctx context.Context, id string) error {
	return c.do(ctx, "DELETE", "/v1/templates/"+url.PathEscape(id), nil, nil)
}

// WaitTemplate polls template id every interval (100 ms when 0) until its
// build ends, ready or failed, or ctx ends.
func (c *Client) WaitTemplate(ctx context.Context, id string, interval time.Duration) (*wasmexec.Template, error) {
	if interval <= 0 {
		interval = 100 * time.Millisecond
	}
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		d, err := c.Template(ctx, id)
		if err != nil || d.State != wasmexec.TemplateBuilding {
			return d, err
		}
		select {
		case <-t.C:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}
