"""Thin ctypes binding of libmdoc_zk, the longfellow-rs build of Google's
mdoc_zk.h C ABI.

The library is found from $LONGFELLOW_CAPI_LIB (a path to the shared
library), else by the platform's loader (``libmdoc_zk``).

    from longfellow_mdoc_zk import Library, Attribute
    lib = Library()
    spec = lib.find_spec(circuit_hash_hex)
    proof = lib.prove(circuit, mdoc, pkx, pky, transcript, attrs, now, spec)
    lib.verify(circuit, pkx, pky, transcript, attrs, now, proof, doc_type, spec)

Failures raise ProverError / VerifierError carrying the ABI code and the
library's full message (longfellow_last_error).
"""

import ctypes
import ctypes.util
import os
from dataclasses import dataclass
from typing import List, Optional

NUM_ZK_SPECS = 12
SYSTEM = "longfellow-libzk-v1"

PROVER_CODES = [
    "SUCCESS", "NULL_INPUT", "INVALID_INPUT", "CIRCUIT_PARSING_FAILURE",
    "HASH_PARSING_FAILURE", "WITNESS_CREATION_FAILURE", "GENERAL_FAILURE",
    "MEMORY_ALLOCATION_FAILURE", "INVALID_ZK_SPEC_VERSION",
    "ROOT_DECODING_FAILURE", "DOCUMENTS_MISSING", "DOCUMENT_0_MISSING",
    "DOCTYPE_MISSING", "ISSUER_SIGNED_MISSING", "ISSUER_AUTH_MISSING",
    "MSO_MISSING", "NSIG_MISSING", "NAMESPACES_MISSING",
    "DEVICE_SIGNED_MISSING", "DEVICE_AUTH_MISSING",
    "DEVICE_SIGNATURE_MISSING", "DEVICE_KEY_MISSING", "MSO_DECODING_FAILURE",
    "VALIDITY_INFO_MISSING", "DEVICE_KEY_INFO_MISSING",
    "ATTRIBUTE_DECODE_FAILURE", "ATTRIBUTE_EI_MISSING", "ATTRIBUTE_EV_MISSING",
    "ATTRIBUTE_DID_MISSING", "SIGNATURE_FAILURE", "DEVICE_SIGNATURE_FAILURE",
    "ATTRIBUTE_NOT_FOUND", "ATTRIBUTE_TOO_LONG", "TAGGED_MSO_TOO_BIG",
    "VERSION_NOT_SUPPORTED", "ATTRIBUTE_RANDOM_MISSING",
]
VERIFIER_CODES = [
    "SUCCESS", "CIRCUIT_PARSING_FAILURE", "PROOF_TOO_SMALL",
    "HASH_PARSING_FAILURE", "SIGNATURE_PARSING_FAILURE", "GENERAL_FAILURE",
    "NULL_INPUT", "INVALID_INPUT", "ARGUMENTS_TOO_SMALL",
    "ATTRIBUTE_NUMBER_MISMATCH", "INVALID_ZK_SPEC_VERSION", "INVALID_CBOR",
]


class RequestedAttribute(ctypes.Structure):
    _fields_ = [
        ("namespace_id", ctypes.c_uint8 * 64),
        ("id", ctypes.c_uint8 * 32),
        ("cbor_value", ctypes.c_uint8 * 64),
        ("namespace_len", ctypes.c_size_t),
        ("id_len", ctypes.c_size_t),
        ("cbor_value_len", ctypes.c_size_t),
    ]


class ZkSpecStruct(ctypes.Structure):
    _fields_ = [
        ("system", ctypes.c_char_p),
        ("circuit_hash", ctypes.c_char * 65),
        ("num_attributes", ctypes.c_size_t),
        ("version", ctypes.c_size_t),
        ("block_enc_hash", ctypes.c_size_t),
        ("block_enc_sig", ctypes.c_size_t),
    ]


@dataclass(frozen=True)
class Attribute:
    """One claim: namespace, elementIdentifier, CBOR of the elementValue."""
    namespace: str
    id: str
    value_cbor: bytes

    def to_c(self) -> RequestedAttribute:
        a = RequestedAttribute()
        ns, ident = self.namespace.encode(), self.id.encode()
        # Lengths are passed as given; the library refuses what does not fit.
        ctypes.memmove(a.namespace_id, ns, min(len(ns), 64))
        ctypes.memmove(a.id, ident, min(len(ident), 32))
        ctypes.memmove(a.cbor_value, self.value_cbor, min(len(self.value_cbor), 64))
        a.namespace_len, a.id_len, a.cbor_value_len = len(ns), len(ident), len(self.value_cbor)
        return a


class MdocZkError(Exception):
    def __init__(self, code: int, name: str, message: str):
        super().__init__(f"{name} ({code}): {message}")
        self.code, self.name, self.message = code, name, message


class ProverError(MdocZkError):
    pass


class VerifierError(MdocZkError):
    pass


def _attrs(attrs: List[Attribute]):
    arr = (RequestedAttribute * max(len(attrs), 1))()
    for i, a in enumerate(attrs):
        arr[i] = a.to_c()
    return arr


class Library:
    """The loaded shared library; safe to share between threads."""

    def __init__(self, path: Optional[str] = None):
        path = path or os.environ.get("LONGFELLOW_CAPI_LIB") or ctypes.util.find_library("mdoc_zk")
        if not path:
            raise OSError("libmdoc_zk not found: set LONGFELLOW_CAPI_LIB")
        self._lib = lib = ctypes.CDLL(path)
        u8p, sz, cp = ctypes.POINTER(ctypes.c_uint8), ctypes.c_size_t, ctypes.c_char_p
        spec_p = ctypes.POINTER(ZkSpecStruct)
        attr_p = ctypes.POINTER(RequestedAttribute)
        lib.run_mdoc_prover.argtypes = [u8p, sz, u8p, sz, cp, cp, u8p, sz, attr_p, sz, cp,
                                        ctypes.POINTER(u8p), ctypes.POINTER(sz), spec_p]
        lib.run_mdoc_prover.restype = ctypes.c_int
        lib.run_mdoc_verifier.argtypes = [u8p, sz, cp, cp, u8p, sz, attr_p, sz, cp, u8p, sz,
                                          cp, spec_p]
        lib.run_mdoc_verifier.restype = ctypes.c_int
        lib.circuit_id.argtypes = [u8p, u8p, sz, spec_p]
        lib.circuit_id.restype = ctypes.c_int
        lib.find_zk_spec.argtypes = [cp, cp]
        lib.find_zk_spec.restype = spec_p
        lib.free_mdoc_proof.argtypes = [u8p, sz]
        lib.free_mdoc_proof.restype = None
        lib.longfellow_last_error.argtypes = []
        lib.longfellow_last_error.restype = cp
        self.specs = (ZkSpecStruct * NUM_ZK_SPECS).in_dll(lib, "kZkSpecs")

    @staticmethod
    def _buf(data: bytes):
        return ctypes.cast(ctypes.c_char_p(data), ctypes.POINTER(ctypes.c_uint8)) if data else None

    def last_error(self) -> str:
        return (self._lib.longfellow_last_error() or b"").decode("utf-8", "replace")

    def find_spec(self, circuit_hash: str, system: str = SYSTEM):
        p = self._lib.find_zk_spec(system.encode(), circuit_hash.encode())
        return p.contents if p else None

    def circuit_id(self, circuit: bytes) -> str:
        out = (ctypes.c_uint8 * 32)()
        if self._lib.circuit_id(out, self._buf(circuit), len(circuit), None) != 1:
            raise ValueError(self.last_error())
        return bytes(out).hex()

    def prove(self, circuit: bytes, mdoc: bytes, pkx: str, pky: str, transcript: bytes,
              attrs: List[Attribute], now: str, spec: ZkSpecStruct) -> bytes:
        prf = ctypes.POINTER(ctypes.c_uint8)()
        n = ctypes.c_size_t(0)
        code = self._lib.run_mdoc_prover(
            self._buf(circuit), len(circuit), self._buf(mdoc), len(mdoc), pkx.encode(),
            pky.encode(), self._buf(transcript), len(transcript), _attrs(attrs), len(attrs),
            now.encode(), ctypes.byref(prf), ctypes.byref(n), ctypes.byref(spec))
        if code != 0:
            raise ProverError(code, PROVER_CODES[code], self.last_error())
        try:
            return ctypes.string_at(prf, n.value)
        finally:
            self._lib.free_mdoc_proof(prf, n.value)

    def verify(self, circuit: bytes, pkx: str, pky: str, transcript: bytes,
               attrs: List[Attribute], now: str, proof: bytes, doc_type: str,
               spec: ZkSpecStruct) -> None:
        code = self._lib.run_mdoc_verifier(
            self._buf(circuit), len(circuit), pkx.encode(), pky.encode(), self._buf(transcript),
            len(transcript), _attrs(attrs), len(attrs), now.encode(), self._buf(proof),
            len(proof), doc_type.encode(), ctypes.byref(spec))
        if code != 0:
            raise VerifierError(code, VERIFIER_CODES[code], self.last_error())
