#!/usr/bin/python3
"""Plots of Floe's outputs as PNG files (matplotlib, Debian's python3-matplotlib).

  /usr/bin/python3 tools/plot.py out/demo              # a run's folder: plots its metrics.csv
  /usr/bin/python3 tools/plot.py out/demo/metrics.csv  # the same
  /usr/bin/python3 tools/plot.py bench.json            # floe bench --out results: bar charts

A run's plots go to <run>/plots/: density_error.png, solver_iterations.png, gpu_ms.png and
energy_dt.png, over simulated time. Bench plots go next to the JSON file: <name>_primitives.png,
<name>_sph.png, <name>_render.png for the suites it holds. --out DIR writes elsewhere. Prints
each file written; exits 2 with a message naming the file on bad input.
"""

import argparse
import csv
import json
import math
import os
import sys


def fail(message):
    print(f"plot.py: {message}", file=sys.stderr)
    sys.exit(2)


def pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        return plt
    except ImportError:
        print("plot.py: matplotlib is missing (Debian: python3-matplotlib; tools/install-deps.sh installs it)",
              file=sys.stderr)
        sys.exit(3)


def number(text):
    if text is None or text == "":
        return math.nan
    try:
        return float(text)
    except ValueError:
        return math.nan


def read_metrics(path):
    try:
        with open(path, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        fail(f"{path}: cannot read ({e.strerror})")
    if not rows:
        fail(f"{path}: no rows (a header only, or empty)")
    for key in ("time", "density_error_avg", "density_error_max", "solver_iterations", "gpu_ms_total"):
        if key not in rows[0]:
            fail(f"{path}: no column '{key}'; is this a floe run metrics.csv?")
    return {key: [number(r.get(key)) for r in rows] for key in rows[0].keys()}


def finite(xs, ys):
    pairs = [(x, y) for x, y in zip(xs, ys) if not (math.isnan(x) or math.isnan(y))]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def save(plt, fig, path, written):
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)


def plot_gpu_ms(plt, t, m, out_dir, written):
    """GPU ms per step: the total and the passes timed on most steps (with --timers pass)."""
    passes = [k for k in m if k.startswith("gpu_ms:") and k != "gpu_ms:step"]
    steady = []
    for k in passes:
        values = [v for v in m[k] if not math.isnan(v)]
        if len(values) >= 0.5 * len(t):
            steady.append((sum(values) / len(values), k))
    steady.sort(reverse=True)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    x, y = finite(t, m["gpu_ms_total"])
    ax.plot(x, y, label="total", color="black", linewidth=1.2)
    for _, k in steady[:8]:
        x, y = finite(t, m[k])
        ax.plot(x, y, label=k[len("gpu_ms:"):], linewidth=0.9)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("GPU ms per step")
    ax.set_title("GPU time per pass" if steady else "GPU time per step (--timers pass: per pass)")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, ncol=2)
    save(plt, fig, os.path.join(out_dir, "gpu_ms.png"), written)


def plot_run(csv_path, out_dir):
    plt = pyplot()
    m = read_metrics(csv_path)
    t = m["time"]
    os.makedirs(out_dir, exist_ok=True)
    written = []

    # Each kind of run plots its own measures: fluids their compression and solver iterations,
    # deformable bodies their volume and shape errors, fracture its fragments (below).
    fluid = any(math.isfinite(v) for v in m.get("density_error_max", []))
    bodies = "volume_error_max" in m
    if fluid:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for key, label in (("density_error_avg", "average"), ("density_error_max", "maximum")):
            x, y = finite(t, [100.0 * v for v in m[key]])
            ax.plot(x, y, label=label, linewidth=1.2)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("compression max(0, rho/rho0 - 1) (%)")
        ax.set_title("Density error")
        ax.grid(alpha=0.3)
        ax.legend()
        save(plt, fig, os.path.join(out_dir, "density_error.png"), written)

        fig, ax = plt.subplots(figsize=(8, 4.5))
        x, y = finite(t, m["solver_iterations"])
        if x:
            ax.plot(x, y, linewidth=1.0, color="tab:purple")
            ax.set_ylim(bottom=0)
        else:
            ax.text(0.5, 0.5, "no iterative pressure solver in this run\n(equation of state)", ha="center", va="center",
                    transform=ax.transAxes)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("iterations per step")
        ax.set_title("Pressure solver iterations")
        ax.grid(alpha=0.3)
        save(plt, fig, os.path.join(out_dir, "solver_iterations.png"), written)
    if bodies:
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for key, label in (("volume_error_avg", "average over the bodies"), ("volume_error_max", "largest in magnitude")):
            x, y = finite(t, [100.0 * v for v in m.get(key, [])])
            ax.plot(x, y, label=label, linewidth=1.2)
        ax.axhline(0.0, color="black", linewidth=0.6)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("volume error (V - V0) / V0 (%)")
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left")
        ax2 = ax.twinx()
        x, y = finite(t, m.get("rigid_error_max", []))
        ax2.plot(x, y, color="tab:gray", linewidth=0.9, linestyle="--")
        ax2.set_ylabel("shape error |g - x| / size (dashed)", color="tab:gray")
        ax.set_title("Deformable bodies: volume and shape errors")
        save(plt, fig, os.path.join(out_dir, "volume_error.png"), written)

    # GPU ms per pass: the passes timed on most steps, largest mean first (render passes run on
    # picture steps only and are left to the summary). A run with --timers step has the step's
    # total alone; one with --timers off has no GPU times and no such plot.
    if all(math.isnan(v) for v in m["gpu_ms_total"]):
        print("plot.py: no GPU times in this run (--timers off): no gpu_ms.png")
    else:
        plot_gpu_ms(plt, t, m, out_dir, written)

    fig, ax = plt.subplots(figsize=(8, 4.5))
    x, y = finite(t, m.get("kinetic_energy", []))
    ax.plot(x, y, color="tab:red", linewidth=1.2)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("kinetic energy (J)", color="tab:red")
    ax.grid(alpha=0.3)
    ax2 = ax.twinx()
    x, y = finite(t, [1000.0 * v for v in m.get("dt", [])])
    ax2.plot(x, y, color="tab:blue", linewidth=0.9)
    ax2.set_ylabel("dt (ms)", color="tab:blue")
    fracture = "fragments" in m
    kind = ("fluid and bodies" if fluid and bodies else "fluid and fracture bodies" if fluid and fracture else
            "fluid" if fluid else "bodies" if bodies else "fracture bodies" if fracture else "run")
    ax.set_title(f"Kinetic energy ({kind}) and time step")
    save(plt, fig, os.path.join(out_dir, "energy_dt.png"), written)

    if "fragments" in m:  # fracture runs: fragments and the largest load over time
        fig, ax = plt.subplots(figsize=(8, 4.5))
        x, y = finite(t, m["fragments"])
        ax.step(x, y, where="post", color="tab:green", linewidth=1.2)
        ax.set_xlabel("simulated time (s)")
        ax.set_ylabel("fragments", color="tab:green")
        ax.grid(alpha=0.3)
        ax2 = ax.twinx()
        x, y = finite(t, m["max_separation"])
        ax2.plot(x, y, color="tab:red", linewidth=0.9)
        ax2.axhline(1.0, color="tab:red", linestyle=":", linewidth=0.8)
        ax2.set_ylabel("largest load / tau", color="tab:red")
        ax.set_title("Fragments and the largest separation load")
        save(plt, fig, os.path.join(out_dir, "fracture.png"), written)

    if "solver_loss" in m:  # the energy account (docs/fracture.md, docs/bodies.md, *Energy*): where the energy went
        terms = [("kinetic_energy", "kinetic", "tab:red"), ("potential_energy", "potential", "tab:blue"),
                 ("elastic_energy", "elastic", "tab:purple"), ("damping_loss", "damping", "tab:olive"),
                 ("fracture_loss", "fracture", "tab:brown"), ("contact_loss", "contacts", "tab:gray"),
                 ("solver_loss", "solver", "tab:cyan")]
        terms = [term for term in terms if term[0] in m]  # deformable bodies do not fracture
        rows = [i for i in range(len(t)) if all(not math.isnan(m[k][i]) for k, _, _ in terms)]
        if rows:
            fig, ax = plt.subplots(figsize=(8, 4.5))
            times = [t[i] for i in rows]
            ax.stackplot(times, *[[m[k][i] for i in rows] for k, _, _ in terms], labels=[n for _, n, _ in terms],
                         colors=[c for _, _, c in terms], alpha=0.8)
            # The losses can be negative (energy made from nothing): the sum is drawn on top.
            ax.plot(times, [sum(m[k][i] for k, _, _ in terms) for i in rows], color="black", linewidth=0.9,
                    label="sum")
            ax.set_xlabel("simulated time (s)")
            ax.set_ylabel("energy (J)")
            ax.grid(alpha=0.3)
            ax.legend(loc="lower left", fontsize=7, ncol=4)
            ax.set_title("Energy account: mechanical energy and what took it (sum: the initial energy)")
            save(plt, fig, os.path.join(out_dir, "energy_account.png"), written)
    plot_trajectories(plt, os.path.join(os.path.dirname(os.path.abspath(csv_path)), "bodies.csv"), out_dir, written)
    return written


def plot_trajectories(plt, path, out_dir, written):
    """bodies.csv of a solid run: each body's or fragment's centre of mass height over time."""
    if not os.path.exists(path):
        return
    tracks = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            key = (r.get("body", ""), r.get("fragment", ""))
            t, y = number(r.get("time")), number(r.get("y"))
            if not (math.isnan(t) or math.isnan(y)):
                tracks.setdefault(key, ([], []))
                tracks[key][0].append(t)
                tracks[key][1].append(y)
    if not tracks:
        return
    fig, ax = plt.subplots(figsize=(8, 4.5))
    many = len(tracks) > 12
    for (body, fragment), (ts, ys) in sorted(tracks.items()):
        label = None if many else (f"body {body}, fragment {fragment}" if fragment else f"body {body}")
        ax.plot(ts, ys, linewidth=0.6 if many else 1.2, alpha=0.5 if many else 1.0, label=label)
    ax.set_xlabel("simulated time (s)")
    ax.set_ylabel("centre of mass height y (m)")
    ax.grid(alpha=0.3)
    if not many:
        ax.legend(fontsize=7)
    kind = "fragments" if any(fragment for _, fragment in tracks) else "bodies"
    ax.set_title(f"Centre of mass of each of the {len(tracks)} {kind} (bodies.csv)")
    save(plt, fig, os.path.join(out_dir, "trajectories.png"), written)


def bars(ax, groups, series, values, ylabel, title, log=False):
    """Grouped bars: groups on the x axis, one bar per series; values[(group, series)]."""
    width = 0.8 / max(len(series), 1)
    for i, s in enumerate(series):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        ys = [values.get((grp, s), 0.0) for grp in groups]
        ax.bar(xs, ys, width, label=s)
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(groups, fontsize=8)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if log:
        ax.set_yscale("log")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=8)


def plot_bench(json_path, out_dir):
    plt = pyplot()
    try:
        with open(json_path) as f:
            doc = json.load(f)
    except OSError as e:
        fail(f"{json_path}: cannot read ({e.strerror})")
    except json.JSONDecodeError as e:
        fail(f"{json_path}: malformed JSON ({e})")
    if not any(k in doc for k in ("results", "sph", "render")):
        fail(f"{json_path}: no 'results', 'sph' or 'render'; is this a floe bench --out file?")
    os.makedirs(out_dir, exist_ok=True)
    stem = os.path.splitext(os.path.basename(json_path))[0]
    device = doc.get("device", "")
    written = []

    if doc.get("results"):
        rows = [r for r in doc["results"] if "gpu_melem_per_s" in r]
        groups = sorted({r["primitive"] for r in rows})
        sizes = sorted({r["elements"] for r in rows})
        fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
        gpu = {(r["primitive"], f"{r['elements']}"): r["gpu_melem_per_s"] for r in rows}
        cpu = {(r["primitive"], f"{r['elements']}"): r["cpu_melem_per_s"] for r in rows}
        bars(axes[0], groups, [f"{s}" for s in sizes], gpu, "GPU Melem/s", f"GPU primitives ({device})", log=True)
        bars(axes[1], groups, [f"{s}" for s in sizes], cpu, "CPU Melem/s", "CPU reference (one thread)", log=True)
        save(plt, fig, os.path.join(out_dir, f"{stem}_primitives.png"), written)

    sph = doc.get("sph", {})
    if sph.get("throughput"):
        rows = [r for r in sph["throughput"] if "steps_per_second" in r]
        groups = []
        values = {}
        series = []
        for r in rows:
            g = f"{r['dimensions']}D {r['particles']}"
            s = r.get("case", r["solver"])
            if g not in groups:
                groups.append(g)
            if s not in series:
                series.append(s)
            values[(g, s)] = r["gpu_ms_per_step"]
        fig, ax = plt.subplots(figsize=(10, 4.5))
        bars(ax, groups, series, values, "GPU ms per step", f"SPH solvers ({device})", log=True)
        save(plt, fig, os.path.join(out_dir, f"{stem}_sph.png"), written)

    if doc.get("render"):
        rows = doc["render"]
        groups = [f"{r['particles']} {r['mode']}" for r in rows]
        passes = []
        for r in rows:
            for p in r["passes_ms"]:
                if p not in passes:
                    passes.append(p)
        fig, ax = plt.subplots(figsize=(10, 5))
        bottom = [0.0] * len(rows)
        for p in passes:
            ys = [r["passes_ms"].get(p, 0.0) for r in rows]
            ax.bar(range(len(rows)), ys, 0.6, bottom=bottom, label=p)
            bottom = [b + y for b, y in zip(bottom, ys)]
        ax.set_xticks(range(len(rows)))
        ax.set_xticklabels(groups, fontsize=8, rotation=20)
        ax.set_ylabel("GPU ms per frame")
        ax.set_title(f"Render passes at {rows[0]['width']}x{rows[0]['height']} ({device})")
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        save(plt, fig, os.path.join(out_dir, f"{stem}_render.png"), written)
    return written


def main():
    parser = argparse.ArgumentParser(description="PNG plots of a floe run's metrics.csv or of floe bench results")
    parser.add_argument("input", help="a run's output folder, its metrics.csv, or a floe bench --out JSON file")
    parser.add_argument("--out", help="folder for the PNG files (default: <run>/plots, or next to the JSON)")
    args = parser.parse_args()
    path = args.input
    if os.path.isdir(path):
        path = os.path.join(path, "metrics.csv")
    if not os.path.exists(path):
        fail(f"{path}: no such file")
    if path.endswith(".json"):
        written = plot_bench(path, args.out or os.path.dirname(os.path.abspath(path)))
    elif path.endswith(".csv"):
        written = plot_run(path, args.out or os.path.join(os.path.dirname(os.path.abspath(path)), "plots"))
    else:
        fail(f"{path}: expected a metrics.csv, a run folder or a bench .json")
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
