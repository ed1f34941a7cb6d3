"""Section square_drop: the book's square drop (ipc-square-drop.txt, Figure 8.3.1) from our
own runs, fast (double) against reference (MPFR), and its cost per step.

Reads results/run/square_drop.json (schema "contactbench.run/1", scenario "square_drop",
written by `contactbench run square_drop`): params {n_seg, steps, precision}, constants {h, dhat,
y_ground, ...}, mesh {nodes, springs [[a, b], ...]}, runs {fast, reference} each with per
state k = 0..steps: iterations, min_height (m), energy {kinetic, spring, gravity, barrier}
(J), x (2·nodes coordinates, m), step_ns, key_frames; comparison {iterations_equal,
max_position_difference, position_bound, ...}. Cost per step comes from results/bench.json
(common.load_bench: square_drop/n_seg=<n>/fast, counter seconds_per_step) when present,
otherwise from the scenario's own step timings.
"""
import math
import re

import common
from common import is_number

SCENARIO = "square_drop"
RUN_KEYS = ("iterations", "min_height", "x", "energy", "key_frames")
ENERGY_KEYS = ("kinetic", "spring", "gravity", "barrier")
FRAME_KEYS = ("dropped", "first_within_dhat", "max_compression", "at_rest")
FRAME_TITLES = {"dropped": "just dropped", "first_within_dhat": "first within d̂ of the ground",
                "max_compression": "maximum compression (smallest bounding-box height)",
                "at_rest": "at rest"}
FRAME_SHORT = {"dropped": "just dropped", "first_within_dhat": "first within d̂",
               "max_compression": "max compression", "at_rest": "at rest"}
COLOURS = {"fast": "#1f77b4", "reference": "#d62728"}


def load(path):
    doc, bad = common.load_run(path, "scenario", SCENARIO)
    for key in ("params", "constants", "mesh", "runs"):
        if not isinstance(doc.get(key), dict):
            bad(key, "expected an object")
    for key in ("h", "dhat", "y_ground"):
        if not is_number(doc["constants"].get(key)):
            bad(f"constants.{key}", "expected a number")
    nodes = doc["mesh"].get("nodes")
    springs = doc["mesh"].get("springs")
    if not (isinstance(nodes, int) and nodes > 0):
        bad("mesh.nodes", "expected a positive integer")
    if not (isinstance(springs, list) and all(
            isinstance(s, list) and len(s) == 2 and all(isinstance(i, int) and 0 <= i < nodes for i in s)
            for s in springs)):
        bad("mesh.springs", "expected [a, b] node index pairs")
    if not doc["runs"]:
        bad("runs", "no run recorded")
    for name, run in doc["runs"].items():
        where = f"runs.{name}"
        if not isinstance(run, dict) or any(k not in run for k in RUN_KEYS):
            bad(where, f"expected an object with {', '.join(RUN_KEYS)}")
        states = len(run["iterations"])
        if states == 0 or not all(isinstance(i, int) and i >= 0 for i in run["iterations"]):
            bad(f"{where}.iterations", "expected non-negative integers")
        if len(run["min_height"]) != states or not all(is_number(v) for v in run["min_height"]):
            bad(f"{where}.min_height", f"expected {states} numbers")
        for e in ENERGY_KEYS:
            series = run["energy"].get(e) if isinstance(run["energy"], dict) else None
            if not isinstance(series, list) or len(series) != states or not all(is_number(v) for v in series):
                bad(f"{where}.energy.{e}", f"expected {states} numbers")
        if len(run["x"]) != states or not all(
                isinstance(x, list) and len(x) == 2 * nodes and all(is_number(c) for c in x) for x in run["x"]):
            bad(f"{where}.x", f"expected {states} lists of {2 * nodes} coordinates")
        if not isinstance(run["key_frames"], dict) or not all(
                isinstance(run["key_frames"].get(k), int) and -1 <= run["key_frames"][k] < states
                for k in FRAME_KEYS):
            bad(f"{where}.key_frames", "expected state indices (-1: absent)")
    return doc


def bench_costs(results_dir):
    """{n_seg: (seconds per step, newton per step)} from results/bench.json, or {}."""
    bench = common.load_bench(results_dir)
    costs = {}
    for (stem, case, impl), counters in (bench.counters.items() if bench else ()):
        m = re.fullmatch(r"n_seg=(\d+)", case)
        if stem == SCENARIO and impl == "fast" and m and is_number(counters.get("seconds_per_step")):
            costs[int(m.group(1))] = (counters["seconds_per_step"], counters.get("newton_per_step"))
    return costs


def box_height(x):
    """Height of the square's bounding box (m): highest minus lowest node."""
    return max(x[1::2]) - min(x[1::2])


def draw_frame(ax, doc, run, k, title, xlim, zoom=None):
    """One key frame; zoom = (y_low, y_high): only that strip above the ground, not to scale."""
    springs = doc["mesh"]["springs"]
    yg, dhat = doc["constants"]["y_ground"], doc["constants"]["dhat"]
    x = run["x"][k]
    for a, b in springs:
        ax.plot([x[2 * a], x[2 * b]], [x[2 * a + 1], x[2 * b + 1]], color="#444444", linewidth=0.6)
    ax.scatter(x[0::2], x[1::2], s=8 if zoom is None else 14, color=COLOURS["fast"], zorder=3)
    ax.axhspan(yg, yg + dhat, facecolor="#f4a582", edgecolor="#b2182b", hatch="///", alpha=0.7,
               linewidth=0.5, label=f"within d̂ = {dhat:g} m of the ground")
    ax.axhline(yg, color="black", linewidth=1.5)
    ax.set_xlim(*xlim)
    ax.tick_params(labelsize=7)
    if zoom is not None:
        ax.set_ylim(*zoom)
        ax.set_xlabel("x (m)", fontsize=8)
        ax.set_title(f"lowest node {run['min_height'][k] * 1000:.2f} mm above the ground", fontsize=8)
        return
    ax.set_ylim(yg - 0.08, max(0.6, max(x[1::2]) + 0.05))
    ax.set_aspect("equal")
    t = k * doc["constants"]["h"]
    ax.set_title(f"{title}\nstate {k}, t = {t:.2f} s\nsquare height {box_height(x):.3f} m",
                 fontsize=8)


def render(results_dir, out_dir):
    doc, not_run = common.read_run(results_dir, SCENARIO, load)
    if not_run:
        return not_run
    runs = doc["runs"]
    main = runs.get("fast") or next(iter(runs.values()))
    h, dhat = doc["constants"]["h"], doc["constants"]["dhat"]
    kf = main["key_frames"]
    html = []
    n_states = len(main["iterations"])
    html.append(common.paragraph(
        f"The book's mass-spring square (n_seg = {doc['params'].get('n_seg')}, "
        f"{doc['mesh']['nodes']} nodes, {len(doc['mesh']['springs'])} springs) dropped from rest onto the "
        f"ground y = {doc['constants']['y_ground']} m with the IPC barrier (d̂ = {dhat} m), "
        f"{n_states - 1} steps of h = {h} s, runs: {', '.join(sorted(runs))}."))

    # Key frames (Figure 8.3.1 of the book, from our data): the square (top), and the strip
    # just above the ground where the barrier acts (bottom, vertical scale stretched).
    import matplotlib.pyplot as plt
    frames = [(k, kf[k]) for k in FRAME_KEYS if kf[k] >= 0]
    yg = doc["constants"]["y_ground"]
    fig, axes = plt.subplots(2, len(frames), figsize=(2.6 * len(frames), 5.4), squeeze=False,
                             gridspec_kw={"height_ratios": [3.2, 1.3]})
    xs = [c for _, k in frames for c in main["x"][k][0::2]]
    xlim = (min(xs) - 0.12, max(xs) + 0.12)  # one scale for all frames
    for col, (key, k) in enumerate(frames):
        draw_frame(axes[0][col], doc, main, k, FRAME_SHORT[key], xlim)
        draw_frame(axes[1][col], doc, main, k, FRAME_SHORT[key], xlim, zoom=(yg - 0.002, yg + 3 * dhat))
        if col:
            axes[0][col].set_yticklabels([])
            axes[1][col].set_yticklabels([])
    axes[0][0].set_ylabel("y (m)", fontsize=8)
    axes[1][0].set_ylabel(f"y (m), bottom {3 * dhat * 100:g} cm\n(stretched)", fontsize=8)
    axes[1][0].legend(fontsize=7, loc="upper left")
    fig.suptitle("Square drop key frames (book Figure 8.3.1), fast run; hatched: within d̂ of the "
                 "ground. Maximum compression = smallest bounding-box height", fontsize=9)
    fig.tight_layout()
    name = common.save_figure(fig, out_dir, "square_drop_key_frames")
    missing = [FRAME_TITLES[k] for k in FRAME_KEYS if kf[k] < 0]
    heights = [box_height(x) for x in main["x"]]
    squash = (f"; at maximum compression the 1 m square is {heights[kf['max_compression']]:.3f} m "
              f"high" if kf["max_compression"] >= 0 else "")
    html.append(common.figure_html(
        name, "The four moments of the book's figure from our own run: dropped, entering the barrier "
              "zone (lowest nodes inside the hatched d̂ band, bottom row), most squashed, settled"
              + squash + (f" (not reached in this run: {', '.join(missing)})" if missing else "")
              + "."))
    rows = [[FRAME_TITLES[k], kf[k] if kf[k] >= 0 else "not reached",
             f"{kf[k] * h:.2f}" if kf[k] >= 0 else "",
             f"{heights[kf[k]]:.4f}" if kf[k] >= 0 else "",
             f"{main['min_height'][kf[k]] * 1000:.3f}" if kf[k] >= 0 else ""] for k in FRAME_KEYS]
    # The other measure of deformation, for comparison: the springs' stored energy peaks
    # one step after the smallest height of the square.
    spring = main["energy"]["spring"]
    k_spring = max(range(len(spring)), key=lambda k: spring[k])
    rows.append(["(for comparison) largest spring energy", k_spring, f"{k_spring * h:.2f}",
                 f"{heights[k_spring]:.4f}", f"{main['min_height'][k_spring] * 1000:.3f}"])
    html.append(common.table(["key frame", "state", "t (s)", "square height (m)",
                              "lowest node above ground (mm)"], rows))

    # Smallest height against time, d̂ marked.
    fig, ax = common.new_figure()
    for name_, run in runs.items():
        t = [k * h for k in range(len(run["min_height"]))]
        ax.plot(t, run["min_height"], color=COLOURS.get(name_, "gray"), label=f"{name_} run",
                linewidth=1.4 if name_ == "fast" else 0.8, linestyle="-" if name_ == "fast" else "--")
    ax.axhline(dhat, color="#b2182b", linestyle=":", label=f"d̂ = {dhat} m (barrier active below)")
    ax.set_yscale("log")
    ax.set_xlabel("time t (s)")
    ax.set_ylabel("smallest node height above ground (m, log)")
    ax.set_title("Smallest node height above the ground")
    ax.legend(fontsize=8)
    name = common.save_figure(fig, out_dir, "square_drop_min_height")
    lowest = min(min(r["min_height"]) for r in runs.values())
    html.append(common.figure_html(
        name, f"The square falls, enters the barrier zone below d̂ and never touches the ground: the "
              f"smallest height over all states of all runs is {lowest * 1000:.3f} mm > 0."))

    # Energies against time.
    fig, ax = common.new_figure()
    t = [k * h for k in range(len(main["iterations"]))]
    e = main["energy"]
    total = [sum(e[key][k] for key in ENERGY_KEYS) for k in range(len(t))]
    styles = {"kinetic": "#1b9e77", "spring": "#d95f02", "gravity": "#7570b3", "barrier": "#e7298a"}
    for key in ENERGY_KEYS:
        ax.plot(t, e[key], color=styles[key], label=f"{key}")
    ax.plot(t, total, color="black", linewidth=1.6, label="total")
    ax.set_xlabel("time t (s)")
    ax.set_ylabel("energy (J)")
    ax.set_title("Energies of the fast run (gravity: -Σ m g·x, zero at the start)")
    ax.legend(fontsize=8)
    name = common.save_figure(fig, out_dir, "square_drop_energies")
    html.append(common.figure_html(
        name, "Gravity energy turns into kinetic energy until impact; the barrier and springs store it "
              "briefly, implicit Euler dissipates it, and the total settles."))

    # Newton iterations per step, both runs.
    fig, ax = common.new_figure()
    for name_, run in runs.items():
        ks = list(range(1, len(run["iterations"])))
        ax.step(ks, run["iterations"][1:], where="mid", color=COLOURS.get(name_, "gray"),
                linewidth=1.4 if name_ == "fast" else 0.8, linestyle="-" if name_ == "fast" else "--",
                label=f"{name_} run ({sum(run['iterations'])} in total)")
    ax.set_xlabel("time step")
    ax.set_ylabel("Newton iterations (updates)")
    ax.set_title("Newton iterations per time step")
    ax.legend(fontsize=8)
    name = common.save_figure(fig, out_dir, "square_drop_newton")
    cmp_ = doc.get("comparison")
    same = cmp_ is not None and cmp_.get("iterations_equal") is True
    html.append(common.figure_html(
        name, "One iteration per step in free fall, more while the barrier acts, zero once at rest"
              + ("; the two runs take the same number in every step." if same else
                 "." if cmp_ is None else "; the runs DIFFER in some steps (see table).")))

    # Fast vs reference positions.
    if "fast" in runs and "reference" in runs and cmp_:
        f, r = runs["fast"]["x"], runs["reference"]["x"]
        diff = [max(abs(a - b) for a, b in zip(xf, xr)) for xf, xr in zip(f, r)]
        fig, ax = common.new_figure()
        ax.semilogy(range(len(diff)), [max(d, 1e-18) for d in diff], color="#333333",
                    label="largest |x_fast − x_reference| over nodes and axes")
        bound = cmp_.get("position_bound")
        if is_number(bound):
            ax.axhline(bound, color="#b2182b", linestyle="--", label=f"stated bound {bound:g} m")
        ax.set_xlabel("state (time step)")
        ax.set_ylabel("position difference (m, log; 0 drawn at 1e-18)")
        ax.set_title("Fast (double) against reference (MPFR) trajectory")
        ax.legend(fontsize=8)
        name = common.save_figure(fig, out_dir, "square_drop_agreement")
        bits = runs["reference"].get("precision_bits", "?")
        within = cmp_.get("within_bound") is True  # the scenario's verdict, not judged here
        html.append(common.figure_html(
            name, f"Double and {bits}-bit runs stay within {max(diff):.2g} m of each other in every "
                  f"state (bound {bound:g} m)." if within else
                  f"Double and {bits}-bit runs differ by up to {max(diff):.2g} m: the scenario "
                  f"judges them beyond the bound {bound:g} m (see table)."))
        html.append(common.table(
            ["states", "iteration counts", "max position difference (m)", "at state", "bound (m)", "verdict"],
            [[cmp_.get("states"), "equal in every step" if same else
              f"differ in steps {cmp_.get('iteration_mismatches')}",
              common.fmt_sci(cmp_.get("max_position_difference")), cmp_.get("max_position_difference_state"),
              common.fmt_sci(bound), ("agree", None) if within else ("DISAGREE", "bad")]]))

    # Cost per step against node count.
    costs = bench_costs(results_dir)
    source = "results/bench.json (median when repeated)"
    if not costs and "fast" in runs and runs["fast"].get("step_ns"):
        ns = sorted(runs["fast"]["step_ns"][1:])
        if ns:
            costs = {doc["params"].get("n_seg"): (ns[len(ns) // 2] * 1e-9, None)}
            source = "the scenario's own step timings (median; run `contactbench bench` for all meshes)"
    if costs:
        ns_ = sorted(costs)
        nodes = [(n + 1) ** 2 for n in ns_]
        secs = [costs[n][0] for n in ns_]
        fig, ax = common.new_figure()
        ax.loglog(nodes, [s * 1e6 for s in secs], marker="o", color=COLOURS["fast"], label="fast, per step")
        for n, x, s in zip(ns_, nodes, secs):
            newton = costs[n][1]
            label = f"n_seg={n}" + (f", {newton:.2f} Newton/step" if is_number(newton) else "")
            ax.annotate(label, (x, s * 1e6), textcoords="offset points", xytext=(5, -10), fontsize=7)
        ax.axhline(50, color="#b2182b", linestyle=":", label="50 µs target (25 nodes)")
        ax.set_xlabel("nodes ((n_seg + 1)²)")
        ax.set_ylabel("time per time step (µs, CPU, log)")
        ax.set_title("Cost per step of the fast square drop (first 100 steps)")
        ax.legend(fontsize=8)
        name = common.save_figure(fig, out_dir, "square_drop_cost")
        first = costs[ns_[0]][0]
        html.append(common.figure_html(
            name, f"From {source}: {first * 1e6:.3g} µs per step for n_seg = {ns_[0]}; cost grows "
                  f"faster than the node count because larger meshes also need more Newton iterations."))
    else:
        html.append(common.paragraph("No timing of the square drop found (run `contactbench bench`).",
                                     "missing"))
    return "".join(html)
