"""Checks idle_helper.py on a hand-written `perf script` excerpt: which
samples count as one thread working while the other polls."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import idle_helper  # noqa: E402


def sample(pid, tid, t, *symbols):
    head = f"      longfellow {pid}/{tid} {t:.6f}: \n"
    # As `perf script -F comm,pid,tid,time,ip,sym` prints a call graph.
    frames = "".join(f"\t    {0x1000 + i:x} {s}\n" for i, s in enumerate(symbols))
    return head + frames + "\n"


POLL = "longfellow_par::poll_until"
BIND = "longfellow_sumcheck_prover::quad::HQuad<F>::bind_h_and_contract::{{closure}}"
SEAL = "longfellow_ligero_prover::prover::LigeroProver<F>::seal"
FAULT = "exc_page_fault"

TEXT = "".join([
    # Process 10, pool threads 11 and 12; the process's own thread 10 is ignored.
    sample(10, 10, 1.000000, "main"),
    sample(10, 11, 1.000000, BIND),          # 12 polls: serial, bind
    sample(10, 12, 1.000050, POLL, "rayon::yield_now"),
    sample(10, 11, 1.001000, BIND),          # 12 works too: not serial
    sample(10, 12, 1.001010, SEAL),
    sample(10, 11, 1.002000, POLL),          # 12 seals while 11 polls
    sample(10, 12, 1.002020, "memcpy", SEAL),  # (its leaf is a copy)
    sample(10, 11, 1.010000, POLL),          # nobody near in time
    sample(10, 12, 1.020000, FAULT, BIND),   # 11's sample too far away
    # Another process with one pool thread only: not a two-thread run.
    sample(20, 21, 1.000000, BIND),
    # A different command is skipped.
    "      sh 30/31 1.000000: \n\t    1 main (/bin/sh)\n\n",
])


class IdleHelperTest(unittest.TestCase):
    def test_counts_work_done_while_the_other_thread_polls(self):
        processes, total, polling, serial, cats = idle_helper.analyse(TEXT.splitlines(True))
        self.assertEqual(processes, 1)
        self.assertEqual(total, 8)
        self.assertEqual(polling, 3)
        self.assertEqual(serial, 2)
        self.assertEqual(cats, {"rounds: bind and contract": 1, "Ligero seal and columns": 1})

    def test_a_task_run_from_the_polling_loop_is_work(self):
        search = ["crossbeam_deque::deque::Stealer<T>::steal", "rayon_core::registry::WorkerThread::find_work",
                  "rayon_core::registry::WorkerThread::take_local_job", "rayon::yield_now", "spin (inlined)"]
        text = (sample(1, 2, 5.0, *search, POLL)  # deep in rayon's search: still polling
                + sample(1, 3, 5.0001, BIND, "rayon_core::job::StackJob<L,F,R>::execute", POLL)
                + sample(1, 2, 6.0, SEAL)
                + sample(1, 3, 6.0001, BIND, "rayon_core::job::StackJob<L,F,R>::execute", POLL))
        _, total, polling, serial, cats = idle_helper.analyse(text.splitlines(True))
        self.assertEqual((total, polling, serial), (4, 1, 1))
        self.assertEqual(cats, {"rounds: bind and contract": 1})

    def test_the_first_matching_category_wins(self):
        text = sample(1, 2, 5.0, FAULT, BIND) + sample(1, 3, 5.0001, POLL)
        *_, serial, cats = idle_helper.analyse(text.splitlines(True))
        self.assertEqual(serial, 1)
        self.assertEqual(cats, {"page faults": 1})


if __name__ == "__main__":
    unittest.main()
