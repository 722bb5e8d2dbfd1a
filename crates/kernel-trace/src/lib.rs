#![doc = include_str!("../README.md")]

mod breakdown;
mod error;
mod plonky2_shape;
mod record;
mod tracer;

pub use breakdown::{Breakdown, ClassTotal};
pub use error::TraceError;
pub use plonky2_shape::{CircuitShape, FriShape, GateShape, SHAPE_FORMAT, SHAPE_VERSION};
pub use record::{
    CpuTime, GateEvaluation, Kernel, KernelClass, KernelId, KernelRecord, LeafLayout, NttLayout,
    NttOrder, Phase, RowGather, TraceField, VectorForm, VectorOp, VectorOpKind, MAX_KERNEL_BYTES,
    SCHEMA_VERSION,
};
pub use tracer::{
    read_jsonl, validate, write_jsonl, KernelSink, NoTrace, Tracer, MAX_RECORDS, MAX_TRACE_BYTES,
};
