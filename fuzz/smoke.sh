#!/usr/bin/env bash
# Short fuzz smoke run of every circuit-format target (needs nightly and
# cargo-fuzz: `cargo install cargo-fuzz`). Seeds each corpus from the shared
# vectors (read in place, never committed). SECONDS_PER_TARGET defaults to 30.
set -euo pipefail
cd "$(dirname "$0")"
secs="${SECONDS_PER_TARGET:-30}"
vectors="${LONGFELLOW_VECTORS:-../../shared/vectors}"
mkdir -p corpus/{lfc1,lfc2,lfa2,zstd,any}
if [ -d "$vectors" ]; then
  cp -f "$vectors"/google/spec/*.lfc2 corpus/lfc2/ 2>/dev/null || true
  cp -f "$vectors"/isrg/one-circuit/*.circuit.zst corpus/zstd/ 2>/dev/null || true
  cp -f "$vectors"/isrg/one-circuit/*.circuit.zst corpus/any/ 2>/dev/null || true
  if command -v zstd >/dev/null; then
    for f in "$vectors"/isrg/one-circuit/*.circuit.zst; do
      zstd -qdc "$f" > "corpus/lfc1/$(basename "$f" .zst)" || true
    done
    # LFA2 target gets the archive without its 4-byte magic.
    f="$vectors/google/mdoc/circuits/8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121.lfa2"
    [ -f "$f" ] && zstd -qdc "$f" | tail -c +5 > corpus/lfa2/v7-1 || true
  fi
fi
for t in lfc1 lfc2 lfa2 zstd any; do
  echo "== fuzz $t for ${secs}s"
  cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$secs" -rss_limit_mb=1024 -max_len=65536
done
