#!/usr/bin/env bash
# CI steps of the verifier service (issue #15) beyond `cargo test --workspace`:
# lint its crates strictly. Run from the repository root.
set -euo pipefail
cargo fmt -p longfellow-mdoc-response -p longfellow-trust -p longfellow-dcapi -p longfellow-service -- --check
cargo clippy -p longfellow-mdoc-response -p longfellow-trust -p longfellow-dcapi -p longfellow-service --all-targets -- -D warnings
