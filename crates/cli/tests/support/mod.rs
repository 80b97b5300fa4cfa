//! Helpers shared by the service tests: scratch files, generated PKI
//! profiles, and a `longfellow serve` child spoken to over plain HTTP/1.1.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use base64::Engine;
use longfellow_mdoc_issuer::pki::CertificateProfile;
use longfellow_mdoc_issuer::Tdate;

/// The scratch directory of one test, held by the test and removed when it
/// ends, also when an assertion fails (the guard drops while unwinding):
/// runs left one directory per test binary in the temp dir. Each test makes
/// its own, so tests on parallel threads never share files or remove each
/// other's.
pub struct Scratch(tempfile::TempDir);

impl Scratch {
    /// A fresh directory `longfellow-<test>-<random>` in the temp dir.
    pub fn new(test: &str) -> Self {
        let dir = tempfile::Builder::new()
            .prefix(&format!("longfellow-{test}-"))
            .tempdir()
            .expect("scratch dir");
        Self(dir)
    }

    /// The path of `name` in the directory (nothing is created).
    pub fn path(&self, name: &str) -> PathBuf {
        self.0.path().join(name)
    }

    /// Writes `bytes` to `name` in the directory; returns its path.
    pub fn write(&self, name: &str, bytes: &[u8]) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, bytes).expect("write");
        p
    }
}

pub fn pem(der: &[u8]) -> String {
    let b64 = base64::engine::general_purpose::STANDARD.encode(der);
    let lines: Vec<&str> = b64
        .as_bytes()
        .chunks(64)
        .map(|c| std::str::from_utf8(c).expect("ascii"))
        .collect();
    format!(
        "-----BEGIN CERTIFICATE-----\n{}\n-----END CERTIFICATE-----\n",
        lines.join("\n")
    )
}

pub fn t(s: &str) -> Tdate {
    Tdate::parse(s).expect("date")
}

pub fn profile(cn: &str, from: &str, until: &str) -> CertificateProfile {
    CertificateProfile {
        common_name: cn.into(),
        not_before: t(from),
        not_after: t(until),
    }
}

/// A running `longfellow serve`, killed on drop.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn free_port() -> u16 {
    let l = TcpListener::bind("127.0.0.1:0").expect("bind");
    l.local_addr().expect("addr").port()
}

pub fn start(args: &[String]) -> Server {
    let port = free_port();
    let child = Command::new(env!("CARGO_BIN_EXE_longfellow"))
        .arg("serve")
        .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn serve");
    let server = Server {
        child,
        addr: SocketAddr::from(([127, 0, 0, 1], port)),
    };
    let deadline = Instant::now() + Duration::from_secs(120);
    while Instant::now() < deadline {
        if let Ok((200, _)) = http(server.addr, "GET", "/healthz", b"") {
            return server;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    panic!("service did not become healthy");
}

/// One HTTP/1.1 request; returns status and body.
pub fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &[u8],
) -> std::io::Result<(u16, Vec<u8>)> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(2))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    // The server may answer (413) before reading a large body.
    let _ = s.write_all(body);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text_end = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| std::io::Error::other("no header end"))?;
    let head = String::from_utf8_lossy(&out[..text_end]).into_owned();
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other("no status"))?;
    let mut body = out[text_end + 4..].to_vec();
    if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        body = dechunk(&body);
    }
    Ok((status, body))
}

pub fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(i) = b.windows(2).position(|w| w == b"\r\n") {
        let n = usize::from_str_radix(std::str::from_utf8(&b[..i]).unwrap_or("0").trim(), 16)
            .unwrap_or(0);
        if n == 0 {
            break;
        }
        out.extend_from_slice(&b[i + 2..i + 2 + n]);
        b = &b[i + 2 + n + 2..];
    }
    out
}
