#!/usr/bin/env python3
"""Where a two-thread proof runs on one thread: the work done while the
other pool thread only polls for tasks.

Why: the prover's helper thread spins in `longfellow_par::poll_until`
while it has nothing to steal, so a sample of one pool thread taken while
the other pool thread sits in that loop is time the proof spends
effectively serial. Summing those samples by what the busy thread was
doing shows which serial stretches stand between the measured two-thread
time and half the one-thread time.

Input: the text of `perf script -F comm,pid,tid,time,ip,sym` over several
`longfellow bench --threads 2 --only prove` processes, recorded with
`--call-graph dwarf` for the categories (a flat record gives leaf
symbols only). The whole command is under "Commands" in
docs/PERFORMANCE.md ("Where a two-thread proof runs on one thread").
"""

import argparse
import bisect
import collections
import re
import signal
import sys

HEADER = re.compile(r"\s*(\S+)\s+(\d+)/(\d+)\s+([\d.]+):")
POLL = "poll_until"

# First match wins; patterns are searched in every frame of the sample.
CATEGORIES = [
    ("unmapping freed memory", r"unmap_vmas|__x64_sys_munmap|do_vmi_munmap"),
    ("page faults", r"exc_page_fault"),
    ("Reed-Solomon encoder set-up", r"Encoders<F>::new|PrimeFftEncoder<F>::new|PackedConvolution<F>::new|twiddle_table"),
    ("Ligero seal and columns", r"longfellow_ligero_prover"),
    ("wire coding", r"Dictionary|Numbering|number_pairs|bound_recording|compress"),
    ("circuit evaluation", r"evaluate_streaming|sumcheck_prover::evaluate"),
    ("witness and field conversion", r"longfellow_mdoc_witness|hash_elements|sig_elements|subfield_coordinates"),
    ("proof encoding", r"to_bytes"),
    ("rounds: bind and contract", r"bind_h_and_contract|bind_h_range_contract|HQuad<F>::contract"),
    ("rounds: bind", r"HQuad<F>::bind_h|bind_h_blocks"),
    ("rounds: coefficients", r"round_coefficients|GroupSums"),
    ("binding g (term pass)", r"stream_bind|term_blocks|Fill<"),
    ("eq tables", r"eq2_table|eq_weights"),
    ("dense wires", r"sumcheck_prover::dense"),
    ("rest of the layer loop", r"prove_layers"),
    ("rest of the ZK prover", r"longfellow_zk_prover"),
    ("other", r"."),
]


def samples(lines):
    """(pid, tid, time, frames) of each `longfellow` sample."""
    cur = None
    for line in lines:
        if not line.strip():
            if cur:
                yield cur
            cur = None
            continue
        if not line.startswith("\t"):  # frames are tab-indented
            m = HEADER.match(line)
            cur = (int(m[2]), int(m[3]), float(m[4]), []) if m and m[1] == "longfellow" else None
            continue
        if cur is not None:
            parts = line.strip().split(None, 1)
            if len(parts) == 2:
                cur[3].append(parts[1])
    if cur:
        yield cur


def polls(frames):
    """Whether the thread was waiting for a task: `poll_until` on the stack
    with only the waiting machinery (rayon's search, the clock) above it.
    A task the helper runs from inside `poll_until` sits above it too, but
    through rayon's `execute`, and is work."""
    for f in frames:
        if POLL in f:
            return True
        if "execute" in f or re.search(r"longfellow_(?!par)", f):
            return False
    return False


def analyse(lines, window_s=0.0006):
    """(processes, samples, polling, serial, Counter of serial by category)
    over the `perf script` text `lines`."""
    threads = collections.defaultdict(list)
    for pid, tid, t, frames in samples(lines):
        if pid != tid:  # pool threads; the process's own thread only waits
            threads[(pid, tid)].append((t, frames))
    by_process = collections.defaultdict(list)
    for (pid, _), rows in threads.items():
        by_process[pid].append(sorted(rows, key=lambda r: r[0]))

    cats = collections.Counter()
    total = polling = serial = processes = 0
    for rows in by_process.values():
        if len(rows) != 2:
            continue
        processes += 1
        for mine, theirs in ((rows[0], rows[1]), (rows[1], rows[0])):
            times = [r[0] for r in theirs]
            for t, frames in mine:
                total += 1
                if polls(frames):
                    polling += 1
                    continue
                i = bisect.bisect_left(times, t)
                near = [theirs[j] for j in (i - 1, i) if 0 <= j < len(theirs)]
                other = min(near, key=lambda r: abs(r[0] - t))
                if abs(other[0] - t) < window_s and polls(other[1]):
                    serial += 1
                    for name, pattern in CATEGORIES:
                        if any(re.search(pattern, f) for f in frames):
                            cats[name] += 1
                            break
    return processes, total, polling, serial, cats


def main():
    # Piped into `head`, stop quietly.
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("script", help="perf script output (- for stdin)")
    ap.add_argument("--window-ms", type=float, default=0.6,
                    help="how near in time the other thread's sample must be")
    args = ap.parse_args()
    src = sys.stdin if args.script == "-" else open(args.script)
    processes, total, polling, serial, cats = analyse(src, args.window_ms / 1000.0)
    if not total:
        sys.exit("no two-thread longfellow samples found")
    print(f"{processes} processes, {total} pool-thread samples: "
          f"{polling} polling ({100 * polling / total:.1f} %), "
          f"{serial} working while the other polls ({100 * serial / total:.1f} %)")
    print("| while the other thread polls | samples | share |")
    print("|---|---|---|")
    for name, n in cats.most_common():
        print(f"| {name} | {n} | {100 * n / max(serial, 1):.1f} % |")


if __name__ == "__main__":
    main()
