//! An element held under another namespace than requested is refused with
//! a message saying where it is (the circuits do not bind the namespace).

mod common;

use common::{issue, now, request, KEYS};
use longfellow_mdoc_issuer::{value, MdocBuilder};
use longfellow_mdoc_witness::{build_witnesses, MdocError, ZkSpecInfo};

#[test]
fn an_element_under_another_namespace_is_refused_naming_where_it_is() {
    let aamva = "org.iso.18013.5.1.aamva";
    let mdoc = issue(
        MdocBuilder::mdl().attribute_in(aamva, "DHS_compliance", value::text("F")),
        5,
    );
    let mut req = request(&mdoc, now(), &["DHS_compliance"]);
    assert_eq!(req.attributes[0].namespace, aamva);
    req.attributes[0].namespace = "org.iso.18013.5.1".into();
    let spec = ZkSpecInfo {
        version: 7,
        num_attributes: 1,
    };
    let err = build_witnesses(&spec, &req, &mdoc.device_response, &KEYS).expect_err("refused");
    assert_eq!(
        err,
        MdocError::AttributeInOtherNamespace {
            id: "DHS_compliance".into(),
            requested: "org.iso.18013.5.1".into(),
            found: aamva.into(),
        }
    );
    assert!(
        err.to_string().contains("do not bind the namespace"),
        "{err}"
    );
}
