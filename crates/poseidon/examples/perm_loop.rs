//! Permutes Goldilocks states in a loop, for profiling: `perm_loop [single | portable |
//! LANES]` (one state on the latency path, one on the portable kernel, or batches), where
//! `LANES` bounds the packing's lanes (16, 8, 4 or 1 on an AVX-512 IFMA machine; the default
//! is the widest).
use zkaccel_goldilocks::Goldilocks;
use zkaccel_plonky2::Plonky2Poseidon;

fn main() {
    let h = Plonky2Poseidon::get();
    let mode = std::env::args().nth(1).unwrap_or_default();
    let n = 200_000;
    let t = std::time::Instant::now();
    if mode == "single" {
        let mut s = [Goldilocks::new_reduced(3); 12];
        for _ in 0..n {
            h.permute(&mut s);
        }
    } else if mode == "portable" {
        let mut s = [Goldilocks::new_reduced(3); 12];
        for _ in 0..n {
            h.permute_portable(&mut s);
        }
    } else {
        let lanes = mode.parse().unwrap_or(usize::MAX);
        let mut s = vec![Goldilocks::new_reduced(3); 12 * 1024];
        for _ in 0..n / 1024 {
            h.permutation()
                .permute_many_within(lanes, &mut s)
                .expect("whole states");
        }
    }
    println!("{mode}: {:?} per perm", t.elapsed() / n as u32);
}
