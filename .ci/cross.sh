#!/usr/bin/env bash
# Library builds of the verifier (longfellow-mdoc) and the prover
# (longfellow-mdoc-prover) for wasm32-unknown-unknown (32-bit) and
# aarch64-linux-android, the targets wallets ship that CI's host is not.
#
# `cargo build`, not `cargo check`: a constant shift that overflows a 32-bit
# `usize` inside a generic function (`1 << 32` in crates/sumcheck once) is
# only reported when the function is instantiated at code generation. The
# build is as cheap as code generation allows: opt-level 0 and no debug
# information for every crate (the dev profile with its optimisation
# overrides turned off on the command line), both targets in one cargo
# invocation. Installs the two rustup targets itself. Honours
# CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
start=$SECONDS
targets=(wasm32-unknown-unknown aarch64-linux-android)

rustup target add "${targets[@]}"

target_args=()
for t in "${targets[@]}"; do target_args+=(--target "$t"); done
cargo build -p longfellow-mdoc -p longfellow-mdoc-prover "${target_args[@]}" \
  --config 'profile.dev.opt-level=0' \
  --config 'profile.dev.debug=false' \
  --config 'profile.dev.package."*".opt-level=0'

echo "cross: longfellow-mdoc and longfellow-mdoc-prover built for ${targets[*]} in $((SECONDS - start)) s"
