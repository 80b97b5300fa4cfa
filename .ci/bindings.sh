#!/usr/bin/env bash
# Idiomatic bindings: cross builds of the libraries (wasm32, Android), the
# wasm-bindgen package with its Node test, the UniFFI Python bindings with
# pytest, the UniFFI Kotlin bindings on the JVM (Maven), the Swift bindings
# (generated; type-checked where swiftc exists), and the native CLI checking
# the proofs they made.
# Installs what a fresh machine lacks: a C compiler, Node, JDK and Maven
# (Debian packages), pytest (pip), the rustup targets (through .ci/cross.sh),
# and wasm-bindgen-cli at the version Cargo.lock pins (cargo install from
# crates.io, kept in ~/.cargo/bin); Maven fetches the Kotlin compiler, JNA and JUnit from
# Maven Central. Honours CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never
export PATH="$HOME/.cargo/bin:$PATH"
root="$PWD"
tdir="${CARGO_TARGET_DIR:-$root/target}"
vectors="${LONGFELLOW_VECTORS:-$root/../shared/vectors}"
vectors="$(cd "$vectors" && pwd)"
out="$tdir/bindings-out"
rm -rf "$out"
mkdir -p "$out"
export LONGFELLOW_BINDINGS_OUT="$out"

began=$SECONDS
last=$SECONDS
step() {
  printf '\n== %s  (previous step %d s)\n' "$*" "$((SECONDS - last))"
  last=$SECONDS
}

step "tools a fresh machine may lack"
apt_updated=0
apt_install() {
  if [ "$apt_updated" = 0 ]; then apt-get update -qq; apt_updated=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}
command -v cc >/dev/null || apt_install build-essential
command -v python3 >/dev/null || apt_install python3 python3-pip
command -v node >/dev/null || apt_install nodejs
command -v java >/dev/null || apt_install default-jdk-headless
command -v mvn >/dev/null || apt_install maven
# `node --test` with --test-name-pattern needs Node 18.
node -e 'process.exit(+process.versions.node.split(".")[0] >= 18 ? 0 : 1)' \
  || { echo "Node >= 18 needed, found $(node --version)" >&2; exit 1; }
if ! python3 -c 'import pytest' 2>/dev/null; then
  python3 -m pip install -q pytest 2>/dev/null \
    || python3 -m pip install -q --break-system-packages pytest 2>/dev/null \
    || apt_install python3-pytest
fi

step ".ci/cross.sh (rustup targets; library builds for wasm32 and Android)"
bash .ci/cross.sh

step "wasm-bindgen-cli"
wb_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)"
if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$wb_version" ]; then
  # No registry reachable here ships the CLI prebuilt, so it is compiled, as
  # cheaply as it allows: only the `wasm-bindgen` binary, without the test
  # runner's TLS stack (default feature rustls-tls), at opt-level 0 (it
  # processes one module in about a second even so). --locked pins the
  # tool's own lock file; a registry mirror lacking one of those exact
  # versions fails it, so fall back to a fresh resolution.
  wb_install() {
    CARGO_PROFILE_RELEASE_OPT_LEVEL=0 CARGO_PROFILE_RELEASE_DEBUG=false \
      CARGO_PROFILE_RELEASE_CODEGEN_UNITS=256 CARGO_PROFILE_RELEASE_LTO=false \
      cargo install wasm-bindgen-cli --version "$wb_version" \
      --no-default-features --bin wasm-bindgen "$@"
  }
  wb_install --locked || wb_install
fi
wasm-bindgen --version

step "longfellow-wasm (dev profile, nodejs package)"
# The workspace's dev profile is optimised (opt-level 2, dependencies 3):
# unoptimised wasm would prove far too slowly. It is the profile every other
# binding is tested in, and benches/bindings/run.sh reuses this build.
cargo build -p longfellow-wasm --target wasm32-unknown-unknown
rm -rf "$tdir/wasm-pkg"
time wasm-bindgen --target nodejs --out-dir "$tdir/wasm-pkg" \
  "$tdir/wasm32-unknown-unknown/debug/longfellow_wasm.wasm"

step "node --test (wasm)"
LONGFELLOW_WASM_PKG="$tdir/wasm-pkg" LONGFELLOW_VECTORS="$vectors" \
  node --test crates/wasm/tests/node/

step ".ci/uniffi-python.sh (UniFFI Python under pytest)"
cargo build -p longfellow-uniffi
bash .ci/uniffi-python.sh
lib="$tdir/debug/liblongfellow_uniffi.so"
bindgen="$(bash .ci/uniffi-bindgen.sh)"

step "Kotlin on the JVM (UniFFI Kotlin over JNA, Maven)"
rm -rf "$tdir/uniffi-kotlin"
"$bindgen" generate --library "$lib" --language kotlin --out-dir "$tdir/uniffi-kotlin"
mvn -B -ntp -f crates/uniffi/tests/kotlin/pom.xml test \
  -Duniffi.generated="$tdir/uniffi-kotlin" \
  -Duniffi.libdir="$tdir/debug" \
  -Dlongfellow.vectors="$vectors"

step "Swift (generated; compile-checked only where swiftc exists)"
swift="$tdir/uniffi-swift"
rm -rf "$swift"
"$bindgen" generate --library "$lib" --language swift --out-dir "$swift"
test -s "$swift/longfellow_uniffi.swift"
# Debian 12 packages no Swift compiler (`apt-cache policy swiftlang` is empty);
# on a machine that has one, the bindings are type-checked against their
# generated C header.
if command -v swiftc >/dev/null 2>&1; then
  swiftc -typecheck "$swift/longfellow_uniffi.swift" \
    -Xcc -fmodule-map-file="$swift/longfellow_uniffiFFI.modulemap" \
    -I "$swift"
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
step "done"
echo "bindings: total $((SECONDS - began)) s"
