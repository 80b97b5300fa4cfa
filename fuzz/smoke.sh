#!/usr/bin/env bash
# Short fuzz smoke run (needs nightly and cargo-fuzz: `cargo install
# cargo-fuzz`). Seeds each corpus from the shared vectors (read in place,
# copied only into the git-ignored fuzz/corpus/, never committed) and from
# the test issuer's fuzz_seeds example.
#
#   SECONDS_PER_TARGET=30 fuzz/smoke.sh              # every target
#   SECONDS_PER_TARGET=30 fuzz/smoke.sh lfc2 zk_proof_verify
#
# The proof targets load their circuits on the first input (the mdoc pair
# takes a while), so they get extra time on top of SECONDS_PER_TARGET.
set -euo pipefail
cd "$(dirname "$0")"
secs="${SECONDS_PER_TARGET:-30}"
vectors="${LONGFELLOW_VECTORS:-$(cd ../.. && pwd)/shared/vectors}"
export LONGFELLOW_VECTORS="$vectors"
all=(lfc1 lfc2 lfa2 zstd any zk_proof_verify ligero_proof_read sumcheck_proof_read
  mdoc_device_response mdoc_proof_verify)
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi
for t in "${all[@]}"; do mkdir -p "corpus/$t"; done

spec="$vectors/google/spec"
mdoc_v7_1=8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121
if [ -d "$vectors" ]; then
  cp -f "$spec"/*.lfc2 corpus/lfc2/ 2>/dev/null || true
  cp -f "$vectors"/isrg/one-circuit/*.circuit.zst corpus/zstd/ 2>/dev/null || true
  cp -f "$vectors"/isrg/one-circuit/*.circuit.zst corpus/any/ 2>/dev/null || true
  if command -v zstd >/dev/null; then
    for f in "$vectors"/isrg/one-circuit/*.circuit.zst; do
      zstd -qdc "$f" > "corpus/lfc1/$(basename "$f" .zst)" || true
    done
    # LFA2 target gets the archive without its 4-byte magic.
    f="$vectors/google/mdoc/circuits/$mdoc_v7_1.lfa2"
    [ -f "$f" ] && zstd -qdc "$f" | tail -c +5 > corpus/lfa2/v7-1 || true
  fi

  # Spec proofs: root (32 bytes) ‖ sumcheck ‖ Ligero. The sumcheck part is
  # 9,024 bytes (sha256) and 15,168 bytes (ecdsa2); the section table is
  # printed by `cargo test -p longfellow-zk --test hardening -- --nocapture`.
  if [ -f "$spec/sha256_proof.bin" ]; then
    cat "$spec/sha256_proof.bin" > corpus/zk_proof_verify/sha256
    head -c 9056 "$spec/sha256_proof.bin" | tail -c +33 > corpus/sumcheck_proof_read/sha256
    tail -c +9057 "$spec/sha256_proof.bin" > corpus/ligero_proof_read/sha256
  fi
  if [ -f "$spec/ecdsa2_proof.bin" ]; then
    head -c 15200 "$spec/ecdsa2_proof.bin" | tail -c +33 > corpus/sumcheck_proof_read/ecdsa2
    tail -c +15201 "$spec/ecdsa2_proof.bin" > corpus/ligero_proof_read/ecdsa2
  fi
  f="$vectors/google/mdoc/proofs/$mdoc_v7_1.bin"
  [ -f "$f" ] && cat "$f" > corpus/mdoc_proof_verify/v7-1

  # The 22 reference DeviceResponses (hex in cases.json).
  if command -v python3 >/dev/null && [ -f "$vectors/google/mdoc/cases.json" ]; then
    python3 - "$vectors/google/mdoc/cases.json" corpus/mdoc_device_response <<'EOF'
import json, sys
for i, case in enumerate(json.load(open(sys.argv[1]))):
    with open(f"{sys.argv[2]}/case-{i:02}.cbor", "wb") as f:
        f.write(bytes.fromhex(case["mdoc_hex"]))
EOF
  fi
fi
# Synthetic DeviceResponses from the test issuer (varied profiles and shapes).
if [[ " ${targets[*]} " == *" mdoc_device_response "* ]] && [ -z "${NO_ISSUER_SEEDS:-}" ]; then
  (cd .. && cargo run -q -p longfellow-mdoc-issuer --example fuzz_seeds -- \
    fuzz/corpus/mdoc_device_response "${ISSUER_SEEDS:-32}")
fi

# FUZZ_TARGET_DIR: where cargo-fuzz builds (default fuzz/target).
target_dir="${FUZZ_TARGET_DIR:-target}"
failed=()
for t in "${targets[@]}"; do
  time=$secs len=65536 rss=1024 timeout=20
  case "$t" in
    zk_proof_verify | ligero_proof_read | sumcheck_proof_read) time=$((secs + 10)) ;;
    mdoc_proof_verify) time=$((secs + 120)) len=400000 rss=4096 timeout=120 ;;
  esac
  echo "== fuzz $t for ${time}s"
  if ! cargo +nightly fuzz run --target-dir "$target_dir" "$t" "corpus/$t" -- \
    -max_total_time="$time" -rss_limit_mb="$rss" -max_len="$len" -timeout="$timeout"; then
    failed+=("$t")
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "== FAILED: ${failed[*]} (reproducers in fuzz/artifacts/<target>/)"
  exit 1
fi
echo "== all ${#targets[@]} targets ran without a crash"
