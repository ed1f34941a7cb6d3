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
             "threads", "iterations", "real_time", "cpu_time", "items_per_second"}


def split_bench_name(name):
    """'closest_feature/random/fast/real_time' -> ('closest_feature', 'random', 'fast')."""
    parts = [p for p in name.split("/") if not p.startswith(GB_MODIFIERS)]
    if len(parts) < 3:
        return None
    return parts[0], "/".join(parts[1:-1]), parts[-1]


class Bench:
    """results/bench.json (Google Benchmark JSON, names <stem>/<case>/<impl>).

    ns[(stem, case, impl)]: CPU time in ns per item — one query, or one time step for the
    scenario benchmarks that count their steps — from Google Benchmark's items_per_second
    (a rate on CPU time) when the entry has it, else its cpu_time per iteration. CPU time,
    not wall time: the benchmarks are single-threaded, and on a busy machine the wall time
    also counts the time other processes ran. counters[(stem, case, impl)]: {name: value}.
    Both in file order, from the "median" aggregate when present, else the median of the
    plain iteration entries; repetitions[key]: how many runs that median is of (1: a single
    run, no median). notes: entries skipped and why; context: the file's context object.
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
            t = b.get("cpu_time")
            if not is_number(t) or t <= 0:
                bad(f"{where}.cpu_time", f"expected a positive number, got {t!r}")
            rate = b.get("items_per_second")
            per_item = 1e9 / rate if is_number(rate) and rate > 0 else t * TIME_UNITS[unit]
            reps = b.get("repetitions")
            run = (per_item, {k: v for k, v in b.items() if is_number(v) and k not in GB_FIELDS},
                   reps if isinstance(reps, int) and reps > 0 else None)
            if run_type == "aggregate":
                medians[key] = run
            else:
                iterations.setdefault(key, []).append(run)
        self.ns, self.counters, self.repetitions = {}, {}, {}
        for key in dict.fromkeys(list(iterations) + list(medians)):
            if key in medians:
                self.ns[key], self.counters[key], reps = medians[key]
                self.repetitions[key] = reps or len(iterations.get(key, ())) or 1
                continue
            runs = iterations[key]
            self.ns[key] = statistics.median(ns for ns, _, _ in runs)
            self.counters[key] = {k: statistics.median(c[k] for _, c, _ in runs)
                                  for k in runs[0][1] if all(k in c for _, c, _ in runs)}
            self.repetitions[key] = len(runs)
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
    """How the fast variant compares with `other`: 'fast 40× faster than reference'; within
    5% either way 'fast as fast as reference (within 5%)', never '1.0× slower'."""
    r = t_other / t_fast
    if 1 / 1.05 <= r <= 1.05:
        return f"fast as fast as {other} (within 5%)"
    if r > 1:
        return f"fast {fmt_ratio(r)} faster than {other}"
    return f"fast {fmt_ratio(1 / r)} slower than {other}"


def paragraph(text, cls=None):
    c = f' class="{cls}"' if cls else ""
    return f"<p{c}>{esc(text)}</p>\n"


FOLD_ROWS = 15  # a longer table is folded (<details>): the page stays navigable


def table(headers, rows, fold=None):
    """rows: lists of cells; a cell is a value (escaped) or a (value, css_class) pair.
    fold: True/False, or None to fold when there are more than FOLD_ROWS rows; a folded
    table opens with one click and says how many rows it holds."""
    rows = list(rows)
    if fold is None:
        fold = len(rows) > FOLD_ROWS
    if fold:
        what = ", ".join(str(h) for h in headers[:3] if str(h)) + (", …" if len(headers) > 3 else "")
        return (f"<details><summary>Table of {len(rows)} rows ({esc(what)}): click to show"
                f"</summary>\n{table(headers, rows, fold=False)}</details>\n")
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
