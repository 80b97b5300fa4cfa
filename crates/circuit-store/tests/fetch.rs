//! Fetching from a loopback mirror: catalogued files are written, anything
//! else is refused before a byte reaches the store.

use std::path::PathBuf;

use longfellow_circuit::catalog::FileForm;
use longfellow_circuit_store::{fetch_file, file_name, select, verify_dir, Fetched, StoreError};
use longfellow_testvectors::mirror::Mirror;
use tempfile::TempDir;

/// A store directory that does not exist yet, inside a fresh temp dir that
/// the test holds (bind it to a name, not `_`): it is removed however the
/// test ends, at an early `require!` return (which left the verify test's
/// directory behind) or a failed assertion (the guard drops while
/// unwinding).
fn temp_dir(tag: &str) -> (TempDir, PathBuf) {
    let tmp = tempfile::Builder::new()
        .prefix(&format!("longfellow-store-{tag}-"))
        .tempdir()
        .expect("temp dir");
    let store = tmp.path().join("store");
    (tmp, store)
}

fn v7_1(
    form: FileForm,
) -> (
    &'static longfellow_circuit::CatalogEntry,
    &'static longfellow_circuit::CatalogFile,
) {
    select(Some((7, 1)), form).expect("v7/1")[0]
}

fn is_empty(dir: &std::path::Path) -> bool {
    std::fs::read_dir(dir).map_or(true, |mut d| d.next().is_none())
}

#[test]
fn a_tampered_file_is_refused_and_nothing_is_written() {
    let (entry, file) = v7_1(FileForm::Lfa2);
    let name = file_name(entry, file);
    let mirror = Mirror::serve(vec![(name.clone(), vec![0x28; 1000])]);
    let (_tmp, dir) = temp_dir("tampered");
    let err = fetch_file(entry, file, mirror.url(), &dir).expect_err("tampered");
    assert!(matches!(err, StoreError::Tampered { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains(&name) && msg.contains("refused") && msg.contains("nothing written"),
        "{msg}"
    );
    assert!(is_empty(&dir), "the store must stay empty");
}

#[test]
fn a_response_longer_than_the_catalogued_file_is_refused() {
    let (entry, file) = v7_1(FileForm::Lfa2);
    let body = vec![0u8; file.size as usize + 1];
    let mirror = Mirror::serve(vec![(file_name(entry, file), body)]);
    let (_tmp, dir) = temp_dir("long");
    let err = fetch_file(entry, file, mirror.url(), &dir).expect_err("too long");
    assert!(
        err.to_string().contains("longer than the catalogued file"),
        "{err}"
    );
    assert!(is_empty(&dir));
}

#[test]
fn a_missing_file_reports_the_status() {
    let (entry, file) = v7_1(FileForm::Pair);
    let mirror = Mirror::serve(Vec::new());
    let (_tmp, dir) = temp_dir("404");
    let err = fetch_file(entry, file, mirror.url(), &dir).expect_err("404");
    assert!(
        matches!(err, StoreError::Status { status: 404, .. }),
        "{err}"
    );
}

#[test]
fn offline_use_says_what_to_do() {
    // Bind then drop a listener: nothing listens on that port any more.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("port")
        .port();
    let (entry, file) = v7_1(FileForm::Lfa2);
    let (_tmp, dir) = temp_dir("off");
    let err =
        fetch_file(entry, file, &format!("http://127.0.0.1:{port}"), &dir).expect_err("offline");
    let msg = err.to_string();
    assert!(matches!(err, StoreError::Unreachable { .. }), "{msg}");
    assert!(
        msg.contains("Offline?") && msg.contains("longfellow circuits verify"),
        "{msg}"
    );
}

#[test]
fn every_published_file_is_fetched_verified_and_then_found_present() {
    longfellow_testvectors::require!();
    for form in [FileForm::Lfa2, FileForm::Pair, FileForm::Lfa1] {
        let chosen = select(None, form).expect("files");
        assert_eq!(chosen.len(), 8, "{form:?}");
        let served = chosen
            .iter()
            .map(|(e, f)| {
                let name = file_name(e, f);
                let bytes = longfellow_testvectors::read(&format!("google/mdoc/circuits/{name}"));
                (name, bytes)
            })
            .collect();
        let mirror = Mirror::serve(served);
        let (_tmp, dir) = temp_dir(form.name());
        for (e, f) in &chosen {
            let got = fetch_file(e, f, mirror.url(), &dir).expect("fetch");
            assert_eq!(got, Fetched::Written(dir.join(file_name(e, f))));
        }
        let asked = mirror.requests();
        for (e, f) in &chosen {
            let got = fetch_file(e, f, mirror.url(), &dir).expect("present");
            assert!(matches!(got, Fetched::AlreadyPresent(_)));
        }
        assert_eq!(
            mirror.requests(),
            asked,
            "present files are not downloaded again"
        );
        let checked = verify_dir(&dir).expect("verify");
        assert_eq!(checked.len(), 8);
        assert!(checked.iter().all(|(_, r)| r.is_ok()), "{checked:?}");
    }
}

#[test]
fn verify_refuses_unknown_renamed_and_tampered_files() {
    let (_tmp, dir) = temp_dir("verify");
    std::fs::create_dir_all(&dir).expect("dir");
    std::fs::write(dir.join("notes.txt"), b"hello").expect("write");
    let (entry, file) = v7_1(FileForm::Lfa2);
    std::fs::write(dir.join(file_name(entry, file)), b"not a circuit").expect("write");
    let results = verify_dir(&dir).expect("verify");
    assert_eq!(results.len(), 2);
    for (name, r) in &results {
        let err = r.as_ref().expect_err(name);
        assert!(err.to_string().contains("refused"), "{err}");
    }
    assert!(
        matches!(results[1].1, Err(StoreError::Unknown { .. })),
        "{results:?}"
    );
    assert!(
        matches!(results[0].1, Err(StoreError::Tampered { .. })),
        "{results:?}"
    );

    longfellow_testvectors::require!();
    // The v7/2 file under the v7/1 name: refused, and named for what it is.
    let (e2, f2) = select(Some((7, 2)), FileForm::Lfa2).expect("v7/2")[0];
    let real = longfellow_testvectors::read(&format!("google/mdoc/circuits/{}", file_name(e2, f2)));
    std::fs::write(dir.join(file_name(entry, file)), &real).expect("write");
    let results = verify_dir(&dir).expect("verify");
    let msg = results[0].1.as_ref().expect_err("renamed").to_string();
    assert!(
        msg.contains(&file_name(e2, f2)) && msg.contains("version 7, 2 attribute"),
        "{msg}"
    );
}
