//! The largest shapes the library accepts, checked at every entry point before anything is
//! allocated, so a hostile size is a typed error instead of an overflow or an exhausted memory.

/// The largest arity: nodes hash at most this many children (a Poseidon width of
/// `MAX_ARITY + 1`, within `zkaccel_poseidon::limits::MAX_WIDTH`).
pub const MAX_ARITY: usize = 63;

/// The widest leaf row, in field elements (2^20; plonky2's widest LDE rows are a few hundred).
pub const MAX_LEAF_WIDTH: usize = 1 << 20;
// The leaf-width errors spell the limit out as 2^20.
const _: () = assert!(MAX_LEAF_WIDTH == 1 << 20);

/// Allocates `len` copies of `value`, or reports the size it could not get.
///
/// # Errors
/// [`crate::MerkleError::Allocation`] when the size overflows or the allocator refuses.
pub(crate) fn try_filled<T: Clone>(
    len: usize,
    value: T,
    what: &'static str,
) -> Result<Vec<T>, crate::MerkleError> {
    let bytes = len
        .checked_mul(core::mem::size_of::<T>())
        .map_or(u64::MAX, |b| b as u64);
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|_| crate::MerkleError::Allocation { what, bytes })?;
    v.resize(len, value);
    Ok(v)
}
