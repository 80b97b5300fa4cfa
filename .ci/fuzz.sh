#!/usr/bin/env bash
# Bounded fuzz smoke over EVERY target in fuzz/ (SMOKE_SECONDS per target,
# FUZZ_JOBS targets at once; CI: about a minute on two cores, reusing the
# test run's binaries).
#
#   .ci/fuzz.sh                        # every target, the CI smoke
#   SMOKE_SECONDS=120 .ci/fuzz.sh lfc2 # a longer session of some targets
#   FUZZ_ENGINE=stable .ci/fuzz.sh     # force the stable harness
#   FUZZ_JOBS=1 .ci/fuzz.sh            # one target at a time
#
# Engines, best first (FUZZ_ENGINE=cargo-fuzz|libfuzzer|stable forces one):
#   cargo-fuzz  `cargo +nightly fuzz run` (AddressSanitizer), when nightly and
#               cargo-fuzz are installed;
#   libfuzzer   the same instrumentation without cargo-fuzz: the targets built
#               with SanitizerCoverage flags on nightly, or on stable with
#               RUSTC_BOOTSTRAP=1 (needs a C++ compiler for libFuzzer);
#   stable      no nightly features and no C++: each target as a plain binary
#               running fuzz/src/harness.rs (corpus, then random mutations).
# A fresh machine without nightly gets it through rustup when rustup exists
# (FUZZ_NO_INSTALL=1 skips that).
#
# Corpora (fuzz/corpus/<target>/, git-ignored) are seeded each run from the
# committed seeds in fuzz/seeds/<target>/, from the reference vectors when
# present ($LONGFELLOW_VECTORS or ../shared/vectors: read in place, copied only
# into the corpus), and from the test issuer (synthetic DeviceResponses).
# Without the vectors the targets that need them are skipped with one line.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
# FUZZ_BINDIR (relative to the repository root): binaries a test run built,
# used as they are — the stable targets and the seed generator below.
prebuilt=
if [ -n "${FUZZ_BINDIR:-}" ]; then
  prebuilt=$(cd "$FUZZ_BINDIR" 2>/dev/null && pwd) || {
    echo "== FUZZ_BINDIR=$FUZZ_BINDIR is not a directory" >&2
    exit 1
  }
fi
jobs_max="${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}"
# The run loop's wait needs a bound of at least one: with 0 it would wait
# for a free slot forever, and a non-number would fail each comparison.
if ! [[ "$jobs_max" =~ ^[1-9][0-9]*$ ]]; then
  echo "== FUZZ_JOBS=$jobs_max is not a positive whole number" >&2
  exit 1
fi
secs="${SMOKE_SECONDS:-5}"
vectors="${LONGFELLOW_VECTORS:-$(cd .. && pwd)/shared/vectors}"
export LONGFELLOW_VECTORS="$vectors"
all=(lfc1 lfc2 lfa2 zstd any circuit_structured request_json zk_proof_verify
  ligero_proof_read sumcheck_proof_read mdoc_device_response mdoc_proof_verify mdoc_prove
  zk_device_response service_request capi)
needs_vectors=" zk_proof_verify ligero_proof_read sumcheck_proof_read mdoc_device_response mdoc_proof_verify mdoc_prove "
if [ $# -gt 0 ]; then targets=("$@"); else targets=("${all[@]}"); fi
cd fuzz

# --- corpora -----------------------------------------------------------------
for t in "${all[@]}"; do
  mkdir -p "corpus/$t"
  if [ -d "seeds/$t" ]; then cp -f "seeds/$t"/* "corpus/$t/" 2>/dev/null || true; fi
done
have_vectors=
if [ -d "$vectors/google" ]; then
  have_vectors=1
  spec="$vectors/google/spec"
  circuits="$vectors/google/mdoc/circuits"
  v7_1=8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121
  cp -f "$spec"/*.lfc2 corpus/lfc2/
  cp -f "$spec"/*.lfc2 corpus/any/
  cp -f "$vectors"/isrg/one-circuit/*.circuit.zst corpus/zstd/
  cp -f "$vectors"/isrg/one-circuit/*.circuit.zst corpus/any/
  cp -f "$circuits/$v7_1.lfa2" corpus/zstd/v7-1.lfa2
  cp -f "$circuits/$v7_1.lfa2" corpus/any/v7-1.lfa2
  # Unpacked forms (LFC1 circuits, the LFA2 archive without its magic) need
  # the zstd tool; without it those two targets start from fuzz/seeds only.
  if command -v zstd >/dev/null; then
    for f in "$vectors"/isrg/one-circuit/*.circuit.zst; do
      zstd -qdc "$f" >"corpus/lfc1/$(basename "$f" .zst)"
    done
    zstd -qdc "$circuits/$v7_1.lfa2" | tail -c +5 >corpus/lfa2/v7-1
  fi
  # Spec proofs: root (32 bytes) ‖ sumcheck ‖ Ligero; the sumcheck part is
  # 9,024 bytes (sha256) and 15,168 bytes (ecdsa2).
  cp -f "$spec/sha256_proof.bin" corpus/zk_proof_verify/sha256
  head -c 9056 "$spec/sha256_proof.bin" | tail -c +33 >corpus/sumcheck_proof_read/sha256
  tail -c +9057 "$spec/sha256_proof.bin" >corpus/ligero_proof_read/sha256
  head -c 15200 "$spec/ecdsa2_proof.bin" | tail -c +33 >corpus/sumcheck_proof_read/ecdsa2
  tail -c +15201 "$spec/ecdsa2_proof.bin" >corpus/ligero_proof_read/ecdsa2
  cp -f "$vectors/google/mdoc/proofs/$v7_1.bin" corpus/mdoc_proof_verify/v7-1
  # The 22 reference DeviceResponses (hex in cases.json) and their requests.
  if command -v python3 >/dev/null; then
    python3 - "$vectors/google/mdoc/cases.json" <<'EOF'
import json, sys
cases = json.load(open(sys.argv[1]))
for i, c in enumerate(cases):
    for t in ("mdoc_device_response", "mdoc_prove"):
        with open(f"corpus/{t}/case-{i:02}.cbor", "wb") as f:
            f.write(bytes.fromhex(c["mdoc_hex"]))
    req = {k: c[k] for k in ("pkx", "pky", "transcript_hex", "now", "doc_type")}
    req["attributes"] = []
    with open(f"corpus/request_json/case-{i:02}.json", "w") as f:
        json.dump(req, f)
EOF
  fi
fi
# The relying party's and the C ABI's entry points: seeds from committed
# files (Google's example requests, the synthetic mDL, the hostile corpus).
if command -v python3 >/dev/null; then
  python3 make_seeds.py corpus
fi
# Synthetic DeviceResponses from the test issuer (varied profiles, shapes).
# With FUZZ_BINDIR (CI: after `cargo test --workspace`, which builds every
# example) the generator is taken from there: `cargo run -p` resolves
# features for the issuer crate alone and recompiled its tree (about 60 s on
# two Zen 3 cores) for a program that runs in milliseconds.
if [[ " ${targets[*]} " == *" mdoc_"* ]] && [ -z "${NO_ISSUER_SEEDS:-}" ]; then
  if [ -n "$prebuilt" ] && [ -x "$prebuilt/examples/fuzz_seeds" ]; then
    (cd "$root" && "$prebuilt/examples/fuzz_seeds" fuzz/corpus/mdoc_device_response \
      "${ISSUER_SEEDS:-16}")
  else
    (cd "$root" && cargo run -q -p longfellow-mdoc-issuer --example fuzz_seeds -- \
      fuzz/corpus/mdoc_device_response "${ISSUER_SEEDS:-16}")
  fi
  cp -f corpus/mdoc_device_response/* corpus/mdoc_prove/ 2>/dev/null || true
fi

# --- engine ------------------------------------------------------------------
have_nightly() { rustup run nightly rustc --version >/dev/null 2>&1; }
engine="${FUZZ_ENGINE:-}"
if [ -z "$engine" ]; then
  if command -v rustup >/dev/null && ! have_nightly && [ -z "${FUZZ_NO_INSTALL:-}" ]; then
    echo "== installing a nightly toolchain for libFuzzer (rustup)"
    rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
  fi
  if command -v rustup >/dev/null && have_nightly && cargo +nightly fuzz --version >/dev/null 2>&1; then
    engine=cargo-fuzz
  elif command -v c++ >/dev/null; then
    engine=libfuzzer
  else
    engine=stable
  fi
fi
target_dir="${FUZZ_TARGET_DIR:-$root/target/fuzz}"
# SanitizerCoverage as cargo-fuzz sets it (AddressSanitizer on nightly only).
sancov="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4
  -Cllvm-args=-sanitizer-coverage-inline-8bit-counters
  -Cllvm-args=-sanitizer-coverage-pc-table -Cllvm-args=-sanitizer-coverage-trace-compares
  --cfg fuzzing -Cdebug-assertions -Coverflow-checks"
# An explicit --target keeps RUSTFLAGS off build scripts and proc macros.
host=$(rustc -vV | sed -n 's/^host: //p')
# The workspace's release profile is fat LTO over one codegen unit: right
# for shipped binaries, needless for instrumented fuzz builds.
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  CARGO_PROFILE_RELEASE_DEBUG=1
build_libfuzzer() {
  if command -v rustup >/dev/null && have_nightly; then
    RUSTFLAGS="$sancov -Zsanitizer=address" cargo +nightly build --release -p longfellow-fuzz \
      --features libfuzzer --target "$host" --target-dir "$target_dir/libfuzzer" --bins
  else
    RUSTC_BOOTSTRAP=1 RUSTFLAGS="$sancov" cargo build --release -p longfellow-fuzz \
      --features libfuzzer --target "$host" --target-dir "$target_dir/libfuzzer" --bins
  fi
}
bindir=
case "$engine" in
  cargo-fuzz)
    cargo +nightly fuzz build -O --features libfuzzer --target-dir "$target_dir" ;;
  libfuzzer)
    if build_libfuzzer; then
      bindir="$target_dir/libfuzzer/$host/release"
    else
      echo "== libFuzzer build failed; falling back to the stable harness"
      engine=stable
    fi ;;
esac
if [ "$engine" = stable ]; then
  # The fuzz crate is a workspace member: its stable binaries are the ones
  # `cargo test --workspace` builds (workspace dev profile: optimised, with
  # overflow checks and debug assertions on). FUZZ_BINDIR reuses them as
  # they are (CI: target/debug, after the test run); otherwise build them.
  if [ -n "$prebuilt" ]; then
    bindir=$prebuilt
  else
    (cd "$root" && cargo build -p longfellow-fuzz --bins)
    bindir="$root/target/debug"
  fi
fi
echo "== engine: $engine"

# --- runs --------------------------------------------------------------------
# FUZZ_JOBS targets (default: one per CPU) run at once, each one's lines
# printed together, in the order of the list, once all have ended. The
# targets that prove or verify run on rayon's pool, so with more than one
# job each process gets one thread (RAYON_NUM_THREADS) instead of all
# of them competing for every core.
run_target() {
  local t=$1 time=$secs len=65536 rss=512 timeout=10 status
  # -max_len: each target's real inputs (the LFA2 archive unpacks to 1.6 MB,
  # an mdoc proof is 360 kB); -rss_limit_mb: what a decoder may use.
  case "$t" in
    # A whole v7 pair (7.8 M terms, IDs recomputed) takes seconds under
    # AddressSanitizer on a loaded machine: not a hang.
    lfa2) len=2000000 timeout=60 ;;
    zstd | any) len=600000 timeout=60 ;;
    lfc2 | lfc1) len=131072 ;;
    circuit_structured) len=4096 rss=256 ;;
    request_json) len=8192 rss=128 ;;
    zk_proof_verify) time=$((secs + 5)) ;;
    ligero_proof_read | sumcheck_proof_read) time=$((secs + 5)) ;;
    mdoc_device_response) len=16384 ;;
    # Google's example responses are 0.3-0.5 MB (their proofs).
    zk_device_response | service_request) len=600000 ;;
    capi) len=16384 ;;
    mdoc_proof_verify) time=$((secs + 20)) len=400000 rss=2048 timeout=120 ;;
    # One input that proves takes a minute under AddressSanitizer.
    mdoc_prove) time=$((secs + 20)) len=16384 rss=2048 timeout=300 ;;
  esac
  echo "== fuzz $t for ${time}s (-max_len=$len)"
  local flags=(-max_total_time="$time" -max_len="$len" -timeout="$timeout")
  if [ "$engine" = cargo-fuzz ]; then
    cargo +nightly fuzz run -O --features libfuzzer --target-dir "$target_dir" "$t" "corpus/$t" -- \
      "${flags[@]}" -rss_limit_mb="$rss" -print_final_stats=1 2>&1 |
      grep -E "^stat::number_of_executed_units|SUMMARY|ERROR|panicked"
    status=${PIPESTATUS[0]}
  elif [ "$engine" = libfuzzer ]; then
    mkdir -p "artifacts/$t"
    "$bindir/$t" "corpus/$t" "${flags[@]}" -rss_limit_mb="$rss" -print_final_stats=1 \
      -artifact_prefix="artifacts/$t/" 2>&1 |
      grep -E "^stat::number_of_executed_units|SUMMARY|ERROR|panicked"
    status=${PIPESTATUS[0]}
  elif [ ! -x "$bindir/$t" ]; then
    echo "== no binary $bindir/$t (build the fuzz crate)"
    status=1
  else
    "$bindir/$t" "corpus/$t" "${flags[@]}" && status=0 || status=$?
  fi
  return "$status"
}
if [ "$jobs_max" -gt 1 ]; then export RAYON_NUM_THREADS="${RAYON_NUM_THREADS:-1}"; fi
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT
ran=()
for t in "${targets[@]}"; do
  if [[ "$needs_vectors" == *" $t "* ]] && [ -z "$have_vectors" ]; then
    echo "== skip $t: needs the reference vectors (set LONGFELLOW_VECTORS)"
    continue
  fi
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n || true; done
  (set +e; run_target "$t" >"$logs/$t.log" 2>&1; echo $? >"$logs/$t.status") &
  ran+=("$t")
done
wait
failed=()
for t in "${ran[@]}"; do
  cat "$logs/$t.log"
  if [ "$(cat "$logs/$t.status" 2>/dev/null)" != 0 ]; then failed+=("$t"); fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "== FAILED: ${failed[*]} (reproducers in fuzz/artifacts/<target>/)"
  exit 1
fi
echo "== ${#targets[@]} targets ran without a crash ($engine)"
