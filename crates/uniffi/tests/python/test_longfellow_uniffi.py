"""pytest of the UniFFI Python bindings.

Expects the generated module and the shared library (built by
`.ci/bindings.sh`) in $LONGFELLOW_UNIFFI_PY, and reads the reference vectors
in place from $LONGFELLOW_VECTORS (default: ../shared/vectors beside the
repository). With $LONGFELLOW_BINDINGS_OUT set, the fresh proof is written
there so the native CLI can check it.
"""

import json
import os
import pathlib
import sys
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[4]
sys.path.insert(0, os.environ.get("LONGFELLOW_UNIFFI_PY", str(REPO / "target" / "uniffi-py")))
VECTORS = pathlib.Path(os.environ.get("LONGFELLOW_VECTORS", REPO.parent / "shared" / "vectors"))

import longfellow_uniffi as lf  # noqa: E402

V7_1 = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"
V6_1 = "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6"
CASE = "birthdate_1971_09_01-mdoc[3].json"


def text_value_after(mdoc: bytes, ident: str) -> bytes:
    """The CBOR text elementValue right after `text(id) text("elementValue")`."""
    key = bytes([0x60 | len(ident)]) + ident.encode() + b"\x6celementValue"
    at = mdoc.find(key)
    assert at >= 0, f"{ident} followed by elementValue"
    start = at + len(key)
    head = mdoc[start]
    assert 0x60 <= head < 0x78, "short text value"
    return mdoc[start : start + 1 + (head & 0x1F)]


def reference(circuit_version: int = 7):
    cases = json.loads((VECTORS / "google/mdoc/cases.json").read_text())
    case = next(c for c in cases if c["name"] == CASE)
    mdoc = bytes.fromhex(case["mdoc_hex"])
    statement = lf.Statement(
        issuer_pkx=case["pkx"],
        issuer_pky=case["pky"],
        transcript=bytes.fromhex(case["transcript_hex"]),
        attributes=[
            lf.Attribute(
                namespace="org.iso.18013.5.1",
                identifier="family_name",
                value_cbor=text_value_after(mdoc, "family_name"),
            )
        ],
        now="2024-10-01T09:00:00Z",
        doc_type="org.iso.18013.5.1.mDL",
    )
    return statement, mdoc


@pytest.fixture(scope="module")
def circuit():
    return lf.Circuit.load((VECTORS / f"google/mdoc/circuits/{V7_1}.lfa2").read_bytes())


def replace(statement, **changes):
    fields = dict(
        issuer_pkx=statement.issuer_pkx,
        issuer_pky=statement.issuer_pky,
        transcript=statement.transcript,
        attributes=statement.attributes,
        now=statement.now,
        doc_type=statement.doc_type,
    )
    fields.update(changes)
    return lf.Statement(**fields)


def test_spec_table_and_matching():
    specs = lf.zk_specs()
    assert len(specs) == 12
    assert specs[0].circuit_hash == V7_1
    assert {(s.version, s.num_attributes) for s in specs} == {
        (v, n) for v in (5, 6, 7) for n in (1, 2, 3, 4)
    }
    m = lf.match_spec(specs, 2)
    assert (m.version, m.num_attributes) == (7, 2)
    v6 = [s for s in specs if s.version == 6]
    assert lf.match_spec(v6, 1).circuit_hash == V6_1
    assert lf.match_spec(specs, 5) is None


def test_circuit_load(circuit):
    spec = circuit.spec()
    assert (spec.circuit_hash, spec.version, spec.num_attributes) == (V7_1, 7, 1)
    with pytest.raises(lf.LongfellowError.Circuit):
        lf.Circuit.load(b"\x01\x02\x03\x04")


def test_stored_proof_verifies(circuit):
    statement, _ = reference()
    proof = (VECTORS / f"google/mdoc/proofs/{V7_1}.bin").read_bytes()
    circuit.verify(statement, proof)

    with pytest.raises(lf.LongfellowError.ProofRejected):
        circuit.verify(replace(statement, now="2024-10-02T09:00:00Z"), proof)
    with pytest.raises(lf.LongfellowError.MalformedProof):
        circuit.verify(statement, proof[:-1])
    with pytest.raises(lf.LongfellowError.InvalidArgument):
        circuit.verify(replace(statement, issuer_pkx="0xnothex"), proof)
    with pytest.raises(lf.LongfellowError.InvalidArgument):
        circuit.verify(replace(statement, attributes=statement.attributes * 2), proof)


def test_fresh_proof_verifies(circuit):
    statement, mdoc = reference()
    t0 = time.perf_counter()
    proof = circuit.prove(mdoc, statement)
    t1 = time.perf_counter()
    circuit.verify(statement, proof)
    t2 = time.perf_counter()
    # The line benches/bindings/run.sh collects.
    print(f"timing uniffi-python: prove {(t1 - t0) * 1e3:.0f} ms, verify {(t2 - t1) * 1e3:.0f} ms (v7, 1 attribute)")

    flipped = bytearray(proof)
    flipped[len(flipped) // 2] ^= 1
    with pytest.raises((lf.LongfellowError.ProofRejected, lf.LongfellowError.MalformedProof)):
        circuit.verify(statement, bytes(flipped))

    out = os.environ.get("LONGFELLOW_BINDINGS_OUT")
    if out:
        pathlib.Path(out).mkdir(parents=True, exist_ok=True)
        (pathlib.Path(out) / "uniffi-python.proof").write_bytes(proof)


def test_prover_refuses_absent_attribute(circuit):
    statement, mdoc = reference()
    absent = lf.Attribute(
        namespace="org.iso.18013.5.1", identifier="nickname", value_cbor=b"\x61x"
    )
    with pytest.raises(lf.LongfellowError.ProverRefused) as e:
        circuit.prove(mdoc, replace(statement, attributes=[absent]))
    assert str(e.value)
