/*
 * longfellow-rs: C interface of the mdoc zero-knowledge prover and verifier.
 *
 * Binary-compatible with Google's lib/circuits/mdoc/mdoc_zk.h (same function
 * names, argument order, struct layouts and enum values), written for
 * longfellow-rs. Built with the cargo feature `multipaz`, run_mdoc_prover
 * takes the docType before the spec, as in Multipaz's `zkp` library; define
 * LONGFELLOW_MULTIPAZ before including this header to get that prototype.
 *
 * Memory: proofs returned by run_mdoc_prover are allocated with malloc();
 * release them with free() (or free_mdoc_proof()).
 * Threads: every function may be called from several threads at once.
 * Errors: each function returns a code; longfellow_last_error() gives the
 * full message of the calling thread's last failure.
 */
#ifndef LONGFELLOW_MDOC_ZK_H
#define LONGFELLOW_MDOC_ZK_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One disclosed claim. Lengths above a field's size are refused with
 * MDOC_PROVER_ATTRIBUTE_TOO_LONG / MDOC_VERIFIER_INVALID_INPUT. */
typedef struct {
  uint8_t namespace_id[64]; /* e.g. "org.iso.18013.5.1" */
  uint8_t id[32];           /* elementIdentifier, e.g. "age_over_18" */
  uint8_t cbor_value[64];   /* CBOR of the elementValue, e.g. 0xf5 (true) */
  size_t namespace_len;
  size_t id_len;
  size_t cbor_value_len;
} RequestedAttribute;

typedef enum {
  MDOC_PROVER_SUCCESS = 0,
  MDOC_PROVER_NULL_INPUT = 1,
  MDOC_PROVER_INVALID_INPUT = 2,
  MDOC_PROVER_CIRCUIT_PARSING_FAILURE = 3,
  MDOC_PROVER_HASH_PARSING_FAILURE = 4,
  MDOC_PROVER_WITNESS_CREATION_FAILURE = 5,
  MDOC_PROVER_GENERAL_FAILURE = 6,
  MDOC_PROVER_MEMORY_ALLOCATION_FAILURE = 7,
  MDOC_PROVER_INVALID_ZK_SPEC_VERSION = 8,
  MDOC_PROVER_ROOT_DECODING_FAILURE = 9,
  MDOC_PROVER_DOCUMENTS_MISSING = 10,
  MDOC_PROVER_DOCUMENT_0_MISSING = 11,
  MDOC_PROVER_DOCTYPE_MISSING = 12,
  MDOC_PROVER_ISSUER_SIGNED_MISSING = 13,
  MDOC_PROVER_ISSUER_AUTH_MISSING = 14,
  MDOC_PROVER_MSO_MISSING = 15,
  MDOC_PROVER_NSIG_MISSING = 16,
  MDOC_PROVER_NAMESPACES_MISSING = 17,
  MDOC_PROVER_DEVICE_SIGNED_MISSING = 18,
  MDOC_PROVER_DEVICE_AUTH_MISSING = 19,
  MDOC_PROVER_DEVICE_SIGNATURE_MISSING = 20,
  MDOC_PROVER_DEVICE_KEY_MISSING = 21,
  MDOC_PROVER_MSO_DECODING_FAILURE = 22,
  MDOC_PROVER_VALIDITY_INFO_MISSING = 23,
  MDOC_PROVER_DEVICE_KEY_INFO_MISSING = 24,
  MDOC_PROVER_ATTRIBUTE_DECODE_FAILURE = 25,
  MDOC_PROVER_ATTRIBUTE_EI_MISSING = 26,
  MDOC_PROVER_ATTRIBUTE_EV_MISSING = 27,
  MDOC_PROVER_ATTRIBUTE_DID_MISSING = 28,
  MDOC_PROVER_SIGNATURE_FAILURE = 29,
  MDOC_PROVER_DEVICE_SIGNATURE_FAILURE = 30,
  MDOC_PROVER_ATTRIBUTE_NOT_FOUND = 31,
  MDOC_PROVER_ATTRIBUTE_TOO_LONG = 32,
  MDOC_PROVER_TAGGED_MSO_TOO_BIG = 33,
  MDOC_PROVER_VERSION_NOT_SUPPORTED = 34,
  MDOC_PROVER_ATTRIBUTE_RANDOM_MISSING = 35
} MdocProverErrorCode;

typedef enum {
  MDOC_VERIFIER_SUCCESS = 0,
  MDOC_VERIFIER_CIRCUIT_PARSING_FAILURE = 1,
  MDOC_VERIFIER_PROOF_TOO_SMALL = 2,
  MDOC_VERIFIER_HASH_PARSING_FAILURE = 3,
  MDOC_VERIFIER_SIGNATURE_PARSING_FAILURE = 4,
  MDOC_VERIFIER_GENERAL_FAILURE = 5,
  MDOC_VERIFIER_NULL_INPUT = 6,
  MDOC_VERIFIER_INVALID_INPUT = 7,
  MDOC_VERIFIER_ARGUMENTS_TOO_SMALL = 8,
  MDOC_VERIFIER_ATTRIBUTE_NUMBER_MISMATCH = 9,
  MDOC_VERIFIER_INVALID_ZK_SPEC_VERSION = 10,
  MDOC_VERIFIER_INVALID_CBOR = 11
} MdocVerifierErrorCode;

typedef enum {
  CIRCUIT_GENERATION_SUCCESS = 0,
  CIRCUIT_GENERATION_NULL_INPUT = 1,
  CIRCUIT_GENERATION_ZLIB_FAILURE = 2,
  CIRCUIT_GENERATION_GENERAL_FAILURE = 3,
  CIRCUIT_GENERATION_INVALID_ZK_SPEC_VERSION = 4
} CircuitGenerationErrorCode;

/* A ZkSpec: which circuit pair, and the Ligero parameters of its proofs. */
typedef struct {
  const char* system;        /* "longfellow-libzk-v1" */
  const char circuit_hash[65]; /* 64 lower-case hex digits and a NUL */
  size_t num_attributes;     /* 1..4 */
  size_t version;            /* 5..7 */
  size_t block_enc_hash;
  size_t block_enc_sig;
} ZkSpecStruct;

/* Rate / opened columns: 4 / 128 before version 7, 7 / 132 from it. */
#define LONGFELLOW_LIGERO_RATE 4
#define LONGFELLOW_LIGERO_NREQ 128
#define LONGFELLOW_LIGERO_RATE_V7 7
#define LONGFELLOW_LIGERO_NREQ_V7 132

/* Every supported spec: versions 7, 6, 5, each with 1..4 attributes. */
enum { kNumZkSpecs = 12 };
extern const ZkSpecStruct kZkSpecs[kNumZkSpecs];

/* The row of kZkSpecs with this system and circuit hash (hex, any case),
 * or NULL. */
const ZkSpecStruct* find_zk_spec(const char* system_name,
                                 const char* circuit_hash);

/* Copies the kZkSpecs row with num_attributes and version (0 = newest) to
 * *out. Returns 0, or -1 if there is no such row or out is NULL. */
int find_zk_spec_by_attributes(size_t num_attributes, size_t version,
                               ZkSpecStruct* out);

/* Proves the claims attrs[0..attrs_len) about the DeviceResponse mdoc.
 *   bcp/bcsz        circuit file (<hash>, <hash>.lfa1 or <hash>.lfa2 bytes)
 *   pkx, pky        issuer public key, "0x" hex (leading zeros optional)
 *   transcript      SessionTranscript bytes
 *   now             exactly 20 characters, "YYYY-MM-DDTHH:MM:SSZ"
 *   prf, proof_len  on success, a malloc()ed proof and its length
 *   docType         (Multipaz variant only) the docType the device signed;
 *                   Google's variant uses the document's own docType
 * The spec is matched by circuit_hash, or if that is empty by version and
 * num_attributes, and must be the circuit's. Randomness: the OS generator. */
MdocProverErrorCode run_mdoc_prover(
    const uint8_t* bcp, size_t bcsz,
    const uint8_t* mdoc, size_t mdoc_len,
    const char* pkx, const char* pky,
    const uint8_t* transcript, size_t tr_len,
    const RequestedAttribute* attrs, size_t attrs_len,
    const char* now,
    uint8_t** prf, size_t* proof_len,
#ifdef LONGFELLOW_MULTIPAZ
    const char* docType,
#endif
    const ZkSpecStruct* zk_spec);

/* Checks a proof made for the same circuit, key, transcript, claims, time
 * and docType. */
MdocVerifierErrorCode run_mdoc_verifier(
    const uint8_t* bcp, size_t bcsz,
    const char* pkx, const char* pky,
    const uint8_t* transcript, size_t tr_len,
    const RequestedAttribute* attrs, size_t attrs_len,
    const char* now,
    const uint8_t* zkproof, size_t proof_len,
    const char* docType,
    const ZkSpecStruct* zk_spec);

/* Not supported (this library has no circuit compiler): always fails,
 * CIRCUIT_GENERATION_GENERAL_FAILURE for a known spec. Load the published
 * circuit file instead. */
CircuitGenerationErrorCode generate_circuit(const ZkSpecStruct* zk_spec,
                                            uint8_t** cb, size_t* clen);

/* Writes SHA-256(signature circuit ID || hash circuit ID), 32 bytes, to id.
 * Returns 1 on success, 0 on failure. zk_spec is not read (may be NULL). */
int circuit_id(uint8_t id[32], const uint8_t* bcp, size_t bcsz,
               const ZkSpecStruct* zk_spec);

/* Same as free(); for callers that cannot reach the C library's free. */
void free_mdoc_proof(uint8_t* prf, size_t len);
void free_circuit_bytes(uint8_t* cb, size_t len);

/* The full message of the calling thread's last failure ("" after a
 * success). Valid until this thread's next call into the library. */
const char* longfellow_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* LONGFELLOW_MDOC_ZK_H */
