//! TLS for `https://` base URLs: rustls with the pure-Rust RustCrypto
//! provider and the Mozilla root store, so the client links no C.

use std::net::TcpStream;
use std::sync::Arc;

use rustls::pki_types::ServerName;
use rustls::{ClientConfig, ClientConnection, RootCertStore, StreamOwned};

use crate::StoreError;

pub(crate) fn wrap(
    tcp: TcpStream,
    host: &str,
    url: &str,
) -> Result<StreamOwned<ClientConnection, TcpStream>, StoreError> {
    let fail = |message: String| StoreError::Protocol {
        url: url.into(),
        message,
    };
    let roots = RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config = ClientConfig::builder_with_provider(Arc::new(rustls_rustcrypto::provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| fail(format!("TLS setup: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = ServerName::try_from(host.to_string())
        .map_err(|e| fail(format!("`{host}` is not a TLS server name: {e}")))?;
    let conn = ClientConnection::new(Arc::new(config), name)
        .map_err(|e| fail(format!("TLS setup: {e}")))?;
    Ok(StreamOwned::new(conn, tcp))
}
