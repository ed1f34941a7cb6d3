"""Helpers shared by report.py and the section plugins in reports/sections/.

Everything that writes HTML or a figure goes through here so that every figure gets the
same treatment: a title, labelled axes (with units), a PNG beside index.html, and a
one-line caption below it saying what to see.
"""
import html
import json
import math
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)


class InputError(Exception):
    """A results file that cannot be used. The message starts with the file's path."""


def load_json(path):
    """Parse a JSON file; any failure becomes one InputError line naming the file."""
    path = pathlib.Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {e}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{path}: line {e.lineno} column {e.colno}: {e.msg}") from None


def load_run(path, key, expected):
    """Load a scenario's JSON file and check its identifying field (`scenario` or `schema`).

    Returns (doc, bad) where bad(where, msg) raises the InputError naming file and field.
    """
    doc = load_json(path)

    def bad(where, msg):
        raise InputError(f"{path}: {where}: {msg}")

    if not isinstance(doc, dict) or doc.get(key) != expected:
        bad(key, f"expected {expected!r}")
    return doc, bad


class Html(str):
    """A string that is already HTML (not escaped again by table())."""


def esc(x):
    return x if isinstance(x, Html) else html.escape(str(x))


def is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def fmt_sci(x):
    """Error magnitudes: 3.1e-16; None (JSON null: the value was NaN/Inf) -> 'non-finite'."""
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "non-finite"
    return "0" if x == 0 else f"{x:.2g}"


def fmt_ns(t):
    """A time in ns, readable: 25 ns, 4.2 µs, 3.1 ms."""
    for unit, scale in (("s", 1e9), ("ms", 1e6), ("µs", 1e3)):
        if t >= scale:
            return f"{t / scale:.3g} {unit}"
    return f"{t:.3g} ns"


def fmt_ratio(r):
    """A speed ratio: 40×, 140×, 1.8×."""
    return f"{r:.0f}×" if r >= 10 else f"{r:.1f}×"


def speed_phrase(t_fast, t_other, other):
    """How the fast variant compares with `other`: 'fast 40× faster than reference'."""
    r = t_other / t_fast
    if r >= 1:
        return f"fast {fmt_ratio(r)} faster than {other}"
    return f"fast {fmt_ratio(1 / r)} slower than {other}"


def paragraph(text, cls=None):
    c = f' class="{cls}"' if cls else ""
    return f"<p{c}>{esc(text)}</p>\n"


def table(headers, rows):
    """rows: lists of cells; a cell is a value (escaped) or a (value, css_class) pair."""
    out = ["<table>", "<tr>" + "".join(f"<th>{esc(h)}</th>" for h in headers) + "</tr>"]
    for row in rows:
        cells = []
        for c in row:
            if isinstance(c, tuple):
                value, cls = c
                cells.append(f'<td class="{cls}">{esc(value)}</td>' if cls else f"<td>{esc(value)}</td>")
            else:
                cells.append(f"<td>{esc(c)}</td>")
        out.append("<tr>" + "".join(cells) + "</tr>")
    out.append("</table>\n")
    return "\n".join(out)


def new_figure(width=7.5, height=4.2):
    fig, ax = plt.subplots(figsize=(width, height))
    return fig, ax


def save_figure(fig, out_dir, name):
    """Write fig as out_dir/<name>.png and close it; returns the file name."""
    file_name = f"{safe_name(name)}.png"
    fig.savefig(pathlib.Path(out_dir) / file_name, dpi=110, bbox_inches="tight")
    plt.close(fig)
    return file_name


def figure_html(file_name, caption):
    """The <figure> for a saved PNG with its one-line caption (what to see)."""
    return (f'<figure><img src="{esc(file_name)}" alt="{esc(caption)}">'
            f"<figcaption>{esc(caption)}</figcaption></figure>\n")


def safe_name(name):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in str(name))
