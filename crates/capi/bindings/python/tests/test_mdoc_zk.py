"""The ctypes binding against Google's stored proofs and a fresh proof."""
import json
import os
import pathlib
import threading
import time

import pytest

from longfellow_mdoc_zk import Attribute, Library, ProverError, VerifierError

ROOT = pathlib.Path(__file__).resolve().parents[5]
VECTORS = pathlib.Path(os.environ.get("LONGFELLOW_VECTORS", ROOT.parent / "shared" / "vectors"))
MDOC = VECTORS / "google" / "mdoc"
NOW = "2024-10-01T09:00:00Z"
NS = "org.iso.18013.5.1"
ATTRS = [
    Attribute(NS, "family_name", b"\x6aMustermann"),
    Attribute(NS, "birth_date", b"\xd9\x03\xec\x6a1971-09-01"),
    Attribute(NS, "issue_date", b"\xd9\x03\xec\x6a2024-03-15"),
    Attribute(NS, "height", b"\x18\xaf"),
]
V7_1 = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121"


@pytest.fixture(scope="module")
def lib():
    return Library()


@pytest.fixture(scope="module")
def case():
    cases = json.loads((MDOC / "cases.json").read_text())
    return next(c for c in cases if c["name"] == "birthdate_1971_09_01-mdoc[3].json")


def stored():
    return sorted(p.stem for p in (MDOC / "proofs").glob("*.bin") if "_" not in p.stem)


def test_spec_table_is_googles(lib):
    rows = [(s.version, s.num_attributes) for s in lib.specs]
    assert rows == [(v, n) for v in (7, 6, 5) for n in (1, 2, 3, 4)]
    assert all(s.system == b"longfellow-libzk-v1" for s in lib.specs)


@pytest.mark.parametrize("h", stored())
def test_stored_proof_verifies(lib, case, h):
    spec = lib.find_spec(h)
    assert spec is not None
    circuit = (MDOC / "circuits" / h).read_bytes()
    proof = (MDOC / "proofs" / f"{h}.bin").read_bytes()
    lib.verify(circuit, case["pkx"], case["pky"], bytes.fromhex(case["transcript_hex"]),
               ATTRS[: spec.num_attributes], NOW, proof, case["doc_type"], spec)


def test_circuit_id_names_every_file(lib):
    files = sorted((MDOC / "circuits").iterdir())
    assert len(files) == 24
    for f in files:
        assert lib.circuit_id(f.read_bytes()) == f.name[:64]


def test_fresh_proof_and_error_codes(lib, case):
    spec = lib.find_spec(V7_1)
    circuit = (MDOC / "circuits" / V7_1).read_bytes()
    args = (case["pkx"], case["pky"], bytes.fromhex(case["transcript_hex"]))
    mdoc = bytes.fromhex(case["mdoc_hex"])
    t0 = time.perf_counter()
    proof = lib.prove(circuit, mdoc, *args, ATTRS[:1], NOW, spec)
    t1 = time.perf_counter()
    lib.verify(circuit, *args, ATTRS[:1], NOW, proof, case["doc_type"], spec)
    t2 = time.perf_counter()
    # The line benches/bindings/run.sh collects (shown with -s).
    print(f"timing capi-python: prove {(t1 - t0) * 1e3:.0f} ms, verify {(t2 - t1) * 1e3:.0f} ms (v7, 1 attribute)")

    with pytest.raises(ProverError) as e:
        lib.prove(circuit, mdoc, *args, [Attribute(NS, "age_over_99", b"\xf5")], NOW, spec)
    assert e.value.name == "ATTRIBUTE_NOT_FOUND" and "age_over_99" in e.value.message
    with pytest.raises(ProverError) as e:
        lib.prove(circuit, mdoc, *args, [Attribute(NS, "family_name", b"\x78" + b"a" * 70)], NOW, spec)
    assert e.value.name == "ATTRIBUTE_TOO_LONG"
    with pytest.raises(ProverError) as e:
        lib.prove(circuit[:5000], mdoc, *args, ATTRS[:1], NOW, spec)
    assert e.value.name == "CIRCUIT_PARSING_FAILURE"
    with pytest.raises(ProverError) as e:
        lib.prove(circuit, b"", *args, ATTRS[:1], NOW, spec)
    assert e.value.name in ("NULL_INPUT", "INVALID_INPUT")
    bad = bytearray(proof)
    bad[20] ^= 1
    with pytest.raises(VerifierError) as e:
        lib.verify(circuit, *args, ATTRS[:1], NOW, bytes(bad), case["doc_type"], spec)
    assert e.value.name == "GENERAL_FAILURE"
    with pytest.raises(VerifierError) as e:
        lib.verify(circuit, *args, ATTRS[:1], NOW, proof[:40], case["doc_type"], spec)
    assert e.value.name == "PROOF_TOO_SMALL"


def test_concurrent_verifications(lib, case):
    h = V7_1
    spec = lib.find_spec(h)
    circuit = (MDOC / "circuits" / h).read_bytes()
    proof = (MDOC / "proofs" / f"{h}.bin").read_bytes()
    errors = []

    def run(p, expect_ok):
        try:
            lib.verify(circuit, case["pkx"], case["pky"], bytes.fromhex(case["transcript_hex"]),
                       ATTRS[:1], NOW, p, case["doc_type"], spec)
            ok = True
        except VerifierError:
            ok = False
        if ok != expect_ok:
            errors.append(p[:4])

    threads = [threading.Thread(target=run, args=(proof, True)),
               threading.Thread(target=run, args=(proof[:40], False))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
