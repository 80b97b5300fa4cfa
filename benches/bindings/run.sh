#!/usr/bin/env bash
# One v7/1-attribute proof and its verification through every binding and
# through the native CLI, on the same machine and the same statement
# (Google's reference case `birthdate_1971_09_01-mdoc[3]`, attribute
# family_name), one after the other:
#
#   C ABI from C (static and shared), Python (ctypes) and Go (cgo);
#   UniFFI from Python and Kotlin/JVM; wasm-bindgen under Node; the CLI.
#
# The figures are printed by the bindings' own CI tests (their
# `timing <binding>: prove N ms, verify M ms` lines, measured in-process
# around the prove and verify calls, so runtime start-up and circuit loading
# are outside them); the CLI is timed around each process, so its figures
# include process start-up and circuit loading. Every path uses the build
# CI uses (dev profile, optimised in this workspace; wasm in release), so
# the comparison is like for like only between the native paths.
#
# Run from the repository root after `.ci/capi.sh` and `.ci/bindings.sh`
# have installed the toolchains (this script builds what it times):
#
#   bash benches/bindings/run.sh            # all
#   bash benches/bindings/run.sh cli wasm   # some: cli capi-c capi-python capi-go uniffi-python uniffi-kotlin wasm
#
# Only figures from an otherwise idle machine mean anything; the script
# prints the load average next to them.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
export CARGO_TERM_COLOR=never
tdir="${CARGO_TARGET_DIR:-$root/target}"
vectors="${LONGFELLOW_VECTORS:-$root/../shared/vectors}"
vectors="$(cd "$vectors" && pwd)"
export LONGFELLOW_VECTORS="$vectors"
v7_1=8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121
circuit="$vectors/google/mdoc/circuits/$v7_1"
work="$tdir/bindings-timing"
rm -rf "$work"
mkdir -p "$work"
results="$work/results.txt"
: >"$results"

paths=("$@")
want() {
  [ ${#paths[@]} -eq 0 ] && return 0
  local p
  for p in "${paths[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}
collect() { grep -o 'timing [a-z-]*: .*' | tee -a "$results" || true; }
step() { printf '\n== %s\n' "$*" >&2; }

if want cli; then
  step "native CLI"
  cargo build -q --bin longfellow
  python3 - "$vectors" "$work" <<'PY'
import json, pathlib, sys
vectors, work = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
cases = json.loads((vectors / "google/mdoc/cases.json").read_text())
c = next(c for c in cases if c["name"] == "birthdate_1971_09_01-mdoc[3].json")
(work / "mdoc.cbor").write_bytes(bytes.fromhex(c["mdoc_hex"]))
(work / "request.json").write_text(json.dumps({
    "pkx": c["pkx"], "pky": c["pky"], "transcript_hex": c["transcript_hex"],
    "now": "2024-10-01T09:00:00Z", "doc_type": c["doc_type"],
    "attributes": [{"namespace": "org.iso.18013.5.1", "id": "family_name",
                    "value_cbor_hex": (b"\x6aMustermann").hex()}],
}))
PY
  ms() { date +%s%N | awk '{ printf "%d", $1 / 1e6 }'; }
  t0=$(ms)
  "$tdir/debug/longfellow" mdoc prove --circuit "$circuit" --request "$work/request.json" \
    --mdoc "$work/mdoc.cbor" --out "$work/cli.proof"
  t1=$(ms)
  verdict=$("$tdir/debug/longfellow" mdoc verify --circuit "$circuit" \
    --request "$work/request.json" --proof "$work/cli.proof")
  t2=$(ms)
  [ "$verdict" = valid ]
  echo "timing cli: prove $((t1 - t0)) ms, verify $((t2 - t1)) ms (v7, 1 attribute; processes incl. circuit loading)" |
    collect
fi

if want capi-c || want capi-python || want capi-go; then
  step "C ABI library"
  cargo build -q -p longfellow-capi
  mkdir -p "$work/capi"
  cp "$tdir/debug/libmdoc_zk.so" "$tdir/debug/libmdoc_zk.a" "$work/capi/"
fi
if want capi-c; then
  step "C ABI from C"
  make -s -C crates/capi/tests/c clean
  make -s -C crates/capi/tests/c test LIBDIR="$work/capi" VECTORS="$vectors" OUT="$work/c-out" 2>&1 | collect
  make -s -C crates/capi/tests/c clean
fi
if want capi-python; then
  step "C ABI from Python (ctypes)"
  (cd crates/capi/bindings/python &&
    LONGFELLOW_CAPI_LIB="$work/capi/libmdoc_zk.so" PYTHONPATH=. \
      python3 -m pytest -q -s -p no:cacheprovider -k fresh tests) | collect
fi
if want capi-go; then
  step "C ABI from Go (cgo)"
  (cd crates/capi/bindings/go &&
    CGO_ENABLED=1 CGO_LDFLAGS="-L$work/capi -Wl,-rpath,$work/capi" \
      go test -count=1 -v -run TestFreshProofAndErrors ./...) | collect
fi

if want uniffi-python || want uniffi-kotlin; then
  step "UniFFI library and bindings"
  cargo build -q -p longfellow-uniffi --features bindgen
  lib="$tdir/debug/liblongfellow_uniffi.so"
fi
if want uniffi-python; then
  step "UniFFI from Python"
  rm -rf "$work/uniffi-py"
  "$tdir/debug/uniffi-bindgen" generate --library "$lib" --language python --out-dir "$work/uniffi-py"
  cp "$lib" "$work/uniffi-py/"
  LONGFELLOW_UNIFFI_PY="$work/uniffi-py" python3 -m pytest -q -s -p no:cacheprovider \
    -k fresh crates/uniffi/tests/python | collect
fi
if want uniffi-kotlin; then
  step "UniFFI from Kotlin on the JVM"
  rm -rf "$work/uniffi-kotlin"
  "$tdir/debug/uniffi-bindgen" generate --library "$lib" --language kotlin --out-dir "$work/uniffi-kotlin"
  mvn -B -q -f crates/uniffi/tests/kotlin/pom.xml test -Dtest='LongfellowUniffiTest#freshProofVerifies' \
    -Dsurefire.failIfNoSpecifiedTests=false \
    -Duniffi.generated="$work/uniffi-kotlin" -Duniffi.libdir="$tdir/debug" \
    -Dlongfellow.vectors="$vectors" | collect
fi

if want wasm; then
  step "wasm under Node"
  CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
    cargo build -q -p longfellow-wasm --release --target wasm32-unknown-unknown
  wasm-bindgen --target nodejs --out-dir "$work/wasm-pkg" \
    "$tdir/wasm32-unknown-unknown/release/longfellow_wasm.wasm"
  LONGFELLOW_WASM_PKG="$work/wasm-pkg" node --test --test-name-pattern='fresh proof' \
    crates/wasm/tests/node/ | collect
fi

printf '\n== results (load average: %s)\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
cat "$results"
