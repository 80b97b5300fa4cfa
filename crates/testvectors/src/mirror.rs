//! A static file server on 127.0.0.1 for tests of `circuits fetch`: a
//! stand-in for Google's repository that serves exactly the bytes a test
//! gives it (real files, tampered copies, truncated ones).
//!
//! It binds an ephemeral loopback port, answers one request per connection,
//! and stops when dropped or after five minutes, whichever comes first.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

const LIFETIME: Duration = Duration::from_secs(300);

/// A running loopback mirror.
#[derive(Debug)]
pub struct Mirror {
    url: String,
    stop: Arc<AtomicBool>,
    requests: Arc<AtomicUsize>,
    thread: Option<JoinHandle<()>>,
}

impl Mirror {
    /// Serves `files` (URL path without the leading `/` → body).
    pub fn serve(files: Vec<(String, Vec<u8>)>) -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let stop = Arc::new(AtomicBool::new(false));
        let requests = Arc::new(AtomicUsize::new(0));
        let files: HashMap<String, Vec<u8>> = files.into_iter().collect();
        let (flag, count) = (stop.clone(), requests.clone());
        let thread = std::thread::spawn(move || {
            let start = Instant::now();
            while !flag.load(Ordering::Relaxed) && start.elapsed() < LIFETIME {
                match listener.accept() {
                    Ok((stream, _)) => {
                        count.fetch_add(1, Ordering::Relaxed);
                        let _ = answer(stream, &files);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(10)),
                }
            }
        });
        Self {
            url,
            stop,
            requests,
            thread: Some(thread),
        }
    }

    /// `http://127.0.0.1:PORT`, the base URL to pass to `--base-url`.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// How many connections it has answered.
    pub fn requests(&self) -> usize {
        self.requests.load(Ordering::Relaxed)
    }
}

impl Drop for Mirror {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn answer(stream: TcpStream, files: &HashMap<String, Vec<u8>>) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut request_line = String::new();
    reader.read_line(&mut request_line)?;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 || line == "\r\n" || line == "\n" {
            break;
        }
    }
    let path = request_line.split(' ').nth(1).unwrap_or("/");
    let mut out = stream;
    match files.get(path.trim_start_matches('/')) {
        Some(body) => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            out.write_all(body)?;
        }
        None => out.write_all(
            b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
        )?,
    }
    out.flush()
}
