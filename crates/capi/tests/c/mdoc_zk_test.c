/* Calls libmdoc_zk (static or shared) through include/longfellow/mdoc_zk.h
 * exactly as a C wallet or relying party would, on Google's stored proofs.
 *
 * usage: mdoc_zk_test VECTORS_DIR [OUT_DIR]
 * With OUT_DIR, the fresh proof and its request are written there as
 * proof.bin and request.json (the `longfellow mdoc verify` request form). */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "longfellow/mdoc_zk.h"

static int passed, failed;

/* Monotonic milliseconds, for the timing line. */
static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void check(int ok, const char* what) {
  if (ok) {
    passed++;
    printf("ok   %s\n", what);
  } else {
    failed++;
    printf("FAIL %s (last error: %s)\n", what, longfellow_last_error());
  }
}

static uint8_t* read_file(const char* path, size_t* len) {
  FILE* f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  uint8_t* buf = malloc(n > 0 ? (size_t)n + 1 : 1);
  if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
    free(buf);
    buf = NULL;
  }
  fclose(f);
  if (buf) buf[n] = 0;
  *len = (size_t)n;
  return buf;
}

/* The string value of "key" at or after `from` (our JSON has no escapes). */
static char* json_string(const char* from, const char* key) {
  char pattern[64];
  snprintf(pattern, sizeof pattern, "\"%s\": \"", key);
  const char* p = strstr(from, pattern);
  if (!p) return NULL;
  p += strlen(pattern);
  const char* end = strchr(p, '"');
  if (!end) return NULL;
  char* out = malloc((size_t)(end - p) + 1);
  memcpy(out, p, (size_t)(end - p));
  out[end - p] = 0;
  return out;
}

static uint8_t* unhex(const char* hex, size_t* len) {
  size_t n = strlen(hex) / 2;
  uint8_t* out = malloc(n ? n : 1);
  for (size_t i = 0; i < n; i++) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out[i] = (uint8_t)v;
  }
  *len = n;
  return out;
}

static RequestedAttribute attr(const char* id, const uint8_t* v, size_t vlen) {
  RequestedAttribute a;
  const char* ns = "org.iso.18013.5.1";
  memset(&a, 0, sizeof a);
  memcpy(a.namespace_id, ns, strlen(ns));
  a.namespace_len = strlen(ns);
  memcpy(a.id, id, strlen(id));
  a.id_len = strlen(id);
  memcpy(a.cbor_value, v, vlen);
  a.cbor_value_len = vlen;
  return a;
}

struct statement {
  char *pkx, *pky, *doc_type;
  uint8_t *transcript, *mdoc;
  size_t tr_len, mdoc_len;
  RequestedAttribute attrs[4];
};

static const char* kNow = "2024-10-01T09:00:00Z";

static const char* kProofHashes[8] = {
    "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
    "6a5810683e62b6d7766ebd0d7ca72518a2b8325418142adcadb10d51dbbcd5ad",
    "8ee4849ae1293ae6fe5f9082ce3e5e15c4f198f2998c682fa1b727237d6d252f",
    "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
    "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6",
    "b4bb6f01b7043f4f51d8302a30b36e3d4d2d0efc3c24557ab9212ad524a9764e",
    "b2211223b954b34a1081e3fbf71b8ea2de28efc888b4be510f532d6ba76c2010",
    "c70b5f44a1365c53847eb8948ad5b4fdc224251a2bc02d958c84c862823c49d6",
};

static MdocVerifierErrorCode verify(const struct statement* s, const uint8_t* bcp,
                                    size_t bcsz, const RequestedAttribute* attrs,
                                    size_t n, const uint8_t* proof, size_t plen,
                                    const ZkSpecStruct* spec) {
  return run_mdoc_verifier(bcp, bcsz, s->pkx, s->pky, s->transcript, s->tr_len,
                           attrs, n, kNow, proof, plen, s->doc_type, spec);
}

static MdocProverErrorCode prove(const struct statement* s, const uint8_t* bcp,
                                 size_t bcsz, const uint8_t* mdoc,
                                 const RequestedAttribute* attrs, size_t n,
                                 uint8_t** prf, size_t* plen,
                                 const ZkSpecStruct* spec) {
  return run_mdoc_prover(bcp, bcsz, mdoc, s->mdoc_len, s->pkx, s->pky,
                         s->transcript, s->tr_len, attrs, n, kNow, prf, plen,
#ifdef LONGFELLOW_MULTIPAZ
                         s->doc_type,
#endif
                         spec);
}

static void write_request(const char* out_dir, const struct statement* s,
                          const uint8_t* proof, size_t plen) {
  char path[4096];
  snprintf(path, sizeof path, "%s/proof.bin", out_dir);
  FILE* f = fopen(path, "wb");
  if (!f) return;
  fwrite(proof, 1, plen, f);
  fclose(f);
  snprintf(path, sizeof path, "%s/request.json", out_dir);
  f = fopen(path, "w");
  if (!f) return;
  fprintf(f, "{\"pkx\": \"%s\", \"pky\": \"%s\", \"now\": \"%s\", ", s->pkx,
          s->pky, kNow);
  fprintf(f, "\"doc_type\": \"%s\", \"transcript_hex\": \"", s->doc_type);
  for (size_t i = 0; i < s->tr_len; i++) fprintf(f, "%02x", s->transcript[i]);
  fprintf(f, "\", \"attributes\": [{\"namespace\": \"org.iso.18013.5.1\", "
             "\"id\": \"family_name\", \"value_cbor_hex\": \"");
  for (size_t i = 0; i < s->attrs[0].cbor_value_len; i++)
    fprintf(f, "%02x", s->attrs[0].cbor_value[i]);
  fprintf(f, "\"}]}\n");
  fclose(f);
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s VECTORS_DIR [OUT_DIR]\n", argv[0]);
    return 2;
  }
  const char* vectors = argv[1];
  char path[4096];
  size_t len;

  snprintf(path, sizeof path, "%s/google/mdoc/cases.json", vectors);
  char* cases = (char*)read_file(path, &len);
  if (!cases) {
    fprintf(stderr, "cannot read %s\n", path);
    return 2;
  }
  const char* c = strstr(cases, "\"name\": \"birthdate_1971_09_01-mdoc[3].json\"");
  if (!c) {
    fprintf(stderr, "case birthdate_1971_09_01-mdoc[3] not in cases.json\n");
    return 2;
  }
  struct statement s;
  s.pkx = json_string(c, "pkx");
  s.pky = json_string(c, "pky");
  s.doc_type = json_string(c, "doc_type");
  s.transcript = unhex(json_string(c, "transcript_hex"), &s.tr_len);
  s.mdoc = unhex(json_string(c, "mdoc_hex"), &s.mdoc_len);
  s.attrs[0] = attr("family_name", (const uint8_t*)"\x6aMustermann", 11);
  s.attrs[1] = attr("birth_date", (const uint8_t*)"\xd9\x03\xec\x6a" "1971-09-01", 14);
  s.attrs[2] = attr("issue_date", (const uint8_t*)"\xd9\x03\xec\x6a" "2024-03-15", 14);
  s.attrs[3] = attr("height", (const uint8_t*)"\x18\xaf", 2);

  check(kNumZkSpecs == 12 && kZkSpecs[0].version == 7 &&
            kZkSpecs[11].version == 5 && kZkSpecs[11].num_attributes == 4,
        "kZkSpecs: 12 rows, v7 first, v5/4 last");

  /* Google's stored proofs. */
  for (int i = 0; i < 8; i++) {
    const char* h = kProofHashes[i];
    const ZkSpecStruct* spec = find_zk_spec("longfellow-libzk-v1", h);
    char what[256];
    snprintf(what, sizeof what, "find_zk_spec %.8s", h);
    check(spec != NULL, what);
    if (!spec) continue;
    size_t bcsz, plen;
    snprintf(path, sizeof path, "%s/google/mdoc/circuits/%s", vectors, h);
    uint8_t* bcp = read_file(path, &bcsz);
    snprintf(path, sizeof path, "%s/google/mdoc/proofs/%s.bin", vectors, h);
    uint8_t* proof = read_file(path, &plen);
    if (!bcp || !proof) {
      check(0, "read stored circuit and proof");
      continue;
    }
    snprintf(what, sizeof what, "stored proof v%zu/%zu (%.8s) verifies",
             spec->version, spec->num_attributes, h);
    check(verify(&s, bcp, bcsz, s.attrs, spec->num_attributes, proof, plen,
                 spec) == MDOC_VERIFIER_SUCCESS, what);
    free(bcp);
    free(proof);
  }

  /* circuit_id of every circuit file; the spec is not read (NULL). */
  snprintf(path, sizeof path, "%s/google/mdoc/circuits", vectors);
  DIR* dir = opendir(path);
  int files = 0, named = 0;
  for (struct dirent* e; dir && (e = readdir(dir));) {
    if (e->d_name[0] == '.') continue;
    char file[4096 + 512];
    size_t n;
    snprintf(file, sizeof file, "%s/%s", path, e->d_name);
    uint8_t* bytes = read_file(file, &n);
    uint8_t id[32];
    char hex[65];
    files++;
    if (bytes && circuit_id(id, bytes, n, NULL) == 1) {
      for (int i = 0; i < 32; i++) sprintf(hex + 2 * i, "%02x", id[i]);
      if (strncmp(hex, e->d_name, 64) == 0) named++;
    }
    free(bytes);
  }
  if (dir) closedir(dir);
  char what[256];
  snprintf(what, sizeof what, "circuit_id names all %d circuit files", files);
  check(files == 24 && named == files, what);

  /* A fresh proof (v7, one attribute) through the prover. */
  const char* h = kProofHashes[0];
  const ZkSpecStruct* spec = find_zk_spec("longfellow-libzk-v1", h);
  size_t bcsz, plen = 0;
  snprintf(path, sizeof path, "%s/google/mdoc/circuits/%s", vectors, h);
  uint8_t* bcp = read_file(path, &bcsz);
  uint8_t* proof = NULL;
  double t0 = now_ms();
  check(prove(&s, bcp, bcsz, s.mdoc, s.attrs, 1, &proof, &plen, spec) ==
            MDOC_PROVER_SUCCESS && proof && plen > 0,
        "run_mdoc_prover makes a v7/1 proof");
  double t1 = now_ms();
  check(proof && verify(&s, bcp, bcsz, s.attrs, 1, proof, plen, spec) ==
                     MDOC_VERIFIER_SUCCESS,
        "the fresh proof verifies");
  /* The line benches/bindings/run.sh collects. */
  printf("timing capi-c: prove %.0f ms, verify %.0f ms (v7, 1 attribute)\n",
         t1 - t0, now_ms() - t1);
  if (proof && argc > 2) write_request(argv[2], &s, proof, plen);

  /* Error codes. */
  check(verify(&s, bcp, bcsz, s.attrs, 1, NULL, plen, spec) ==
            MDOC_VERIFIER_NULL_INPUT,
        "verifier: null proof -> MDOC_VERIFIER_NULL_INPUT");
  {
    uint8_t* p2 = NULL;
    size_t l2 = 0;
    check(prove(&s, bcp, bcsz, NULL, s.attrs, 1, &p2, &l2, spec) ==
              MDOC_PROVER_NULL_INPUT && p2 == NULL,
          "prover: null mdoc -> MDOC_PROVER_NULL_INPUT");
    check(prove(&s, bcp, bcsz / 2, s.mdoc, s.attrs, 1, &p2, &l2, spec) ==
              MDOC_PROVER_CIRCUIT_PARSING_FAILURE,
          "prover: truncated circuit -> MDOC_PROVER_CIRCUIT_PARSING_FAILURE");
    RequestedAttribute lacking = attr("age_over_99", (const uint8_t*)"\xf5", 1);
    check(prove(&s, bcp, bcsz, s.mdoc, &lacking, 1, &p2, &l2, spec) ==
              MDOC_PROVER_ATTRIBUTE_NOT_FOUND,
          "prover: attribute the mdoc lacks -> MDOC_PROVER_ATTRIBUTE_NOT_FOUND");
    check(strstr(longfellow_last_error(), "age_over_99") != NULL,
          "longfellow_last_error names the missing attribute");
    RequestedAttribute overlong = s.attrs[0];
    overlong.cbor_value_len = 65;
    check(prove(&s, bcp, bcsz, s.mdoc, &overlong, 1, &p2, &l2, spec) ==
              MDOC_PROVER_ATTRIBUTE_TOO_LONG,
          "prover: over-long value refused -> MDOC_PROVER_ATTRIBUTE_TOO_LONG");
  }
  check(verify(&s, bcp, bcsz / 2, s.attrs, 1, proof, plen, spec) ==
            MDOC_VERIFIER_CIRCUIT_PARSING_FAILURE,
        "verifier: truncated circuit -> MDOC_VERIFIER_CIRCUIT_PARSING_FAILURE");
  if (proof) {
    proof[20] ^= 0x01; /* inside the MAC tags: still decodes, must not verify */
    check(verify(&s, bcp, bcsz, s.attrs, 1, proof, plen, spec) ==
              MDOC_VERIFIER_GENERAL_FAILURE,
          "verifier: mutated proof -> MDOC_VERIFIER_GENERAL_FAILURE");
    check(verify(&s, bcp, bcsz, s.attrs, 1, proof, 40, spec) ==
              MDOC_VERIFIER_PROOF_TOO_SMALL,
          "verifier: 40-byte proof -> MDOC_VERIFIER_PROOF_TOO_SMALL");
    free(proof); /* malloc'ed by the library: plain free() */
  }
  {
    uint8_t* cb = NULL;
    size_t clen = 0;
    check(generate_circuit(spec, &cb, &clen) == CIRCUIT_GENERATION_GENERAL_FAILURE &&
              cb == NULL,
          "generate_circuit: not supported -> CIRCUIT_GENERATION_GENERAL_FAILURE");
  }
  free(bcp);

  printf("%d passed, %d failed\n", passed, failed);
  return failed == 0 ? 0 : 1;
}
