"""Soundness check of the Klondike draw-1 atlas's lost verdicts against Solvitaire (exact mode).

Our draw-1 win rate (Solvitaire numbering, worry-back, unlimited passes) sits below
Solvitaire's published 90.480 +- 0.116 %.  This study gives a random sample of our *lost*
seeds (and, as a control, of our *won* seeds) to Solvitaire's exact solver, one process at
a time, and counts the deals Solvitaire wins that we call lost (each one would be an
unsound prune).  Solvitaire is a peer built by the workplace's peer build script (not in this repository); none of
its code is in the project.  Report: results/klondike-draw1-soundness.md.

    python benchmarks/studies/draw1_soundness.py plan --out DIR [--lo 20001 --hi 35547]
    python benchmarks/studies/draw1_soundness.py run --out DIR --solvitaire BIN [--until 21:50]
    python benchmarks/studies/draw1_soundness.py lonelybot --out DIR --lonecli BIN [--cap 5 --until 21:50]
    python benchmarks/studies/draw1_soundness.py numbering --solvitaire BIN SEED...
    python benchmarks/studies/draw1_soundness.py summary --out DIR

``plan`` shuffles the lost seeds of [lo, hi] (after the 120 s retries) with a fixed RNG
seed and puts one won control after every three lost seeds; ``run`` works down the plan
(resumable) under ``nice -n 5`` with Solvitaire's ``--classify --timeout`` and, for any lost
seed Solvitaire wins, runs it again without ``--classify`` to keep its printed solution.
"""

from __future__ import annotations

import argparse
import csv
import datetime
import json
import math
import os
import random
import re
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import atlas  # noqa: E402

FIELDS = ["order", "kind", "seed", "ours", "solvitaire", "raw", "solv_ms", "solv_nodes", "wall_s", "rc"]


def plan(out: Path, lo: int, hi: int, rng_seed: int, controls: int) -> None:
    rows = atlas.load("klondike-draw1")
    lost = sorted(s for s, r in rows.items() if lo <= s <= hi and r["verdict"] == "lost")
    won = sorted(s for s, r in rows.items() if lo <= s <= hi and r["verdict"] == "won")
    rng = random.Random(rng_seed)
    rng.shuffle(lost)
    ctrl = rng.sample(won, controls)
    order, k = [], 0
    for i, s in enumerate(lost):
        order.append(("lost", s))
        if i % 3 == 2 and k < len(ctrl):
            order.append(("won", ctrl[k]))
            k += 1
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "plan.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["order", "kind", "seed"])
        for i, (kind, s) in enumerate(order):
            w.writerow([i, kind, s])
    print(f"plan: {len(lost)} lost seeds in {lo}..{hi} (shuffled, rng {rng_seed}), {len(ctrl)} won controls")


def parse_classify(out: str) -> tuple[str, float | None, int | None, str]:
    lines = [ln for ln in out.splitlines() if re.match(r"^\d+,", ln)]
    if not lines:
        return "error", None, None, out[-200:].replace("\n", " ")
    f = [x.strip() for x in lines[-1].split(",")]
    verdict = {"solved": "won", "unsolvable": "lost"}.get(f[-1], "unknown")  # timed-out, memory-limit
    return verdict, float(f[2]), int(f[3]), lines[-1]


def run(out: Path, binary: str, timeout_ms: int, until: str | None) -> None:
    rows = atlas.load("klondike-draw1")
    with open(out / "plan.csv") as f:
        todo = list(csv.DictReader(f))
    res_path = out / "results.csv"
    done = set()
    if res_path.exists():
        with open(res_path) as f:
            done = {int(r["order"]) for r in csv.DictReader(f)}
    stop = None
    if until:
        h, m = map(int, until.split(":"))
        now = datetime.datetime.now(datetime.timezone.utc)
        stop = now.replace(hour=h, minute=m, second=0, microsecond=0)
    new = not res_path.exists()
    with open(res_path, "a", newline="") as fh:
        w = csv.writer(fh)
        if new:
            w.writerow(FIELDS)
        for r in todo:
            i, kind, seed = int(r["order"]), r["kind"], int(r["seed"])
            if i in done:
                continue
            if stop and datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(
                    milliseconds=timeout_ms) > stop:
                print("stopping: deadline")
                break
            cmd = ["nice", "-n", "5", "timeout", "-k", "5", str(timeout_ms // 1000 + 30), binary,
                   "--type", "klondike-deal-1", "--random", str(seed), "--classify", "--timeout", str(timeout_ms)]
            t0 = time.time()
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            wall = time.time() - t0
            verdict, ms, nodes, raw = parse_classify(p.stdout)
            ours = rows[seed]["verdict"]
            w.writerow([i, kind, seed, ours, verdict, raw, ms, nodes, f"{wall:.2f}", p.returncode])
            fh.flush()
            print(f"{i} {kind} {seed}: ours {ours}, solvitaire {verdict} ({wall:.1f} s)", flush=True)
            if verdict == "won" and ours == "lost":  # a disagreement: keep Solvitaire's solution
                sol = subprocess.run(["nice", "-n", "5", "timeout", "-k", "5", str(timeout_ms // 1000 + 60), binary,
                                      "--type", "klondike-deal-1", "--random", str(seed), "--timeout",
                                      str(timeout_ms * 2)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
                (out / f"solution-{seed}.txt").write_text(sol.stdout)
            if verdict == "error":
                print(p.stdout[-500:])


def lonelybot(out: Path, binary: str, lo: int, hi: int, cap: int, until: str | None) -> None:
    """Every lost seed of [lo, hi] through lonelybot (``lonecli solve solvitaire SEED 1``; its first
    SIGINT ends the search as Terminated), one process at a time; resumable."""
    rows = atlas.load("klondike-draw1")
    lost = sorted(s for s, r in rows.items() if lo <= s <= hi and r["verdict"] == "lost")
    path = out / "lonelybot.csv"
    done = set()
    if path.exists():
        with open(path) as f:
            done = {int(r["seed"]) for r in csv.DictReader(f)}
    stop = None
    if until:
        h, m = map(int, until.split(":"))
        stop = datetime.datetime.now(datetime.timezone.utc).replace(hour=h, minute=m, second=0, microsecond=0)
    new = not path.exists()
    with open(path, "a", newline="") as fh:
        w = csv.writer(fh)
        if new:
            w.writerow(["seed", "ours", "lonelybot", "ms", "wall_s", "rc"])
        for seed in lost:
            if seed in done:
                continue
            if stop and datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=cap) > stop:
                print("stopping: deadline")
                break
            t0 = time.time()
            p = subprocess.run(["nice", "-n", "5", "timeout", "-s", "INT", "-k", "5", str(cap), binary, "solve",
                                "solvitaire", str(seed), "1"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True)
            wall = time.time() - t0
            o = p.stdout
            v = ("won" if "Solvable in" in o else "lost" if "Impossible" in o else
                 "terminated" if "Terminated" in o else "crashed" if "Crashed" in o else "error")
            m = re.search(r"Run in ([\d.]+) ms", o)
            w.writerow([seed, rows[seed]["verdict"], v, m.group(1) if m else "", f"{wall:.2f}", p.returncode])
            fh.flush()
            if v == "won":
                (out / f"lonelybot-solution-{seed}.txt").write_text(o)
                print(f"DISAGREEMENT {seed}: lonelybot won", flush=True)


def numbering(binary: str, seeds: list[int]) -> None:
    """Solvitaire's --deal-only deal beside ours: same 7 piles (as sets of face-down and face-up
    cards, in either pile order) and the same stock cards."""
    for seed in seeds:
        sv = subprocess.run([binary, "--type", "klondike-deal-1", "--random", str(seed), "--deal-only"],
                            stdout=subprocess.PIPE, text=True).stdout
        ours = subprocess.run([str(HERE.parent.parent / ".venv/bin/patience"), "deal", "klondike", str(seed),
                               "--numbering", "solvitaire", "--json"], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PATIENCE_SERVER": "off"}).stdout
        print(f"seed {seed}\n  solvitaire: {' '.join(sv.split())}\n  ours: {json.dumps(json.loads(ours)['tableau piles'])}"
              f" stock {json.dumps(json.loads(ours)['stock'])}")


def summary(out: Path) -> None:
    with open(out / "results.csv") as f:
        res = list(csv.DictReader(f))
    for kind in ("lost", "won"):
        rs = [r for r in res if r["kind"] == kind]
        c: dict[str, int] = {}
        for r in rs:
            c[r["solvitaire"]] = c.get(r["solvitaire"], 0) + 1
        print(f"ours {kind}: {len(rs)} checked; solvitaire: {c}")
        bad = [r["seed"] for r in rs if r["solvitaire"] not in (kind, "unknown")]
        print(f"  disagreements: {bad}")
    lost = [r for r in res if r["kind"] == "lost"]
    dec = [r for r in lost if r["solvitaire"] != "unknown"]
    wrong = sum(r["solvitaire"] == "won" for r in dec)
    for label, n in (("all checked", len(lost)), ("decided by Solvitaire", len(dec))):
        if n and wrong == 0:
            print(f"  {label}: n={n}, 0 wrong -> one-sided 95% upper bound {1 - 0.05 ** (1 / n):.4f} "
                  f"(rule of three {3 / n:.4f})")
    t = [float(r["wall_s"]) for r in res]
    print(f"wall: {sum(t):.0f} s over {len(t)} deals")


def main() -> None:
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("plan")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--lo", type=int, default=20001)
    p.add_argument("--hi", type=int, default=35547)
    p.add_argument("--rng-seed", type=int, default=20261205)
    p.add_argument("--controls", type=int, default=100)
    p = sub.add_parser("run")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--solvitaire", required=True)
    p.add_argument("--timeout-ms", type=int, default=60000)
    p.add_argument("--until", help="UTC HH:MM: start no deal that could end after it")
    p = sub.add_parser("lonelybot")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--lonecli", required=True)
    p.add_argument("--lo", type=int, default=20001)
    p.add_argument("--hi", type=int, default=35547)
    p.add_argument("--cap", type=int, default=5)
    p.add_argument("--until")
    p = sub.add_parser("numbering")
    p.add_argument("--solvitaire", required=True)
    p.add_argument("seeds", type=int, nargs="+")
    p = sub.add_parser("summary")
    p.add_argument("--out", type=Path, required=True)
    a = ap.parse_args()
    if a.cmd == "plan":
        plan(a.out, a.lo, a.hi, a.rng_seed, a.controls)
    elif a.cmd == "run":
        run(a.out, a.solvitaire, a.timeout_ms, a.until)
    elif a.cmd == "lonelybot":
        lonelybot(a.out, a.lonecli, a.lo, a.hi, a.cap, a.until)
    elif a.cmd == "numbering":
        numbering(a.solvitaire, a.seeds)
    else:
        summary(a.out)


if __name__ == "__main__":
    main()
