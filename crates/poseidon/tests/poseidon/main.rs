//! The Poseidon integration tests, one binary (one build of the kernels' instances for every
//! field, instead of one per file): known answers (`vectors`), differential tests against
//! neptune and light-poseidon (`differential`), and the algebra (`properties`).

mod differential;
mod properties;
mod vectors;
