// Node test of the wasm-bindgen bindings (node --test). Expects the package
// built by `.ci/bindings.sh` (wasm-bindgen --target nodejs) in
// $LONGFELLOW_WASM_PKG, and reads the reference vectors in place from
// $LONGFELLOW_VECTORS (default: ../shared/vectors beside the repository).
// With $LONGFELLOW_BINDINGS_OUT set, the fresh proof and its request JSON
// are written there so the native CLI can check them.
"use strict";

const test = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");

const repo = path.resolve(__dirname, "../../../..");
const pkgDir = process.env.LONGFELLOW_WASM_PKG || path.join(repo, "target/wasm-pkg");
const vectors = process.env.LONGFELLOW_VECTORS || path.join(repo, "../shared/vectors");
const lf = require(path.join(pkgDir, "longfellow_wasm.js"));

const V7_1 = "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121";
const CASE = "birthdate_1971_09_01-mdoc[3].json";

const read = (rel) => new Uint8Array(fs.readFileSync(path.join(vectors, rel)));
const hex = (s) => new Uint8Array(Buffer.from(s, "hex"));

// The CBOR text elementValue right after `text(id) text("elementValue")`,
// found by its encoding (the case's items are laid out that way).
function textValueAfter(mdoc, id) {
  const key = Buffer.concat([
    Buffer.from([0x60 | id.length]),
    Buffer.from(id),
    Buffer.from([0x6c]),
    Buffer.from("elementValue"),
  ]);
  const at = Buffer.from(mdoc).indexOf(key);
  assert.ok(at >= 0, `${id} followed by elementValue`);
  const start = at + key.length;
  const head = mdoc[start];
  assert.ok(head >= 0x60 && head < 0x78, "short text value");
  return mdoc.slice(start, start + 1 + (head & 0x1f));
}

function reference() {
  const cases = JSON.parse(fs.readFileSync(path.join(vectors, "google/mdoc/cases.json"), "utf8"));
  const c = cases.find((x) => x.name === CASE);
  assert.ok(c, "reference case");
  const mdoc = hex(c.mdoc_hex);
  const statement = {
    issuerPkx: c.pkx,
    issuerPky: c.pky,
    transcript: hex(c.transcript_hex),
    attributes: [
      {
        namespace: "org.iso.18013.5.1",
        identifier: "family_name",
        valueCbor: textValueAfter(mdoc, "family_name"),
      },
    ],
    now: "2024-10-01T09:00:00Z",
    docType: "org.iso.18013.5.1.mDL",
  };
  return { statement, mdoc };
}

function expectCode(fn, codes) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Error, "an Error");
    assert.equal(e.name, "LongfellowError");
    assert.ok(codes.includes(e.code), `code ${e.code}: ${e.message}`);
    assert.ok(e.message.length > 0);
    return true;
  });
}

let circuit;
const getCircuit = () => (circuit ??= lf.Circuit.load(read(`google/mdoc/circuits/${V7_1}.lfa2`)));

test("ZkSpec table and matching", () => {
  const specs = lf.zkSpecs();
  assert.equal(specs.length, 12);
  assert.deepEqual(
    specs.map((s) => `${s.version}/${s.numAttributes}`).slice(0, 4),
    ["7/1", "7/2", "7/3", "7/4"],
  );
  assert.equal(specs[0].circuitHash, V7_1);
  assert.equal(specs[0].system, "longfellow-libzk-v1");
  const m = lf.matchSpec(specs, 3);
  assert.equal(m.version, 7);
  assert.equal(m.numAttributes, 3);
  const v6 = specs.filter((s) => s.version === 6);
  assert.equal(lf.matchSpec(v6, 1).circuitHash, "137e5a75ce72735a37c8a72da1a8a0a5df8d13365c2ae3d2c2bd6a0e7197c7c6");
  assert.equal(lf.matchSpec(specs, 9), undefined);
  expectCode(() => lf.matchSpec([{ version: 7 }], 1), ["InvalidArgument"]);
});

test("circuit loading", () => {
  const c = getCircuit();
  assert.equal(c.spec.circuitHash, V7_1);
  assert.equal(c.spec.version, 7);
  assert.equal(c.spec.numAttributes, 1);
  expectCode(() => lf.Circuit.load(new Uint8Array([1, 2, 3, 4])), ["Circuit"]);
});

test("Google's stored v7 proof verifies; altered requests are rejected", () => {
  const c = getCircuit();
  const { statement } = reference();
  const proof = read(`google/mdoc/proofs/${V7_1}.bin`);
  c.verify(statement, proof);

  expectCode(() => c.verify({ ...statement, now: "2024-10-02T09:00:00Z" }, proof), ["ProofRejected"]);
  expectCode(() => c.verify(statement, proof.slice(0, proof.length - 1)), ["MalformedProof"]);
  expectCode(() => c.verify({ ...statement, issuerPkx: "0xnothex" }, proof), ["InvalidArgument"]);
  expectCode(() => c.verify({ ...statement, now: "2024-10-01" }, proof), ["InvalidArgument"]);
  expectCode(() => c.verify({ ...statement, transcript: "not bytes" }, proof), ["InvalidArgument"]);
  expectCode(() => c.verify(42, proof), ["InvalidArgument"]);
});

test("a fresh proof verifies; a flipped byte does not", () => {
  const c = getCircuit();
  const { statement, mdoc } = reference();
  const t0 = process.hrtime.bigint();
  const proof = c.prove(mdoc, statement);
  const t1 = process.hrtime.bigint();
  assert.ok(proof instanceof Uint8Array);
  c.verify(statement, proof);
  const t2 = process.hrtime.bigint();
  const ms = (a, b) => (Number(b - a) / 1e6).toFixed(0);
  // The line benches/bindings/run.sh collects.
  console.log(`timing wasm-node: prove ${ms(t0, t1)} ms, verify ${ms(t1, t2)} ms (v7, 1 attribute)`);

  const flipped = proof.slice();
  flipped[flipped.length >> 1] ^= 1;
  expectCode(() => c.verify(statement, flipped), ["ProofRejected", "MalformedProof"]);

  const out = process.env.LONGFELLOW_BINDINGS_OUT;
  if (out) {
    fs.mkdirSync(out, { recursive: true });
    fs.writeFileSync(path.join(out, "wasm.proof"), proof);
    fs.writeFileSync(
      path.join(out, "request.json"),
      JSON.stringify({
        pkx: statement.issuerPkx,
        pky: statement.issuerPky,
        now: statement.now,
        doc_type: statement.docType,
        transcript_hex: Buffer.from(statement.transcript).toString("hex"),
        attributes: statement.attributes.map((a) => ({
          namespace: a.namespace,
          id: a.identifier,
          value_cbor_hex: Buffer.from(a.valueCbor).toString("hex"),
        })),
      }),
    );
  }
});

test("the prover refuses an attribute the mdoc lacks", () => {
  const c = getCircuit();
  const { statement, mdoc } = reference();
  const absent = { ...statement, attributes: [{ ...statement.attributes[0], identifier: "nickname" }] };
  expectCode(() => c.prove(mdoc, absent), ["ProverRefused"]);
  expectCode(() => c.prove(mdoc.slice(0, 100), statement), ["ProverRefused"]);
});
