#!/usr/bin/env bash
# Proof time through every binding against the native library, side by side:
# one v7/1-attribute proof and its verification of Google's reference case
# (`birthdate_1971_09_01-mdoc[3]`, attribute family_name), through
#
#   native      `longfellow bench --only prove|verify --reference` (in-process)
#   capi-c      the C ABI from C (the C test program, shared library)
#   capi-python the C ABI from Python (ctypes)
#   capi-go     the C ABI from Go (cgo)
#   capi-jvm    the C ABI from Java over JNA (Multipaz's variant, `zkp`)
#   uniffi-python, uniffi-kotlin   the UniFFI bindings (Kotlin on the JVM)
#   wasm-node   the wasm-bindgen package under Node
#
# Everything is built once, in the workspace's dev profile (optimised in this
# workspace: opt-level 2, dependencies 3; overflow checks on), the wasm
# module included, so every path runs the same compiled Rust code. Then
# ROUNDS rounds (default 5) run every path once each, the order rotated by
# one path per round, and the medians per path are printed as a table with
# the ratio to the native figures.
#
# The bindings' figures are the `timing <path>: prove N ms, verify M ms`
# lines their own tests print, timed in-process around the prove and verify
# calls (runtime start-up outside). The C ABI takes the circuit bytes on
# every call (it keeps no state), so its prove and verify include parsing
# the circuit; UniFFI and wasm load the circuit once, outside the timing,
# like the native figure, whose load time is printed beside it.
#
# Run from the repository root after `.ci/capi.sh` and `.ci/bindings.sh`
# have installed the toolchains (Go, JDK/Maven, Node, pytest,
# wasm-bindgen-cli, the wasm32 target):
#
#   bash benches/bindings/run.sh                  # all paths, 5 rounds
#   ROUNDS=3 bash benches/bindings/run.sh native wasm-node
#
# The machine's CPU and load average are printed with the table: on a
# shared machine the absolute figures move with the load, the ratios
# measured in the same rounds much less.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
export CARGO_TERM_COLOR=never
export PATH="$HOME/.cargo/bin:$PATH"
tdir="${CARGO_TARGET_DIR:-$root/target}"
vectors="${LONGFELLOW_VECTORS:-$root/../shared/vectors}"
vectors="$(cd "$vectors" && pwd)"
export LONGFELLOW_VECTORS="$vectors"
rounds="${ROUNDS:-5}"
v7_1=8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121
circuit="$vectors/google/mdoc/circuits/$v7_1"
work="$tdir/bindings-timing"
rm -rf "$work"
mkdir -p "$work/logs"

all=(native capi-c capi-python capi-go capi-jvm uniffi-python uniffi-kotlin wasm-node)
paths=("$@")
[ ${#paths[@]} -gt 0 ] || paths=("${all[@]}")
for p in "${paths[@]}"; do
  [[ " ${all[*]} " == *" $p "* ]] || { echo "unknown path '$p' (one of: ${all[*]})" >&2; exit 2; }
done
want() {
  local p
  for p in "${paths[@]}"; do [ "$p" = "$1" ] && return 0; done
  return 1
}
step() { printf '== %s\n' "$*" >&2; }

# --- build everything once (dev profile) --------------------------------------
if want native; then
  step "build: longfellow (CLI)"
  cargo build -q --bin longfellow
fi
if want capi-jvm; then
  step "build: longfellow-capi --features multipaz (libzkp.so)"
  cargo build -q -p longfellow-capi --features multipaz
  mkdir -p "$work/capi-multipaz"
  cp "$tdir/debug/libmdoc_zk.so" "$work/capi-multipaz/libzkp.so"
  (cd crates/capi/bindings/jvm && mvn -B -q -ntp test-compile)
fi
if want capi-c || want capi-python || want capi-go; then
  step "build: longfellow-capi"
  cargo build -q -p longfellow-capi
  mkdir -p "$work/capi"
  cp "$tdir/debug/libmdoc_zk.so" "$tdir/debug/libmdoc_zk.a" "$work/capi/"
fi
if want capi-c; then
  make -s -C crates/capi/tests/c clean
  make -s -C crates/capi/tests/c mdoc_zk_test_shared LIBDIR="$work/capi"
  mv crates/capi/tests/c/mdoc_zk_test_shared "$work/capi/"
fi
if want capi-go; then
  (cd crates/capi/bindings/go &&
    CGO_ENABLED=1 CGO_LDFLAGS="-L$work/capi -Wl,-rpath,$work/capi" go test -c -o "$work/capi/go.test" .)
fi
if want uniffi-python || want uniffi-kotlin; then
  step "build: longfellow-uniffi and its bindings"
  cargo build -q -p longfellow-uniffi
  lib="$tdir/debug/liblongfellow_uniffi.so"
  bindgen="$(bash .ci/uniffi-bindgen.sh)"
  mkdir -p "$work/uniffi-lib"
  cp "$lib" "$work/uniffi-lib/"
fi
if want uniffi-python; then
  "$bindgen" generate --library "$lib" --language python --out-dir "$work/uniffi-py" >/dev/null
  cp "$lib" "$work/uniffi-py/"
fi
if want uniffi-kotlin; then
  "$bindgen" generate --library "$lib" --language kotlin --out-dir "$work/uniffi-kotlin" >/dev/null
  mvn -B -q -ntp -f crates/uniffi/tests/kotlin/pom.xml test-compile -Duniffi.generated="$work/uniffi-kotlin"
fi
if want wasm-node; then
  step "build: longfellow-wasm (wasm32, dev profile) and wasm-bindgen"
  cargo build -q -p longfellow-wasm --target wasm32-unknown-unknown
  wasm-bindgen --target nodejs --out-dir "$work/wasm-pkg" \
    "$tdir/wasm32-unknown-unknown/debug/longfellow_wasm.wasm"
fi

# --- one run of one path: prints its timing line ------------------------------
run_native() {
  local p v
  p=$("$tdir/debug/longfellow" bench --only prove --circuit "$circuit" --reference)
  v=$("$tdir/debug/longfellow" bench --only verify --circuit "$circuit" --reference)
  grep -q 'reference_match=yes' <<<"$p"
  grep -q 'verify_ok=true' <<<"$v"
  local pm vm lm
  pm=$(grep -o 'prove_ms=[0-9.]*' <<<"$p" | cut -d= -f2)
  vm=$(grep -o 'verify_ms=[0-9.]*' <<<"$v" | cut -d= -f2)
  lm=$(grep -o '^load_ms=[0-9.]*' <<<"$p" | cut -d= -f2)
  printf 'timing native: prove %.0f ms, verify %.0f ms, load %.0f ms\n' "$pm" "$vm" "$lm"
}
run_path() {
  case "$1" in
    native) run_native ;;
    capi-c) "$work/capi/mdoc_zk_test_shared" "$vectors" "$work/capi" ;;
    capi-python)
      (cd crates/capi/bindings/python &&
        LONGFELLOW_CAPI_LIB="$work/capi/libmdoc_zk.so" PYTHONPATH=. \
          python3 -m pytest -q -s -p no:cacheprovider -k fresh tests) ;;
    capi-go)
      (cd crates/capi/bindings/go && "$work/capi/go.test" -test.count=1 -test.v -test.run TestFreshProofAndErrors) ;;
    capi-jvm)
      (cd crates/capi/bindings/jvm && mvn -B -q -ntp surefire:test \
        -Dtest='MdocZkTest#freshProofVerifiesAndErrorsHaveCodes' -Dsurefire.failIfNoSpecifiedTests=false \
        -Djna.library.path="$work/capi-multipaz" -Dlongfellow.vectors="$vectors") ;;
    uniffi-python)
      LONGFELLOW_UNIFFI_PY="$work/uniffi-py" python3 -m pytest -q -s -p no:cacheprovider \
        -k fresh crates/uniffi/tests/python ;;
    uniffi-kotlin)
      mvn -B -q -ntp -f crates/uniffi/tests/kotlin/pom.xml surefire:test \
        -Dtest='LongfellowUniffiTest#freshProofVerifies' -Dsurefire.failIfNoSpecifiedTests=false \
        -Duniffi.libdir="$work/uniffi-lib" -Dlongfellow.vectors="$vectors" ;;
    wasm-node)
      LONGFELLOW_WASM_PKG="$work/wasm-pkg" node --test --test-name-pattern='fresh proof' \
        crates/wasm/tests/node/ ;;
  esac
}

# --- rounds -------------------------------------------------------------------
n=${#paths[@]}
for ((r = 0; r < rounds; r++)); do
  step "round $((r + 1))/$rounds (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  for ((i = 0; i < n; i++)); do
    p=${paths[$(((i + r) % n))]}
    log="$work/logs/$p.$r.log"
    if ! run_path "$p" >"$log" 2>&1; then
      echo "$p failed (round $((r + 1))); its output:" >&2
      cat "$log" >&2
      exit 1
    fi
    line=$(grep -o "timing $p: prove [0-9]* ms, verify [0-9]* ms.*" "$log" | head -1 || true)
    [ -n "$line" ] || { echo "$p printed no timing line; its output:" >&2; cat "$log" >&2; exit 1; }
    echo "$line" | tee -a "$work/timings.txt" >&2
  done
done

# --- table --------------------------------------------------------------------
cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')
avx512=$(grep -qw avx512f /proc/cpuinfo && echo yes || echo no)
printf '\nCPU: %s (%s cores; avx512f: %s); load average at the end: %s\n' \
  "$cpu" "$(nproc)" "$avx512" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf 'dev profile (opt-level 2, dependencies 3), wasm included; median of %s rounds\n\n' "$rounds"
python3 - "$work/timings.txt" "${paths[@]}" <<'PY'
import re, statistics, sys
lines = open(sys.argv[1]).read().splitlines()
order = sys.argv[2:]
runs = {}
for l in lines:
    m = re.match(r"timing ([a-z-]+): prove (\d+) ms, verify (\d+) ms(?:, load (\d+) ms)?", l)
    if m:
        runs.setdefault(m[1], []).append(tuple(int(x) if x else None for x in m.groups()[1:]))
med = {k: (statistics.median(r[0] for r in v), statistics.median(r[1] for r in v), v) for k, v in runs.items()}
nat = med.get("native")
print("| path | prove (ms) | verify (ms) | prove / native | verify / native | runs (prove/verify ms) |")
print("|---|---|---|---|---|---|")
for p in order:
    if p not in med:
        continue
    pv, vv, v = med[p]
    ratio = lambda a, b: f"{a / b:.2f}" if nat else "-"
    rp = ratio(pv, nat[0]) if nat else "-"
    rv = ratio(vv, nat[1]) if nat else "-"
    each = " ".join(f"{a}/{b}" for a, b, _ in v)
    print(f"| {p} | {pv:.0f} | {vv:.0f} | {rp} | {rv} | {each} |")
if nat:
    loads = [r[2] for r in nat[2] if r[2] is not None]
    if loads:
        print(f"\nnative circuit load (not in the native figures, inside the C ABI's): median {statistics.median(loads):.0f} ms")
PY
