//! Parsing an untrusted ISO 18013-5 DeviceResponse into what the mdoc
//! circuits need: the signed MSO bytes with the offsets of the fields the hash
//! circuit checks, the two ECDSA signatures, the device key, and every
//! IssuerSignedItem with the layout of its four fields.
//!
//! Only the first document is read, as in the reference provers.

use crate::cbor::{self, Entry, Key, Span};
use crate::error::MdocError;

/// Largest DeviceResponse accepted (a credential with a portrait is tens of
/// kilobytes; the circuits themselves hold an MSO of at most ~2.5 kB).
pub const MAX_DEVICE_RESPONSE_BYTES: usize = 1 << 20;

/// The COSE protected header `{1: -7}` (alg: ES256), the only one the circuits'
/// fixed Sig_structure prefix admits.
pub const ES256_PROTECTED_HEADER: [u8; 3] = [0xa1, 0x01, 0x26];

/// Bytes of `D8 18 59 hi lo` in front of the MSO map.
pub const MSO_TAG_HEADER_LEN: usize = 5;

/// A parsed DeviceResponse (first document only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceResponse {
    /// `documents[0].docType`.
    pub doc_type: String,
    /// The issuer-signed Mobile Security Object.
    pub mso: Mso,
    /// Issuer signature over the MSO: r ‖ s, 32 bytes each, big-endian.
    pub issuer_signature: [u8; 64],
    /// Device signature over DeviceAuthentication: r ‖ s, big-endian.
    pub device_signature: [u8; 64],
    /// Every IssuerSignedItem of every namespace, in encoding order.
    pub items: Vec<IssuerSignedItem>,
}

/// The MSO as signed, plus the offsets the hash circuit checks. Offsets are
/// relative to the first byte of the MSO map, i.e. `tagged[5..]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mso {
    /// The issuerAuth payload: `D8 18 59 hi lo` followed by the MSO map.
    pub tagged: Vec<u8>,
    /// Offset of the `validFrom` key (inside `validityInfo`).
    pub valid_from: usize,
    /// Offset of the `validUntil` key (inside `validityInfo`).
    pub valid_until: usize,
    /// Offset of the top-level `deviceKeyInfo` key.
    pub device_key_info: usize,
    /// Offset of the top-level `valueDigests` key.
    pub value_digests: usize,
    /// Device public key (x, y), big-endian, from `deviceKeyInfo.deviceKey`.
    pub device_key: ([u8; 32], [u8; 32]),
}

/// The four fields of an IssuerSignedItem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemField {
    DigestId = 0,
    Random = 1,
    ElementIdentifier = 2,
    ElementValue = 3,
}

/// Where one key–value pair of an IssuerSignedItem sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FieldSlot {
    pub field: ItemField,
    /// Offset of the key's head, from the start of the tagged item bytes.
    pub offset: usize,
    /// Bytes of key and value together.
    pub len: usize,
}

/// One IssuerSignedItem, with its exact encoding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuerSignedItem {
    pub namespace: String,
    pub element_identifier: String,
    /// The elementValue's CBOR encoding, as in the item.
    pub element_value: Vec<u8>,
    pub digest_id: u64,
    /// IssuerSignedItemBytes: `D8 18 <bstr head> <map>`, the digest preimage.
    pub bytes: Vec<u8>,
    /// The four pairs in encoding order.
    pub slots: [FieldSlot; 4],
    /// Offset (relative to the MSO map) of this item's digest value in
    /// `valueDigests[namespace][digest_id]`, if present.
    pub digest_offset: Option<usize>,
}

impl IssuerSignedItem {
    /// The slot holding `field`, and its index in encoding order.
    pub fn slot(&self, field: ItemField) -> (usize, FieldSlot) {
        // Parsing guarantees each field occurs exactly once.
        let mut found = (0, self.slots[0]);
        for (i, s) in self.slots.iter().enumerate() {
            if s.field == field {
                found = (i, *s);
            }
        }
        found
    }
}

fn require<'e, 'a>(
    entries: &'e [Entry<'a>],
    name: &'static str,
) -> Result<&'e Entry<'a>, MdocError> {
    cbor::lookup(entries, name)?.ok_or(MdocError::Missing(name))
}

fn map_of<'a>(
    buf: &'a [u8],
    e: &Entry<'_>,
    what: &'static str,
) -> Result<Vec<Entry<'a>>, MdocError> {
    cbor::map_entries(buf, untag(buf, e.value)?).map_err(|_| MdocError::Unexpected(what))
}

/// Drops any tags in front of an item (COSE_Sign1 may carry tag 18).
fn untag(buf: &[u8], mut span: Span) -> Result<Span, MdocError> {
    // Bounded: each iteration consumes at least one byte.
    while let Some((_, inner)) = cbor::tagged(buf, span)? {
        span = inner;
    }
    Ok(span)
}

fn signature(buf: &[u8], span: Span, what: &'static str) -> Result<[u8; 64], MdocError> {
    let content = cbor::bytes(buf, span).map_err(|_| MdocError::Unexpected(what))?;
    buf.get(content.start..content.end)
        .and_then(|s| <[u8; 64]>::try_from(s).ok())
        .ok_or(MdocError::InvalidSignature(what))
}

/// COSE_Sign1 as an array of four; checks the protected header.
fn cose_sign1(buf: &[u8], span: Span, what: &'static str) -> Result<Vec<Span>, MdocError> {
    let parts =
        cbor::array_items(buf, untag(buf, span)?).map_err(|_| MdocError::Unexpected(what))?;
    if parts.len() != 4 {
        return Err(MdocError::Unexpected(what));
    }
    let protected = cbor::bytes(buf, parts[0]).map_err(|_| MdocError::Unexpected(what))?;
    if buf.get(protected.start..protected.end) != Some(&ES256_PROTECTED_HEADER[..]) {
        return Err(MdocError::UnsupportedProtectedHeader(what));
    }
    Ok(parts)
}

/// Parses a DeviceResponse. Every offset, count and length is checked against
/// the input before use; malformed input yields an error, never a panic.
pub fn parse_device_response(data: &[u8]) -> Result<DeviceResponse, MdocError> {
    if data.len() > MAX_DEVICE_RESPONSE_BYTES {
        return Err(MdocError::TooLarge {
            what: "DeviceResponse",
            len: data.len(),
            max: MAX_DEVICE_RESPONSE_BYTES,
        });
    }
    let root = cbor::map_entries(data, cbor::whole(data)?)?;
    let documents = require(&root, "documents")?;
    let docs =
        cbor::array_items(data, documents.value).map_err(|_| MdocError::Unexpected("documents"))?;
    let doc0 = docs.first().ok_or(MdocError::Missing("documents[0]"))?;
    let doc = cbor::map_entries(data, *doc0).map_err(|_| MdocError::Unexpected("document"))?;

    let doc_type = cbor::text(data, require(&doc, "docType")?.value)
        .map_err(|_| MdocError::Unexpected("docType"))?
        .to_owned();

    let issuer_signed = map_of(data, require(&doc, "issuerSigned")?, "issuerSigned")?;
    let issuer_auth = cose_sign1(
        data,
        require(&issuer_signed, "issuerAuth")?.value,
        "issuerAuth",
    )?;
    let payload = cbor::bytes(data, issuer_auth[2]).map_err(|_| MdocError::Unexpected("MSO"))?;
    let tagged = data
        .get(payload.start..payload.end)
        .ok_or(MdocError::Unexpected("MSO"))?
        .to_vec();
    let issuer_signature = signature(data, issuer_auth[3], "issuer")?;

    let device_signed = map_of(data, require(&doc, "deviceSigned")?, "deviceSigned")?;
    let device_auth = map_of(data, require(&device_signed, "deviceAuth")?, "deviceAuth")?;
    let device_sig = cose_sign1(
        data,
        require(&device_auth, "deviceSignature")?.value,
        "deviceSignature",
    )?;
    let device_signature = signature(data, device_sig[3], "device")?;

    let (mso, digests) = parse_mso(tagged)?;

    let name_spaces = map_of(data, require(&issuer_signed, "nameSpaces")?, "nameSpaces")?;
    let mut items = Vec::new();
    for ns in &name_spaces {
        let Key::Text(namespace) = ns.key else {
            return Err(MdocError::Unexpected("nameSpaces key"));
        };
        let list = cbor::array_items(data, ns.value)
            .map_err(|_| MdocError::Unexpected("IssuerSignedItems"))?;
        for span in list {
            let mut item = parse_item(data, span, namespace)?;
            item.digest_offset = digests
                .iter()
                .find(|d| d.namespace == namespace && d.digest_id == item.digest_id)
                .map(|d| d.offset);
            items.push(item);
        }
    }

    Ok(DeviceResponse {
        doc_type,
        mso,
        issuer_signature,
        device_signature,
        items,
    })
}

struct DigestRef {
    namespace: String,
    digest_id: u64,
    offset: usize,
}

fn parse_mso(tagged: Vec<u8>) -> Result<(Mso, Vec<DigestRef>), MdocError> {
    // D8 18 = tag 24; 59 hi lo = byte string with a two-byte length.
    let header = tagged
        .get(..MSO_TAG_HEADER_LEN)
        .ok_or(MdocError::UnsupportedMsoEncoding)?;
    if header[..3] != [0xd8, 0x18, 0x59] {
        return Err(MdocError::UnsupportedMsoEncoding);
    }
    let declared = usize::from(u16::from_be_bytes([header[3], header[4]]));
    let map = tagged
        .get(MSO_TAG_HEADER_LEN..)
        .ok_or(MdocError::UnsupportedMsoEncoding)?;
    if declared != map.len() {
        return Err(MdocError::UnsupportedMsoEncoding);
    }
    let top = cbor::map_entries(map, cbor::whole(map)?)?;

    let validity_info = map_of(map, require(&top, "validityInfo")?, "validityInfo")?;
    let valid_from = require(&validity_info, "validFrom")?.key_start;
    let valid_until = require(&validity_info, "validUntil")?.key_start;

    let dki_entry = require(&top, "deviceKeyInfo")?;
    let device_key_info = map_of(map, dki_entry, "deviceKeyInfo")?;
    let device_key = map_of(map, require(&device_key_info, "deviceKey")?, "deviceKey")?;
    let coordinate = |label: i64, what: &'static str| -> Result<[u8; 32], MdocError> {
        let e = cbor::lookup_int(&device_key, label)?.ok_or(MdocError::Missing(what))?;
        let c = cbor::bytes(map, e.value).map_err(|_| MdocError::Unexpected(what))?;
        map.get(c.start..c.end)
            .and_then(|s| <[u8; 32]>::try_from(s).ok())
            .ok_or(MdocError::InvalidPublicKey("device"))
    };
    let x = coordinate(-2, "deviceKey x (-2)")?;
    let y = coordinate(-3, "deviceKey y (-3)")?;

    let vd_entry = require(&top, "valueDigests")?;
    let value_digests = map_of(map, vd_entry, "valueDigests")?;
    let mut digests = Vec::new();
    for ns in &value_digests {
        let Key::Text(namespace) = ns.key else {
            return Err(MdocError::Unexpected("valueDigests key"));
        };
        let entries =
            cbor::map_entries(map, ns.value).map_err(|_| MdocError::Unexpected("DigestIDs"))?;
        for e in entries {
            let Key::Int(id) = e.key else {
                return Err(MdocError::Unexpected("DigestID"));
            };
            let digest_id = u64::try_from(id).map_err(|_| MdocError::Unexpected("DigestID"))?;
            if digests
                .iter()
                .any(|d: &DigestRef| d.namespace == namespace && d.digest_id == digest_id)
            {
                return Err(MdocError::cbor(e.key_start, "duplicate DigestID"));
            }
            digests.push(DigestRef {
                namespace: namespace.to_owned(),
                digest_id,
                offset: e.value.start,
            });
        }
    }

    let mso = Mso {
        valid_from,
        valid_until,
        device_key_info: dki_entry.key_start,
        value_digests: vd_entry.key_start,
        device_key: (x, y),
        tagged,
    };
    Ok((mso, digests))
}

fn parse_item(data: &[u8], span: Span, namespace: &str) -> Result<IssuerSignedItem, MdocError> {
    const WHAT: &str = "IssuerSignedItemBytes";
    let inner = match cbor::tagged(data, span)? {
        Some((24, inner)) => inner,
        _ => return Err(MdocError::Unexpected(WHAT)),
    };
    let content = cbor::bytes(data, inner).map_err(|_| MdocError::Unexpected(WHAT))?;
    let bytes = data
        .get(span.start..span.end)
        .ok_or(MdocError::Unexpected(WHAT))?
        .to_vec();
    // Re-base onto the item's own bytes: the map starts after tag and bstr head.
    let map_start = content.start - span.start;
    let map_span = Span {
        start: map_start,
        end: bytes.len(),
    };
    let entries = cbor::map_entries(&bytes, map_span).map_err(|_| MdocError::Unexpected(WHAT))?;
    if entries.len() != 4 {
        return Err(MdocError::Unexpected(
            "IssuerSignedItem (needs exactly four fields)",
        ));
    }
    let mut slots = [FieldSlot {
        field: ItemField::DigestId,
        offset: 0,
        len: 0,
    }; 4];
    let mut seen = [false; 4];
    for (slot, e) in slots.iter_mut().zip(&entries) {
        let field = match e.key {
            Key::Text("digestID") => ItemField::DigestId,
            Key::Text("random") => ItemField::Random,
            Key::Text("elementIdentifier") => ItemField::ElementIdentifier,
            Key::Text("elementValue") => ItemField::ElementValue,
            _ => return Err(MdocError::Unexpected("IssuerSignedItem key")),
        };
        let k = field as usize;
        if seen[k] {
            return Err(MdocError::cbor(
                span.start + e.key_start,
                "duplicate map key",
            ));
        }
        seen[k] = true;
        *slot = FieldSlot {
            field,
            offset: e.key_start,
            len: e.value.end - e.key_start,
        };
    }
    let value_of = |name: &'static str| require(&entries, name).map(|e| e.value);
    let digest_id =
        cbor::uint(&bytes, value_of("digestID")?).map_err(|_| MdocError::Unexpected("digestID"))?;
    cbor::bytes(&bytes, value_of("random")?).map_err(|_| MdocError::Unexpected("random"))?;
    let element_identifier = cbor::text(&bytes, value_of("elementIdentifier")?)
        .map_err(|_| MdocError::Unexpected("elementIdentifier"))?
        .to_owned();
    let ev = value_of("elementValue")?;
    let element_value = bytes
        .get(ev.start..ev.end)
        .ok_or(MdocError::Unexpected("elementValue"))?
        .to_vec();
    Ok(IssuerSignedItem {
        namespace: namespace.to_owned(),
        element_identifier,
        element_value,
        digest_id,
        bytes,
        slots,
        digest_offset: None,
    })
}
