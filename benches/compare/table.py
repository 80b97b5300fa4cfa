#!/usr/bin/env python3
"""Runs each side's `--only ROLE --circuit FILE --reference` once per process,
round robin over runs, files, roles and sides, and prints medians as a
Markdown table: CPU and wall time and peak RSS per side, and each side's
ratio to the base side (`--base NAME`, default the last side) for CPU and
for wall time. A side is NAME=COMMAND; the command may start with `env
VAR=… ` or `taskset -c N` to pin kernels or cores."""
import argparse, shlex, statistics, subprocess, sys

ROLES = ("load", "prove", "verify")

def run(cmd, role, circuit):
    argv = shlex.split(cmd) + ["--only", role, "--circuit", circuit, "--reference"]
    out = subprocess.run(argv, capture_output=True, text=True, timeout=600)
    if out.returncode != 0:
        sys.exit(f"{argv}: exit {out.returncode}: {out.stderr.strip()}")
    tok = dict(t.split("=", 1) for t in out.stdout.split() if "=" in t)
    # A side must say that its proof equals the stored one (`reference_match`
    # here, the adapters' `ref_match`) or that it accepted the stored proof;
    # a missing token fails the table instead of passing unchecked.
    said = lambda *keys: next((tok[k] for k in keys if k in tok), None) in ("yes", "true", "1")
    if role == "prove" and not said("reference_match", "ref_match"):
        sys.exit(f"{argv}: the proof was not shown equal to the stored one ({tok})")
    if role == "verify" and not said("verify_ok"):
        sys.exit(f"{argv}: the stored proof was not shown accepted ({tok})")
    return tok

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--side", action="append", required=True, help="NAME=COMMAND")
    ap.add_argument("--base", help="side the ratios are to (default: the last)")
    ap.add_argument("--roles", default=",".join(ROLES))
    ap.add_argument("circuits", nargs="+")
    a = ap.parse_args()
    sides = [s.split("=", 1) for s in a.side]
    names = [n for n, _ in sides]
    base = a.base or names[-1]
    if base not in names:
        sys.exit(f"--base {base}: no such side")
    roles = [r for r in a.roles.split(",") if r]
    got = {}
    for i in range(a.runs):
        for c in a.circuits:
            for role in roles:
                # Alternate the order of the sides from run to run.
                order = sides if i % 2 == 0 else sides[::-1]
                for name, cmd in order:
                    got.setdefault((name, c, role), []).append(run(cmd, role, c))
    med = lambda xs: statistics.median(xs) if xs else float("nan")
    print(f"medians of {a.runs} fresh processes per cell; ratios to `{base}`\n")
    print("| circuit | role | side | CPU ms | wall ms | peak MiB | CPU ratio | wall ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for c in a.circuits:
        short = c.rsplit("/", 1)[-1]
        short = short[:8] + "…" + (short.split(".", 1)[1] if "." in short else "")
        for role in roles:
            rows = {}
            for name in names:
                toks = got[(name, c, role)]
                rows[name] = (
                    med([float(t[f"{role}_cpu_ms"]) for t in toks]),
                    med([float(t[f"{role}_ms"]) for t in toks]),
                    med([float(t.get("peak_rss_kib", "nan")) / 1024 for t in toks]),
                )
            bcpu, bwall, _ = rows[base]
            for name in names:
                cpu, wall, rss = rows[name]
                print(f"| {short} | {role} | {name} | {cpu:.1f} | {wall:.1f} | {rss:.1f} | "
                      f"{cpu / bcpu:.2f}× | {wall / bwall:.2f}× |")

if __name__ == "__main__":
    main()
