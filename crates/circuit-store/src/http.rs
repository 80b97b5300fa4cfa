//! A minimal HTTP/1.1 `GET`: enough for static file hosts and mirrors.
//!
//! Written here rather than pulled in because it needs so little — one
//! request per connection (`Connection: close`), `Content-Length`,
//! chunked or read-to-close bodies, and up to five redirects — and because
//! every length it reads from the network is checked against the caller's
//! cap before it allocates.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

use crate::StoreError;

const TIMEOUT: Duration = Duration::from_secs(30);
const MAX_HEADER_BYTES: usize = 64 * 1024;
const MAX_REDIRECTS: usize = 5;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Url {
    pub(crate) https: bool,
    pub(crate) host: String,
    pub(crate) port: u16,
    pub(crate) path: String,
}

pub(crate) fn parse_url(url: &str) -> Result<Url, StoreError> {
    let bad = |reason: &str| StoreError::Url {
        url: url.into(),
        reason: reason.into(),
    };
    let (https, rest) = if let Some(r) = url.strip_prefix("http://") {
        (false, r)
    } else if let Some(r) = url.strip_prefix("https://") {
        (true, r)
    } else {
        return Err(bad("scheme must be http or https"));
    };
    let (authority, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    if authority.contains('@') {
        return Err(bad("credentials in URLs are not supported"));
    }
    let default_port = if https { 443 } else { 80 };
    let (host, port) = match authority.rsplit_once(':') {
        Some((h, p)) if !h.ends_with(']') || authority.starts_with('[') => {
            let port = p.parse::<u16>().map_err(|_| bad("invalid port"))?;
            (h, port)
        }
        _ => (authority, default_port),
    };
    if host.is_empty() {
        return Err(bad("no host"));
    }
    if path
        .bytes()
        .any(|b| b.is_ascii_whitespace() || b.is_ascii_control())
    {
        return Err(bad("white space or control characters in the path"));
    }
    Ok(Url {
        https,
        host: host.trim_start_matches('[').trim_end_matches(']').into(),
        port,
        path: path.into(),
    })
}

enum Answer {
    Body(Vec<u8>),
    Redirect(String),
}

/// GETs `url` and returns its body, refusing one longer than `max_len`
/// bytes. Follows up to five redirects.
pub fn get(url: &str, max_len: u64) -> Result<Vec<u8>, StoreError> {
    let mut current = url.to_string();
    for _ in 0..=MAX_REDIRECTS {
        let parsed = parse_url(&current)?;
        match get_once(&current, &parsed, max_len)? {
            Answer::Body(b) => return Ok(b),
            Answer::Redirect(location) => current = resolve(&parsed, &location),
        }
    }
    Err(StoreError::Protocol {
        url: url.into(),
        message: format!("more than {MAX_REDIRECTS} redirects"),
    })
}

fn resolve(base: &Url, location: &str) -> String {
    if location.starts_with("http://") || location.starts_with("https://") {
        location.into()
    } else {
        let scheme = if base.https { "https" } else { "http" };
        let path = if location.starts_with('/') {
            location.to_string()
        } else {
            let dir = base.path.rsplit_once('/').map_or("", |(d, _)| d);
            format!("{dir}/{location}")
        };
        format!("{scheme}://{}:{}{path}", base.host, base.port)
    }
}

fn connect(url: &Url) -> Result<TcpStream, StoreError> {
    let host = format!("{}:{}", url.host, url.port);
    let unreachable = |message: String| StoreError::Unreachable {
        host: host.clone(),
        message,
    };
    let addrs = (url.host.as_str(), url.port)
        .to_socket_addrs()
        .map_err(|e| unreachable(e.to_string()))?;
    let mut last = "no address".to_string();
    for addr in addrs {
        match TcpStream::connect_timeout(&addr, TIMEOUT) {
            Ok(s) => {
                let _ = s.set_read_timeout(Some(TIMEOUT));
                let _ = s.set_write_timeout(Some(TIMEOUT));
                return Ok(s);
            }
            Err(e) => last = e.to_string(),
        }
    }
    Err(unreachable(last))
}

fn get_once(raw: &str, url: &Url, max_len: u64) -> Result<Answer, StoreError> {
    let tcp = connect(url)?;
    if url.https {
        #[cfg(feature = "https")]
        {
            let stream = crate::tls::wrap(tcp, &url.host, raw)?;
            return exchange(stream, raw, url, max_len);
        }
        #[cfg(not(feature = "https"))]
        {
            drop(tcp);
            return Err(StoreError::HttpsUnsupported { url: raw.into() });
        }
    }
    exchange(tcp, raw, url, max_len)
}

fn exchange<S: Read + Write>(
    mut stream: S,
    raw: &str,
    url: &Url,
    max_len: u64,
) -> Result<Answer, StoreError> {
    let proto = |message: String| StoreError::Protocol {
        url: raw.into(),
        message,
    };
    let default_port = if url.https { 443 } else { 80 };
    let host = if url.port == default_port {
        url.host.clone()
    } else {
        format!("{}:{}", url.host, url.port)
    };
    let request = format!(
        "GET {} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: longfellow/{}\r\nAccept: */*\r\n\
         Accept-Encoding: identity\r\nConnection: close\r\n\r\n",
        url.path,
        env!("CARGO_PKG_VERSION")
    );
    stream
        .write_all(request.as_bytes())
        .and_then(|()| stream.flush())
        .map_err(|e| proto(format!("sending the request: {e}")))?;
    let mut reader = BufReader::new(stream);
    let head = read_head(&mut reader).map_err(proto)?;
    let mut lines = head.iter();
    let status_line = lines.next().map(String::as_str).unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        return Err(proto(format!("not an HTTP/1.x response: `{status_line}`")));
    }
    let status: u16 = parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| proto(format!("no status code in `{status_line}`")))?;
    let mut content_length: Option<u64> = None;
    let mut chunked = false;
    let mut location = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else {
            continue;
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                content_length = Some(
                    value
                        .parse()
                        .map_err(|_| proto(format!("invalid Content-Length `{value}`")))?,
                )
            }
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "location" => location = Some(value.to_string()),
            _ => {}
        }
    }
    if matches!(status, 301 | 302 | 303 | 307 | 308) {
        return location
            .map(Answer::Redirect)
            .ok_or_else(|| proto(format!("status {status} without Location")));
    }
    if status != 200 {
        return Err(StoreError::Status {
            url: raw.into(),
            status,
        });
    }
    let too_large = || StoreError::TooLarge {
        url: raw.into(),
        limit: max_len,
    };
    let body = if chunked {
        read_chunked(&mut reader, max_len, &proto, &too_large)?
    } else if let Some(len) = content_length {
        if len > max_len {
            return Err(too_large());
        }
        let mut body = Vec::with_capacity(len as usize);
        (&mut reader)
            .take(len)
            .read_to_end(&mut body)
            .map_err(|e| proto(format!("reading the body: {e}")))?;
        if body.len() as u64 != len {
            return Err(proto(format!(
                "truncated: {} of {len} bytes received",
                body.len()
            )));
        }
        body
    } else {
        let mut body = Vec::new();
        (&mut reader)
            .take(max_len + 1)
            .read_to_end(&mut body)
            .map_err(|e| proto(format!("reading the body: {e}")))?;
        if body.len() as u64 > max_len {
            return Err(too_large());
        }
        body
    };
    Ok(Answer::Body(body))
}

/// Status line and header lines, up to the blank line, capped in total.
fn read_head<R: BufRead>(reader: &mut R) -> Result<Vec<String>, String> {
    let mut lines = Vec::new();
    let mut total = 0usize;
    loop {
        let mut line = Vec::new();
        let room = (MAX_HEADER_BYTES - total) as u64 + 1;
        let n = reader
            .by_ref()
            .take(room)
            .read_until(b'\n', &mut line)
            .map_err(|e| format!("reading the response: {e}"))?;
        if n == 0 {
            return Err("connection closed before the response headers ended".into());
        }
        total += n;
        if total > MAX_HEADER_BYTES {
            return Err(format!(
                "response headers longer than {MAX_HEADER_BYTES} bytes"
            ));
        }
        let text = String::from_utf8(line).map_err(|_| "response headers are not UTF-8")?;
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            return Ok(lines);
        }
        lines.push(text.to_string());
    }
}

fn read_chunked<R: BufRead>(
    reader: &mut R,
    max_len: u64,
    proto: &dyn Fn(String) -> StoreError,
    too_large: &dyn Fn() -> StoreError,
) -> Result<Vec<u8>, StoreError> {
    let mut body = Vec::new();
    loop {
        let mut line = Vec::new();
        reader
            .by_ref()
            .take(1024)
            .read_until(b'\n', &mut line)
            .map_err(|e| proto(format!("reading a chunk size: {e}")))?;
        let text = String::from_utf8_lossy(&line);
        let size_text = text.trim().split(';').next().unwrap_or_default();
        let size = u64::from_str_radix(size_text, 16)
            .map_err(|_| proto(format!("invalid chunk size `{size_text}`")))?;
        if size == 0 {
            return Ok(body);
        }
        if body.len() as u64 + size > max_len {
            return Err(too_large());
        }
        let before = body.len();
        reader
            .by_ref()
            .take(size)
            .read_to_end(&mut body)
            .map_err(|e| proto(format!("reading a chunk: {e}")))?;
        if (body.len() - before) as u64 != size {
            return Err(proto("truncated chunk".into()));
        }
        let mut crlf = [0u8; 2];
        reader
            .read_exact(&mut crlf)
            .map_err(|e| proto(format!("reading a chunk end: {e}")))?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_parse_with_and_without_port() {
        let u = parse_url("http://127.0.0.1:8080/a/b").expect("url");
        assert_eq!(
            (u.https, u.host.as_str(), u.port, u.path.as_str()),
            (false, "127.0.0.1", 8080, "/a/b")
        );
        let u = parse_url("https://raw.githubusercontent.com/x").expect("url");
        assert_eq!((u.https, u.port), (true, 443));
        assert!(parse_url("ftp://x/y").is_err());
        assert!(parse_url("http://:80/").is_err());
        assert!(parse_url("http://h/a b").is_err());
    }

    #[test]
    fn relative_redirects_resolve_against_the_request() {
        let base = parse_url("http://h:81/dir/file").expect("url");
        assert_eq!(resolve(&base, "/x"), "http://h:81/x");
        assert_eq!(resolve(&base, "y"), "http://h:81/dir/y");
        assert_eq!(resolve(&base, "https://o/z"), "https://o/z");
    }

    #[test]
    fn chunked_bodies_decode_and_respect_the_cap() {
        let proto = |m: String| StoreError::Protocol {
            url: "u".into(),
            message: m,
        };
        let big = || StoreError::TooLarge {
            url: "u".into(),
            limit: 4,
        };
        let mut r = &b"3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n"[..];
        assert_eq!(
            read_chunked(&mut r, 10, &proto, &big).expect("body"),
            b"abcde"
        );
        let mut r = &b"3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n"[..];
        assert!(matches!(
            read_chunked(&mut r, 4, &proto, &big),
            Err(StoreError::TooLarge { .. })
        ));
        let mut r = &b"ffffffffffffffff\r\n"[..];
        assert!(read_chunked(&mut r, 4, &proto, &big).is_err());
    }
}
