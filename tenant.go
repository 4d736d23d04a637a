package wasmexec

import "context"

// Tenancy vocabulary: an API key names a tenant; every context,
// process, execution record, file and event belongs to one. The auth
// package reads keys; server/ puts the caller's *Tenant into the request's
// context; the tenancy guard (server/tenancy.go) enforces ownership and
// quotas. Without keys there is no tenant and nothing is scoped.

// Error codes of the front door.
const (
	EUnauthorized = "unauthorized"   // 401: a missing or wrong API key
	EQuota        = "quota_exceeded" // 429 with Retry-After: a tenant quota
)

// Quotas bound one tenant. A nil field is unlimited; 0 allows nothing.
type Quotas struct {
	MaxContexts       *int64 `json:"maxContexts,omitempty"`
	MaxConcurrentRuns *int64 `json:"maxConcurrentRuns,omitempty"`
	MaxProcesses      *int64 `json:"maxProcesses,omitempty"`
	MaxRunsPerMinute  *int64 `json:"maxRunsPerMinute,omitempty"`
	MaxWorkspaceBytes *int64 `json:"maxWorkspaceBytes,omitempty"`
	// MaxTemplates counts the tenant's templates (failed ones too, until
	// deleted); MaxTemplateBytes bounds what they hold (state and
	// workspace).
	MaxTemplates     *int64 `json:"maxTemplates,omitempty"`
	MaxTemplateBytes *int64 `json:"maxTemplateBytes,omitempty"`
}

// Tenant is who a request acts for.
type Tenant struct {
	ID     string
	Quotas Quotas
}

type tenantKey struct{}
type requestIDKey struct{}

// WithTenant returns ctx carrying t.
func WithTenant(ctx context.Context, t *Tenant) context.Context {
	return context.WithValue(ctx, tenantKey{}, t)
}

// TenantFrom returns the tenant ctx carries, or nil (an open server).
func TenantFrom(ctx context.Context) *Tenant {
	t, _ := ctx.Value(tenantKey{}).(*Tenant)
	return t
}

// TenantID returns the id of the tenant ctx carries, or "".
func TenantID(ctx context.Context) string {
	if t := TenantFrom(ctx); t != nil {
		return t.ID
	}
	return ""
}

// WithRequestID returns ctx carrying the request's X-Request-Id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestIDFrom returns the request id ctx carries, or "".
func RequestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}
