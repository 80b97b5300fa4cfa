#!/usr/bin/env bash
# Side by side: this implementation against another one on the same machine,
# same circuit files, fresh processes, round robin, medians.
#
#   benches/compare/run.sh [--runs N] [--peer CMD] CIRCUIT_FILE...
#
# Both sides are driven through the `longfellow bench --only ROLE --circuit
# FILE --reference` contract: one role per process, `key=value` tokens on
# stdout (load_ms/load_cpu_ms, prove_ms/prove_cpu_ms, verify_ms/verify_cpu_ms,
# peak_rss_kib). The peer command must print the same tokens; for Google's
# implementation that is a small adapter built from its sources in
# $COMPARE (see benches/compare/README.md). Nothing of another implementation
# is built or kept inside this repository.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
COMPARE=${COMPARE:-${XDG_CACHE_HOME:-$HOME/.cache}/longfellow-compare}
case "$COMPARE/" in "$repo"/*) echo "COMPARE must be outside the repository" >&2; exit 2;; esac
runs=5
peer=""
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) runs=$2; shift 2;;
    --peer) peer=$2; shift 2;;
    --) shift; break;;
    -*) echo "unknown option $1" >&2; exit 2;;
    *) break;;
  esac
done
[ $# -gt 0 ] || { echo "usage: $0 [--runs N] [--peer CMD] CIRCUIT_FILE..." >&2; exit 2; }

mkdir -p "$COMPARE/ours"
# Ours from a clean export of HEAD, so uncommitted edits do not leak in.
rm -rf "$COMPARE/ours-src"; mkdir -p "$COMPARE/ours-src"
git -C "$repo" archive HEAD | tar -x -C "$COMPARE/ours-src"
(cd "$COMPARE/ours-src" && CARGO_TARGET_DIR="$COMPARE/ours/target" cargo build -q --release --bin longfellow)
ours="$COMPARE/ours/target/release/longfellow bench"

python3 "$repo/benches/compare/table.py" --runs "$runs" --side "ours=$ours" \
  ${peer:+--side "peer=$peer"} "$@"
