#!/usr/bin/env python3
"""Seeds for the fuzz targets of the relying party's and the C ABI's entry
points, made from files committed under test-vectors/ (no reference vectors
needed). Run by .ci/fuzz.sh from fuzz/: python3 make_seeds.py CORPUS_ROOT.

- zk_device_response: Google's two example ZK DeviceResponses (base64 in
  test-vectors/google-examples/post*.json), whole and with the proof cut to
  16 bytes (a 1 kB seed that mutations decode quickly);
- service_request: the two example /zkverify bodies, whole and with the
  short-proof response, and each text file of test-vectors/hostile/;
- capi: inputs in the target's layout (see fuzz_targets/capi.rs) for each
  entry point, with the synthetic mDL request (issuer key, transcript, now,
  docType, attributes) and DeviceResponse of test-vectors/synthetic/.
"""
import base64
import json
import os
import struct
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
out = sys.argv[1] if len(sys.argv) > 1 else "corpus"


def write(target, name, data):
    os.makedirs(os.path.join(out, target), exist_ok=True)
    with open(os.path.join(out, target, name), "wb") as f:
        f.write(data)


def short_proof(cbor):
    """The response with its proof (bstr, 4-byte length head) cut to 16 bytes."""
    key = b"\x65proof\x5a"
    i = cbor.find(key)
    if i < 0:
        return None
    start = i + len(key)
    n = struct.unpack(">I", cbor[start:start + 4])[0]
    return cbor[:i] + b"\x65proof\x50" + cbor[start + 4:start + 4 + 16] + cbor[start + 4 + n:]


examples = os.path.join(ROOT, "test-vectors", "google-examples")
for name in ("post1", "post2"):
    body = open(os.path.join(examples, name + ".json"), "rb").read()
    req = json.loads(body)
    cbor = base64.b64decode(req["ZKDeviceResponseCBOR"])
    write("zk_device_response", name + ".cbor", cbor)
    write("service_request", name + ".json", body)
    small = short_proof(cbor)
    if small is not None:
        write("zk_device_response", name + "-short-proof.cbor", small)
        req["ZKDeviceResponseCBOR"] = base64.b64encode(small).decode()
        write("service_request", name + "-short-proof.json", json.dumps(req).encode())

hostile = os.path.join(ROOT, "test-vectors", "hostile")
if os.path.isdir(hostile):
    for f in sorted(os.listdir(hostile)):
        if f.endswith(".json"):
            write("service_request", "hostile-" + f, open(os.path.join(hostile, f), "rb").read())


def field(b):
    return struct.pack("<H", len(b)) + b


def attribute(a):
    ns, ident, value = a["namespace"].encode(), a["id"].encode(), bytes.fromhex(a["value_cbor_hex"])
    return b"".join(field(f) + bytes([len(f)]) for f in (ns, ident, value))


case = json.load(open(os.path.join(ROOT, "test-vectors", "synthetic", "mdl-valid.json")))
r = case["request"]
attrs = r["attributes"]
mdoc = bytes.fromhex(case["mdoc_hex"])
# Spec byte 1: kZkSpecs row 1 (version 7, two attributes, as the request).
common = (field(b"\x00" * 64) + field(r["pkx"].encode()) + field(r["pky"].encode())
          + field(bytes.fromhex(r["transcript_hex"])) + field(r["now"].encode())
          + field(r["doc_type"].encode()) + b"".join(attribute(a) for a in attrs))
write("capi", "verifier", bytes([0, 1, len(attrs)]) + common + b"\x00" * 64)
write("capi", "prover", bytes([1, 1, len(attrs)]) + common + mdoc)
# Spec byte 25: row 1 with version and attribute count from the input.
write("capi", "verifier-custom-spec", bytes([0, 25, 7, 2, len(attrs)]) + common + b"\x01" * 32)
write("capi", "circuit_id", bytes([2, 0, 0]) + b"\x28\xb5\x2f\xfd" + b"\x00" * 16)
manifest = json.load(open(os.path.join(ROOT, "circuits", "manifest.json")))
for c in manifest["circuits"]:
    h = c["zkspec_hash"]
    write("capi", "find-" + h[:8], bytes([3, 0, 0]) + field(b"longfellow-libzk-v1") + field(h.encode()))
