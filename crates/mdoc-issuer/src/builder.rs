//! Building and signing a DeviceResponse.
//!
//! The byte layout follows the credentials Google's mdoc circuits were tested
//! with (`google/mdoc/cases.json`): IssuerSignedItems as
//! `{digestID, random, elementIdentifier, elementValue}` in that order by
//! default (so elementValue directly follows elementIdentifier, which
//! version 5/6 circuits need), a 16-byte salt (by default), an MSO
//! `{version, digestAlgorithm, docType, valueDigests, deviceKeyInfo,
//! validityInfo}` with tag-0 validity dates and a four-entry COSE_Key, and
//! both signatures under the `{1: -7}` protected header.

use std::time::Duration;

use minicbor::data::Tag;
use minicbor::Encoder;
use rand_core::CryptoRngCore;
use sha2::{Digest, Sha256};

use crate::cert;
use crate::cose;
use crate::date::Tdate;
use crate::error::IssuerError;
use crate::issued::{Attribute, IssuedMdoc, ItemBytes};
use crate::keys::{DeviceKey, IssuerKey};
use crate::value;

/// docType and namespace of an ISO 18013-5 mobile driving licence.
pub const MDL_DOC_TYPE: &str = "org.iso.18013.5.1.mDL";
pub const MDL_NAMESPACE: &str = "org.iso.18013.5.1";
/// docType and namespace of the EU age-verification attestation.
pub const AV_DOC_TYPE: &str = "eu.europa.ec.av.1";
pub const AV_NAMESPACE: &str = "eu.europa.ec.av.1";

/// CBOR tag 24: encoded CBOR data item (a byte string holding CBOR).
const TAG_ENCODED_CBOR: u64 = 24;

/// Circuit limits every issued attribute is held to (unless
/// [`MdocBuilder::without_circuit_limits`]), so that any of them can be
/// disclosed with version 6 and version 7 circuits.
pub mod limits {
    /// Namespace bytes.
    pub const NAMESPACE: usize = 64;
    /// elementIdentifier bytes. Requests allow 32, but the version 7 public
    /// input states the identifier pair's length as 19 + length, i.e.
    /// assumes a one-byte text head (as Google's reference prover does while
    /// its private witness counts the real head), so longer identifiers
    /// cannot be proven with version 7.
    pub const ID: usize = 23;
    /// Encoded elementValue.
    pub const VALUE: usize = 64;
    /// `text(id) ‖ text("elementValue") ‖ value` in a v5/v6 attribute.
    pub const V6_ID_AND_VALUE: usize = 96;
    /// IssuerSignedItemBytes: two SHA-256 blocks less the 9 padding bytes.
    pub const ITEM_BYTES: usize = 2 * 64 - 9;
    /// Tagged MSO (`D8 18 59 hi lo` + map): the two-byte length needs at
    /// least 256 map bytes.
    pub const MIN_MSO: usize = 5 + 256;
    /// Tagged MSO such that its Sig_structure (17 fixed bytes, a 3-byte bstr
    /// head, the MSO) fits the version 6 circuit's 35 SHA-256 blocks.
    pub const MAX_MSO: usize = 35 * 64 - 9 - 20;
}

/// Salt bytes of each IssuerSignedItem (`random`), as in most real mdocs.
pub const DEFAULT_SALT_LEN: usize = 16;

/// How digest IDs are assigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DigestIds {
    /// 0, 1, 2, … in attribute order.
    Sequential,
    /// Distinct random values below 2^16 (three-byte encodings, as several
    /// real issuers use, so item sizes vary like theirs).
    Random,
}

/// One of the four fields of an IssuerSignedItem, to choose their encoding
/// order ([`MdocBuilder::item_order`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemField {
    /// `digestID`.
    DigestId,
    /// `random` (the salt).
    Random,
    /// `elementIdentifier`.
    ElementIdentifier,
    /// `elementValue`.
    ElementValue,
}

/// The field order of Google's mDL test credentials and of most wallets;
/// elementValue directly follows elementIdentifier, as version 5/6 circuits
/// need.
pub const DEFAULT_ITEM_ORDER: [ItemField; 4] = [
    ItemField::DigestId,
    ItemField::Random,
    ItemField::ElementIdentifier,
    ItemField::ElementValue,
];

/// Whether elementValue is encoded directly after elementIdentifier.
fn value_follows_identifier(order: &[ItemField; 4]) -> bool {
    order
        .windows(2)
        .any(|w| w == [ItemField::ElementIdentifier, ItemField::ElementValue])
}

/// What issuerAuth's unprotected header carries as x5chain (label 33).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IssuerCertificate {
    /// A self-signed certificate for the issuer key with the MSO's validity
    /// period ([`crate::cert::self_signed`]); the default, since every real
    /// credential carries its signer's certificate.
    SelfSigned,
    /// These DER bytes, unchecked.
    Der(Vec<u8>),
    /// No certificate: the unprotected header is `{}`. The circuits and the
    /// parser do not read it either way.
    Omit,
}

/// Subject common name of the self-signed issuer certificate.
pub const CERTIFICATE_COMMON_NAME: &str = "longfellow-rs test issuer";

/// An mdoc under construction. Values are validated in [`MdocBuilder::build`].
#[derive(Clone, Debug)]
pub struct MdocBuilder {
    doc_type: String,
    namespace: String,
    attributes: Vec<Attribute>,
    validity: Option<(Tdate, Tdate)>,
    signed: Option<Tdate>,
    certificate: IssuerCertificate,
    salt_len: usize,
    digest_ids: DigestIds,
    item_order: [ItemField; 4],
    circuit_limits: bool,
}

impl MdocBuilder {
    /// An empty document: `attribute` adds to `namespace`.
    pub fn new(doc_type: &str, namespace: &str) -> Self {
        Self {
            doc_type: doc_type.to_owned(),
            namespace: namespace.to_owned(),
            attributes: Vec::new(),
            validity: None,
            signed: None,
            certificate: IssuerCertificate::SelfSigned,
            salt_len: DEFAULT_SALT_LEN,
            digest_ids: DigestIds::Sequential,
            item_order: DEFAULT_ITEM_ORDER,
            circuit_limits: true,
        }
    }

    /// An mDL for a fictional holder (Erika Mustermann, born 1971-09-01),
    /// with the mandatory data elements of ISO 18013-5 table 5 except the
    /// portrait (far beyond the circuits' 64-byte values; add one with
    /// [`without_circuit_limits`](Self::without_circuit_limits)), and the
    /// usual age statements.
    pub fn mdl() -> Self {
        let date = |d: &str| value::full_date(d).unwrap_or_default();
        Self::new(MDL_DOC_TYPE, MDL_NAMESPACE)
            .attribute("family_name", value::text("Mustermann"))
            .attribute("given_name", value::text("Erika"))
            .attribute("birth_date", date("1971-09-01"))
            .attribute("issue_date", date("2024-03-15"))
            .attribute("expiry_date", date("2034-03-14"))
            .attribute("issuing_country", value::text("UT"))
            .attribute("issuing_authority", value::text("UT DMV"))
            .attribute("document_number", value::text("L1234567"))
            .attribute("age_over_18", value::boolean(true))
            .attribute("age_over_21", value::boolean(true))
            .attribute("age_birth_year", value::uint(1971))
            .attribute("un_distinguishing_sign", value::text("UT"))
            .attribute("driving_privileges", value::driving_privileges(&["B"]))
    }

    /// An EU age-verification attestation stating `age_over_18: true`.
    pub fn age_verification() -> Self {
        Self::new(AV_DOC_TYPE, AV_NAMESPACE).attribute("age_over_18", value::boolean(true))
    }

    /// Sets attribute `id` of the default namespace to the CBOR item
    /// `value_cbor`, replacing an existing value in place (keeping its
    /// position) or appending.
    pub fn attribute(self, id: &str, value_cbor: Vec<u8>) -> Self {
        let ns = self.namespace.clone();
        self.attribute_in(&ns, id, value_cbor)
    }

    /// Like [`attribute`](Self::attribute), in namespace `namespace`.
    pub fn attribute_in(mut self, namespace: &str, id: &str, value_cbor: Vec<u8>) -> Self {
        match self
            .attributes
            .iter_mut()
            .find(|a| a.namespace == namespace && a.id == id)
        {
            Some(a) => a.value_cbor = value_cbor,
            None => self.attributes.push(Attribute {
                namespace: namespace.to_owned(),
                id: id.to_owned(),
                value_cbor,
            }),
        }
        self
    }

    /// Drops attribute `id` from the default namespace.
    pub fn without(mut self, id: &str) -> Self {
        let ns = self.namespace.clone();
        self.attributes
            .retain(|a| !(a.namespace == ns && a.id == id));
        self
    }

    /// validFrom and validUntil (and `signed`, unless set, = validFrom).
    pub fn valid(mut self, from: Tdate, until: Tdate) -> Self {
        self.validity = Some((from, until));
        self
    }

    /// A validity period from `now − before` to `now + after`.
    pub fn valid_around(
        self,
        now: Tdate,
        before: Duration,
        after: Duration,
    ) -> Result<Self, IssuerError> {
        let from = now.checked_sub(before)?;
        let until = now.checked_add(after)?;
        Ok(self.valid(from, until))
    }

    /// The MSO's `validityInfo.signed` date.
    pub fn signed(mut self, at: Tdate) -> Self {
        self.signed = Some(at);
        self
    }

    /// Puts `certificate` (DER, opaque here) in issuerAuth's unprotected
    /// header as x5chain instead of a self-signed one.
    pub fn x5chain(self, certificate: Vec<u8>) -> Self {
        self.certificate(IssuerCertificate::Der(certificate))
    }

    /// Chooses the x5chain content ([`IssuerCertificate::SelfSigned`] by
    /// default).
    pub fn certificate(mut self, certificate: IssuerCertificate) -> Self {
        self.certificate = certificate;
        self
    }

    /// Salt bytes per IssuerSignedItem (16 by default; real issuers use 16
    /// to 32). Larger salts shrink the room left for identifier and value.
    pub fn salt_len(mut self, len: usize) -> Self {
        self.salt_len = len;
        self
    }

    /// How digest IDs are chosen ([`DigestIds::Sequential`] by default).
    pub fn digest_ids(mut self, ids: DigestIds) -> Self {
        self.digest_ids = ids;
        self
    }

    /// Encodes every IssuerSignedItem's fields in `order`
    /// ([`DEFAULT_ITEM_ORDER`] by default). ISO 18013-5 leaves the order
    /// open and issuers differ (the EU age-verification credentials of
    /// `cases.json` use five orders), so tests need other orders too. An
    /// order without elementValue directly after elementIdentifier cannot
    /// be proven with version 5/6 circuits, so it also needs
    /// [`without_circuit_limits`](Self::without_circuit_limits).
    pub fn item_order(mut self, order: [ItemField; 4]) -> Self {
        self.item_order = order;
        self
    }

    /// Issues attributes and MSOs beyond what the circuits can prove (long
    /// identifiers, a portrait, hundreds of elements): valid ISO 18013-5
    /// for parser tests, fuzz seeds and the prover's refusal paths. Values
    /// must still be single well-formed CBOR items.
    pub fn without_circuit_limits(mut self) -> Self {
        self.circuit_limits = false;
        self
    }

    /// Signs the MSO with `issuer`, binds `device` as the device key, signs
    /// DeviceAuthentication over `session_transcript` with it, and returns
    /// the DeviceResponse disclosing every attribute. Salts (and random
    /// digest IDs, the certificate serial) come from `rng`; the signatures use RFC 6979 nonces, so
    /// a seeded `rng` makes the output reproducible.
    pub fn build(
        &self,
        issuer: &IssuerKey,
        device: &DeviceKey,
        session_transcript: &[u8],
        rng: &mut impl CryptoRngCore,
    ) -> Result<IssuedMdoc, IssuerError> {
        self.check()?;
        if !is_permutation(&self.item_order) {
            return Err(IssuerError::InvalidItemOrder);
        }
        if !value::is_single_item(session_transcript) {
            return Err(IssuerError::InvalidSessionTranscript);
        }
        let (valid_from, valid_until) = self.validity.ok_or(IssuerError::MissingValidity)?;
        if valid_from > valid_until {
            return Err(IssuerError::EmptyValidity {
                from: valid_from.to_string(),
                until: valid_until.to_string(),
            });
        }

        let ids = self.assign_digest_ids(rng)?;
        let mut items = Vec::with_capacity(self.attributes.len());
        for (a, digest_id) in self.attributes.iter().zip(ids) {
            let mut salt = vec![0u8; self.salt_len];
            rng.fill_bytes(&mut salt);
            let bytes = item_bytes(a, digest_id, &salt, &self.item_order)?;
            if self.circuit_limits && bytes.len() > limits::ITEM_BYTES {
                return Err(not_provable(
                    a,
                    "IssuerSignedItemBytes exceed two SHA-256 blocks (119 bytes)",
                ));
            }
            items.push(ItemBytes {
                namespace: a.namespace.clone(),
                digest_id,
                bytes,
            });
        }

        let device_xy = device.public_xy();
        let mso = self.tagged_mso(&items, device_xy, valid_from, valid_until)?;
        if self.circuit_limits && !(limits::MIN_MSO..=limits::MAX_MSO).contains(&mso.len()) {
            return Err(IssuerError::MsoSize {
                len: mso.len(),
                min: limits::MIN_MSO,
                max: limits::MAX_MSO,
            });
        }
        let certificate = match &self.certificate {
            IssuerCertificate::SelfSigned => Some(cert::self_signed(
                issuer,
                CERTIFICATE_COMMON_NAME,
                &valid_from,
                &valid_until,
                rng,
            )),
            IssuerCertificate::Der(der) => Some(der.clone()),
            IssuerCertificate::Omit => None,
        };
        let issuer_signature = issuer.sign(&cose::sig_structure(&mso)?);
        let mut issuer_auth = Vec::new();
        cose::write_sign1(
            &mut Encoder::new(&mut issuer_auth),
            certificate.as_deref(),
            Some(&mso),
            &issuer_signature,
        )?;

        let da = device_authentication_bytes(session_transcript, &self.doc_type)?;
        let device_signature = device.sign(&cose::sig_structure(&da)?);
        let mut device_signed = Vec::new();
        write_device_signed(&mut Encoder::new(&mut device_signed), &device_signature)?;

        let (issuer_pkx, issuer_pky) = issuer.public_xy();
        let issued = IssuedMdoc::assemble(IssuedMdoc {
            device_response: Vec::new(),
            issuer_pkx,
            issuer_pky,
            device_pkx: device_xy.0,
            device_pky: device_xy.1,
            doc_type: self.doc_type.clone(),
            namespace: self.namespace.clone(),
            session_transcript: session_transcript.to_vec(),
            attributes: self.attributes.clone(),
            valid_from,
            valid_until,
            certificate,
            items,
            issuer_auth,
            device_signed,
        })?;
        Ok(issued)
    }

    /// Checks every attribute for well-formedness and, unless disabled,
    /// against the circuits' limits.
    fn check(&self) -> Result<(), IssuerError> {
        if self.attributes.is_empty() {
            return Err(IssuerError::NoAttributes);
        }
        for a in &self.attributes {
            if a.namespace.is_empty()
                || (self.circuit_limits && a.namespace.len() > limits::NAMESPACE)
            {
                return Err(IssuerError::InvalidNamespace(a.namespace.clone()));
            }
            if !value::is_single_item(&a.value_cbor) {
                return Err(IssuerError::InvalidValue(a.id.clone()));
            }
            if !self.circuit_limits {
                continue;
            }
            if !value_follows_identifier(&self.item_order) {
                return Err(not_provable(
                    a,
                    "elementValue does not directly follow elementIdentifier (version 6 limit)",
                ));
            }
            if a.id.is_empty() || a.id.len() > limits::ID {
                return Err(not_provable(
                    a,
                    "identifier is empty or longer than 23 bytes (version 7 limit)",
                ));
            }
            let encoded_id = value::text(&a.id).len();
            if a.value_cbor.len() > limits::VALUE {
                return Err(not_provable(a, "encoded value exceeds 64 bytes"));
            }
            let element_value_key = value::text("elementValue").len();
            if encoded_id + element_value_key + a.value_cbor.len() > limits::V6_ID_AND_VALUE {
                return Err(not_provable(
                    a,
                    "identifier and value exceed the 96 bytes of a version 6 attribute",
                ));
            }
        }
        Ok(())
    }

    fn assign_digest_ids(&self, rng: &mut impl CryptoRngCore) -> Result<Vec<u64>, IssuerError> {
        let n = self.attributes.len();
        match self.digest_ids {
            DigestIds::Sequential => Ok((0..n as u64).collect()),
            DigestIds::Random => {
                // Half the space keeps the expected number of redraws small.
                const SPACE: usize = 1 << 16;
                if n > SPACE / 2 {
                    return Err(IssuerError::TooManyAttributes(n));
                }
                let mut taken = vec![false; SPACE];
                let mut ids: Vec<u64> = Vec::with_capacity(n);
                while ids.len() < n {
                    let id = (rng.next_u32() & 0xffff) as usize;
                    if let Some(slot) = taken.get_mut(id) {
                        if !*slot {
                            *slot = true;
                            ids.push(id as u64);
                        }
                    }
                }
                Ok(ids)
            }
        }
    }

    /// `D8 18 59 hi lo` + the MSO map.
    fn tagged_mso(
        &self,
        items: &[ItemBytes],
        device_xy: ([u8; 32], [u8; 32]),
        valid_from: Tdate,
        valid_until: Tdate,
    ) -> Result<Vec<u8>, IssuerError> {
        let namespaces = namespaces_in_order(items.iter().map(|i| i.namespace.as_str()));
        let mut e = Encoder::new(Vec::new());
        e.map(6)?
            .str("version")?
            .str("1.0")?
            .str("digestAlgorithm")?
            .str("SHA-256")?
            .str("docType")?
            .str(&self.doc_type)?
            .str("valueDigests")?
            .map(namespaces.len() as u64)?;
        for ns in &namespaces {
            let in_ns: Vec<&ItemBytes> = items.iter().filter(|i| i.namespace == *ns).collect();
            e.str(ns)?.map(in_ns.len() as u64)?;
            for item in in_ns {
                let digest: [u8; 32] = Sha256::digest(&item.bytes).into();
                e.u64(item.digest_id)?.bytes(&digest)?;
            }
        }
        e.str("deviceKeyInfo")?
            .map(1)?
            .str("deviceKey")?
            // COSE_Key: kty EC2, crv P-256, x, y.
            .map(4)?
            .i64(1)?
            .i64(2)?
            .i64(-1)?
            .i64(1)?
            .i64(-2)?
            .bytes(&device_xy.0)?
            .i64(-3)?
            .bytes(&device_xy.1)?;
        let signed = self.signed.unwrap_or(valid_from);
        e.str("validityInfo")?.map(3)?;
        for (key, date) in [
            ("signed", signed),
            ("validFrom", valid_from),
            ("validUntil", valid_until),
        ] {
            e.str(key)?;
            e.writer_mut().extend_from_slice(&value::tdate(&date));
        }
        encoded_cbor(&e.into_writer())
    }
}

fn not_provable(a: &Attribute, reason: &'static str) -> IssuerError {
    IssuerError::AttributeNotProvable {
        id: a.id.clone(),
        reason,
    }
}

/// Distinct namespaces in order of first appearance.
pub(crate) fn namespaces_in_order<'a>(names: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut out: Vec<&str> = Vec::new();
    for n in names {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// `#6.24(bstr .cbor item)`.
fn encoded_cbor(item: &[u8]) -> Result<Vec<u8>, IssuerError> {
    let mut e = Encoder::new(Vec::with_capacity(item.len() + 5));
    e.tag(Tag::new(TAG_ENCODED_CBOR))?.bytes(item)?;
    Ok(e.into_writer())
}

/// Whether each of the four fields occurs exactly once.
fn is_permutation(order: &[ItemField; 4]) -> bool {
    order
        .iter()
        .all(|f| order.iter().filter(|g| *g == f).count() == 1)
}

/// IssuerSignedItemBytes: tag 24 over the map
/// `{digestID, random, elementIdentifier, elementValue}`, its fields in
/// `order`.
fn item_bytes(
    a: &Attribute,
    digest_id: u64,
    salt: &[u8],
    order: &[ItemField; 4],
) -> Result<Vec<u8>, IssuerError> {
    let mut e = Encoder::new(Vec::new());
    e.map(4)?;
    for field in order {
        match field {
            ItemField::DigestId => {
                e.str("digestID")?.u64(digest_id)?;
            }
            ItemField::Random => {
                e.str("random")?.bytes(salt)?;
            }
            ItemField::ElementIdentifier => {
                e.str("elementIdentifier")?.str(&a.id)?;
            }
            ItemField::ElementValue => {
                e.str("elementValue")?;
                e.writer_mut().extend_from_slice(&a.value_cbor);
            }
        }
    }
    encoded_cbor(&e.into_writer())
}

/// DeviceAuthenticationBytes =
/// `#6.24(bstr .cbor ["DeviceAuthentication", SessionTranscript, docType,
/// DeviceNameSpacesBytes])`, with no device-signed elements
/// (`DeviceNameSpacesBytes = #6.24(bstr .cbor {})`).
pub fn device_authentication_bytes(
    session_transcript: &[u8],
    doc_type: &str,
) -> Result<Vec<u8>, IssuerError> {
    let mut e = Encoder::new(Vec::new());
    e.array(4)?.str("DeviceAuthentication")?;
    e.writer_mut().extend_from_slice(session_transcript);
    e.str(doc_type)?;
    e.writer_mut()
        .extend_from_slice(&empty_device_namespaces()?);
    encoded_cbor(&e.into_writer())
}

/// DeviceNameSpacesBytes with no elements: `#6.24(h'A0')`.
fn empty_device_namespaces() -> Result<Vec<u8>, IssuerError> {
    let mut map = Encoder::new(Vec::new());
    map.map(0)?;
    encoded_cbor(&map.into_writer())
}

/// `{"nameSpaces": #6.24({}), "deviceAuth": {"deviceSignature": COSE_Sign1}}`.
fn write_device_signed(
    e: &mut Encoder<&mut Vec<u8>>,
    device_signature: &[u8; 64],
) -> Result<(), IssuerError> {
    e.map(2)?.str("nameSpaces")?;
    e.writer_mut()
        .extend_from_slice(&empty_device_namespaces()?);
    e.str("deviceAuth")?.map(1)?.str("deviceSignature")?;
    cose::write_sign1(e, None, None, device_signature)
}
