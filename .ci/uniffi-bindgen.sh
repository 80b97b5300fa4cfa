#!/usr/bin/env bash
# Prints the path of `uniffi-bindgen` at the version Cargo.lock pins,
# installing it first when missing: from crates.io into target/tools, at
# opt-level 0 (it only writes source files; about two minutes cold, nothing
# warm). The CI scripts use it instead of the crate's `bindgen` feature,
# which would recompile the library under another feature set. Progress goes
# to stderr, the path alone to stdout. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
tdir="${CARGO_TARGET_DIR:-$PWD/target}"
version="$(awk '/^name = "uniffi"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
tools="$tdir/tools/uniffi-$version"
bindgen="$tools/bin/uniffi-bindgen"
if [ ! -x "$bindgen" ]; then
  install() {
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_LTO=false \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16 CARGO_PROFILE_RELEASE_DEBUG=false \
      CARGO_TARGET_DIR="$tdir/tools/uniffi-build" \
      cargo install -q uniffi --version "$version" --features cli --bin uniffi-bindgen \
      --root "$tools" "$@" >&2
  }
  # --locked uses the tool's own lock file; fall back to a fresh resolution
  # where the registry lacks one of its exact versions.
  install --locked || install
fi
echo "$bindgen"
