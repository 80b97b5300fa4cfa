#!/usr/bin/env bash
# The UniFFI Python bindings (crates/uniffi) under pytest, on the library the
# workspace's `cargo test --workspace` already built (target/debug, the
# optimised dev profile), with the generator .ci/uniffi-bindgen.sh installs.
# `.ci/bindings.sh` runs it beside the Kotlin, wasm and Swift checks.
# Installs pytest when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
root="$PWD"
tdir="${CARGO_TARGET_DIR:-$root/target}"
vectors="${LONGFELLOW_VECTORS:-$root/../shared/vectors}"
vectors="$(cd "$vectors" && pwd)"
# `cargo test --workspace` leaves the library in deps/ (it uplifts only
# what `cargo build` would); `-p longfellow-uniffi` alone would resolve
# features for this crate and rebuild the tree under it.
lib="$tdir/debug/liblongfellow_uniffi.so"
if [ ! -f "$lib" ] && [ -f "$tdir/debug/deps/liblongfellow_uniffi.so" ]; then
  lib="$tdir/debug/deps/liblongfellow_uniffi.so"
fi
if [ ! -f "$lib" ]; then
  cargo build -p longfellow-uniffi
  lib="$tdir/debug/liblongfellow_uniffi.so"
fi
if ! python3 -c 'import pytest' 2>/dev/null; then
  python3 -m pip install -q pytest 2>/dev/null \
    || python3 -m pip install -q --break-system-packages pytest
fi

bindgen="$(bash .ci/uniffi-bindgen.sh)"

out="$tdir/uniffi-py-ci"
rm -rf "$out"
"$bindgen" generate --library "$lib" --language python --out-dir "$out" >/dev/null
cp "$lib" "$out/"
LONGFELLOW_UNIFFI_PY="$out" LONGFELLOW_VECTORS="$vectors" \
  python3 -m pytest -q -p no:cacheprovider crates/uniffi/tests/python
