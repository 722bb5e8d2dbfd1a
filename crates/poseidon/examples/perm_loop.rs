//! Permutes Goldilocks states in a loop (for profiling): `perm_loop [single|avx512|avx2|ifma]`.
use zkaccel_goldilocks::Goldilocks;
use zkaccel_poseidon::{BatchKernel, Plonky2Poseidon};
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
    } else {
        let k = match mode.as_str() {
            "avx2" => BatchKernel::Avx2,
            "ifma" => BatchKernel::Ifma,
            _ => BatchKernel::Avx512,
        };
        let mut s = vec![Goldilocks::new_reduced(3); 12 * 1024];
        for _ in 0..n / 1024 {
            h.permutation().permute_many_using(k, &mut s).unwrap();
        }
    }
    println!("{mode}: {:?} per perm", t.elapsed() / n as u32);
}
