#!/usr/bin/python3
"""Floe against the CPU reference SPlisHSPlasH on the 3D dam break, as issue 15 and
../shared/PEERS.md measure it: whole processes, the two programs alternated case by case within
each round, the 1-minute load average recorded before each pair, wall seconds and their ratio.

  /usr/bin/python3 tools/peer_bench.py                      # 3 rounds of the four cases below
  /usr/bin/python3 tools/peer_bench.py --rounds 5 --cases dfsph,wcsph --out peer.json

The cases (the reference's own DamBreakModel.json, rewritten into a scratch folder with Akinci
boundary particles, boundaryHandlingMethod 0, and a 0.1 % tolerance; Floe runs the same file
with --set Floe.convergence=reference, so both stop their solves on the reference's error):

  iisph    IISPH, 10.6k particles (particleRadius 1/46 m), dt 1 ms, 0.2 s
  iisph50  IISPH, 50.7k particles (particleRadius 0.013 m), dt 1 ms, 0.1 s
  wcsph    WCSPH (stiffness 50000, exponent 7), 10.6k particles, dt 0.5 ms, 0.2 s
  dfsph    DFSPH, 10.6k particles, CFL steps (at most 5 ms), 0.5 s

Each case is run once by each program before the rounds (the reference samples its boundary into
a Cache/ folder beside the scene on its first run; Mesa compiles Floe's shaders once). The table
on stdout gives every round's figures and the median ratio per case; --out writes them as JSON,
with what both programs reported (particles, boundary particles, steps, iterations), so that a
mismatch shows. Measure on a quiet machine (load below 2.5): a busy one slows the reference's
OpenMP threads more than Floe and flatters Floe. Exits 2 with a message on bad arguments or a
missing program, 1 when a run fails.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name: (simulationMethod, particleRadius, timeStepSize, cflMethod, stop time s)
CASES = {
    "iisph": (3, 0.0217391304, 0.001, 0, 0.2),
    "iisph50": (3, 0.013, 0.001, 0, 0.1),
    "wcsph": (0, 0.0217391304, 0.0005, 0, 0.2),
    "dfsph": (4, 0.0217391304, 0.005, 1, 0.5),
}


def fail(message, code=2):
    print(f"peer_bench.py: {message}", file=sys.stderr)
    sys.exit(code)


def write_scene(reference_data, scratch, name):
    method, radius, dt, cfl, stop = CASES[name]
    source = os.path.join(reference_data, "Scenes", "DamBreakModel.json")
    try:
        with open(source) as f:
            scene = json.load(f)
    except (OSError, json.JSONDecodeError) as e:
        fail(f"{source}: cannot read the reference's dam break ({e})")
    c = scene["Configuration"]
    c.update({"particleRadius": radius, "simulationMethod": method, "timeStepSize": dt, "cflMethod": cfl,
              "cflMaxTimeStepSize": 0.005, "boundaryHandlingMethod": 0, "stopAt": stop, "enableVTKExport": False})
    c["DFSPH"] = {"minIterations": 2, "maxIterations": 100, "maxError": 0.1, "maxIterationsV": 100, "maxErrorV": 0.1,
                  "enableDivergenceSolver": True}
    c["IISPH"] = {"minIterations": 2, "maxIterations": 100, "maxError": 0.1}
    c["WCSPH"] = {"stiffness": 50000, "exponent": 7}
    path = os.path.join(scratch, "Scenes", f"dam_{name}.json")
    with open(path, "w") as f:
        json.dump(scene, f, indent=1)
    return path, stop


def reference_report(log):
    """What SPlisHSPlasH printed: particle counts, average step, iterations."""
    out = {}
    for key, pattern in (("particles", r"Number of fluid particles: (\d+)"),
                         ("boundary_particles", r"Number of boundary particles: (\d+)"),
                         ("ms_per_step", r"Average time: SimStep: ([\d.e+-]+) ms"),
                         ("dt", r"Average number: Time step size: ([\d.e+-]+)"),
                         ("iterations", r"Average number: (?:IISPH|DFSPH) - iterations: ([\d.e+-]+)"),
                         ("divergence_iterations", r"Average number: DFSPH - iterationsV: ([\d.e+-]+)")):
        m = re.search(pattern, log)
        if m:
            out[key] = float(m.group(1)) if "." in m.group(1) or "e" in m.group(1) else int(m.group(1))
    return out


def floe_report(out_dir):
    with open(os.path.join(out_dir, "summary.json")) as f:
        s = json.load(f)
    m = s.get("metrics", {})
    report = {"particles": s.get("particles"), "boundary_particles": s.get("boundary_particles"), "steps": s.get("steps"),
              "status": s.get("status")}
    for key in ("solver_iterations", "divergence_iterations", "density_error_max"):
        if isinstance(m.get(key), dict):
            report[key] = m[key].get("mean") if key != "density_error_max" else m[key].get("max")
    return report


def timed(command, env=None, log=None):
    start = time.perf_counter()
    result = subprocess.run(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    seconds = time.perf_counter() - start
    if log:
        with open(log, "w") as f:
            f.write(result.stdout)
    if result.returncode != 0:
        fail(f"{' '.join(command)} exited with {result.returncode}:\n{result.stdout[-2000:]}", 1)
    return seconds, result.stdout


def main():
    default_peer = os.environ.get("FLOE_PEER_DIR", os.path.join(ROOT, "..", "shared", "peers", "splishsplash"))
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--cases", default="iisph,iisph50,wcsph,dfsph", help="comma-separated: " + ", ".join(CASES))
    parser.add_argument("--peer", default=default_peer, help="the reference's folder (bin/SPHSimulator, data/); "
                        "default $FLOE_PEER_DIR or ../shared/peers/splishsplash")
    parser.add_argument("--floe", default=os.path.join(ROOT, "build", "floe"), help="Floe's executable (default build/floe)")
    parser.add_argument("--device", default="lavapipe",
                        help="'lavapipe' (default: Mesa's CPU driver, as issue 15 measures) or a name for floe --device")
    parser.add_argument("--out", help="write the figures as JSON to this file")
    parser.add_argument("--scratch", help="folder for scenes and outputs (default: a new temporary one)")
    args = parser.parse_args()

    cases = [c for c in args.cases.split(",") if c]
    for c in cases:
        if c not in CASES:
            fail(f"--cases: unknown case '{c}' (expected some of {', '.join(CASES)})")
    if args.rounds < 1:
        fail(f"--rounds: expected at least 1, got {args.rounds}")
    simulator = os.path.join(args.peer, "bin", "SPHSimulator")
    data = os.path.join(args.peer, "data")
    if not os.access(simulator, os.X_OK):
        fail(f"--peer: no executable {simulator} (the reference's build, ../shared/PEERS.md)")
    if not os.access(args.floe, os.X_OK):
        fail(f"--floe: no executable {args.floe} (build it with tools/build.sh)")

    scratch = os.path.abspath(args.scratch or tempfile.mkdtemp(prefix="floe-peer-"))
    os.makedirs(os.path.join(scratch, "Scenes"), exist_ok=True)
    models = os.path.join(scratch, "models")
    if not os.path.exists(models):
        os.symlink(os.path.abspath(os.path.join(data, "models")), models)
    scenes = {c: write_scene(data, scratch, c) for c in cases}

    env = dict(os.environ)
    floe = [os.path.abspath(args.floe)]
    if args.device == "lavapipe":
        floe = [os.path.join(ROOT, "tools", "with-lavapipe.sh")] + floe
    device_args = [] if args.device == "lavapipe" else ["--device", args.device]

    def run_reference(case, tag):
        path, stop = scenes[case]
        out = os.path.join(scratch, f"ref_{case}")
        seconds, log = timed([simulator, "--no-gui", "--stopAt", str(stop), "--output-dir", out, path], env,
                             os.path.join(scratch, f"ref_{case}_{tag}.log"))
        return seconds, reference_report(log)

    def run_floe(case):
        path, stop = scenes[case]
        out = os.path.join(scratch, f"floe_{case}")
        shutil.rmtree(out, ignore_errors=True)
        seconds, _ = timed(floe + ["run", path, "--seconds", str(stop), "--out", out, "--frames", "0", "--quiet", "--timers",
                                   "off", "--set", "Floe.convergence=reference"] + device_args, env)
        report = floe_report(out)
        if report["status"] != "ok":
            fail(f"floe run {path}: status {report['status']} ({out}/summary.json)", 1)
        return seconds, report

    print(f"peer_bench: {', '.join(cases)}; {args.rounds} rounds; scratch {scratch}", flush=True)
    results = {c: {"rounds": []} for c in cases}
    for c in cases:  # warm-up: the reference's boundary cache, Mesa's shader cache
        _, results[c]["reference"] = run_reference(c, "warmup")
        _, results[c]["floe"] = run_floe(c)
    for r in range(args.rounds):
        for c in cases:
            load = os.getloadavg()[0]
            ref, _ = run_reference(c, str(r))
            ours, _ = run_floe(c)
            results[c]["rounds"].append({"load": round(load, 2), "reference_s": round(ref, 3), "floe_s": round(ours, 3),
                                         "ratio": round(ours / ref, 3)})
            print(f"  round {r + 1} {c:8s} load {load:.2f}  reference {ref:6.2f} s  floe {ours:6.2f} s  "
                  f"floe/reference {ours / ref:.2f}", flush=True)
    for c in cases:
        results[c]["median_ratio"] = round(statistics.median(x["ratio"] for x in results[c]["rounds"]), 3)

    print("\n| case | loads | reference s | Floe s | Floe / reference (median) |")
    print("| --- | --- | --- | --- | --- |")
    for c in cases:
        rounds = results[c]["rounds"]
        column = lambda key: ", ".join(f"{x[key]:.2f}" for x in rounds)  # noqa: E731
        print(f"| {c} | {column('load')} | {column('reference_s')} | {column('floe_s')} | {column('ratio')} "
              f"({results[c]['median_ratio']:.2f}) |")
    print("\nwhat each program reported (warm-up run):")
    for c in cases:
        ref, ours = results[c]["reference"], results[c]["floe"]
        print(f"  {c:8s} reference {ref.get('particles')} particles, {ref.get('boundary_particles')} boundary, "
              f"{ref.get('iterations', '-')} + {ref.get('divergence_iterations', '-')} iterations; "
              f"floe {ours.get('particles')} particles, {ours.get('boundary_particles')} boundary, {ours.get('steps')} steps, "
              f"{ours.get('solver_iterations', '-')} + {ours.get('divergence_iterations', '-')} iterations")
        if ref.get("particles") != ours.get("particles"):
            print(f"  WARNING: {c}: the programs simulate different particle counts", file=sys.stderr)
    if args.out:
        with open(args.out, "w") as f:
            json.dump({"cases": results, "scratch": scratch, "floe": args.floe, "peer": args.peer}, f, indent=1)
        print(f"\nwrote {args.out}")


if __name__ == "__main__":
    main()
