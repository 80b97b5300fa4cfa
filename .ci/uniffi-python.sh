#!/usr/bin/env bash
# The UniFFI Python bindings (crates/uniffi) under pytest, on the library the
# workspace's `cargo test --workspace` already built (target/debug, the
# optimised dev profile). The generator, `uniffi-bindgen` at the version
# Cargo.lock pins, is installed from crates.io into target/tools at
# opt-level 0 (it only writes Python source; about two minutes cold, nothing
# warm) instead of building the crate's `bindgen` feature, which recompiles
# the library under another feature set. `.ci/bindings.sh` runs the same
# tests with Kotlin, wasm and Swift. Installs pytest when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
root="$PWD"
tdir="${CARGO_TARGET_DIR:-$root/target}"
vectors="${LONGFELLOW_VECTORS:-$root/../shared/vectors}"
vectors="$(cd "$vectors" && pwd)"
lib="$tdir/debug/liblongfellow_uniffi.so"
if [ ! -f "$lib" ]; then
  cargo build -p longfellow-uniffi
fi
if ! python3 -c 'import pytest' 2>/dev/null; then
  python3 -m pip install -q pytest 2>/dev/null \
    || python3 -m pip install -q --break-system-packages pytest
fi

version="$(awk '/^name = "uniffi"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
tools="$tdir/tools/uniffi-$version"
bindgen="$tools/bin/uniffi-bindgen"
if [ ! -x "$bindgen" ]; then
  install() {
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
      CARGO_TARGET_DIR="$tdir/tools/uniffi-build" \
      cargo install -q uniffi --version "$version" --features cli --bin uniffi-bindgen \
      --root "$tools" "$@"
  }
  # --locked uses the tool's own lock file; fall back to a fresh resolution
  # where the registry lacks one of its exact versions.
  install --locked || install
fi

out="$tdir/uniffi-py-ci"
rm -rf "$out"
"$bindgen" generate --library "$lib" --language python --out-dir "$out" >/dev/null
cp "$lib" "$out/"
LONGFELLOW_UNIFFI_PY="$out" LONGFELLOW_VECTORS="$vectors" \
  python3 -m pytest -q -p no:cacheprovider crates/uniffi/tests/python
