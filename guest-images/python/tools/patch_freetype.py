"""Exact edits to FreeType 2.12.1 for a guest without setjmp/longjmp.

    patch_freetype.py SRC SHIMDIR

wasi-libc has no setjmp.h: longjmp needs WebAssembly exception handling,
which wasmtime v25 lacks. FreeType uses it in two places:

- The smooth rasterizer (src/smooth/ftgrays.c), on every glyph whose cells
  overflow its pool: it longjmps out of the outline's decomposition and
  renders the band again in halves. That is a normal path, so it is
  rewritten without longjmp: on overflow the cell goes to the rasterizer's
  own "dumpster" cell, a flag is set, the outline callbacks return it (so
  the decomposition stops) and the caller takes the flag as the overflow
  it used to catch. The bands and so the pixels are what the original
  computes.
- Validators (ft_validator_error in src/base/ftobjs.c; the TrueType cmap
  check when a font is loaded, and the gxvalid/otvalid modules), reached
  only by a malformed font: SHIMDIR/setjmp.h makes setjmp return 0 and
  longjmp end the run with a message (wasmexec_fatal, cxx_nothrow.cpp), a
  contained failure. matplotlib.sh compiles qhull (whose errors longjmp)
  and matplotlib against the same header.

Each edit must match exactly as expected, else the build fails.
"""
import pathlib
import sys


def main():
    src, shim = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    p = src / "src/smooth/ftgrays.c"
    t = p.read_text()

    def edit(old, new, count=1, text=None):
        nonlocal t
        n = t.count(old)
        if n != count:
            sys.exit("patch_freetype: expected %d of %r, found %d" % (count, old, n))
        t = t.replace(old, new)

    edit("    ft_jmp_buf  jump_buffer;\n",
         "    ft_jmp_buf  jump_buffer;\n    int         overflow;  /* patch_freetype.py: the pool overflowed */\n")
    edit("      if ( cell >= ras.cell_null )\n        ft_longjmp( ras.jump_buffer, 1 );\n",
         "      if ( cell >= ras.cell_null )\n      {\n"
         "        /* patch_freetype.py: no longjmp; the caller sees the flag */\n"
         "        ras.overflow   = 1;\n        ras.cell_free -= 1;\n"
         "        ras.cell       = ras.cell_null;\n        return;\n      }\n")
    edit("    if ( ft_setjmp( ras.jump_buffer ) == 0 )\n    {\n      if ( continued )",
         "    ras.overflow = 0;\n    {\n      if ( continued )")
    edit("    }\n    else\n    {\n      error = FT_THROW( Raster_Overflow );",
         "    }\n    if ( ras.overflow )\n    {\n      error = FT_THROW( Raster_Overflow );")
    # The outline callbacks stop the decomposition once the pool is full.
    i = t.index("  gray_move_to( const FT_Vector*  to,")
    j = t.index("FT_DEFINE_OUTLINE_FUNCS(", i)
    region = t[i:j]
    if region.count("    return 0;\n") != 4:
        sys.exit("patch_freetype: expected 4 outline callbacks returning 0")
    t = t[:i] + region.replace("    return 0;\n", "    return ras.overflow;\n") + t[j:]
    if "ft_longjmp( " in t or "ft_setjmp( " in t:
        sys.exit("patch_freetype: ftgrays.c still uses setjmp/longjmp")
    p.write_text(t)
    shim.mkdir(parents=True, exist_ok=True)
    (shim / "setjmp.h").write_text("""\
/* patch_freetype.py: setjmp.h for C libraries whose error paths longjmp
   (FreeType's validators, qhull's errors) on wasm32-wasi, which has no
   longjmp. setjmp returns 0 (the work runs); longjmp (an error) ends the
   run with a message. */
#ifndef WASMEXEC_SETJMP_H
#define WASMEXEC_SETJMP_H
typedef int jmp_buf[1];
#ifdef __cplusplus
extern "C"
#endif
__attribute__((noreturn)) void wasmexec_fatal(const char *what);
#define setjmp(b) ((void)(b), 0)
#define longjmp(b, v) ((void)(b), (void)(v), wasmexec_fatal( \\
    "an error in " __FILE__ " that needs longjmp, which this guest lacks"))
#endif
""")
    print("patched", p)


if __name__ == "__main__":
    main()
