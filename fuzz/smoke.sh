#!/usr/bin/env bash
# Kept for old habits: the smoke run is .ci/fuzz.sh (SECONDS_PER_TARGET is
# its SMOKE_SECONDS).
set -euo pipefail
SMOKE_SECONDS="${SMOKE_SECONDS:-${SECONDS_PER_TARGET:-30}}" exec "$(dirname "$0")/../.ci/fuzz.sh" "$@"
