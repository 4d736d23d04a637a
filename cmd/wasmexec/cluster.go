package main

// Cluster mode (docs/DEPLOY.md): several servers sharing one PostgreSQL
// database serve the same contexts. It is on when --advertise-url is set,
// and needs --store postgres and --node-secret-file.

import (
	"context"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/wasmexec/wasmexec/cluster"
	"github.com/wasmexec/wasmexec/contexts"
	"github.com/wasmexec/wasmexec/server"
	"github.com/wasmexec/wasmexec/templates"
)

// clusterOptions are the settings of cluster mode.
type clusterOptions struct {
	nodeID     string
	advertise  string
	secretFile string
	leaseMs    int64
	secret     string // read from secretFile by validate
}

func (o *options) registerCluster(fs *flag.FlagSet) {
	host, _ := os.Hostname()
	fs.StringVar(&o.cluster.nodeID, "node-id", host, "this server's name in a cluster (unique among live servers)")
	fs.StringVar(&o.cluster.advertise, "advertise-url", "", "the URL other servers reach this one at (http://host:port); setting it turns on cluster mode: contexts are shared through --store postgres (docs/DEPLOY.md)")
	fs.StringVar(&o.cluster.secretFile, "node-secret-file", "", "file holding the secret the servers of a cluster share (at least 16 bytes); a forwarded request is trusted only with it")
	fs.Int64Var(&o.cluster.leaseMs, "context-lease-ms", cluster.DefaultLease.Milliseconds(), "in a cluster, how long a context stays its server's without a renewal (renewed every third of it); a dead server's contexts move after it")
}

// minNodeSecret is the shortest node secret accepted.
const minNodeSecret = 16

// validateCluster checks the cluster settings (bad collects the errors).
func (o *options) validateCluster(bad func(flagName string, value any, format string, args ...any)) {
	c := &o.cluster
	if c.advertise == "" {
		return
	}
	if u, err := url.Parse(c.advertise); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
		bad("advertise-url", c.advertise, "accepted http(s)://host:port")
	}
	if c.nodeID == "" || len(c.nodeID) > 128 {
		bad("node-id", c.nodeID, "accepted 1..128 characters")
	}
	if o.storeKind != "postgres" {
		bad("advertise-url", c.advertise, "cluster mode shares contexts through PostgreSQL: it needs --store postgres")
	}
	if c.leaseMs < 300 || c.leaseMs > 10*60*1000 {
		bad("context-lease-ms", c.leaseMs, "accepted 300..600000")
	}
	if c.secretFile == "" {
		bad("node-secret-file", `""`, "cluster mode needs a secret shared by its servers")
		return
	}
	b, err := os.ReadFile(c.secretFile)
	if err != nil {
		bad("node-secret-file", c.secretFile, "%v", err)
		return
	}
	if c.secret = strings.TrimSpace(string(b)); len(c.secret) < minNodeSecret {
		bad("node-secret-file", c.secretFile, "the secret must be at least %d bytes", minNodeSecret)
	}
}

// openCluster joins the cluster (cluster mode only). The contexts of an
// earlier process of this server were handed back by cluster.Open, so its
// local records are stale: they are removed before the contexts manager
// starts.
func (a *app) openCluster(ctx context.Context) error {
	c := a.opts.cluster
	if c.advertise == "" {
		return nil
	}
	cl, err := cluster.Open(ctx, cluster.Config{
		URL:              a.opts.storeURL,
		NodeID:           c.nodeID,
		AdvertURL:        strings.TrimSuffix(c.advertise, "/"),
		Lease:            time.Duration(c.leaseMs) * time.Millisecond,
		MaxSnapshotBytes: a.opts.maxSnapshotBytes(),
		// Contexts nobody serves are taken in the background up to half
		// of --max-contexts: the other half stays for new ones.
		AdoptBelow: a.opts.maxContexts / 2,
		Lost: func(id string) {
			if ctxs := a.contexts(); ctxs != nil {
				ctxs.Drop(id)
			}
		},
		Adopt: func(ctx context.Context, id string, record []byte, unpack func(dir string) error) error {
			ctxs := a.contexts()
			if ctxs == nil {
				return fmt.Errorf("not loaded yet")
			}
			return ctxs.Adopt(ctx, id, record, unpack)
		},
		Logger: a.log,
	})
	if err != nil {
		return err
	}
	if err := os.RemoveAll(filepath.Join(a.opts.dataDir, "context-state")); err != nil {
		cl.Close()
		return fmt.Errorf("remove the context records of an earlier process: %w", err)
	}
	a.cluster = cl
	a.log.Info("cluster mode", "nodeId", c.nodeID, "advertiseUrl", c.advertise, "lease", time.Duration(c.leaseMs)*time.Millisecond)
	return nil
}

// maxSnapshotBytes caps a context's snapshot in the database: its
// workspace quota plus the largest guest state (its memory), and never
// more than a bytea holds (cluster clamps it; 0: that bound).
func (o *options) maxSnapshotBytes() int64 {
	if o.workspaceQuota <= 0 {
		return 0
	}
	return o.workspaceQuota + o.maxMemoryBytes + 1<<20
}

// leaveCluster ends a drain: the contexts were snapshotted by the contexts
// manager's Close; they are handed back so the next request claims them
// wherever it lands.
func (a *app) leaveCluster() {
	if a.cluster == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.cluster.Release(ctx); err != nil {
		a.log.Error("handing the contexts back failed; they move when their leases end", "err", err)
	}
	a.cluster.Close()
}

// The cluster counts a tenant's contexts for the tenancy guard, which
// finds the method by type assertion: a signature that drifted would
// silently count this server's only.
var _ server.ContextCounter = (*cluster.Cluster)(nil)

// sharedTemplates is the templates manager's view of the cluster (nil: a
// single server).
func sharedTemplates(c *cluster.Cluster) templates.Shared {
	if c == nil {
		return nil
	}
	return c
}

// sharedContexts is the contexts manager's view of the cluster (nil: a
// single server; a nil *cluster.Cluster must not become a non-nil
// interface).
func sharedContexts(c *cluster.Cluster) contexts.Shared {
	if c == nil {
		return nil
	}
	return c
}
