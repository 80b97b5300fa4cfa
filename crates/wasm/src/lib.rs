//! JavaScript bindings (wasm-bindgen) of the Longfellow mdoc prover and
//! verifier, for browsers and Node.
//!
//! ```js
//! const lf = require("./pkg/longfellow_wasm.js");
//! const circuit = lf.Circuit.load(circuitBytes);      // any published form
//! circuit.spec;                                        // { system, circuitHash, version, ... }
//! const proof = circuit.prove(deviceResponse, statement);
//! circuit.verify(statement, proof);                    // throws LongfellowError
//! lf.zkSpecs(); lf.matchSpec(offeredSpecs, 1);
//! ```
//!
//! A statement is a plain object `{ issuerPkx, issuerPky, transcript,
//! attributes: [{ namespace, identifier, valueCbor }], now, docType }` with
//! `0x`-hex key coordinates, `Uint8Array` byte fields and `now` as
//! `YYYY-MM-DDTHH:MM:SSZ`. Failures throw an `Error` whose `name` is
//! `LongfellowError` and whose `code` is one of `InvalidArgument`,
//! `Circuit`, `ProverRefused`, `MalformedProof`, `ProofRejected`,
//! `Internal`.
//!
//! Proving draws from the operating system's generator
//! (`crypto.getRandomValues`); there is no way to pass a seed.
#![forbid(unsafe_code)]

mod js;

use longfellow_bindings_core as core;
use wasm_bindgen::prelude::*;

use js::{error_to_js, spec_from_js, spec_to_js, statement_from_js};

/// A loaded circuit pair of a known ZkSpec; reuse it for many proofs.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Circuit {
    inner: core::Circuit,
}

#[wasm_bindgen]
impl Circuit {
    /// Loads a circuit pair (`<hash>`, `.lfa1` or `.lfa2` bytes).
    pub fn load(bytes: &[u8]) -> Result<Circuit, JsValue> {
        core::Circuit::load(bytes)
            .map(|inner| Circuit { inner })
            .map_err(|e| error_to_js(&e))
    }

    /// The pair's ZkSpec.
    #[wasm_bindgen(getter)]
    pub fn spec(&self) -> JsValue {
        spec_to_js(&self.inner.spec())
    }

    /// Proves `statement` from the DeviceResponse bytes; returns the proof.
    pub fn prove(&self, device_response: &[u8], statement: JsValue) -> Result<Vec<u8>, JsValue> {
        let statement = statement_from_js(&statement).map_err(|e| error_to_js(&e))?;
        self.inner
            .prove(device_response, &statement, &mut longfellow_random::OsRng)
            .map_err(|e| error_to_js(&e))
    }

    /// Returns normally if `proof` proves `statement`; throws otherwise.
    pub fn verify(&self, statement: JsValue, proof: &[u8]) -> Result<(), JsValue> {
        let statement = statement_from_js(&statement).map_err(|e| error_to_js(&e))?;
        self.inner
            .verify(&statement, proof)
            .map_err(|e| error_to_js(&e))
    }
}

/// Every ZkSpec this library proves and verifies, newest version first.
#[wasm_bindgen(js_name = zkSpecs)]
pub fn zk_specs() -> js_sys::Array {
    core::zk_specs().iter().map(spec_to_js).collect()
}

/// Among `offered` spec objects, the newest known one disclosing exactly
/// `num_attributes` attributes, or `undefined`.
#[wasm_bindgen(js_name = matchSpec)]
pub fn match_spec(offered: js_sys::Array, num_attributes: u32) -> Result<JsValue, JsValue> {
    let offered = offered
        .iter()
        .map(|v| spec_from_js(&v))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| error_to_js(&e))?;
    Ok(core::match_spec(&offered, num_attributes)
        .map(|s| spec_to_js(&s))
        .unwrap_or(JsValue::UNDEFINED))
}
