#!/usr/bin/env python3
"""The scene gallery, docs/scenes.md: one picture per shipped scene with its one-line description.

Every scene in assets/scenes/ is run headless with `floe run --frames 1 --overlay` to a moment
that shows what it is about, its picture goes to docs/gallery/<scene>.png, and docs/scenes.md is
written from the README's scene table (the one place the descriptions live). A shipped scene the
table does not describe, or a described one that does not exist, is an error, so the gallery and
the table stay current together.

    /usr/bin/python3 tools/gallery.py              # every scene (a few minutes on lavapipe)
    /usr/bin/python3 tools/gallery.py dam_break_2d # only these (the page lists all)
Options: --floe PATH (default build/floe), --width W --height H (default 480 x 270).
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCENES = ROOT / "assets" / "scenes"
GALLERY = ROOT / "docs" / "gallery"
PAGE = ROOT / "docs" / "scenes.md"

# When the picture is taken, as a fraction of the scene's stopAt: the fluid mid-motion, the
# bodies after their impacts, the fracture bodies after breaking. The 1M-particle scene is meant
# for a GPU: one step shows its set-up.
FRACTION = {"fracture_": 0.8, "rest_": 1.0}
DEFAULT_FRACTION = 0.6
ONE_STEP = {"dam_break_3d_large"}
# Solids in water are drawn through the fluid's screen-space surface (--render fluid), else the
# particles hide what sank.
RENDER = {"coupled_": "fluid"}


def descriptions():
    """The README's scene table: {scene name: description}, patterns like a_{b,c}.json expanded."""
    text = (ROOT / "README.md").read_text()
    section = text.split("\n## Scenes\n", 1)
    if len(section) != 2:
        sys.exit("gallery: README.md has no '## Scenes' section")
    out = {}
    for line in section[1].splitlines():
        if not line.startswith("| `"):
            if out and not line.startswith("|"):
                break
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        names, what = cells[0], " | ".join(cells[1:])
        for name in re.findall(r"`([^`]+)`", names):
            match = re.fullmatch(r"(.*)\{([^}]*)\}(.*)", name)
            for n in ([match.group(1) + alt + match.group(3) for alt in match.group(2).split(",")] if match else [name]):
                out[n.removesuffix(".json")] = what
    return out


def picture_time(name):
    stop = json.loads((SCENES / f"{name}.json").read_text()).get("Configuration", {}).get("stopAt", 2.0)
    fraction = next((f for prefix, f in FRACTION.items() if name.startswith(prefix)), DEFAULT_FRACTION)
    return stop * fraction


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("only", nargs="*", help="scene names to (re)draw; default: all")
    parser.add_argument("--floe", default=str(ROOT / "build" / "floe"))
    parser.add_argument("--width", type=int, default=480)
    parser.add_argument("--height", type=int, default=270)
    args = parser.parse_args()

    described = descriptions()
    shipped = sorted(p.stem for p in SCENES.glob("*.json"))
    missing = [s for s in shipped if s not in described]
    stale = [s for s in described if s not in shipped]
    if missing or stale:
        sys.exit("gallery: README.md's scene table and assets/scenes/ disagree: "
                 + (f"not described: {', '.join(missing)}. " if missing else "")
                 + (f"described but not shipped: {', '.join(stale)}." if stale else ""))
    unknown = [s for s in args.only if s not in shipped]
    if unknown:
        sys.exit(f"gallery: no scene {', '.join(unknown)} in assets/scenes/")
    if not Path(args.floe).exists():
        sys.exit(f"gallery: {args.floe} does not exist; build first (tools/build.sh)")

    GALLERY.mkdir(parents=True, exist_ok=True)
    todo = args.only or shipped
    with tempfile.TemporaryDirectory() as tmp:
        for k, name in enumerate(todo, 1):
            length = ["--steps", "1"] if name in ONE_STEP else ["--seconds", f"{picture_time(name):.3g}"]
            out = Path(tmp) / name
            render = next((["--render", r] for prefix, r in RENDER.items() if name.startswith(prefix)), [])
            command = [args.floe, "run", str(SCENES / f"{name}.json"), *length, "--frames", "1", "--overlay", "--quiet",
                       "--width", str(args.width), "--height", str(args.height), "--out", str(out), *render]
            print(f"gallery: [{k}/{len(todo)}] {name} ({' '.join(length)})", end="", flush=True)
            start = time.monotonic()
            run = subprocess.run(command, capture_output=True, text=True)
            if run.returncode != 0:
                print()
                sys.exit(f"gallery: {' '.join(command)} failed ({run.returncode}):\n{run.stdout}{run.stderr}")
            shutil.copyfile(out / "frame_0000.png", GALLERY / f"{name}.png")
            print(f" {time.monotonic() - start:.1f} s")

    lines = ["# Scene gallery", "",
             "Every scene in `assets/scenes/`, run headless with `floe run --frames 1 --overlay` to the time its",
             "overlay shows (the 1M-particle scene: one step, it is meant for a GPU). Written by",
             "`/usr/bin/python3 tools/gallery.py` from the README's scene table; do not edit by hand.", "",
             "| picture | scene | what it shows |", "| --- | --- | --- |"]
    for name in shipped:
        picture = f"![{name}](gallery/{name}.png)" if (GALLERY / f"{name}.png").exists() else "(not drawn yet)"
        lines.append(f"| {picture} | `{name}.json` | {described[name]} |")
    PAGE.write_text("\n".join(lines) + "\n")
    print(f"gallery: wrote {PAGE.relative_to(ROOT)} and {len(todo)} pictures in {GALLERY.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
