//! Conversions between plain JS objects and the core types. Every field is
//! read with its type checked, so a caller's mistake is an
//! `InvalidArgument` error naming the field, never a panic.

use js_sys::{Array, Object, Reflect, Uint8Array};
use longfellow_bindings_core::{Attribute, BindingError, ErrorCode, SpecInfo, Statement};
use wasm_bindgen::{JsCast, JsValue};

fn invalid(message: String) -> BindingError {
    BindingError::new(ErrorCode::InvalidArgument, message)
}

fn field(obj: &JsValue, key: &str) -> Result<JsValue, BindingError> {
    if !obj.is_object() {
        return Err(invalid(format!("expected an object holding `{key}`")));
    }
    Reflect::get(obj, &JsValue::from_str(key)).map_err(|_| invalid(format!("cannot read `{key}`")))
}

fn string(obj: &JsValue, key: &str) -> Result<String, BindingError> {
    field(obj, key)?
        .as_string()
        .ok_or_else(|| invalid(format!("`{key}` must be a string")))
}

fn bytes(obj: &JsValue, key: &str) -> Result<Vec<u8>, BindingError> {
    field(obj, key)?
        .dyn_into::<Uint8Array>()
        .map(|a| a.to_vec())
        .map_err(|_| invalid(format!("`{key}` must be a Uint8Array")))
}

fn small_number(obj: &JsValue, key: &str) -> Result<u32, BindingError> {
    let v = field(obj, key)?
        .as_f64()
        .ok_or_else(|| invalid(format!("`{key}` must be a number")))?;
    if v.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&v) {
        return Err(invalid(format!("`{key}` must be an integer in 0..2^32")));
    }
    // In range and integral (checked above), so the cast is exact.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    Ok(v as u32)
}

/// Reads a statement object (see the crate docs for its fields).
pub fn statement_from_js(v: &JsValue) -> Result<Statement, BindingError> {
    let attributes = field(v, "attributes")?
        .dyn_into::<Array>()
        .map_err(|_| invalid("`attributes` must be an array".into()))?
        .iter()
        .map(|a| {
            Ok(Attribute {
                namespace: string(&a, "namespace")?,
                identifier: string(&a, "identifier")?,
                value_cbor: bytes(&a, "valueCbor")?,
            })
        })
        .collect::<Result<Vec<_>, BindingError>>()?;
    Ok(Statement {
        issuer_pkx: string(v, "issuerPkx")?,
        issuer_pky: string(v, "issuerPky")?,
        transcript: bytes(v, "transcript")?,
        attributes,
        now: string(v, "now")?,
        doc_type: string(v, "docType")?,
    })
}

fn set(obj: &Object, key: &str, value: JsValue) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value);
}

/// A ZkSpec as a plain object `{ system, circuitHash, version,
/// numAttributes, blockEncHash, blockEncSig }`.
pub fn spec_to_js(s: &SpecInfo) -> JsValue {
    let o = Object::new();
    set(&o, "system", JsValue::from_str(&s.system));
    set(&o, "circuitHash", JsValue::from_str(&s.circuit_hash));
    set(&o, "version", JsValue::from(s.version));
    set(&o, "numAttributes", JsValue::from(s.num_attributes));
    set(&o, "blockEncHash", JsValue::from(s.block_enc_hash));
    set(&o, "blockEncSig", JsValue::from(s.block_enc_sig));
    o.into()
}

/// Reads a spec object as [`spec_to_js`] writes it (the block lengths may
/// be omitted: matching does not use them).
pub fn spec_from_js(v: &JsValue) -> Result<SpecInfo, BindingError> {
    let optional = |key: &str| -> Result<u32, BindingError> {
        if field(v, key)?.is_undefined() {
            Ok(0)
        } else {
            small_number(v, key)
        }
    };
    Ok(SpecInfo {
        system: string(v, "system")?,
        circuit_hash: string(v, "circuitHash")?,
        version: small_number(v, "version")?,
        num_attributes: small_number(v, "numAttributes")?,
        block_enc_hash: optional("blockEncHash")?,
        block_enc_sig: optional("blockEncSig")?,
    })
}

/// An `Error` named `LongfellowError` carrying the error's `code`.
pub fn error_to_js(e: &BindingError) -> JsValue {
    let err = js_sys::Error::new(&e.message);
    err.set_name("LongfellowError");
    set(&err, "code", JsValue::from_str(e.code.as_str()));
    err.into()
}
