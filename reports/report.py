#!/usr/bin/python3
"""contactbench report: results/*.json -> reports/out/index.html with PNG figures beside it.

    /usr/bin/python3 reports/report.py --results results --out reports/out

Inputs (each may be absent; the page then says what is missing):
  results/check.json   schema "contactbench.check/1" (agreement statistics per family)
  results/bench.json   Google Benchmark JSON (names <stem>/<case>/<impl>), read by
                       common.load_bench here and in the sections
  results/run/*.json   scenario outputs, read only by the plugins in reports/sections/

The page: a table of contents, the summary first (one line on the gate, then a row per
family), one section per family (anchor family-<stem>), published methods, mutation score,
speed (CPU time per query, and per time step for scenario benchmarks: one unit per chart),
one section per scenario, the run context last. The contents list families from
check.json and scenarios from the section folder, so a new family or section appears with
no list kept by hand; tables longer than common.FOLD_ROWS rows are folded (<details>).
Section plugins show one scenario each: reports/sections/<scenario>.py (anchor
scenario-<scenario>) defines
    render(results_dir: pathlib.Path, out_dir: pathlib.Path) -> str   (an HTML fragment)
and may import the helpers of reports/common.py (`import common`).

Exit codes: 0 report written; 1 report written but a section plugin failed;
2 an input file is malformed (one error line naming the file on stderr, no page).
"""
import argparse
import datetime
import math
import pathlib
import sys
import traceback

sys.dont_write_bytecode = True  # no __pycache__ inside the source tree
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402
from common import (InputError, esc, fmt_ns, fmt_ratio, fmt_sci, is_number,  # noqa: E402
                    paragraph, speed_phrase, table)

CHECK_SCHEMA = "contactbench.check/1"
COUNT_FIELDS = ("queries", "agree", "boundary", "false_positive", "wrong")
COVERAGE_FIELDS = ("reached", "on_boundary", "within_bound")
EXAMPLE_KINDS = ("wrong", "false_positive", "boundary")  # most serious first
MAX_EXAMPLES = 5


# ---------------------------------------------------------------- check.json

def _fail(path, where, msg):
    raise InputError(f"{path}: {where}: {msg}")


def _int(obj, key, path, where):
    v = obj.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        _fail(path, f"{where}.{key}", f"expected a non-negative integer, got {v!r}")
    return v


def _obj(v, path, where):
    if not isinstance(v, dict):
        _fail(path, where, f"expected an object, got {type(v).__name__}")
    return v


def _check_hist(h, path, where):
    _obj(h, path, where)
    counts = h.get("counts")
    if not isinstance(counts, list) or not all(isinstance(c, int) and c >= 0 for c in counts):
        _fail(path, f"{where}.counts", "expected a list of non-negative integers")
    for key in ("lo_log10", "bins_per_decade"):
        if not is_number(h.get(key)):
            _fail(path, f"{where}.{key}", f"expected a number, got {h.get(key)!r}")
    if h["bins_per_decade"] <= 0:
        _fail(path, f"{where}.bins_per_decade", "must be positive")
    _int(h, "count", path, where)
    for key in ("zeros", "below", "above"):
        if key in h:
            _int(h, key, path, where)
    for key in ("max", "mean", "median", "sum", "bound"):  # null: NaN/Inf written by the harness
        if h.get(key) is not None and not is_number(h[key]):
            _fail(path, f"{where}.{key}", f"expected a number or null, got {h[key]!r}")


def load_check(path):
    """Returns the validated check.json document, or None when the file is absent."""
    if not path.exists():
        return None
    doc = _obj(common.load_json(path), path, "top level")
    if doc.get("schema") != CHECK_SCHEMA:
        _fail(path, "schema", f"expected {CHECK_SCHEMA!r}, got {doc.get('schema')!r}")
    _obj(doc.get("context", {}), path, "context")
    families = doc.get("families")
    if not isinstance(families, list):
        _fail(path, "families", "expected a list")
    for i, f in enumerate(families):
        where = f"families[{i}]"
        _obj(f, path, where)
        if not isinstance(f.get("family"), str) or not f["family"]:
            _fail(path, f"{where}.family", "expected a non-empty string")
        where = f"families[{i}] ({f['family']})"
        for key in COUNT_FIELDS:
            _int(f, key, path, where)
        if "out_of_domain" in f:
            _int(f, "out_of_domain", path, where)
        for group in ("by_source", "by_regime"):
            for src, c in _obj(f.get(group, {}), path, f"{where}.{group}").items():
                _obj(c, path, f"{where}.{group}.{src}")
                for key in COUNT_FIELDS + (("out_of_domain",) if "out_of_domain" in c else ()):
                    _int(c, key, path, f"{where}.{group}.{src}")
        for decision, values in _obj(f.get("coverage", {}), path, f"{where}.coverage").items():
            for value, c in _obj(values, path, f"{where}.coverage.{decision}").items():
                _obj(c, path, f"{where}.coverage.{decision}.{value}")
                for key in COVERAGE_FIELDS:
                    _int(c, key, path, f"{where}.coverage.{decision}.{value}")
        flags = _obj(f.get("coverage_flags", {}), path, f"{where}.coverage_flags")
        for key in ("unreached", "explained"):
            if not isinstance(flags.get(key, []), list) or \
                    not all(isinstance(x, str) for x in flags.get(key, [])):
                _fail(path, f"{where}.coverage_flags.{key}", "expected a list of strings")
        if "planted_fault_of" in f and not isinstance(f["planted_fault_of"], str):
            _fail(path, f"{where}.planted_fault_of", "expected a string")
        for field, h in _obj(f.get("errors", {}), path, f"{where}.errors").items():
            _check_hist(h, path, f"{where}.errors.{field}")
        for impl, h in _obj(f.get("time_ns", {}), path, f"{where}.time_ns").items():
            _check_hist(h, path, f"{where}.time_ns.{impl}")
        seconds = _obj(f.get("check_seconds", {}), path, f"{where}.check_seconds")
        for key, t in seconds.items():
            if key not in ("cpu", "wall") or not is_number(t) or not 0 <= t < math.inf:
                _fail(path, f"{where}.check_seconds.{key}", "expected cpu and wall, non-negative seconds")
        for kind, lst in _obj(f.get("examples", {}), path, f"{where}.examples").items():
            if not isinstance(lst, list) or not all(isinstance(e, dict) for e in lst):
                _fail(path, f"{where}.examples.{kind}", "expected a list of objects")
    return doc


# ---------------------------------------------------------------- speed

def speed_times(bench):
    """{(stem, case): {impl: ns per iteration}} in file order, without the sweeps that a
    scenario section or the README tabulates (steps/s per contact mode, resolution cost
    against k, the triangle test per degenerate class)."""
    times = {}
    for (stem, case, impl), ns in bench.ns.items():
        if stem in ("dem_modes", "triangle_intersection_by_class") or case.startswith("facets="):
            continue
        times.setdefault((stem, case), {})[impl] = ns
    return times


def impl_order(impls):
    first = [i for i in ("reference", "fast") if i in impls]
    return first + sorted(i for i in impls if i not in first)


def family_speed(times, stem):
    """(case, [(impl, phrase)]) on the 'random' case when present, else the first case."""
    cases = [case for (s, case) in times if s == stem]
    if not cases:
        return None
    case = "random" if "random" in cases else cases[0]
    group = times[(stem, case)]
    if "fast" not in group:
        return case, []
    return case, [(impl, speed_phrase(group["fast"], group[impl], impl))
                  for impl in impl_order(group) if impl != "fast"]


def speed_text(times, stem):
    """The family's speed cell: 'random: fast 40× faster than reference, …', or '—'."""
    speed = family_speed(times, stem) if times else None
    if speed is None:
        return "—"
    case, phrases = speed
    return f"{case}: " + (", ".join(p for _, p in phrases) or "no fast entry")


# ---------------------------------------------------------------- figures

def field_unit(field, h):
    """The unit check.json gives the field; else what the field's name says: ULPs, a time
    of impact (toi_*, but not a distance at it) in step units, or a relative (dimensionless)
    error whose scale the family's rule names."""
    if isinstance(h.get("unit"), str) and h["unit"]:
        return h["unit"]
    name = field.lower()
    if "ulp" in name:
        return "ULPs"
    if name.startswith("toi") and "distance" not in name:
        return "time (step = 1)"
    return "relative"


def error_figure(fam, out_dir):
    """Histogram of every continuous field's error, log-x, with its stated bound."""
    errors = fam.get("errors", {})
    fig, ax = common.new_figure()
    colours = common.plt.rcParams["axes.prop_cycle"].by_key()["color"]
    lo_all, hi_all, worst = [], [], None
    units = set()
    for k, (field, h) in enumerate(sorted(errors.items())):
        colour = colours[k % len(colours)]
        lo, bpd, counts = h["lo_log10"], h["bins_per_decade"], h["counts"]
        edges = [10 ** (lo + i / bpd) for i in range(len(counts) + 1)]
        used = [i for i, c in enumerate(counts) if c > 0]
        unit = field_unit(field, h)
        units.add(unit)
        bound = h.get("bound")
        label = f"{field} [{unit}]: max {fmt_sci(h.get('max'))}"
        if is_number(bound) and bound > 0:
            label += f", bound {fmt_sci(bound)}"
            ax.axvline(bound, color=colour, linestyle="--", linewidth=1.5)
            lo_all.append(bound)
            hi_all.append(bound)
            if is_number(h.get("max")):
                ratio = h["max"] / bound
                if worst is None or ratio > worst[1]:
                    worst = (field, ratio)
            else:
                worst = (field, float("inf"))
        extra = [f"{h[key]} {what}" for key, what in
                 (("zeros", "exact zeros"), ("below", "below 1e%g" % lo),
                  ("above", "above the range")) if h.get(key)]
        if extra:
            label += " (" + ", ".join(extra) + " not shown)"
        if used:
            a, b = used[0], used[-1] + 1
            ys = [c if c > 0 else 0.5 for c in counts[a:b]]
            xs = edges[a:b + 1]
            # No value exceeds the largest error: the last bin ends there, so a value equal
            # to its bound is never drawn beyond the bound line.
            if is_number(h.get("max")) and xs[-2] < h["max"] < xs[-1]:
                xs[-1] = h["max"]
            ax.stairs(ys, xs, color=colour, linewidth=1.8, baseline=0.5, label=label)
            lo_all.append(xs[0])
            hi_all.append(xs[-1])
        else:
            ax.plot([], [], color=colour, label=label)
    if lo_all:
        ax.set_xlim(min(lo_all) / 10, max(hi_all) * 10)
    ax.set_xscale("log")
    ax.set_yscale("log")
    peak = max([c for h in errors.values() for c in h["counts"]] + [1])
    ax.set_ylim(0.8, peak * 40)  # head room for the legend
    unit_text = units.pop() if len(units) == 1 else "each field's unit, see legend"
    ax.set_xlabel(f"|fast − reference| ({unit_text})\ndashed: largest per-query bound met; "
                  "a curve stops at its largest error", fontsize=9)
    ax.set_ylabel("queries per ¼-decade bin")
    ax.set_title(f"{fam['family']}: error of the continuous fields")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left")
    name = common.save_figure(fig, out_dir, f"errors_{fam['family']}")
    if worst is None:
        caption = "Each curve should lie left of its dashed bound line (no bound stated)."
    elif worst[1] == float("inf"):
        caption = f"{worst[0]} has a non-finite largest error (NaN or Inf): it fails its bound."
    elif worst[1] <= 1:
        caption = (f"Every field stays left of its dashed bound line; the closest call is "
                   f"{worst[0]} at {worst[1]:.2g} of its bound.")
    else:
        caption = (f"{worst[0]} crosses its dashed bound line: its largest error is "
                   f"{worst[1]:.3g}× the stated bound.")
    return common.figure_html(name, caption)


def speed_figure(times, out_dir, name, unit, reps):
    """Horizontal bars of CPU time per `unit` (one unit per chart), one row per
    implementation, grouped by <stem>/<case>; reps: the repetition counts of the entries."""
    groups = list(times)
    impls = impl_order({i for g in times.values() for i in g})
    colours = {"reference": "#8c8c8c", "fast": "#1f77b4"}
    palette = ["#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
               "#d62728", "#aec7e8", "#ffbb78", "#98df8a", "#c5b0d5"]  # no grey: reference's
    for k, impl in enumerate(i for i in impls if i not in colours):
        colours[impl] = palette[k % len(palette)]
    rows, ticks, y = [], [], 0.0  # one row per bar, a gap between groups
    for g in groups:
        present = [i for i in impls if i in times[g]]
        ticks.append((y + (len(present) - 1) / 2, f"{g[0]}/{g[1]}"))
        for impl in present:
            rows.append((y, g, impl))
            y += 1
        y += 0.6
    fig, ax = common.new_figure(8.5, 0.9 + 0.2 * y)
    seen = set()
    all_t = [t for g in times.values() for t in g.values()]
    for yy, g, impl in rows:
        t = times[g][impl]
        ax.barh(yy, t, height=0.85, color=colours[impl], label=None if impl in seen else impl)
        seen.add(impl)
        ax.text(t * 1.12, yy, fmt_ns(t), va="center", fontsize=7)
    ax.set_xscale("log")
    # The axis ends where the longest bar's label (its time, ≤ 7 characters) ends.
    ax.set_xlim(min(all_t) / 2, max(all_t) * 4)
    ax.set_ylim(y - 0.3, -0.7)
    ax.set_yticks([t for t, _ in ticks])
    ax.set_yticklabels([label for _, label in ticks], fontsize=8)
    ax.set_xlabel(f"CPU time per {unit} (log scale)")
    ax.xaxis.set_major_formatter(common.plt.FuncFormatter(lambda v, _: fmt_ns(v)))
    n = sorted(set(reps))
    how = ("one run per benchmark" if n == [1] else
           f"median of {n[0]} repetitions" if len(n) == 1 else
           f"median of {n[0]}–{n[-1]} repetitions (1: a single run)")
    ax.set_title(f"CPU time per {unit} (Google Benchmark, {how})", fontsize=10)
    ax.grid(True, axis="x", which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    file_name = common.save_figure(fig, out_dir, name)
    caption = (f"Shorter bars are faster (log scale: equal gaps are equal ratios); the table "
               f"below gives each CPU time per {unit} and how the fast variant compares with "
               "that implementation on the same inputs.")
    table_rows = [[f"{s}/{c}", impl, fmt_ns(times[(s, c)][impl]),
                   speed_phrase(times[(s, c)]["fast"], times[(s, c)][impl], impl)
                   if impl != "fast" and "fast" in times[(s, c)] else ""]
                  for (s, c) in groups for impl in impls if impl in times[(s, c)]]
    return common.figure_html(file_name, caption) + table(
        ["benchmark", "implementation", f"CPU time per {unit}", "ratio"], table_rows)


def speed_html(bench, times, per_step, out_dir):
    """The speed section: kernels per query, scenario benchmarks per time step (a stem that
    names a scenario section and is not a family of check.json), one chart each."""
    out = []
    for unit, name, keep in (("query", "speed", False), ("time step", "speed_per_step", True)):
        part = {g: t for g, t in times.items() if (g[0] in per_step) == keep}
        if part:
            reps = [bench.repetitions[(s, c, i)] for (s, c), t in part.items() for i in t]
            out.append(speed_figure(part, out_dir, name, unit, reps))
    return "".join(out)


# ---------------------------------------------------------------- page sections

def context_html(check, bench_doc_context):
    rows = []
    ctx = (check or {}).get("context", {})
    for key in ("commit", "compiler", "cgal_version", "date", "seed", "n", "shard", "host"):
        if key in ctx:
            rows.append([key, ctx[key]])
    for key in ("date", "host_name", "num_cpus", "mhz_per_cpu", "library_build_type"):
        if key in bench_doc_context:
            cls = "bad" if key == "library_build_type" and bench_doc_context[key] == "debug" else None
            rows.append([(f"bench {key}", cls), (bench_doc_context[key], cls)])
    if not rows:
        return paragraph("No run context available.")
    return table(["", "value"], rows)


def honest(check):
    """The families proper (planted faults are reported in the mutation section)."""
    return [f for f in check["families"] if "planted_fault_of" not in f]


COUNT_HEADERS = ["queries", "agree", "boundary", "false positives", "wrong", "out of domain"]


def counts_cells(c, gated=True):
    """A published method's `wrong` is measured, not a failure: not marked red."""
    wrong_style = ("bad" if c["wrong"] > 0 else "ok") if gated else ""
    return [c["queries"], c["agree"], c["boundary"], c["false_positive"],
            (c["wrong"], wrong_style) if wrong_style else c["wrong"], c.get("out_of_domain", 0)]


def family_label(fam):
    """The family's name; a published method says whose and that it does not gate."""
    of = fam.get("published_method_of")
    return f'{fam["family"]} (published method of {of}, not gated)' if isinstance(of, str) else fam["family"]


def largest_errors(fam):
    parts, bad = [], False
    for field, h in sorted(fam.get("errors", {}).items()):
        bound, mx = h.get("bound"), h.get("max")
        over = mx is None or (is_number(bound) and mx > bound)
        bad |= over
        parts.append(f"{field}: {fmt_sci(mx)} / {fmt_sci(bound)} {field_unit(field, h)}"
                     + (" (over bound)" if over else ""))
    return ("; ".join(parts) or "—", "bad" if bad else None)


def throughput_html(check, times):
    """The headline speed: how many queries `check` certified per CPU-second of this run
    (reference, fast and comparison together, all threads), and how fast and reference
    compare on the family's benchmark set of the same report run."""
    rows = []
    for fam in honest(check):
        t = fam.get("check_seconds", {})
        if "published_method_of" in fam or not t.get("cpu"):
            continue
        rate = fam["queries"] / t["cpu"]
        rows.append([fam["family"], f"{fam['queries']:,}", f"{t['cpu']:.3g}",
                     f"{rate:,.0f}", f"{60 * fam['queries'] / t['wall']:,.0f}" if t.get("wall") else "—",
                     speed_text(times, fam["family"])])
    if not rows:
        return ""
    return ("<p><b>Certified queries per second</b>: each gated family's queries judged by the check "
            "per CPU-second (all threads), and per minute of wall time on this run's machine; "
            "the ratios are the benchmark's, from the same report run.</p>\n"
            + table(["family", "queries", "check CPU s", "certified per CPU-second",
                     "certified per wall minute", "fast against reference and peers (CPU time)"],
                    rows, fold=False))


def summary_html(check, times):
    rows = []
    for fam in honest(check):
        rows.append([family_label(fam), fam.get("agreement", "—")]
                    + counts_cells(fam, "published_method_of" not in fam)
                    + [largest_errors(fam), speed_text(times, fam["family"])])
    return table(["family", "agreement"] + COUNT_HEADERS
                 + ["largest error / stated bound", "speed (CPU time)"], rows, fold=False)


def family_html(fam, out_dir):
    out = [f'<h3 id="family-{esc(common.safe_name(fam["family"]))}">{esc(fam["family"])}{TOP}</h3>\n']
    agreement = fam.get("agreement", "—")
    out.append(paragraph(f"Agreement class: {agreement}. {fam.get('justification', '')}".strip()))
    if fam.get("errors"):
        out.append(error_figure(fam, out_dir))
    else:
        out.append(paragraph("No continuous fields: all results are compared exactly."))
    if fam.get("by_source"):
        out.append("<h4>By query source</h4>\n")
        out.append(table(["source"] + COUNT_HEADERS,
                         [[s] + counts_cells(c) for s, c in sorted(fam["by_source"].items())]))
    if fam.get("by_regime"):
        out.append(regime_html(fam))
    if fam.get("coverage") or fam.get("coverage_flags", {}).get("unreached"):
        out.append(coverage_html(fam))
    rows = []
    for kind in EXAMPLE_KINDS:
        for e in fam.get("examples", {}).get(kind, [])[:MAX_EXAMPLES]:
            rows.append([(kind, "bad" if kind == "wrong" else None),
                         f"{e.get('source', '?')} #{e.get('index', '?')}",
                         e.get("label", ""), e.get("detail", "")])
    if rows:
        out.append(f"<h4>First examples (up to {MAX_EXAMPLES} of each kind)</h4>\n")
        out.append(table(["verdict", "source", "label", "detail"], rows))
    return "".join(out)


def regime_html(fam):
    """Verdict counts per regime tag (axis=value), grouped by axis."""
    rows = []
    for tag, c in sorted(fam["by_regime"].items(), key=lambda kv: kv[0].split("=", 1)):
        axis, _, value = tag.partition("=")
        rows.append([axis, value] + counts_cells(c))
    return ("<h4>By regime of the generated queries</h4>\n"
            + paragraph("Each generated query carries one value per axis; a weak regime shows "
                        "as wrong or boundary counts concentrated in one row.")
            + table(["axis", "value"] + COUNT_HEADERS, rows))


def coverage_html(fam):
    """How often each value of each discrete decision was reached, and near its boundary."""
    rows = []
    for decision, values in sorted(fam.get("coverage", {}).items()):
        for value, c in sorted(values.items()):
            rows.append([decision, value, c["reached"], c["on_boundary"], c["within_bound"]])
    flags = fam.get("coverage_flags", {})
    for flag in flags.get("unreached", []):
        rows.append([(flag, "bad"), "", (0, "bad"), "", ""])
    out = ["<h4>Decision coverage</h4>\n",
           paragraph("Queries whose exact (reference) decision took each value; 'on boundary': "
                     "exact margin 0; 'within bound': margin at most the fast variant's stated "
                     "bound. A red row is a value or boundary no query reached."),
           table(["decision", "value", "queries", "on boundary", "within bound"], rows)]
    for e in flags.get("explained", []):
        out.append(paragraph(f"Not reached, by design: {e}"))
    return "".join(out)


def published_html(check):
    """Per family with published methods: the wrong rate of its own fast variant and of each
    published method per regime tag of the generated queries (out-of-domain queries apart)."""
    out = []
    for own in honest(check):
        if "published_method_of" in own:
            continue
        methods = [f for f in check["families"] if f.get("published_method_of") == own["family"]]
        if not methods or not isinstance(own.get("by_regime"), dict):
            continue
        variants = [own] + methods

        def rate(f, tag):
            c = (f.get("by_regime") or {}).get(tag)
            if not c:
                return "—"
            judged = c["queries"] - c.get("out_of_domain", 0)
            if judged <= 0:
                return "—"
            pct = 100.0 * c["wrong"] / judged
            text = f'{c["wrong"]:,} / {judged:,} ({pct:.1f}%)'
            return (text, "bad") if c["wrong"] and f is own else text

        tags = sorted(own["by_regime"], key=lambda t: t.split("=", 1))
        rows = [list(t.partition("=")[::2]) + [rate(f, t) for f in variants] for t in tags]
        out.append(f'<h3 id="published-{esc(common.safe_name(own["family"]))}">{esc(own["family"])}</h3>\n')
        out.append(paragraph(
            "Wrong answers per regime of the generated queries (wrong / judged, out-of-domain "
            "queries excluded), the family's own fast variant first: the published methods are "
            "judged by the same rule but do not gate."))
        out.append(table(["axis", "value"] + [f["family"] for f in variants], rows))
    return "".join(out)


def mutation_html(check):
    """Planted faults per family: found (judged wrong at least once) / planted, and by what."""
    faults = [f for f in check["families"] if "planted_fault_of" in f]
    if not faults:
        return paragraph("No planted faults in check.json (run `contactbench check --planted`).",
                         "missing")
    score = {}
    rows = []
    for f in faults:
        found = f["wrong"] > 0
        k, n = score.get(f["planted_fault_of"], (0, 0))
        score[f["planted_fault_of"]] = (k + found, n + 1)
        def finders(group, most=None):
            hits = sorted(((c["wrong"], name) for name, c in f.get(group, {}).items()
                           if c["wrong"] > 0), key=lambda wn: (-wn[0], wn[1]))
            text = ", ".join(f"{name} {w}" for w, name in hits[:most])
            if most is not None and len(hits) > most:
                text += f", … {len(hits) - most} more"
            return text or "—"
        what = f.get("justification", "").removeprefix("planted fault: ")
        rows.append([f["planted_fault_of"], f["family"], what,
                     ("found" if found else "survived", None if found else "bad"),
                     f["wrong"], finders("by_source", 6), finders("by_regime", 6)])
    summary = [[parent, (f"{k}/{n}", None if k == n else "bad")] for parent, (k, n) in score.items()]
    return (paragraph("Each planted fault is a deliberately wrong fast variant of the kind real "
                      "kernels have; the gate must judge it wrong on at least one query. The "
                      "score is faults found / faults planted per family.")
            + table(["family", "mutation score"], summary)
            + table(["family", "planted fault", "what it does", "verdict", "wrong queries",
                     "found by source (wrong queries)", "regimes with most wrong queries"],
                    rows))


def section_names(sections_dir):
    """The scenario sections: every reports/sections/<scenario>.py (not _*.py), sorted."""
    if not sections_dir.is_dir():
        return []
    return [p.stem for p in sorted(sections_dir.glob("*.py")) if not p.name.startswith("_")]


def run_plugins(sections_dir, results_dir, out_dir):
    """Returns (html, number of failed plugins); one <section> per plugin."""
    out, failed = [], 0
    for scenario in section_names(sections_dir):
        path = sections_dir / f"{scenario}.py"
        out.append(f'<section>\n<h3 id="scenario-{esc(scenario)}">{esc(scenario)}{TOP}</h3>\n')
        try:
            fragment = common.load_section(path).render(results_dir, out_dir)
            if not isinstance(fragment, str):
                raise TypeError(f"render() returned {type(fragment).__name__}, not str")
            out.append(fragment)
        except Exception as e:  # a broken plugin must not take the report down
            failed += 1
            message = f"section {scenario} ({path}) failed: {type(e).__name__}: {e}"
            print(f"report.py: error: {message}", file=sys.stderr)
            traceback.print_exc(file=sys.stderr)
            out.append(paragraph(message, "error"))
        out.append("</section>\n")
    return "".join(out), failed


TOP = ' <a class="top" href="#contents">↑ contents</a>'


def toc_html(entries):
    """entries: [(anchor, title, [(anchor, title), ...])]: the page's table of contents."""
    items = []
    for anchor, title, children in entries:
        sub = ""
        if children:
            sub = " — " + " · ".join(f'<a href="#{esc(a)}">{esc(t)}</a>' for a, t in children)
        items.append(f'<li><a href="#{esc(anchor)}">{esc(title)}</a>{sub}</li>')
    return ('<nav id="contents"><h2>Contents</h2>\n<ol>\n' + "\n".join(items)
            + "\n</ol></nav>\n")


def headline(check):
    """One sentence on the gate: gated families, queries, wrong, boundary, false positives."""
    fams = [f for f in honest(check) if "published_method_of" not in f]
    total = {k: sum(f[k] for f in fams) for k in COUNT_FIELDS}
    failing = [f["family"] for f in fams if f["wrong"] > 0]
    text = (f"{len(fams)} families checked on {total['queries']:,} queries: "
            f"{total['agree']:,} agree, {total['boundary']:,} boundary (excused within the stated "
            f"bounds), {total['false_positive']:,} counted false positives, {total['wrong']:,} wrong. ")
    text += (f"The gate FAILS: wrong answers in {', '.join(failing)}." if failing
             else "The gate passes: no family has a wrong answer.")
    return paragraph(text, "bad-line" if failing else "ok-line")


STYLE = """
body { font-family: sans-serif; max-width: 1100px; margin: 1em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 3px 8px; text-align: left; vertical-align: top; }
td:first-child, td:last-child { overflow-wrap: anywhere; }  /* long names wrap, numbers not */
th { background: #f0f0f0; }
td.bad { background: #f8d0d0; color: #a00000; font-weight: bold; }
p.error { background: #f8d0d0; color: #a00000; padding: 0.5em; font-weight: bold; }
p.missing { color: #805000; }
p.bad-line { color: #a00000; font-weight: bold; } p.ok-line { font-weight: bold; }
figure { margin: 0.5em 0 1.5em; } figure img { max-width: 100%; }
figcaption { font-style: italic; color: #333; }
details { margin: 0.3em 0 1em; } summary { cursor: pointer; color: #1f4e99; }
nav#contents { background: #f6f6f6; padding: 0.3em 1em; border: 1px solid #ddd; }
nav#contents li { margin: 0.2em 0; }
a.top { font-size: 0.6em; font-weight: normal; margin-left: 1em; }
h2 { border-bottom: 1px solid #bbb; margin-top: 1.6em; }
"""


def main(argv=None):
    ap = argparse.ArgumentParser(description="contactbench HTML report")
    ap.add_argument("--results", type=pathlib.Path, default=pathlib.Path("results"))
    ap.add_argument("--out", type=pathlib.Path, default=HERE / "out")
    ap.add_argument("--sections", type=pathlib.Path, default=HERE / "sections",
                    help="folder of section plugins (default: reports/sections)")
    args = ap.parse_args(argv)
    index = args.out / "index.html"
    times, notes, bench_context = {}, [], {}
    try:
        if index.exists():
            index.unlink()  # never leave a stale page behind a failed run
        check = load_check(args.results / "check.json")
        bench = common.load_bench(args.results)
        if bench is not None:
            times, notes, bench_context = speed_times(bench), bench.notes, bench.context
        args.out.mkdir(parents=True, exist_ok=True)
    except InputError as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"report.py: error: {e}", file=sys.stderr)
        return 2

    have_families = check is not None and bool(check["families"])
    scenarios = section_names(args.sections)
    toc = [("summary", "Summary", [])]
    body = ['<h2 id="summary">Summary</h2>\n']
    if check is None:
        body.append(paragraph(f"{args.results / 'check.json'} not found: no agreement "
                              "results (run `contactbench check --json ...`).", "missing"))
    elif not check["families"]:
        body.append(paragraph(f"{args.results / 'check.json'} lists no families.", "missing"))
    else:
        body.append(headline(check))
        body.append(summary_html(check, times))
        body.append(throughput_html(check, times))

    if have_families:
        fams = honest(check)
        toc.append(("families", "Families", [(f"family-{common.safe_name(f['family'])}", f["family"])
                                             for f in fams]))
        body.append('<h2 id="families">Families</h2>\n')
        body.append(paragraph("One section per family (and per published method measured beside "
                              "it): the agreement class and its rule, the error of each "
                              "continuous field against its stated bound, verdicts by query "
                              "source and regime, decision coverage and the first examples."))
        for fam in fams:
            body.append("<section>\n" + family_html(fam, args.out) + "</section>\n")
        published = published_html(check)
        if published:
            toc.append(("published", "Published methods", []))
            body.append('<h2 id="published">Published methods: wrong rates by input class</h2>\n')
            body.append(published)
        toc.append(("mutation", "Mutation score", []))
        body.append('<h2 id="mutation">Mutation score</h2>\n')
        body.append(mutation_html(check))

    toc.append(("speed", "Speed", []))
    body.append('<h2 id="speed">Speed</h2>\n')
    if times:
        families = {f["family"] for f in check["families"]} if check else set()
        per_step = {stem for stem, _ in times if stem in scenarios and stem not in families}
        body.append(speed_html(bench, times, per_step, args.out))
    elif bench is not None:
        body.append(paragraph(f"{args.results / 'bench.json'} holds no usable "
                              "<stem>/<case>/<impl> entries.", "missing"))
    else:
        body.append(paragraph(f"{args.results / 'bench.json'} not found: no speed ratios "
                              "(run `contactbench bench`).", "missing"))
    for note in notes:
        body.append(paragraph(note, "missing"))

    toc.append(("scenarios", "Scenarios", [(f"scenario-{s}", s) for s in scenarios]))
    body.append('<h2 id="scenarios">Scenarios</h2>\n')
    body.append(paragraph("One section per scenario (reports/sections/<scenario>.py), each "
                          "from its results/run/<scenario>.json."))
    plugin_html, failed = run_plugins(args.sections, args.results, args.out)
    body.append(plugin_html)

    toc.append(("context", "Run context", []))
    body.append('<h2 id="context">Run context</h2>\n')
    body.append(context_html(check, bench_context))

    head = ["<h1>contactbench report</h1>\n",
            paragraph(f"Generated {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M UTC} "
                      f"from {args.results}."),
            toc_html(toc)]
    page = ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>contactbench report</title><style>{STYLE}</style></head>\n<body>\n"
            + "".join(head + body) + "</body></html>\n")
    index.write_text(page, encoding="utf-8")
    print(f"report.py: wrote {index}" + (f" ({failed} section(s) failed)" if failed else ""),
          flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
