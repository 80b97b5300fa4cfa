#!/usr/bin/env bash
# Idiomatic bindings: cross builds of the libraries (wasm32, Android), the
# wasm-bindgen package with its Node test, the UniFFI Python bindings with
# pytest, the UniFFI Kotlin bindings on the JVM (Maven), and the native CLI
# checking the proofs they made.
# Installs what it needs: rustup targets, wasm-bindgen-cli (the version the
# lock file pins, built from crates.io, cached in ~/.cargo/bin), pytest;
# Maven fetches the Kotlin compiler, JNA and JUnit from Maven Central.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
root="$PWD"
vectors="${LONGFELLOW_VECTORS:-$root/../shared/vectors}"
out="$root/target/bindings-out"
rm -rf "$out"
mkdir -p "$out"
export LONGFELLOW_BINDINGS_OUT="$out"

step() { printf '\n== %s\n' "$*"; }

step "rustup targets"
rustup target add wasm32-unknown-unknown aarch64-linux-android

# `cargo build`, not `check`: only codegen reports constant shift overflows
# of 32-bit targets.
for target in wasm32-unknown-unknown aarch64-linux-android; do
  step "cargo build (libraries) --target $target"
  cargo build -p longfellow-mdoc -p longfellow-mdoc-prover --target "$target"
done

step "wasm-bindgen-cli"
wb_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  # --locked pins the tool's own lock file; a registry mirror lacking one of
  # those exact versions fails it, so fall back to a fresh resolution.
  cargo install wasm-bindgen-cli --version "$wb_version" --locked \
    || cargo install wasm-bindgen-cli --version "$wb_version"
fi
wasm-bindgen --version

step "longfellow-wasm (release, nodejs package)"
# Optimised code matters (proving in unoptimised wasm takes minutes); fat
# LTO over one codegen unit does not, and would double the build time.
CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 \
  cargo build -p longfellow-wasm --release --target wasm32-unknown-unknown
rm -rf target/wasm-pkg
wasm-bindgen --target nodejs --out-dir target/wasm-pkg \
  target/wasm32-unknown-unknown/release/longfellow_wasm.wasm

step "node --test (wasm)"
LONGFELLOW_WASM_PKG="$root/target/wasm-pkg" LONGFELLOW_VECTORS="$vectors" \
  node --test crates/wasm/tests/node/

step "longfellow-uniffi: library and uniffi-bindgen"
cargo build -p longfellow-uniffi --features bindgen
lib="target/debug/liblongfellow_uniffi.so"
rm -rf target/uniffi-py
target/debug/uniffi-bindgen generate --library "$lib" --language python \
  --out-dir target/uniffi-py
cp "$lib" target/uniffi-py/

step "pytest (UniFFI Python)"
python3 -m pytest --version >/dev/null 2>&1 || python3 -m pip install --quiet pytest \
  || python3 -m pip install --quiet --break-system-packages pytest
LONGFELLOW_UNIFFI_PY="$root/target/uniffi-py" LONGFELLOW_VECTORS="$vectors" \
  python3 -m pytest -q crates/uniffi/tests/python

step "Kotlin on the JVM (UniFFI Kotlin over JNA, Maven)"
rm -rf target/uniffi-kotlin
target/debug/uniffi-bindgen generate --library "$lib" --language kotlin \
  --out-dir target/uniffi-kotlin
mvn -B -q -f crates/uniffi/tests/kotlin/pom.xml test \
  -Duniffi.generated="$root/target/uniffi-kotlin" \
  -Duniffi.libdir="$root/target/debug" \
  -Dlongfellow.vectors="$vectors"

step "Swift (generated; compile-checked only where swiftc exists)"
rm -rf target/uniffi-swift
target/debug/uniffi-bindgen generate --library "$lib" --language swift \
  --out-dir target/uniffi-swift
test -s target/uniffi-swift/longfellow_uniffi.swift
if command -v swiftc >/dev/null 2>&1; then
  swiftc -typecheck target/uniffi-swift/longfellow_uniffi.swift \
    -Xcc -fmodule-map-file=target/uniffi-swift/longfellow_uniffiFFI.modulemap \
    -I target/uniffi-swift
  echo "swift bindings type-check"
else
  echo "no Swift toolchain on this machine: Swift bindings generated, not compiled"
fi

step "native CLI verifies the proofs made through the bindings"
circuit="$vectors/google/mdoc/circuits/8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121.lfa2"
for proof in "$out"/*.proof; do
  printf '%s: ' "$(basename "$proof")"
  cargo run -q --bin longfellow -- mdoc verify \
    --circuit "$circuit" --request "$out/request.json" --proof "$proof"
done
