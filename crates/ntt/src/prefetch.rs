//! Prefetching a buffer for writing while kernels compute on another one.
//!
//! A transform that fills a fresh row and then runs its butterflies in cache pays each of the
//! row's first writes in full: the line has to come from memory before the store completes,
//! and a core keeps only a few such misses in flight. The transform names the region it will
//! write next as a [`WritePrefetch`] and hands it to the butterfly kernels
//! ([`crate::NttField::three_stages_block_row`] and its siblings), which call
//! [`WritePrefetch::step`] as they go: it asks for a few of the region's lines at a time
//! (`prefetchw` on x86-64), so the misses overlap the arithmetic instead of following it.
//!
//! A prefetch is only a hint: it never faults, reads or changes memory, so a region that is
//! freed or reused before its lines are asked for costs at most wasted bandwidth.

use core::marker::PhantomData;

/// Bytes of a cache line (x86-64 and most AArch64 cores).
const LINE: usize = 64;

/// A region to prefetch for writing, a few lines per [`WritePrefetch::step`], and how far that
/// has got. It borrows the region, so that it cannot outlive it, but never reads or writes it:
/// only its addresses are kept. [`WritePrefetch::none`] names no region (its steps do
/// nothing): for kernels run with nothing to write next.
#[derive(Debug)]
pub struct WritePrefetch<'a> {
    /// The next line to ask for, as an address.
    at: usize,
    /// The end of the region, as an address; `at >= end` when all of it has been asked for.
    end: usize,
    region: PhantomData<&'a [u8]>,
}

impl<'a> WritePrefetch<'a> {
    /// The lines of `region`, from the one its first byte lies in.
    pub fn new<T>(region: &'a [T]) -> Self {
        let start = region.as_ptr() as usize;
        let end = start + core::mem::size_of_val(region);
        let at = if end > start {
            start & !(LINE - 1)
        } else {
            end
        };
        Self {
            at,
            end,
            region: PhantomData,
        }
    }

    /// No region: [`WritePrefetch::step`] does nothing.
    #[must_use]
    pub const fn none() -> Self {
        Self {
            at: 0,
            end: 0,
            region: PhantomData,
        }
    }

    /// Asks for up to `lines` more lines of the region; nothing once all of it has been asked
    /// for. Kernels call it once per short stretch of work, with `lines` in proportion to it.
    #[inline]
    pub fn step(&mut self, lines: usize) {
        if self.at >= self.end {
            return;
        }
        let stop = self
            .at
            .saturating_add(lines.saturating_mul(LINE))
            .min(self.end);
        while self.at < stop {
            prefetch_line_for_write(self.at);
            self.at += LINE;
        }
    }

    /// Bytes of the region not yet asked for (from the start of the next line).
    #[must_use]
    pub fn remaining(&self) -> usize {
        self.end.saturating_sub(self.at)
    }
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
    fn steps_walk_the_region_once() {
        let mut none = WritePrefetch::none();
        assert_eq!(none.remaining(), 0);
        none.step(4); // no region: nothing, no panic
        assert_eq!(none.remaining(), 0);

        let outer = vec![0u8; 1000];
        let mut region = WritePrefetch::new(&outer);
        let whole = region.remaining();
        // The region starts at its first line, so up to 63 bytes before it count.
        assert!((1000..1000 + LINE).contains(&whole), "{whole}");
        region.step(2);
        assert_eq!(region.remaining(), whole - 2 * LINE);
        region.step(usize::MAX);
        assert_eq!(region.remaining(), 0);
        region.step(1);
        assert_eq!(region.remaining(), 0);

        // An empty region is done at once, and so is a slice of zero-sized values of any
        // length (no bytes), whatever its address.
        assert_eq!(WritePrefetch::new(&[] as &[u8]).remaining(), 0);
        let units = vec![(); usize::MAX];
        let mut units = WritePrefetch::new(&units);
        assert_eq!(units.remaining(), 0);
        units.step(usize::MAX);
        assert_eq!(units.remaining(), 0);
        // Asking for every line of a region at once stops at its end (no overflow of the
        // address arithmetic near the top of the requested count).
        let last = vec![0u8; 3 * LINE];
        let mut last = WritePrefetch::new(&last);
        last.step(usize::MAX / LINE + 1);
        assert_eq!(last.remaining(), 0);
        // A region is only named, never read or written: its values stay as they were.
        let values = vec![7u64; 4096];
        let snapshot = values.clone();
        WritePrefetch::new(&values).step(usize::MAX);
        assert_eq!(values, snapshot);
    }
}
