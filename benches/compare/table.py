#!/usr/bin/env python3
"""Runs each side's `--only ROLE --circuit FILE --reference` once per process,
round robin over runs, files, roles and sides, and prints medians as a
Markdown table (CPU and wall time, peak RSS, ratio to the first side)."""
import argparse, shlex, statistics, subprocess, sys

ROLES = ("load", "prove", "verify")

def run(cmd, role, circuit):
    argv = shlex.split(cmd) + ["--only", role, "--circuit", circuit, "--reference"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit(f"{argv}: exit {out.returncode}: {out.stderr.strip()}")
    return dict(t.split("=", 1) for t in out.stdout.split() if "=" in t)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--side", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("circuits", nargs="+")
    a = ap.parse_args()
    sides = [s.split("=", 1) for s in a.side]
    got = {}
    for _ in range(a.runs):
        for c in a.circuits:
            for role in ROLES:
                for name, cmd in sides:
                    tok = run(cmd, role, c)
                    key = (name, c, role)
                    got.setdefault(key, []).append(tok)
    med = lambda xs: statistics.median(xs) if xs else float("nan")
    print("| circuit | role | " + " | ".join(f"{n} CPU ms | {n} wall ms | {n} peak MiB" for n, _ in sides) + " | CPU ratio |")
    print("|---|---|" + "---|---|---|" * len(sides) + "---|")
    for c in a.circuits:
        for role in ROLES:
            cells, cpus = [], []
            for name, _ in sides:
                toks = got[(name, c, role)]
                cpu = med([float(t[f"{role}_cpu_ms"]) for t in toks])
                wall = med([float(t[f"{role}_ms"]) for t in toks])
                rss = med([float(t.get("peak_rss_kib", "nan")) / 1024 for t in toks])
                cells += [f"{cpu:.1f}", f"{wall:.1f}", f"{rss:.1f}"]
                cpus.append(cpu)
            ratio = f"{cpus[1] and cpus[0] / cpus[1]:.2f}×" if len(cpus) > 1 else "—"
            print(f"| {c.rsplit('/', 1)[-1][:12]}… | {role} | " + " | ".join(cells) + f" | {ratio} |")

if __name__ == "__main__":
    main()
