#!/usr/bin/env bash
# The verifier's crate graph: `longfellow-mdoc` must build on its own
# (cargo unifies features across a workspace build, so a plain `cargo test`
# would never notice a verifier that only compiles with prover code in it),
# and nothing under it may be a prover crate.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

cargo build -p longfellow-mdoc

# Normal (non-dev) dependencies only: dev-dependencies of the verifier's
# tests may use the prover to make proofs.
deps=$(cargo tree -p longfellow-mdoc -e normal --prefix none --format '{p}' | awk '{print $1}' | sort -u)
echo "longfellow-mdoc links: $(echo "$deps" | grep '^longfellow-' | tr '\n' ' ')"
bad=$(echo "$deps" | grep -E '^longfellow-(.*-prover|mdoc-witness|mdoc-issuer|random|conformance|testvectors)$|^rand$|^rand_chacha$|^getrandom$' || true)
if [ -n "$bad" ]; then
  echo "prover-side crates under longfellow-mdoc:" >&2
  echo "$bad" >&2
  exit 1
fi
if grep -rn --include='*.rs' --include='*.toml' 'feature = "prover"\|^prover = ' crates; then
  echo 'a `prover` feature is back; the prover belongs in the *-prover crates' >&2
  exit 1
fi
# The relying party's service (and the DC API session crate it uses) must
# not link the prover either: it verifies and decrypts, it never proves.
for c in longfellow-dcapi longfellow-service; do
  sdeps=$(cargo tree -p "$c" -e normal --prefix none --format '{p}' | awk '{print $1}' | sort -u)
  sbad=$(echo "$sdeps" | grep -E '^longfellow-(.*-prover|mdoc-witness|mdoc-issuer|random|conformance|testvectors)$' || true)
  if [ -n "$sbad" ]; then
    echo "prover-side crates under $c:" >&2
    echo "$sbad" >&2
    exit 1
  fi
done
echo "verifier graph ok"
