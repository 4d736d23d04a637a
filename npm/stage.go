package npm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/wasmexec/wasmexec"
	"github.com/wasmexec/wasmexec/internal/copytree"
)

// StagePackages implements wasmexec.PackageStager for one-shot runs: the set
// of packages is installed once into a staging project in the cache
// (keyed by the set as written, so "lodash" resolves once per cache: pin
// versions for a fixed set), and the seed copies its node_modules into
// each run's workspace. Failures of the packages are code
// npm_install_failed.
func (c *Client) StagePackages(ctx context.Context, packages []string) (func(context.Context, string) error, *wasmexec.ErrorData, error) {
	set := append([]string(nil), packages...)
	sort.Strings(set)
	for _, p := range set {
		if name, _ := splitSpec(p); !validName(name) {
			return nil, nil, wasmexec.Errorf(wasmexec.EInvalid, "packages: %q is not a package name", p)
		}
	}
	sum := sha256.Sum256([]byte(strings.Join(set, "\n")))
	dst := filepath.Join(c.CacheDir, "sets", hex.EncodeToString(sum[:]))
	if _, err := os.Stat(filepath.Join(dst, ".complete")); err != nil {
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return nil, nil, err
		}
		tmp, err := os.MkdirTemp(filepath.Dir(dst), ".stage-")
		if err != nil {
			return nil, nil, err
		}
		defer os.RemoveAll(tmp)
		opts := Options{Packages: set}
		if c.StageRoom != (Room{}) {
			// Checked while staging, so a set bigger than a workspace stops
			// at its limits instead of filling the cache first.
			opts.Room = func(context.Context, string, []string) (Room, error) { return c.StageRoom, nil }
		}
		if _, err := c.Install(ctx, tmp, opts); err != nil {
			var e *Error
			if errors.As(err, &e) {
				return nil, &wasmexec.ErrorData{Code: e.CodeOf(), Name: "NpmInstallError", Message: "packages: " + e.Error(), Details: map[string]any{"package": e.Package, "reason": e.Reason}}, nil
			}
			return nil, nil, err
		}
		if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
			return nil, nil, err
		}
		if err := os.Rename(tmp, dst); err != nil {
			if _, serr := os.Stat(filepath.Join(dst, ".complete")); serr != nil {
				return nil, nil, err
			}
		}
	}
	return func(ctx context.Context, dir string) error {
		_, err := copytree.Copy(filepath.Join(dst, "node_modules"), filepath.Join(dir, "node_modules"))
		return err
	}, nil, nil
}
