//! Prefetching a buffer for writing while kernels compute on another one.
//!
//! A transform that fills a fresh row and then runs its butterflies in cache pays each of the
//! row's first writes in full: the line has to come from memory before the store completes,
//! and a core keeps only a few such misses in flight. [`prefetching_for_write`] names the
//! region the caller will write next; the butterfly kernels call [`step`] as they go, which
//! asks for a few of its lines at a time (`prefetchw` on x86-64), so the misses overlap the
//! arithmetic instead of following it. The region is per thread and scoped to one call; a
//! kernel run outside such a call finds none and [`step`] does nothing.
//!
//! A prefetch is only a hint: it never faults, reads or changes memory, so a region that is
//! freed or reused before its lines are asked for costs at most wasted bandwidth.

use core::cell::Cell;

/// Bytes of a cache line (x86-64 and most AArch64 cores).
const LINE: usize = 64;

thread_local! {
    /// The next line to prefetch and the end of the region, as addresses; equal when none.
    static AHEAD: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

/// Runs `f` with `region`'s lines to be prefetched for writing, a few at a time, by the
/// [`step`] calls of the kernels `f` runs on this thread. The region's memory is not read
/// or written here, nor kept: only its addresses are. A region set by an enclosing call is
/// restored afterwards.
pub fn prefetching_for_write<T, R>(region: &[T], f: impl FnOnce() -> R) -> R {
    let start = region.as_ptr() as usize;
    let end = start + core::mem::size_of_val(region);
    let first = if end > start {
        start & !(LINE - 1)
    } else {
        end
    };
    let saved = AHEAD.with(|a| a.replace((first, end)));
    let result = f();
    AHEAD.with(|a| a.set(saved));
    result
}

/// Asks for up to `lines` more lines of this thread's region (see [`prefetching_for_write`]);
/// nothing when there is none or all of it has been asked for. Kernels call it once per
/// short stretch of work, with `lines` in proportion to it.
#[inline]
pub fn step(lines: usize) {
    AHEAD.with(|a| {
        let (mut at, end) = a.get();
        if at >= end {
            return;
        }
        let stop = at.saturating_add(lines.saturating_mul(LINE)).min(end);
        while at < stop {
            prefetch_line_for_write(at);
            at += LINE;
        }
        a.set((at, end));
    });
}

/// How far this thread's region has been asked for: bytes left.
#[cfg(test)]
fn remaining() -> usize {
    AHEAD.with(|a| {
        let (at, end) = a.get();
        end.saturating_sub(at)
    })
}

#[inline(always)]
fn prefetch_line_for_write(address: usize) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults and accesses no memory architecturally,
    // whatever the address (`prefetchw` decodes as a no-op on cores without it).
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_ET0 }>(
            address as *const i8,
        );
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_walk_the_region_once_and_restore_the_outer_one() {
        let outer = vec![0u8; 1000];
        let inner = vec![0u64; 100];
        assert_eq!(remaining(), 0);
        step(4); // none set: nothing, no panic
        prefetching_for_write(&outer, || {
            let whole = remaining();
            // The region starts at its first line, so up to 63 bytes before it count.
            assert!((1000..1000 + LINE).contains(&whole), "{whole}");
            step(2);
            assert_eq!(remaining(), whole - 2 * LINE);
            prefetching_for_write(&inner, || {
                assert!(remaining() >= 800);
                step(usize::MAX);
                assert_eq!(remaining(), 0);
                step(1);
                assert_eq!(remaining(), 0);
            });
            assert_eq!(remaining(), whole - 2 * LINE);
        });
        assert_eq!(remaining(), 0);
        // An empty region is done at once, and so is a slice of zero-sized values of any
        // length (no bytes), whatever its address.
        prefetching_for_write(&[] as &[u8], || assert_eq!(remaining(), 0));
        let units = vec![(); usize::MAX];
        prefetching_for_write(&units, || {
            assert_eq!(remaining(), 0);
            step(usize::MAX);
            assert_eq!(remaining(), 0);
        });
        // Asking for every line of a region at once stops at its end (no overflow of the
        // address arithmetic near the top of the requested count).
        let last = vec![0u8; 3 * LINE];
        prefetching_for_write(&last, || {
            step(usize::MAX / LINE + 1);
            assert_eq!(remaining(), 0);
        });
        // A region is only named, never read or written: its values stay as they were.
        let values = vec![7u64; 4096];
        let snapshot = values.clone();
        prefetching_for_write(&values, || step(usize::MAX));
        assert_eq!(values, snapshot);
    }
}
