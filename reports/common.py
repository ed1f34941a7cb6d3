"""Helpers shared by report.py and the section plugins in reports/sections/.

Everything that writes HTML or a figure goes through here so that every figure gets the
same treatment: a title, labelled axes (with units), a PNG beside index.html, and a
one-line caption below it saying what to see.
"""
import html
import importlib.util
import json
import math
import pathlib
import statistics

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


def read_run(results_dir, scenario, load):
    """(load(path), None) for results_dir/run/<scenario>.json, the output of `contactbench run
    <scenario>`; (None, the paragraph every section shows then) when that file is absent."""
    path = pathlib.Path(results_dir) / "run" / f"{scenario}.json"
    if not path.exists():
        return None, paragraph(f"The {scenario} scenario was not run ({path} not found; "
                               f"`contactbench run {scenario}` writes it).", "missing")
    return load(path), None


def load_section(path):
    """Import the section plugin reports/sections/<scenario>.py as a module."""
    path = pathlib.Path(path)
    spec = importlib.util.spec_from_file_location(f"contactbench_section_{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- bench.json

# One colour per contact mode of the DEM stepper, shared by every section that draws modes.
MODE_COLOURS = {"raw": "#d62728", "smoothed": "#1f77b4", "pfc_reduced": "#ff7f0e",
                "pfc_full": "#2ca02c", "pfc_pc": "#9467bd"}

TIME_UNITS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# Components Google Benchmark appends to a benchmark's name.
GB_MODIFIERS = ("real_time", "process_time", "manual_time", "iterations:", "repeats:",
                "threads:", "min_time:", "min_warmup_time:")
# Fields Google Benchmark writes itself; every other number of an entry is a user counter.
GB_FIELDS = {"family_index", "per_family_instance_index", "repetitions", "repetition_index",
             "threads", "iterations", "real_time", "cpu_time"}


def split_bench_name(name):
    """'closest_feature/random/fast/real_time' -> ('closest_feature', 'random', 'fast')."""
    parts = [p for p in name.split("/") if not p.startswith(GB_MODIFIERS)]
    if len(parts) < 3:
        return None
    return parts[0], "/".join(parts[1:-1]), parts[-1]


class Bench:
    """results/bench.json (Google Benchmark JSON, names <stem>/<case>/<impl>).

    ns[(stem, case, impl)]: real time per iteration in ns (one iteration = one query, or one
    time step for scenario benchmarks); counters[(stem, case, impl)]: {name: value}. Both
    in file order, from the "median" aggregate when present, else the median of the plain
    iteration entries. notes: entries skipped and why; context: the file's context object.
    """

    def __init__(self, path):
        doc = load_json(path)

        def bad(where, msg):
            raise InputError(f"{path}: {where}: {msg}")

        if not isinstance(doc, dict):
            bad("top level", f"expected an object, got {type(doc).__name__}")
        entries = doc.get("benchmarks")
        if not isinstance(entries, list):
            bad("benchmarks", "expected a list")
        medians, iterations, self.notes = {}, {}, []
        for i, b in enumerate(entries):
            where = f"benchmarks[{i}]"
            if not isinstance(b, dict):
                bad(where, f"expected an object, got {type(b).__name__}")
            name = b.get("name")
            if not isinstance(name, str):
                bad(f"{where}.name", "expected a string")
            if b.get("error_occurred"):
                self.notes.append(f"{name}: skipped, the benchmark reported an error: "
                                  f"{b.get('error_message', '')}")
                continue
            run_type = b.get("run_type", "iteration")
            agg = b.get("aggregate_name")
            if run_type == "aggregate" and agg != "median":
                continue  # mean, stddev, cv, ... : the median is what we report
            base = b.get("run_name") or name
            if run_type == "aggregate" and base == name and name.endswith("_" + str(agg)):
                base = name[: -len(agg) - 1]
            key = split_bench_name(base)
            if key is None:
                self.notes.append(f"{name}: skipped, not named <stem>/<case>/<impl>")
                continue
            unit = b.get("time_unit", "ns")
            if unit not in TIME_UNITS:
                bad(f"{where}.time_unit", f"expected one of {sorted(TIME_UNITS)}, got {unit!r}")
            t = b.get("real_time")
            if not is_number(t) or t <= 0:
                bad(f"{where}.real_time", f"expected a positive number, got {t!r}")
            run = (t * TIME_UNITS[unit],
                   {k: v for k, v in b.items() if is_number(v) and k not in GB_FIELDS})
            if run_type == "aggregate":
                medians[key] = run
            else:
                iterations.setdefault(key, []).append(run)
        self.ns, self.counters = {}, {}
        for key in dict.fromkeys(list(iterations) + list(medians)):
            if key in medians:
                self.ns[key], self.counters[key] = medians[key]
                continue
            runs = iterations[key]
            self.ns[key] = statistics.median(ns for ns, _ in runs)
            self.counters[key] = {k: statistics.median(c[k] for _, c in runs)
                                  for k in runs[0][1] if all(k in c for _, c in runs)}
        self.context = doc.get("context") if isinstance(doc.get("context"), dict) else {}


def load_bench(results_dir):
    """The Bench of results_dir/bench.json, or None when the file is absent."""
    path = pathlib.Path(results_dir) / "bench.json"
    return Bench(path) if path.exists() else None


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
