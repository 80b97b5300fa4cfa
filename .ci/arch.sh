#!/usr/bin/env bash
# The field crate's instruction-set paths (crates/field/src/arch):
#  1. Google's reference proofs reproduced byte for byte on the portable
#     path (LONGFELLOW_FIELD_KERNELS=soft: no carry-less multiply, no
#     assembly), and the field tests built with the force-soft feature;
#  2. the field crate built for aarch64-linux-android and
#     wasm32-unknown-unknown (with and without std);
#  3. the field tests for aarch64 under qemu-user (PMULL kernels against
#     the portable ones), installing the emulator and cross linker with
#     apt-get when missing. LONGFELLOW_SKIP_QEMU=1 skips this step.
# The field tests on every kernel the host CPU has (512-, 256-, 128-bit,
# portable) run in the ordinary `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

echo "== reference proofs on the portable path"
LONGFELLOW_FIELD_KERNELS=soft cargo test -p longfellow-mdoc-prover --test reference_proofs

echo "== field tests with force-soft"
cargo test -p longfellow-field --features force-soft

echo "== cross builds"
rustup target add aarch64-linux-android wasm32-unknown-unknown aarch64-unknown-linux-gnu
cargo build -p longfellow-field --target aarch64-linux-android
cargo build -p longfellow-field --target wasm32-unknown-unknown
cargo build -p longfellow-field --target wasm32-unknown-unknown --no-default-features

if [ "${LONGFELLOW_SKIP_QEMU:-0}" = 1 ]; then
  echo "== aarch64 under qemu: skipped (LONGFELLOW_SKIP_QEMU=1)"
  exit 0
fi
echo "== field tests for aarch64 under qemu-user"
if ! command -v qemu-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then
  sudo=""
  if [ "$(id -u)" != 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq \
    qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross
fi
CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc \
CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -L /usr/aarch64-linux-gnu" \
  cargo test -p longfellow-field --target aarch64-unknown-linux-gnu
