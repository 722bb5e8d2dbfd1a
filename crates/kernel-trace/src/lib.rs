#![doc = include_str!("../README.md")]

mod breakdown;
mod error;
mod record;
mod tracer;

pub use breakdown::{Breakdown, ClassTotal};
pub use error::TraceError;
pub use record::{
    CpuTime, Kernel, KernelClass, KernelId, KernelRecord, LeafLayout, NttLayout, NttOrder, Phase,
    TraceField, VectorForm, VectorOp, VectorOpKind, SCHEMA_VERSION,
};
pub use tracer::{read_jsonl, validate, write_jsonl, Tracer, MAX_RECORDS};
