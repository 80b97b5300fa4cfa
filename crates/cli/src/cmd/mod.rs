//! One module per command group.

pub mod bench;
pub mod circuit;
pub mod circuits;
pub mod conformance;
pub mod demo;
pub mod limited;
pub mod mdoc;
pub mod present;
pub mod present_session;
pub mod serve;

/// A command failure: printed as one line on stderr, exit code 2.
#[derive(Debug)]
pub struct CliError(pub String);

impl<E: std::fmt::Display> From<E> for CliError {
    fn from(e: E) -> Self {
        Self(e.to_string())
    }
}
