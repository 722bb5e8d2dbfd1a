//! Large output buffers, and the cache sizes that decide how work on them is blocked.

use std::sync::OnceLock;

/// The bytes of one core's level-2 cache where the system says (Linux sysfs), else 1 MiB (a
/// common size, and a safe guess where it is larger). Read once per process.
pub(crate) fn l2_cache_bytes() -> usize {
    static L2: OnceLock<usize> = OnceLock::new();
    *L2.get_or_init(|| read_l2_cache_bytes().unwrap_or(1 << 20))
}

/// The size of the first level-2 data or unified cache of CPU 0 in sysfs.
fn read_l2_cache_bytes() -> Option<usize> {
    let base = std::path::Path::new("/sys/devices/system/cpu/cpu0/cache");
    (0..8).find_map(|i| {
        let dir = base.join(format!("index{i}"));
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
        if read("level")?.trim() != "2" || read("type")?.trim() == "Instruction" {
            return None;
        }
        parse_cache_size(read("size")?.trim())
    })
}

/// Parses a sysfs cache size (`"2048K"`, `"1M"`, `"512"`).
fn parse_cache_size(text: &str) -> Option<usize> {
    let (digits, unit) = match text.as_bytes().last()? {
        b'K' | b'k' => (&text[..text.len() - 1], 1 << 10),
        b'M' | b'm' => (&text[..text.len() - 1], 1 << 20),
        _ => (text, 1),
    };
    digits
        .parse::<usize>()
        .ok()?
        .checked_mul(unit)
        .filter(|&b| b > 0)
}

/// Bytes of one transparent huge page on x86-64 and AArch64 Linux.
#[cfg(target_os = "linux")]
const HUGE_PAGE: usize = 1 << 21;

/// An empty buffer with room for `len` elements, its pages mapped before it is returned (see
/// [`populate_pages`]); with `huge_pages`, on Linux a large one is instead
/// advised to be backed by transparent huge pages (`madvise(MADV_HUGEPAGE)`, where the system
/// leaves THP to `madvise`) before any element is written, so the first touch of each page
/// faults in a huge one. That is a trade: a low-degree extension writes its whole output once,
/// and with 4 KiB pages about a tenth of its time went to page faults on an idle 2-core Zen 4
/// (2^23 Goldilocks elements), which the advice saved; but where memory is fragmented (a shared
/// machine that has run for a day), the kernel compacts memory synchronously on those faults
/// (THP `defrag` set to `madvise`), and the 2^20 × 8 → 2^23 LDE's median on the shared 2-core
/// Xeon rose from 0.88 s to 1.23 s (one thread) with runs between 0.84 and 2.0 s, against
/// 0.86–0.91 s without the advice. Hence opt-in ([`crate::NttPlan::advising_huge_pages`]).
/// The advice is only a hint, ignored where unsupported.
pub(crate) fn with_capacity_for_pages<F>(len: usize, huge_pages: bool, parallel: bool) -> Vec<F> {
    let mut buffer: Vec<F> = Vec::with_capacity(len);
    #[cfg(target_os = "linux")]
    if huge_pages {
        advise_huge_pages(&mut buffer);
        return buffer;
    }
    let _ = huge_pages;
    let bytes = buffer.capacity() * core::mem::size_of::<F>();
    populate_pages(buffer.as_mut_ptr().cast(), bytes, parallel);
    buffer
}

/// Below this many bytes a buffer's pages are left to fault in one by one.
const POPULATE_MIN_BYTES: usize = 4 << 20;

/// Bytes one task of [`populate_pages`] maps.
const POPULATE_CHUNK_BYTES: usize = 32 << 20;

/// Maps the whole pages of `bytes` bytes from `start` (memory we own and have not written:
/// a fresh allocation's capacity) in a few system calls, `madvise(MADV_POPULATE_WRITE)`
/// (Linux 5.14 and later), in chunks over the rayon pool where `parallel`, instead of one
/// page fault per 4 KiB page when the extension first writes them. On the shared 2-core Zen 4
/// (a Firecracker guest, where a first touch faults in the guest and in the host) mapping
/// 512 MiB took 170 ms that way against 204–215 ms touched a page at a time, and the
/// `2^20 × 8 → 2^23` extension's median fell by 3–4 %. Buffers under 4 MiB are left alone; a
/// kernel without the advice refuses it and the pages fault in as before.
pub(crate) fn populate_pages(start: *mut u8, bytes: usize, parallel: bool) {
    #[cfg(target_os = "linux")]
    {
        use rayon::prelude::*;
        if bytes < POPULATE_MIN_BYTES {
            return;
        }
        let (start, page) = (start as usize, page_size());
        let first = start.next_multiple_of(page);
        let end = (start + bytes) / page * page;
        // Whole pages per task, whatever the page size.
        let chunk_bytes = POPULATE_CHUNK_BYTES.next_multiple_of(page);
        let map = |chunk: usize| {
            let from = first + chunk * chunk_bytes;
            let to = (from + chunk_bytes).min(end);
            // SAFETY: `from .. to` is a page-aligned range inside the caller's allocation,
            // which holds no values yet; MADV_POPULATE_WRITE only maps its pages (zeroed, as a
            // first write would) and changes no contents we own. Its result is ignored: a
            // refusal leaves the pages to fault in on first touch.
            unsafe {
                libc::madvise(
                    from as *mut libc::c_void,
                    to - from,
                    libc::MADV_POPULATE_WRITE,
                );
            }
        };
        let chunks = (end.saturating_sub(first)).div_ceil(chunk_bytes);
        if parallel {
            (0..chunks).into_par_iter().for_each(map);
        } else {
            (0..chunks).for_each(map);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes, parallel);
}

/// The system's page size (`sysconf(_SC_PAGESIZE)`: 4 KiB on x86-64, 16 or 64 KiB on some
/// AArch64 kernels), read once; 4 KiB if the system does not say.
#[cfg(target_os = "linux")]
fn page_size() -> usize {
    static PAGE: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *PAGE.get_or_init(|| {
        // SAFETY: `sysconf` reads a system constant and touches no memory of ours.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        usize::try_from(page)
            .ok()
            .filter(|p| p.is_power_of_two())
            .unwrap_or(4096)
    })
}

/// Advises huge pages for the spare capacity of an empty `buffer`.
#[cfg(target_os = "linux")]
fn advise_huge_pages<F>(buffer: &mut Vec<F>) {
    let bytes = buffer.capacity() * core::mem::size_of::<F>();
    if bytes < 2 * HUGE_PAGE {
        return;
    }
    let start = buffer.as_mut_ptr() as usize;
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    if end > first {
        // SAFETY: `first .. end` is a page-aligned range inside `buffer`'s allocation, which
        // we borrow mutably and which holds no values yet; MADV_HUGEPAGE changes no memory contents, only how the kernel
        // backs the pages. Its result is ignored: failing to take the hint is harmless.
        unsafe {
            libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page size is a power of two that the chunks hold whole, and the kernel's own
    /// (`getconf PAGESIZE`'s source), not an assumed 4 KiB.
    #[cfg(target_os = "linux")]
    #[test]
    fn page_size_is_the_systems() {
        let page = page_size();
        assert!(page.is_power_of_two() && page >= 4096, "{page}");
        assert_eq!(POPULATE_CHUNK_BYTES.next_multiple_of(page) % page, 0);
        // SAFETY: as in `page_size`.
        let sys = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
        assert_eq!(usize::try_from(sys).ok(), Some(page));
    }

    /// Populating an unaligned range, past the size threshold, changes no contents: a
    /// buffer already written keeps every word (an advice that dropped pages, as
    /// `MADV_DONTNEED` does, would read back zeros).
    #[cfg(target_os = "linux")]
    #[test]
    fn populating_changes_no_contents() {
        let len = (POPULATE_MIN_BYTES + 3 * page_size() + 24) / 8;
        let mut v: Vec<u64> = (0..len as u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9) | 1)
            .collect();
        populate_pages(
            v.as_mut_ptr().cast::<u8>().wrapping_add(8),
            (len - 1) * 8,
            true,
        );
        populate_pages(v.as_mut_ptr().cast::<u8>(), len * 8, false);
        assert!(v
            .iter()
            .enumerate()
            .all(|(i, &x)| x == (i as u64).wrapping_mul(0x9e37_79b9) | 1));
    }

    #[test]
    fn cache_sizes_parse_as_sysfs_writes_them() {
        assert_eq!(parse_cache_size("2048K"), Some(2 << 20));
        assert_eq!(parse_cache_size("1M"), Some(1 << 20));
        assert_eq!(parse_cache_size("512"), Some(512));
        for bad in ["", "K", "0K", "-1K", "12Q", "99999999999999999999M"] {
            assert_eq!(parse_cache_size(bad), None, "{bad:?}");
        }
        assert!(l2_cache_bytes() >= 1 << 10);
    }
}
