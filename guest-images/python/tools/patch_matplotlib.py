"""Exact edits to matplotlib 3.6.3's source tree for the wasm32-wasi guest.

    patch_matplotlib.py SRC

Each edit must match exactly once, else the build fails (a new matplotlib
version must be looked at again, not patched blindly).

- mplsetup.cfg: Debian's freetype and qhull (built by matplotlib.sh), no
  LTO (the objects are archived, then linked into python.wasm by wasm-ld,
  not as shared objects), Agg the default backend in matplotlibrc.
- setupext.py: no _tkagg (no Tk in the guest; it dlopens Tk at run time).
- setupext.py and src/wasm_array_api.{h,c}: one numpy C-API pointer for
  all of matplotlib's extensions. matplotlib gives each extension its own
  (PY_ARRAY_UNIQUE_SYMBOL), but src/py_converters.cpp is compiled into
  four of them: as shared objects each has its own copy, linked into one
  python.wasm there is one copy, which would use one extension's pointer,
  NULL until that extension is imported. Here every file declares the one
  pointer MPL_ARRAY_API (NO_IMPORT_ARRAY), wasm_array_api.c defines it,
  and each module's import_array() fills it.
- setup.py: one temporary build directory for all extensions, so that a
  source several extensions share is one object (one namespace).
- src/_qhull_wrapper.cpp: qhull's messages go to a FILE that discards
  them (fopencookie) instead of /dev/null, which the guest doesn't have
  (fopen failing there would throw, and a throw ends the run).
- matplotlib/pyplot.py: show() with the Agg backend hands the open
  figures to the guest's rich outputs (_wasmexec_display.show_figures, as
  a notebook shows them) instead of warning that Agg can't show them.
- matplotlib/__init__.py: the data directory. The package is bytecode in
  the image's zip, and matplotlib opens its data (fonts, matplotlibrc,
  styles) by path, so the data is a directory of its own beside the zip:
  /usr/local/lib/mpl-data.
- matplotlib/__init__.py: the configuration and cache directory. Without
  MPLCONFIGDIR it would be ~/.matplotlib, created in the workspace at
  import. In the guest it is mpl-data/guest, read-only, holding the font
  list made with the image (tools/mpl_fontlist.py), so no run scans the
  fonts or writes a cache; a user's MPLCONFIGDIR still wins.
- matplotlib/backends/backend_agg.py: a canvas whose pixels (4 bytes
  each) don't fit wasm32's size_t is refused with ValueError, as a canvas
  over 2**16 pixels a side is: the C++ renderer computes the size in
  size_t, which wraps here, and would draw past a short buffer.
- matplotlib/font_manager.py: the "building the font cache" warning's
  timer is a thread, which the guest can't start; the scan goes on
  without it.
"""
import pathlib
import sys

DATA_DIR = "/usr/local/lib/mpl-data"


WASM_ARRAY_API_H = """\
/* patch_matplotlib.py: import_array() for files compiled with
   NO_IMPORT_ARRAY, filling the one MPL_ARRAY_API (wasm_array_api.c). */
#ifndef WASM_ARRAY_API_H
#define WASM_ARRAY_API_H
#ifdef __cplusplus
extern "C" {
#endif
int wasm_mpl_import_array(void);
#ifdef __cplusplus
}
#endif
#define import_array() { if (wasm_mpl_import_array() < 0) { PyErr_Print(); \\
    PyErr_SetString(PyExc_ImportError, "numpy.core.multiarray failed to import"); \\
    return NULL; } }
#endif
"""

WASM_ARRAY_API_C = """\
/* patch_matplotlib.py: the one numpy C-API pointer of matplotlib's
   extensions in a statically linked python.wasm. */
#undef NO_IMPORT_ARRAY
#undef import_array
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <numpy/arrayobject.h>

int wasm_mpl_import_array(void)
{
    return _import_array();
}
"""


def edit(path, old, new):
    text = path.read_text()
    n = text.count(old)
    if n != 1:
        sys.exit("patch_matplotlib: %s: expected 1 match, found %d of:\n%s" % (path, n, old))
    path.write_text(text.replace(old, new))
    print("edited", path)


def main():
    src = pathlib.Path(sys.argv[1])
    (src / "mplsetup.cfg").write_text(
        "[libs]\nsystem_freetype = true\nsystem_qhull = true\nenable_lto = false\n\n"
        "[rc_options]\nbackend = Agg\n")
    edit(src / "setupext.py",
         '''        # tkagg
        ext = Extension(''',
         '''        # tkagg: not in the wasm32-wasi guest (patch_matplotlib.py)
        return
        ext = Extension(''')
    edit(src / "setupext.py",
         """        ('PY_ARRAY_UNIQUE_SYMBOL',
         'MPL_' + ext.name.replace('.', '_') + '_ARRAY_API'),""",
         """        ('PY_ARRAY_UNIQUE_SYMBOL', 'MPL_ARRAY_API'),
        ('NO_IMPORT_ARRAY', None),""")
    edit(src / "setupext.py",
         """    import numpy as np
    ext.include_dirs.append(np.get_include())
""",
         """    import numpy as np
    ext.include_dirs.append(np.get_include())
    ext.sources.append("src/wasm_array_api.c")
    ext.extra_compile_args.extend(["-include", "src/wasm_array_api.h"])
""")
    # One temporary directory for every extension: matplotlib gives each its
    # own, so a source several extensions share (py_converters.cpp, agg's)
    # became several objects defining the same symbols, which a static link
    # refuses; one object per source is what one namespace needs. (Under
    # build -j the extensions' threads also nested each other's directories.)
    edit(src / "setup.py",
         """        orig_build_temp = self.build_temp
        self.build_temp = os.path.join(self.build_temp, ext.name)
""",
         """        orig_build_temp = self.build_temp
""")
    (src / "src/wasm_array_api.h").write_text(WASM_ARRAY_API_H)
    (src / "src/wasm_array_api.c").write_text(WASM_ARRAY_API_C)
    edit(src / "src/_qhull_wrapper.cpp",
         """#define STRINGIFY(x) STR(x)
""",
         """#define STRINGIFY(x) STR(x)

/* patch_matplotlib.py: a FILE that discards what is written to it. */
static ssize_t wasm_discard(void *, const char *, size_t n) { return (ssize_t)n; }
static FILE *wasm_devnull(void)
{
    cookie_io_functions_t io = {NULL, wasm_discard, NULL, NULL};
    return fopencookie(NULL, "w", io);
}
""")
    edit(src / "src/_qhull_wrapper.cpp",
         """        error_file = fopen(STRINGIFY(MPL_DEVNULL), "w");""",
         """        error_file = wasm_devnull();""")
    edit(src / "lib/matplotlib/pyplot.py",
         """    _warn_if_gui_out_of_main_thread()
    return _get_backend_mod().show(*args, **kwargs)""",
         """    _warn_if_gui_out_of_main_thread()
    # wasmexec's guest: the figures become the run's outputs.
    hook = getattr(sys.modules.get("_wasmexec_display"), "show_figures", None)
    if hook is not None and get_backend().lower() == "agg":
        return hook()
    return _get_backend_mod().show(*args, **kwargs)""")
    edit(src / "lib/matplotlib/__init__.py",
         '''    return str(Path(__file__).with_name("mpl-data"))''',
         '''    # wasmexec's guest: the package is in a zip, its data beside it.
    path = Path(__file__).with_name("mpl-data")
    return str(path) if path.is_dir() else %r''' % DATA_DIR)
    edit(src / "lib/matplotlib/__init__.py",
         """    configdir = os.environ.get('MPLCONFIGDIR')
    if configdir:
        configdir = Path(configdir).resolve()
""",
         """    configdir = os.environ.get('MPLCONFIGDIR')
    if not configdir and sys.platform == "wasi":
        # wasmexec's guest: read-only, with the image's font list.
        return os.path.join(get_data_path(), "guest")
    if configdir:
        configdir = Path(configdir).resolve()
""")
    edit(src / "lib/matplotlib/backends/backend_agg.py",
         """import threading
""",
         """import sys
import threading
""")
    edit(src / "lib/matplotlib/backends/backend_agg.py",
         """        self._renderer = _RendererAgg(int(width), int(height), dpi)
""",
         """        if int(width) * int(height) * 4 > sys.maxsize:
            # wasmexec's guest (wasm32): the renderer's size_t would wrap.
            raise ValueError(
                f"Image size of {int(width)}x{int(height)} pixels is too large "
                f"for this sandbox: at most {sys.maxsize} bytes of pixels")
        self._renderer = _RendererAgg(int(width), int(height), dpi)
""")
    edit(src / "lib/matplotlib/font_manager.py",
         """            'Matplotlib is building the font cache; this may take a moment.'))
        timer.start()
""",
         """            'Matplotlib is building the font cache; this may take a moment.'))
        try:
            timer.start()
        except RuntimeError:
            pass  # wasmexec's guest has no threads: no warning, same scan
""")


if __name__ == "__main__":
    main()
