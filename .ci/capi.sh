#!/usr/bin/env bash
# The C ABI (crates/capi) tested from the languages that call it: C (static
# and shared), Python (ctypes + pytest), Go (cgo + go test) and the JVM (JNA
# + Maven Surefire, loading `zkp` as Multipaz does). The library is built
# once per ABI variant in the dev profile (already optimised in this
# workspace), then every language test links that build. Finally a proof
# made through the C ABI is checked with `longfellow mdoc verify`.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export CARGO_TERM_COLOR=never
VECTORS=${LONGFELLOW_VECTORS:-$ROOT/../shared/vectors}
VECTORS=$(cd "$VECTORS" && pwd)
export LONGFELLOW_VECTORS=$VECTORS
OUT=$ROOT/target/capi
rm -rf "$OUT"
mkdir -p "$OUT/google" "$OUT/multipaz" "$OUT/cli"

# --- tools a fresh machine may lack -----------------------------------------
apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v cc >/dev/null || apt_install build-essential
command -v make >/dev/null || apt_install make
command -v python3 >/dev/null || apt_install python3
command -v go >/dev/null || apt_install golang-go
command -v mvn >/dev/null || apt_install maven
command -v java >/dev/null || apt_install default-jdk-headless
if ! python3 -c 'import pytest' 2>/dev/null; then
  python3 -m pip install -q pytest 2>/dev/null \
    || python3 -m pip install -q --break-system-packages pytest 2>/dev/null \
    || apt_install python3-pytest
fi

# --- build both ABI variants once ------------------------------------------
step() { echo; echo "== capi: $*"; }
# Both through the capi crate's `abi` test with the workspace's feature set
# (`--workspace`, test mode), so after `cargo test --workspace` the Google
# build is already fresh and the Multipaz one recompiles this crate alone;
# `cargo build -p longfellow-capi` resolves features for this crate and
# recompiled the 51 crates under it (about 70 s on two Zen 3 cores).
# Either build leaves the library in target/debug/deps.
capi_build() { cargo test -q --workspace --no-run --test abi "$@"; }
step "cargo build (Google ABI)"
capi_build
cp target/debug/deps/libmdoc_zk.so target/debug/deps/libmdoc_zk.a "$OUT/google/"
step "cargo build (Multipaz ABI, feature multipaz)"
capi_build --features longfellow-capi/multipaz
# Multipaz loads the library by the name `zkp`.
cp target/debug/deps/libmdoc_zk.so "$OUT/multipaz/libzkp.so"

# --- C ------------------------------------------------------------------------
step "C: static and shared library"
make -s -C crates/capi/tests/c clean
make -s -C crates/capi/tests/c test LIBDIR="$OUT/google" VECTORS="$VECTORS" OUT="$OUT/cli"

# --- the CLI accepts a proof made through the C ABI ------------------------
step "longfellow mdoc verify on the C ABI's proof"
# The test run built the CLI with the workspace's features; `cargo build
# --bin longfellow` alone resolves them for the CLI and rebuilt 94 crates
# (84 s on two cores).
[ -x target/debug/longfellow ] || cargo build -q --workspace --bin longfellow
verdict=$(target/debug/longfellow mdoc verify \
  --circuit "$VECTORS/google/mdoc/circuits/8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121" \
  --request "$OUT/cli/request.json" --proof "$OUT/cli/proof.bin")
if [ "$verdict" = valid ]; then
  echo "cli: 1 passed, 0 failed"
else
  echo "cli: longfellow mdoc verify printed '$verdict'" >&2
  exit 1
fi

# --- Python -------------------------------------------------------------------
step "Python: ctypes + pytest"
(cd crates/capi/bindings/python &&
  LONGFELLOW_CAPI_LIB="$OUT/google/libmdoc_zk.so" PYTHONPATH=. python3 -m pytest -q -p no:cacheprovider tests)

# --- Go -----------------------------------------------------------------------
step "Go: cgo + go test"
(cd crates/capi/bindings/go &&
  CGO_ENABLED=1 CGO_LDFLAGS="-L$OUT/google -Wl,-rpath,$OUT/google" go test -count=1 ./...)

# --- JVM ----------------------------------------------------------------------
step "JVM: JNA + Maven Surefire (Multipaz variant, library zkp)"
(cd crates/capi/bindings/jvm &&
  mvn -B -ntp test -Djna.library.path="$OUT/multipaz" -Dlongfellow.vectors="$VECTORS")
echo "jvm: Surefire passed"
