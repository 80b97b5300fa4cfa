#!/usr/bin/env python3
"""Writes the hostile corpus (this directory) from files committed under
test-vectors/: run `python3 test-vectors/hostile/make.py` from the
repository root; the output is deterministic. README.md says what each file
is. Nothing here comes from the reference vectors."""
import base64
import json
import os
import struct
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..", "..")


def write(name, data):
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(data)


def xorshift_bytes(n, seed=0x9E3779B97F4A7C15):
    out, x = bytearray(), seed
    while len(out) < n:
        x ^= (x << 13) & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 7
        x ^= (x << 17) & 0xFFFFFFFFFFFFFFFF
        out += struct.pack("<Q", x)
    return bytes(out[:n])


synthetic = json.load(open(os.path.join(ROOT, "test-vectors", "synthetic", "mdl-valid.json")))
request = synthetic["request"]
mdoc = bytes.fromhex(synthetic["mdoc_hex"])
post1 = json.load(open(os.path.join(ROOT, "test-vectors", "google-examples", "post1.json")))
response = base64.b64decode(post1["ZKDeviceResponseCBOR"])

# --- any bytes ----------------------------------------------------------------
write("empty.bin", b"")
write("zeros-4k.bin", bytes(4096))
write("random-4k.bin", xorshift_bytes(4096))
write("text-nul.txt", "org.iso\x00.18013.5.1")

# --- circuit files ------------------------------------------------------------
write("circuit-lfc2-magic-only.lfc2", b"LFC2")
write("circuit-lfc2-max-counts.lfc2", b"LFC2" + b"\xff" * 60)
write("circuit-lfa2-truncated.lfa2", b"LFA2" + b"\x01\x00\x00\x00" + b"\xff" * 24)
# A zstd frame header declaring 2^40 content bytes, then garbage.
write("circuit-zstd-truncated.zst",
      b"\x28\xb5\x2f\xfd" + b"\xe0" + struct.pack("<Q", 1 << 40) + xorshift_bytes(64, 7))
# A well-formed zstd frame of 1 MiB of zeros (not a circuit once unpacked).
try:
    zeros = subprocess.run(["zstd", "-19", "-q", "-c"], input=bytes(1 << 20),
                           capture_output=True, check=True).stdout
    write("circuit-zstd-zeros.zst", zeros)
except (OSError, subprocess.CalledProcessError):
    print("zstd not installed: circuit-zstd-zeros.zst left as it is")

# --- CBOR (DeviceResponse, ZK DeviceResponse, transcript) ---------------------
write("cbor-mdoc-truncated.cbor", mdoc[: len(mdoc) // 2])
flipped = bytearray(mdoc)
flipped[len(mdoc) // 3] ^= 0x01
write("cbor-mdoc-bitflip.cbor", bytes(flipped))
write("cbor-huge-length.cbor", b"\xa1\x65proof\x5b" + b"\x7f" + b"\xff" * 7)
write("cbor-deep-nesting.cbor", b"\x81" * 100_000 + b"\x00")
write("cbor-indefinite-unterminated.cbor", b"\x9f" * 1000)
key = b"\x65proof\x5a"
i = response.find(key)
n = struct.unpack(">I", response[i + len(key):i + len(key) + 4])[0]
body = response[i + len(key) + 4:]
short = response[:i] + b"\x65proof\x50" + body[:16] + body[n:]
write("zk-response-short-proof.cbor", short)
sid = short.find(b"\x6azkSystemId\x78\x40")
write("zk-response-unknown-system-id.cbor",
      short[: sid + 13] + b"f" * 64 + short[sid + 13 + 64:] if sid >= 0 else short)
write("proof-truncated.bin", body[:4096])

# --- request JSON (the CLI's and the bindings' statement) ---------------------
def req(**changes):
    r = dict(request)
    r.update(changes)
    return json.dumps(r)


text = req()
write("request-duplicate-key.json", text[:-1] + ', "now": "2030-01-01T00:00:00Z"}')
write("request-unknown-field.json", req(nonce="1"))
write("request-bad-calendar.json", req(now="2024-10-01T25:61:61Z"))
write("request-off-curve-key.json", req(pkx="0x1", pky="0x1"))
P256_P = "0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff"
write("request-noncanonical-key.json", req(pkx=P256_P))
write("request-bad-hex.json", req(transcript_hex="zz"))
write("request-huge-number.json", '{"now": 1e999999999, "pkx": -0}')
write("request-deep-nesting.json", "[" * 100_000)
write("request-not-utf8.json", b'{"doc_type": "\xff\xfe"}')
write("request-wrong-types.json", req(attributes={"id": 1}, now=20241001))

# --- /zkverify bodies ---------------------------------------------------------
write("body-missing-field.json", '{"Transcript": "AA=="}')
write("body-bad-base64.json", '{"Transcript": "!!", "ZKDeviceResponseCBOR": "%%%"}')
write("body-not-cbor.json", json.dumps(
    {"Transcript": post1["Transcript"], "ZKDeviceResponseCBOR": base64.b64encode(xorshift_bytes(256, 3)).decode()}))
write("body-wrong-types.json", '{"Transcript": 1, "ZKDeviceResponseCBOR": ["a"]}')
write("body-short-proof.json", json.dumps(
    {"Transcript": post1["Transcript"], "ZKDeviceResponseCBOR": base64.b64encode(short).decode()}))
