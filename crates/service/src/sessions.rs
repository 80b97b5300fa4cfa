//! The session store: one entry per `POST /sessions`, answered once.
//!
//! Bounded on purpose: at most `max_sessions` entries (open or answered)
//! live at once; when full, expired entries are swept and, if still full,
//! the creation is refused (HTTP 503) instead of growing memory. An entry
//! expires `ttl` after creation on the monotonic clock (independent of
//! `--verify-time`). Taking a session for its response marks it answered
//! and moves its key (HPKE for Annex C, JWE for encrypted OpenID4VP) out,
//! so the key is dropped (and wiped) with the one decryption it serves; the answered marker stays until expiry so a
//! replay is told so (HTTP 409) rather than "unknown".

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use longfellow_dcapi::{Handover, JweRecipientKey, RecipientKey};

use crate::verify::Expected;

/// Session lifetime and store size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionLimits {
    /// Time from creation to expiry.
    pub ttl: Duration,
    /// Sessions (open or answered, not yet expired) held at once.
    pub max_sessions: usize,
}

impl Default for SessionLimits {
    fn default() -> Self {
        Self {
            ttl: Duration::from_secs(300),
            max_sessions: 10_000,
        }
    }
}

/// The secret that opens a session's one response. Held by value so that
/// taking the session moves it out of the store and the decryption drops
/// it.
#[derive(Debug)]
pub(crate) enum SessionKey {
    /// Annex C: the HPKE recipient key of the EncryptionInfo.
    Hpke(RecipientKey),
    /// OpenID4VP `dc_api.jwt`: the ECDH-ES key of `client_metadata.jwks`.
    Jwe(JweRecipientKey),
    /// OpenID4VP `dc_api` (compatibility): the response is not encrypted.
    None,
}

/// One session, as created.
#[derive(Debug)]
pub(crate) struct Session {
    /// What the transcript is rebuilt from.
    pub handover: Handover,
    /// What decrypts the response.
    pub key: SessionKey,
    /// What the response must disclose.
    pub expected: Expected,
}

#[derive(Debug)]
struct Entry {
    expires: Instant,
    /// `None` once answered.
    session: Option<Session>,
}

/// Why a session cannot be answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TakeError {
    /// Never created, or expired and swept since.
    Unknown,
    /// Past its TTL.
    Expired,
    /// A response was already taken for it.
    Answered,
}

/// The store was full of unexpired sessions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StoreFull;

/// Sessions by id.
#[derive(Debug)]
pub struct SessionStore {
    limits: SessionLimits,
    entries: Mutex<HashMap<String, Entry>>,
}

impl SessionStore {
    /// An empty store.
    pub fn new(limits: SessionLimits) -> Self {
        Self {
            limits,
            entries: Mutex::new(HashMap::new()),
        }
    }

    /// The limits.
    pub fn limits(&self) -> SessionLimits {
        self.limits
    }

    /// Entries held (open or answered, maybe expired but not yet swept).
    pub fn len(&self) -> usize {
        self.entries.lock().map_or(0, |m| m.len())
    }

    /// Whether the store holds nothing.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub(crate) fn insert(&self, id: String, session: Session) -> Result<(), StoreFull> {
        let Ok(mut m) = self.entries.lock() else {
            return Err(StoreFull);
        };
        let now = Instant::now();
        if m.len() >= self.limits.max_sessions {
            m.retain(|_, e| e.expires > now);
        }
        if m.len() >= self.limits.max_sessions {
            return Err(StoreFull);
        }
        m.insert(
            id,
            Entry {
                expires: now + self.limits.ttl,
                session: Some(session),
            },
        );
        Ok(())
    }

    /// Takes the session for its one response.
    pub(crate) fn take(&self, id: &str) -> Result<Session, TakeError> {
        let Ok(mut m) = self.entries.lock() else {
            return Err(TakeError::Unknown);
        };
        let now = Instant::now();
        let Some(entry) = m.get_mut(id) else {
            return Err(TakeError::Unknown);
        };
        if entry.expires <= now {
            m.remove(id);
            return Err(TakeError::Expired);
        }
        entry.session.take().ok_or(TakeError::Answered)
    }
}
