//! Checks `include/longfellow/mdoc_zk.h` against the Rust declarations: a C
//! program built with the system compiler prints what the header says
//! (sizes, offsets, enum values, kNumZkSpecs), and each line must equal the
//! value computed here from the `#[repr(C)]` types.

use std::mem::{offset_of, size_of};
use std::path::PathBuf;
use std::process::Command;

use mdoc_zk::abi::{
    CircuitGenerationErrorCode as G, MdocProverErrorCode as P, MdocVerifierErrorCode as V,
    RequestedAttribute, ZkSpecStruct,
};
use mdoc_zk::specs::NUM_ZK_SPECS;

const PROVER: [(&str, P); 36] = [
    ("MDOC_PROVER_SUCCESS", P::Success),
    ("MDOC_PROVER_NULL_INPUT", P::NullInput),
    ("MDOC_PROVER_INVALID_INPUT", P::InvalidInput),
    (
        "MDOC_PROVER_CIRCUIT_PARSING_FAILURE",
        P::CircuitParsingFailure,
    ),
    ("MDOC_PROVER_HASH_PARSING_FAILURE", P::HashParsingFailure),
    (
        "MDOC_PROVER_WITNESS_CREATION_FAILURE",
        P::WitnessCreationFailure,
    ),
    ("MDOC_PROVER_GENERAL_FAILURE", P::GeneralFailure),
    (
        "MDOC_PROVER_MEMORY_ALLOCATION_FAILURE",
        P::MemoryAllocationFailure,
    ),
    (
        "MDOC_PROVER_INVALID_ZK_SPEC_VERSION",
        P::InvalidZkSpecVersion,
    ),
    ("MDOC_PROVER_ROOT_DECODING_FAILURE", P::RootDecodingFailure),
    ("MDOC_PROVER_DOCUMENTS_MISSING", P::DocumentsMissing),
    ("MDOC_PROVER_DOCUMENT_0_MISSING", P::Document0Missing),
    ("MDOC_PROVER_DOCTYPE_MISSING", P::DoctypeMissing),
    ("MDOC_PROVER_ISSUER_SIGNED_MISSING", P::IssuerSignedMissing),
    ("MDOC_PROVER_ISSUER_AUTH_MISSING", P::IssuerAuthMissing),
    ("MDOC_PROVER_MSO_MISSING", P::MsoMissing),
    ("MDOC_PROVER_NSIG_MISSING", P::NsigMissing),
    ("MDOC_PROVER_NAMESPACES_MISSING", P::NamespacesMissing),
    ("MDOC_PROVER_DEVICE_SIGNED_MISSING", P::DeviceSignedMissing),
    ("MDOC_PROVER_DEVICE_AUTH_MISSING", P::DeviceAuthMissing),
    (
        "MDOC_PROVER_DEVICE_SIGNATURE_MISSING",
        P::DeviceSignatureMissing,
    ),
    ("MDOC_PROVER_DEVICE_KEY_MISSING", P::DeviceKeyMissing),
    ("MDOC_PROVER_MSO_DECODING_FAILURE", P::MsoDecodingFailure),
    ("MDOC_PROVER_VALIDITY_INFO_MISSING", P::ValidityInfoMissing),
    (
        "MDOC_PROVER_DEVICE_KEY_INFO_MISSING",
        P::DeviceKeyInfoMissing,
    ),
    (
        "MDOC_PROVER_ATTRIBUTE_DECODE_FAILURE",
        P::AttributeDecodeFailure,
    ),
    ("MDOC_PROVER_ATTRIBUTE_EI_MISSING", P::AttributeEiMissing),
    ("MDOC_PROVER_ATTRIBUTE_EV_MISSING", P::AttributeEvMissing),
    ("MDOC_PROVER_ATTRIBUTE_DID_MISSING", P::AttributeDidMissing),
    ("MDOC_PROVER_SIGNATURE_FAILURE", P::SignatureFailure),
    (
        "MDOC_PROVER_DEVICE_SIGNATURE_FAILURE",
        P::DeviceSignatureFailure,
    ),
    ("MDOC_PROVER_ATTRIBUTE_NOT_FOUND", P::AttributeNotFound),
    ("MDOC_PROVER_ATTRIBUTE_TOO_LONG", P::AttributeTooLong),
    ("MDOC_PROVER_TAGGED_MSO_TOO_BIG", P::TaggedMsoTooBig),
    ("MDOC_PROVER_VERSION_NOT_SUPPORTED", P::VersionNotSupported),
    (
        "MDOC_PROVER_ATTRIBUTE_RANDOM_MISSING",
        P::AttributeRandomMissing,
    ),
];

const VERIFIER: [(&str, V); 12] = [
    ("MDOC_VERIFIER_SUCCESS", V::Success),
    (
        "MDOC_VERIFIER_CIRCUIT_PARSING_FAILURE",
        V::CircuitParsingFailure,
    ),
    ("MDOC_VERIFIER_PROOF_TOO_SMALL", V::ProofTooSmall),
    ("MDOC_VERIFIER_HASH_PARSING_FAILURE", V::HashParsingFailure),
    (
        "MDOC_VERIFIER_SIGNATURE_PARSING_FAILURE",
        V::SignatureParsingFailure,
    ),
    ("MDOC_VERIFIER_GENERAL_FAILURE", V::GeneralFailure),
    ("MDOC_VERIFIER_NULL_INPUT", V::NullInput),
    ("MDOC_VERIFIER_INVALID_INPUT", V::InvalidInput),
    ("MDOC_VERIFIER_ARGUMENTS_TOO_SMALL", V::ArgumentsTooSmall),
    (
        "MDOC_VERIFIER_ATTRIBUTE_NUMBER_MISMATCH",
        V::AttributeNumberMismatch,
    ),
    (
        "MDOC_VERIFIER_INVALID_ZK_SPEC_VERSION",
        V::InvalidZkSpecVersion,
    ),
    ("MDOC_VERIFIER_INVALID_CBOR", V::InvalidCbor),
];

const GENERATION: [(&str, G); 5] = [
    ("CIRCUIT_GENERATION_SUCCESS", G::Success),
    ("CIRCUIT_GENERATION_NULL_INPUT", G::NullInput),
    ("CIRCUIT_GENERATION_ZLIB_FAILURE", G::ZlibFailure),
    ("CIRCUIT_GENERATION_GENERAL_FAILURE", G::GeneralFailure),
    (
        "CIRCUIT_GENERATION_INVALID_ZK_SPEC_VERSION",
        G::InvalidZkSpecVersion,
    ),
];

/// `name value` lines the Rust side expects, in the C program's order.
fn expected() -> Vec<String> {
    let mut out = Vec::new();
    let mut put = |name: &str, v: usize| out.push(format!("{name} {v}"));
    put(
        "sizeof(RequestedAttribute)",
        size_of::<RequestedAttribute>(),
    );
    put(
        "RequestedAttribute.namespace_id",
        offset_of!(RequestedAttribute, namespace_id),
    );
    put("RequestedAttribute.id", offset_of!(RequestedAttribute, id));
    put(
        "RequestedAttribute.cbor_value",
        offset_of!(RequestedAttribute, cbor_value),
    );
    put(
        "RequestedAttribute.namespace_len",
        offset_of!(RequestedAttribute, namespace_len),
    );
    put(
        "RequestedAttribute.id_len",
        offset_of!(RequestedAttribute, id_len),
    );
    put(
        "RequestedAttribute.cbor_value_len",
        offset_of!(RequestedAttribute, cbor_value_len),
    );
    put("sizeof(ZkSpecStruct)", size_of::<ZkSpecStruct>());
    put("ZkSpecStruct.system", offset_of!(ZkSpecStruct, system));
    put(
        "ZkSpecStruct.circuit_hash",
        offset_of!(ZkSpecStruct, circuit_hash),
    );
    put(
        "ZkSpecStruct.num_attributes",
        offset_of!(ZkSpecStruct, num_attributes),
    );
    put("ZkSpecStruct.version", offset_of!(ZkSpecStruct, version));
    put(
        "ZkSpecStruct.block_enc_hash",
        offset_of!(ZkSpecStruct, block_enc_hash),
    );
    put(
        "ZkSpecStruct.block_enc_sig",
        offset_of!(ZkSpecStruct, block_enc_sig),
    );
    put("sizeof(MdocProverErrorCode)", size_of::<P>());
    put("sizeof(MdocVerifierErrorCode)", size_of::<V>());
    put("sizeof(CircuitGenerationErrorCode)", size_of::<G>());
    put("kNumZkSpecs", NUM_ZK_SPECS);
    for (name, v) in PROVER {
        put(name, v as usize);
    }
    for (name, v) in VERIFIER {
        put(name, v as usize);
    }
    for (name, v) in GENERATION {
        put(name, v as usize);
    }
    out
}

/// The C program: the same lines, from the header's point of view.
fn c_source() -> String {
    let mut s = String::from(
        "#include <stdio.h>\n#include <stddef.h>\n#include \"longfellow/mdoc_zk.h\"\n\
         #define P(name, v) printf(\"%s %zu\\n\", name, (size_t)(v))\n\
         #define OFF(t, f) P(#t \".\" #f, offsetof(t, f))\nint main(void) {\n",
    );
    s += "P(\"sizeof(RequestedAttribute)\", sizeof(RequestedAttribute));\n";
    for f in [
        "namespace_id",
        "id",
        "cbor_value",
        "namespace_len",
        "id_len",
        "cbor_value_len",
    ] {
        s += &format!("OFF(RequestedAttribute, {f});\n");
    }
    s += "P(\"sizeof(ZkSpecStruct)\", sizeof(ZkSpecStruct));\n";
    for f in [
        "system",
        "circuit_hash",
        "num_attributes",
        "version",
        "block_enc_hash",
        "block_enc_sig",
    ] {
        s += &format!("OFF(ZkSpecStruct, {f});\n");
    }
    for t in [
        "MdocProverErrorCode",
        "MdocVerifierErrorCode",
        "CircuitGenerationErrorCode",
    ] {
        s += &format!("P(\"sizeof({t})\", sizeof({t}));\n");
    }
    s += "P(\"kNumZkSpecs\", kNumZkSpecs);\n";
    let names = PROVER
        .iter()
        .map(|(n, _)| *n)
        .chain(VERIFIER.iter().map(|(n, _)| *n))
        .chain(GENERATION.iter().map(|(n, _)| *n));
    for n in names {
        s += &format!("P(\"{n}\", {n});\n");
    }
    s += "return 0;\n}\n";
    s
}

fn compile_and_run(extra: &[&str]) -> Vec<String> {
    let crate_dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // Removed on return, also when an assertion fails: runs left one
    // directory in the temp dir.
    let dir = tempfile::Builder::new()
        .prefix("longfellow-capi-header-")
        .tempdir()
        .expect("temp dir");
    let src = dir.path().join("layout.c");
    let exe = dir.path().join("layout");
    std::fs::write(&src, c_source()).expect("write C source");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let status = Command::new(&cc)
        .args(["-std=c11", "-Wall", "-Werror", "-I"])
        .arg(crate_dir.join("include"))
        .args(extra)
        .arg(&src)
        .arg("-o")
        .arg(&exe)
        .status()
        .expect("run the C compiler");
    assert!(status.success(), "the header does not compile with {cc}");
    let out = Command::new(&exe).output().expect("run layout program");
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .expect("ascii output")
        .lines()
        .map(str::to_owned)
        .collect()
}

#[test]
fn header_layouts_and_values_match_the_rust_declarations() {
    let expected = expected();
    for extra in [&[][..], &["-DLONGFELLOW_MULTIPAZ"][..]] {
        let got = compile_and_run(extra);
        assert_eq!(got.len(), expected.len());
        for (g, e) in got.iter().zip(&expected) {
            assert_eq!(g, e, "header (left) and Rust (right) disagree");
        }
    }
    // Google's documented layout on LP64: 3×64-byte-ish buffers then lengths.
    if size_of::<usize>() == 8 {
        assert_eq!(size_of::<RequestedAttribute>(), 184);
        assert_eq!(size_of::<ZkSpecStruct>(), 112);
    }
}

#[test]
fn header_declares_every_exported_function() {
    let header = include_str!("../include/longfellow/mdoc_zk.h");
    let lib = include_str!("../src/ffi.rs");
    let exported: Vec<&str> = lib
        .split("extern \"C\" fn ")
        .skip(1)
        .filter_map(|rest| rest.split('(').next())
        .collect();
    assert!(exported.len() >= 9, "found {exported:?}");
    for name in exported {
        assert!(
            header.contains(&format!(" {name}(")) || header.contains(&format!("*{name}(")),
            "{name} is exported but not declared in the header"
        );
    }
    assert!(header.contains("extern const ZkSpecStruct kZkSpecs[kNumZkSpecs];"));
}
