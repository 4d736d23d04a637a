package python

import (
	"os"
	"path/filepath"
	"strings"
)

// LayerImage is the image of the bundled pure-Python libraries
// (guest-images/pylibs): its site/ directory is mounted read-only at
// LayerPath when it is built.
const LayerImage = "pylibs"

// LayerPath is where the guest sees the bundled libraries (Debian's name
// for distribution-provided packages).
const LayerPath = "/usr/local/lib/python3.11/dist-packages"

// ZoneinfoPath is where the guest sees the bundled tzdata's zone files, as
// Linux has them: code that reads /usr/share/zoneinfo (zoneinfo's TZPATH,
// dateutil, the tests of datetime) finds them there.
const ZoneinfoPath = "/usr/share/zoneinfo"

// PackagesDir is the workspace directory of packages installed with pip
// (pypi.SiteDir), on the guest's sys.path before the bundled libraries.
const PackagesDir = ".python-packages"

// Extension is what the host adds to the Python image's guest.json: the
// bundled-library layer (when imagesDir holds it) and the installed
// packages, both on sys.path through PYTHONPATH, which the interpreter
// reads when the image's snapshot is taken. Its fields are those of
// engine.ImageExtension (convert it).
//
// PackagesDir is on sys.path but not created: a workspace holds only what
// its user put there, and the directory appears with the first install.
// (The driver forgets, at each request, that importlib found no directory
// there, so packages installed into a live context are found.)
type Extension struct {
	Env           map[string]string
	Preopens      map[string]string
	WorkspaceDirs []string
}

// ImageExtension returns the extension for the images in imagesDir.
func ImageExtension(imagesDir string) Extension {
	path := []string{"/workspace/" + PackagesDir}
	var ext Extension
	site := filepath.Join(imagesDir, LayerImage, "site")
	if st, err := os.Stat(site); err == nil && st.IsDir() {
		if _, err := os.Stat(filepath.Join(imagesDir, LayerImage, ".complete")); err == nil {
			ext.Preopens = map[string]string{site: LayerPath}
			path = append(path, LayerPath)
			if zi := filepath.Join(site, "tzdata", "zoneinfo"); isDir(zi) {
				ext.Preopens[zi] = ZoneinfoPath
			}
		}
	}
	ext.Env = map[string]string{"PYTHONPATH": strings.Join(path, ":")}
	return ext
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}
