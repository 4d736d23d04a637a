"""Rich outputs of a run (display data, as a notebook has): display(),
plt.show() and the figures left open when a run ends.

The driver calls begin() before a run's code and end() after it, and puts
end()'s list in its reply as "outputs": [{type, data, ...}]. This module
only builds the list; the host bounds it (count and bytes, counted with
the run's output against limits.outputBytes) and stores it. Past the
budget the request gives (maxCount, maxBytes), display() raises
OutputLimitError, which the driver reports as output_limit, so a loop of
display() calls ends at once instead of spending the run's fuel.

    image/png       {type, data: base64, width, height}   figures, PIL images
    image/svg+xml   {type, data: the SVG text}            figures, when asked
    text/html       {type, data: html, text: plain}       DataFrames, Series
    text/plain      {type, data}                          anything else

Objects with IPython's _repr_png_/_repr_svg_/_repr_html_ methods are shown
through them.
"""
import base64
import sys

__all__ = ["display", "OutputLimitError"]


class OutputLimitError(Exception):
    """More display outputs than the run may return (limits.outputBytes)."""


_outputs = []
_state = {"formats": ("png",), "max_count": 64, "max_bytes": 10 << 20, "bytes": 0}


def begin(options):
    """A run starts: options is the request's "outputs" object (or None)."""
    del _outputs[:]
    formats = ("png",)
    max_count, max_bytes = 64, 10 << 20
    if type(options) is dict:
        f = options.get("formats")
        if type(f) is list and f and all(type(x) is str for x in f):
            formats = tuple(x.lower() for x in f)
        if type(options.get("maxCount")) is int and options["maxCount"] >= 0:
            max_count = options["maxCount"]
        if type(options.get("maxBytes")) is int and options["maxBytes"] >= 0:
            max_bytes = options["maxBytes"]
    _state.update(formats=formats, max_count=max_count, max_bytes=max_bytes, bytes=0)


def end():
    """A run ended: show the figures it left open. Returns the outputs and
    whether some were left out (past the limit)."""
    truncated = False
    try:
        show_figures()
    except OutputLimitError:
        truncated = True
    except Exception:
        pass    # a figure that can't be drawn at the end is not the run's error
    _release_font_files()
    out = list(_outputs)
    del _outputs[:]
    return out, truncated


def _release_font_files():
    """matplotlib keeps each font it drew text with open (FreeType reads
    glyphs from the file as it needs them; font_manager and mathtext cache
    the FT2Font objects). A guest holding open files is not captured
    (hibernation, templates, snapshots), so the caches are dropped when a
    run ends, which closes the files; the next run that draws text opens
    its fonts again. mathtext's font sets hold their fonts in reference
    cycles (a per-instance lru_cache), so a collection follows, only after
    a run that opened fonts."""
    fm = sys.modules.get("matplotlib.font_manager")
    if fm is None:
        return
    try:
        if fm._get_font.cache_info().currsize == 0:
            return
        fm._get_font.cache_clear()
        mt = sys.modules.get("matplotlib.mathtext")
        if mt is not None:
            mt.MathTextParser._parse_cached.cache_clear()
    except Exception:
        return  # another matplotlib's internals: nothing to release
    import gc
    gc.collect()


def _add(item):
    size = len(item.get("data", "")) + len(item.get("text", ""))
    if len(_outputs) >= _state["max_count"] or _state["bytes"] + size > _state["max_bytes"]:
        raise OutputLimitError(
            "display outputs past the run's limit (%d outputs, %d bytes: limits.outputBytes)"
            % (_state["max_count"], _state["max_bytes"]))
    _state["bytes"] += size
    _outputs.append(item)


def _png_size(data):
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None, None


def _png(data):
    w, h = _png_size(data)
    item = {"type": "image/png", "data": base64.b64encode(data).decode("ascii")}
    if w is not None:
        item["width"], item["height"] = w, h
    return item


def _figure(fig):
    import io
    items = []
    if "png" in _state["formats"] or "svg" not in _state["formats"]:
        b = io.BytesIO()
        fig.savefig(b, format="png", bbox_inches="tight")
        items.append(_png(b.getvalue()))
    if "svg" in _state["formats"]:
        b = io.BytesIO()
        fig.savefig(b, format="svg", bbox_inches="tight")
        items.append({"type": "image/svg+xml", "data": b.getvalue().decode("utf-8")})
    return items


def _is(obj, module, name):
    for c in type(obj).__mro__:
        if c.__name__ == name and (c.__module__ or "").startswith(module):
            return True
    return False


def _items(obj):
    if _is(obj, "matplotlib.figure", "Figure"):
        return _figure(obj)
    if _is(obj, "matplotlib.axes", "Axes") or _is(obj, "matplotlib.axes", "SubplotBase"):
        return _figure(obj.figure)
    if _is(obj, "PIL.Image", "Image"):
        import io
        b = io.BytesIO()
        im = obj if obj.mode in ("1", "L", "LA", "I", "P", "RGB", "RGBA") else obj.convert("RGBA")
        im.save(b, format="PNG")
        return [_png(b.getvalue())]
    if _is(obj, "pandas.core.frame", "DataFrame") or _is(obj, "pandas.core.series", "Series"):
        frame = obj.to_frame() if _is(obj, "pandas.core.series", "Series") else obj
        return [{"type": "text/html", "data": frame.to_html(max_rows=60, max_cols=20),
                 "text": obj.to_string(max_rows=60, max_cols=20)}]
    for meth, kind in (("_repr_png_", "png"), ("_repr_svg_", "svg"), ("_repr_html_", "html")):
        f = getattr(type(obj), meth, None)
        if f is None:
            continue
        r = f(obj)
        if r is None:
            continue
        if kind == "png" and isinstance(r, (bytes, bytearray)):
            return [_png(bytes(r))]
        if kind == "svg" and isinstance(r, str):
            return [{"type": "image/svg+xml", "data": r}]
        if kind == "html" and isinstance(r, str):
            return [{"type": "text/html", "data": r, "text": repr(obj)}]
    return [{"type": "text/plain", "data": repr(obj)}]


def display(*objs):
    """Shows each object in the run's outputs (as a notebook's display())."""
    for obj in objs:
        for item in _items(obj):
            _add(item)
        if _is(obj, "matplotlib.figure", "Figure"):
            _close(obj)


def _close(fig):
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close(fig)


def show_figures():
    """plt.show() in the guest, and the end of a run: every open pyplot
    figure becomes an output and is closed."""
    plt = sys.modules.get("matplotlib.pyplot")
    if plt is None:
        return
    for num in plt.get_fignums():
        fig = plt.figure(num)
        try:
            for item in _figure(fig):
                _add(item)
        finally:
            plt.close(fig)
