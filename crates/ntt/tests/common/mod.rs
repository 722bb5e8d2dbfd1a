//! Helpers shared by the integration tests and the benches.

pub mod bellman_peer;
