"""Section dem_modes: the contact modes compared on the shared cases (issue 10 item 5): Woo's
smoothing against PFC's logic, for a user choosing between them.

Reads results/run/rolling_sphere.json (`contactbench run rolling_sphere`: plane runs with
speed_loss_vs_ideal, crossings, loss_per_crossing, max_bump; trough runs with resolution and
period_error; per mode) and results/run/concave_edge.json (`contactbench run concave_edge`:
summary per mode with largest_force_jump, force_at_kink). Either may be absent; the table then
leaves its columns empty and says which file is missing.
One table (a row per mode) and one figure (four panels, one per measure).
"""
import common
from common import is_number

MODES = tuple(common.MODE_COLOURS)
TROUGH_N = 32  # the trough resolution the table quotes (the finest with all modes if absent)


def load_rolling(path):
    doc, bad = common.load_run(path, "scenario", "rolling_sphere")
    for key in ("plane", "trough"):
        if not isinstance(doc.get(key), list):
            bad(key, "expected a list")
    for i, p in enumerate(doc["plane"]):
        if not (isinstance(p, dict) and isinstance(p.get("mode"), str) and isinstance(p.get("surface"), str)):
            bad(f"plane[{i}]", "expected {surface, mode, ...}")
    for i, t in enumerate(doc["trough"]):
        if not (isinstance(t, dict) and isinstance(t.get("mode"), str) and isinstance(t.get("resolution"), int)):
            bad(f"trough[{i}]", "expected {resolution, mode, period_error}")
    return doc


def load_concave(path):
    doc, bad = common.load_run(path, "scenario", "concave_edge")
    if not isinstance(doc.get("summary"), list):
        bad("summary", "expected a list")
    for i, v in enumerate(doc["summary"]):
        if not (isinstance(v, dict) and isinstance(v.get("mode"), str)):
            bad(f"summary[{i}]", "expected {mode, largest_force_jump, ...}")
    return doc


def measures(rolling, concave):
    """{mode: {measure: value}} for the table and the figure."""
    out = {m: {} for m in MODES}
    if rolling:
        for p in rolling["plane"]:
            if p["mode"] in out and p["surface"] in ("grid", "irregular"):
                out[p["mode"]][f"loss_{p['surface']}"] = p.get("loss_per_crossing")
                out[p["mode"]][f"bump_{p['surface']}"] = p.get("max_bump")
        res = sorted({t["resolution"] for t in rolling["trough"]})
        n = TROUGH_N if TROUGH_N in res else (res[-1] if res else None)
        for t in rolling["trough"]:
            if t["mode"] in out and t["resolution"] == n:
                out[t["mode"]]["period_error"] = t.get("period_error")
            if t["mode"] in out and res and t["resolution"] == res[-1]:
                out[t["mode"]]["period_error_finest"] = t.get("period_error")
                out[t["mode"]]["finest_n"] = res[-1]
        for m in out:
            out[m]["trough_n"] = n
    if concave:
        for v in concave["summary"]:
            if v["mode"] in out:
                out[v["mode"]]["jump"] = v.get("largest_force_jump")
                out[v["mode"]]["kink_force"] = v.get("force_at_kink")
    return out


def figure(data, rolling, out_dir):
    panels = [("loss_grid", "speed lost per edge crossing,\ngrid plane (m/s)"),
              ("bump_grid", "largest vertical bump,\ngrid plane (m)"),
              (None, "|trough period error| (relative)"),
              ("jump", "largest step change of the\ncontact force, concave edge (N)")]
    fig, axes = common.plt.subplots(1, 4, figsize=(14, 4.0))
    for ax, (key, label) in zip(axes, panels):
        ax.set_ylabel(label, fontsize=8)
        if key is None:  # period error against resolution, one line per mode
            for m in MODES:
                pts = sorted((t["resolution"], abs(t["period_error"])) for t in (rolling or {}).get("trough", [])
                             if t["mode"] == m and is_number(t.get("period_error")))
                if pts:
                    ax.loglog([p[0] for p in pts], [max(p[1], 1e-7) for p in pts], marker="o", markersize=3,
                              color=common.MODE_COLOURS[m], linewidth=1, label=m)
            ax.set_xlabel("trough facets around the half circle n", fontsize=8)
            ax.legend(fontsize=7)
            continue
        vals = [data[m].get(key) for m in MODES]
        ys = [abs(v) if is_number(v) else 0 for v in vals]
        ax.bar(range(len(MODES)), ys, color=[common.MODE_COLOURS[m] for m in MODES])
        ax.set_xticks(range(len(MODES)))
        ax.set_xticklabels(MODES, rotation=35, ha="right", fontsize=8)
        for i, v in enumerate(vals):
            ax.text(i, ys[i], f"{v:.2g}" if is_number(v) else "n/a", ha="center", va="bottom", fontsize=7)
    fig.suptitle("Contact modes on the shared cases (rolling sphere, trough, concave edge)", fontsize=10)
    fig.tight_layout()
    name = common.save_figure(fig, out_dir, "dem_modes_comparison")
    return common.figure_html(
        name, "(a) per mode: speed lost per internal edge, the largest vertical bump, the trough "
              "period error against resolution and the largest force jump at the concave edge: lower is better")


def render(results_dir, out_dir):
    rolling, missing_r = common.read_run(results_dir, "rolling_sphere", load_rolling)
    concave, missing_c = common.read_run(results_dir, "concave_edge", load_concave)
    if missing_r and missing_c:
        return missing_r + missing_c
    data = measures(rolling, concave)
    n = data["raw"].get("trough_n")
    rows = [[m, common.fmt_sci(data[m].get("loss_grid")), common.fmt_sci(data[m].get("loss_irregular")),
             common.fmt_sci(data[m].get("bump_grid")), common.fmt_sci(data[m].get("period_error")),
             common.fmt_sci(data[m].get("period_error_finest")),
             common.fmt_sci(data[m].get("jump")), common.fmt_sci(data[m].get("kink_force"))] for m in MODES]
    out = (missing_r or "") + (missing_c or "") + figure(data, rolling, out_dir)
    out += common.table(["mode", "speed lost per edge, grid (m/s)", "per edge, irregular (m/s)",
                         "max vertical bump, grid (m)", f"trough period error (n = {n})",
                         f"trough period error (n = {data['raw'].get('finest_n')})",
                         "concave edge: largest |ΔF| per step (N)", "concave edge: |F| at the kink (N)"], rows)
    return out
