//! Inputs of the version 5–7 mdoc signature and hash circuits.
//!
//! Both input vectors are built in the exact wire order the circuits were
//! compiled with (see ISRG's `circuit_interface.md` for a wire-by-wire
//! description): public inputs first, then the private witness.

use longfellow_field::{Field, Fp256, Gf2_128};
use longfellow_mdoc::RequestError;
use p256::{AffinePoint, FieldElement};

use crate::ecdsa::{self, fe_le, fe_reduce, pluck_point};
use crate::error::MdocError;
use crate::layout;
use crate::mac::{self, MacInputs};
use crate::parse::{parse_device_response, DeviceResponse, IssuerSignedItem, ItemField};
use crate::public::{self, SIG_STRUCTURE_PREFIX};
use crate::sha256::{self, PaddedHash};
use crate::spec::{ZkSpecInfo, INDEX_BITS, SIG_PRIVATE_LEN};

/// Everything the prover is given besides the mdoc itself.
pub use longfellow_mdoc::MdocRequest;

/// Full input vectors of both circuits (public inputs, then private).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witnesses {
    /// Signature circuit inputs, P-256 base field, 32-byte little-endian.
    pub sig: Vec<[u8; 32]>,
    /// Hash circuit inputs, GF(2^128) as `u128` (bit i = coefficient of x^i).
    pub hash: Vec<u128>,
    /// The six MAC tags (also inside both public input vectors).
    pub macs: [u128; 6],
}

impl Witnesses {
    /// The hash inputs in their 16-byte little-endian wire encoding.
    pub fn hash_bytes(&self) -> impl Iterator<Item = [u8; 16]> + '_ {
        self.hash.iter().map(|v| v.to_le_bytes())
    }

    /// The signature inputs as field elements. Every value is produced
    /// canonical, so `None` would mean a bug here, not bad input.
    pub fn sig_elements(&self) -> Option<Vec<Fp256>> {
        self.sig.iter().map(|b| Fp256::from_bytes(b)).collect()
    }

    /// The hash inputs as field elements (every 16-byte string is one).
    pub fn hash_elements(&self) -> Option<Vec<Gf2_128>> {
        self.hash_bytes().map(|b| Gf2_128::from_bytes(&b)).collect()
    }
}

/// The private parts of both witnesses, which need only the prover MAC keys;
/// the public parts follow once the verifier key a_v is known.
#[derive(Clone, Debug)]
pub struct PrivateWitness {
    spec: ZkSpecInfo,
    request: MdocRequest,
    /// Issuer-signature hash e, big-endian.
    pub credential_hash: [u8; 32],
    /// Device key (x, y), big-endian.
    pub device_key: ([u8; 32], [u8; 32]),
    /// Hash of the device-signed Sig_structure, big-endian.
    pub device_auth_hash: [u8; 32],
    /// Private signature-circuit inputs.
    pub sig: Vec<[u8; 32]>,
    /// Private hash-circuit inputs.
    pub hash: Vec<u128>,
}

impl PrivateWitness {
    /// Parses `mdoc` (a DeviceResponse), checks it against the request and the
    /// circuit's limits, verifies both signatures and builds the private
    /// inputs with prover MAC keys `prover_keys`.
    pub fn new(
        spec: &ZkSpecInfo,
        request: &MdocRequest,
        mdoc: &[u8],
        prover_keys: &[[u128; 2]; 3],
    ) -> Result<Self, MdocError> {
        crate::spec::check(spec)?;
        public::validate_attributes(&request.attributes, spec.num_attributes).map_err(
            |e| match e {
                public::PublicInputError::MixedNamespaces => {
                    MdocError::InvalidRequest("all attributes must share one namespace")
                }
                public::PublicInputError::AttributeCount { expected, got } => {
                    MdocError::AttributeCount {
                        requested: got,
                        circuit: expected,
                    }
                }
                _ => {
                    MdocError::InvalidRequest("attribute namespace, identifier or value too large")
                }
            },
        )?;
        // A key the verifier would refuse is refused here the same way the
        // credential's own keys are.
        request.validate().map_err(|e| match e {
            RequestError::NotOnCurve | RequestError::NonCanonicalCoordinate(_) => {
                MdocError::InvalidPublicKey("issuer")
            }
            e => MdocError::Request(e),
        })?;
        // Encode the public inputs once with placeholder MAC values: whether a
        // request fits does not depend on them, and refusing here avoids
        // failing only after both circuits are committed.
        public::hash_public_inputs(spec, &request.attributes, &request.now, &[0; 6], 0)?;
        let response = parse_device_response(mdoc)?;
        if response.doc_type != request.doc_type {
            return Err(MdocError::DocTypeMismatch {
                requested: request.doc_type.clone(),
                found: response.doc_type.clone(),
            });
        }
        let items = select_items(spec, request, &response)?;
        layout::check_mso(&response.mso, &request.now)?;
        for item in &items {
            layout::check_digest(&response.mso, item)?;
        }

        let signed = mso_sig_structure(&response)?;
        let max_blocks = spec.max_mso_blocks();
        let mso_hash = sha256::hash_padded(&signed, max_blocks).ok_or(MdocError::MsoTooLarge {
            len: response.mso.tagged.len(),
            blocks: sha256::blocks_needed(signed.len()),
            max_blocks,
            version: spec.version,
        })?;
        let credential_hash = mso_hash.digest();

        let issuer_pk = ecdsa::public_key(&request.issuer_pk.0, &request.issuer_pk.1, "issuer")?;
        let device_key = response.mso.device_key;
        let device_pk = ecdsa::public_key(&device_key.0, &device_key.1, "device")?;
        let device_auth_hash =
            public::device_authentication_hash(&request.transcript, &request.doc_type);

        let sig = sig_private(
            &issuer_pk,
            &device_pk,
            &credential_hash,
            &device_auth_hash,
            &response,
            prover_keys,
        )?;
        let hash = hash_private(
            spec,
            &response,
            &items,
            &mso_hash,
            &credential_hash,
            prover_keys,
        )?;
        Ok(Self {
            spec: *spec,
            request: request.clone(),
            credential_hash,
            device_key,
            device_auth_hash,
            sig,
            hash,
        })
    }

    /// The six MAC tags under verifier key a_v.
    pub fn macs(&self, keys: &MacInputs) -> [u128; 6] {
        mac::tags(
            [
                &self.credential_hash,
                &self.device_key.0,
                &self.device_key.1,
            ],
            keys,
        )
    }

    /// Both full input vectors, public parts included.
    pub fn finish(&self, keys: &MacInputs) -> Result<Witnesses, MdocError> {
        let macs = self.macs(keys);
        let mut sig = public::sig_public_inputs(
            (&self.request.issuer_pk.0, &self.request.issuer_pk.1),
            &self.device_auth_hash,
            &macs,
            keys.verifier_key,
        );
        sig.extend_from_slice(&self.sig);
        let mut hash = public::hash_public_inputs(
            &self.spec,
            &self.request.attributes,
            &self.request.now,
            &macs,
            keys.verifier_key,
        )
        .map_err(|_| {
            MdocError::InvalidRequest("attribute does not fit the circuit's public inputs")
        })?;
        hash.extend_from_slice(&self.hash);
        Ok(Witnesses { sig, hash, macs })
    }
}

/// Parses the mdoc and builds both circuits' complete inputs with the given
/// MAC keys. (A prover first builds [`PrivateWitness`] with its a_p, commits,
/// draws a_v, then calls [`PrivateWitness::finish`]; this does both at once.)
pub fn build_witnesses(
    spec: &ZkSpecInfo,
    request: &MdocRequest,
    mdoc: &[u8],
    macs: &MacInputs,
) -> Result<Witnesses, MdocError> {
    PrivateWitness::new(spec, request, mdoc, &macs.prover_keys)?.finish(macs)
}

/// The Sig_structure the issuer signed: fixed prefix, a two-byte-length byte
/// string head, then the tagged MSO.
fn mso_sig_structure(response: &DeviceResponse) -> Result<Vec<u8>, MdocError> {
    let tagged = &response.mso.tagged;
    let len = u16::try_from(tagged.len()).map_err(|_| MdocError::UnsupportedMsoEncoding)?;
    let mut out = Vec::with_capacity(SIG_STRUCTURE_PREFIX.len() + 3 + tagged.len());
    out.extend_from_slice(&SIG_STRUCTURE_PREFIX);
    out.push(0x59);
    out.extend_from_slice(&len.to_be_bytes());
    out.extend_from_slice(tagged);
    Ok(out)
}

/// Bytes of the Sig_structure prefix (with the 0x59 head byte) that the
/// circuit fixes and does not take as input.
const FIXED_PREFIX_LEN: usize = 18;

fn select_items<'r>(
    spec: &ZkSpecInfo,
    request: &MdocRequest,
    response: &'r DeviceResponse,
) -> Result<Vec<&'r IssuerSignedItem>, MdocError> {
    let mut out = Vec::with_capacity(request.attributes.len());
    for a in &request.attributes {
        let item = response
            .items
            .iter()
            .find(|it| it.namespace == a.namespace && it.element_identifier == a.id)
            .ok_or_else(|| {
                match response
                    .items
                    .iter()
                    .find(|it| it.element_identifier == a.id)
                {
                    Some(other) => MdocError::AttributeInOtherNamespace {
                        id: a.id.clone(),
                        requested: a.namespace.clone(),
                        found: other.namespace.clone(),
                    },
                    None => MdocError::AttributeNotFound(a.id.clone()),
                }
            })?;
        if item.element_value != a.value_cbor {
            return Err(MdocError::AttributeValueMismatch(a.id.clone()));
        }
        if sha256::blocks_needed(item.bytes.len()) > 2 {
            return Err(MdocError::AttributeTooLong {
                id: a.id.clone(),
                len: item.bytes.len(),
            });
        }
        if !spec.is_v7() {
            let (ei, _) = item.slot(ItemField::ElementIdentifier);
            let (ev, _) = item.slot(ItemField::ElementValue);
            if ev != ei + 1 {
                return Err(MdocError::AttributeOrderUnsupported { id: a.id.clone() });
            }
        }
        if item.digest_offset.is_none() {
            return Err(MdocError::DigestMissing(a.id.clone()));
        }
        out.push(item);
    }
    Ok(out)
}

fn sig_private(
    issuer_pk: &AffinePoint,
    device_pk: &AffinePoint,
    credential_hash: &[u8; 32],
    device_auth_hash: &[u8; 32],
    response: &DeviceResponse,
    prover_keys: &[[u128; 2]; 3],
) -> Result<Vec<[u8; 32]>, MdocError> {
    let mut out: Vec<FieldElement> = Vec::with_capacity(SIG_PRIVATE_LEN);
    let (dx, dy) = &response.mso.device_key;
    out.push(fe_reduce(credential_hash));
    out.push(fe_reduce(dx));
    out.push(fe_reduce(dy));
    out.extend(ecdsa::witness(
        issuer_pk,
        credential_hash,
        &response.issuer_signature,
        "issuer",
    )?);
    out.extend(ecdsa::witness(
        device_pk,
        device_auth_hash,
        &response.device_signature,
        "device",
    )?);
    for (keys, message) in prover_keys.iter().zip([credential_hash, dx, dy]) {
        for v in keys.iter().chain(mac::halves(message).iter()) {
            // 128 bits, two per wire.
            out.extend((0..64).map(|k| pluck_point((v >> (2 * k) & 3) as u64, 4)));
        }
    }
    Ok(out.iter().map(fe_le).collect())
}

struct HashWriter {
    out: Vec<u128>,
}

impl HashWriter {
    fn bits(&mut self, v: usize, n: usize) {
        self.out.extend((0..n).map(|j| (v >> j & 1) as u128));
    }

    fn byte_bits(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.bits(usize::from(*b), 8);
        }
    }

    /// A 256-bit big-endian value as 256 bits, least significant first.
    fn be256_bits(&mut self, be: &[u8; 32]) {
        let mut le = *be;
        le.reverse();
        self.byte_bits(&le);
    }

    /// One 32-bit word as eight 4-bit chunks, each encoded as the subfield
    /// point inj(2v ⊕ 15) (the bit plucker's evaluation points).
    fn word(&mut self, w: u32) {
        for k in 0..8 {
            let v = (w >> (4 * k) & 0xf) as u16;
            self.out
                .push(Gf2_128::from_index(u64::from((v << 1) ^ 15)).to_u128());
        }
    }

    fn sha_blocks(&mut self, h: &PaddedHash) {
        for b in &h.blocks {
            for w in b.circuit_words() {
                self.word(w);
            }
        }
    }

    fn index(&mut self, what: &'static str, offset: usize) -> Result<(), MdocError> {
        if offset >= 1 << INDEX_BITS {
            return Err(MdocError::OffsetTooLarge { what, offset });
        }
        self.bits(offset, INDEX_BITS);
        Ok(())
    }
}

/// Length of the CBOR head(s) in front of a value's content, as the reference
/// prover estimates it for the (unused) version 5/6 length fields: tag 1004
/// text dates, plain text and byte strings; 0 otherwise.
fn legacy_value_head_len(value: &[u8]) -> usize {
    match value.first() {
        None => 0,
        Some(0xd9) => {
            3 + if matches!(value.get(3), Some(0x78 | 0x58)) {
                2
            } else {
                1
            }
        }
        Some(0x60..=0x77 | 0x40..=0x57) => 1,
        Some(0x78 | 0x58) => 2,
        Some(0x79 | 0x59) => 3,
        Some(_) => 0,
    }
}

fn hash_private(
    spec: &ZkSpecInfo,
    response: &DeviceResponse,
    items: &[&IssuerSignedItem],
    mso_hash: &PaddedHash,
    credential_hash: &[u8; 32],
    prover_keys: &[[u128; 2]; 3],
) -> Result<Vec<u128>, MdocError> {
    let mut w = HashWriter {
        out: Vec::with_capacity(spec.hash_private_len()),
    };
    let mso = &response.mso;
    w.be256_bits(credential_hash);
    w.be256_bits(&mso.device_key.0);
    w.be256_bits(&mso.device_key.1);

    w.bits(mso_hash.nblocks, 8);
    let tail = mso_hash.padded.get(FIXED_PREFIX_LEN..).unwrap_or_default();
    w.byte_bits(tail);
    w.sha_blocks(mso_hash);

    w.index("validFrom", mso.valid_from)?;
    w.index("validUntil", mso.valid_until)?;
    w.index("deviceKeyInfo", mso.device_key_info)?;
    w.index("valueDigests", mso.value_digests)?;

    for item in items {
        let h = sha256::hash_padded(&item.bytes, 2).ok_or_else(|| MdocError::AttributeTooLong {
            id: item.element_identifier.clone(),
            len: item.bytes.len(),
        })?;
        w.byte_bits(&h.padded);
        w.sha_blocks(&h);
        w.index("attribute digest", item.digest_offset.unwrap_or(usize::MAX))?;

        let (_, ei) = item.slot(ItemField::ElementIdentifier);
        let (_, ev) = item.slot(ItemField::ElementValue);
        if spec.is_v7() {
            w.index("elementIdentifier", ei.offset)?;
            w.index("elementIdentifier length", ei.len)?;
            w.index("elementValue", ev.offset)?;
            w.index("elementValue length", ev.len)?;
            for s in &item.slots[1..] {
                w.index("IssuerSignedItem field", s.offset)?;
            }
            for s in &item.slots {
                w.index("IssuerSignedItem field length", s.len)?;
            }
            // For each field (digestID, random, elementIdentifier,
            // elementValue), its 2-bit position in encoding order.
            let mut perm = 0;
            for (pos, s) in item.slots.iter().enumerate() {
                perm |= pos << (2 * s.field as usize);
            }
            w.bits(perm, 8);
        } else {
            // Offsets past the keys: the identifier's text head (1 + 17
            // bytes of "elementIdentifier" key) and the "elementValue" key's
            // content (past its 1-byte head).
            let value_len = item
                .element_value
                .len()
                .saturating_sub(legacy_value_head_len(&item.element_value));
            w.index("elementIdentifier", ei.offset + 18)?;
            w.index(
                "elementIdentifier length",
                item.element_identifier.len() + value_len + 13,
            )?;
            w.index("elementValue", ev.offset + 1)?;
            w.index("elementValue length", value_len)?;
        }
    }
    for keys in prover_keys {
        w.out.extend_from_slice(keys);
    }
    debug_assert_eq!(w.out.len(), spec.hash_private_len());
    Ok(w.out)
}
