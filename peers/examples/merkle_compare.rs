//! One build each of plonky2 1.1.0's `MerkleTree::new` and zkaccel's (in memory, and the
//! bounded-memory streaming build) on the same 2^LOG_N × WIDTH random matrix, cap height 4,
//! all cores: prints seconds, leaves/s and the ratio. Trees this large take too long for
//! criterion's repeated samples. `RUSTC_BOOTSTRAP=1 cargo run --release --example
//! merkle_compare -- 20 135`.

use std::time::Instant;

use plonky2::field::goldilocks_field::GoldilocksField;
use plonky2::hash::merkle_tree::MerkleTree as Plonky2Tree;
use plonky2::hash::poseidon::PoseidonHash;
use rand::{Rng, SeedableRng};
use zkaccel_goldilocks::Goldilocks;
use zkaccel_merkle::{build_streaming, MerkleTree, StreamConfig};
use zkaccel_peers::{digest_from_plonky2, to_plonky2};
use zkaccel_plonky2::Plonky2Hasher;

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let (log_n, width) = (
        args.first().copied().unwrap_or(16),
        args.get(1).copied().unwrap_or(135),
    );
    let n = 1usize << log_n;
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    let rows: Vec<Goldilocks> = (0..n * width)
        .map(|_| Goldilocks::new_reduced(rng.gen_range(0..zkaccel_goldilocks::ORDER)))
        .collect();

    let t = Instant::now();
    let ours = MerkleTree::new(Plonky2Hasher, rows.clone(), width, 4).unwrap();
    let ours_s = t.elapsed().as_secs_f64();
    let cap = ours.cap().to_vec();
    drop(ours);

    let mut config = StreamConfig::new(n as u64, width);
    config.cap_height = 4;
    let mut source = (0u64, width, |first: u64, out: &mut [Goldilocks]| {
        let s = first as usize * width;
        out.copy_from_slice(&rows[s..s + out.len()]);
        Ok(())
    });
    let t = Instant::now();
    let streamed = build_streaming(&Plonky2Hasher, config, &mut source, |_| {}).unwrap();
    let stream_s = t.elapsed().as_secs_f64();
    assert_eq!(streamed.commitment.cap(), cap.as_slice());

    let theirs_rows: Vec<Vec<GoldilocksField>> = rows
        .chunks(width)
        .map(|r| r.iter().map(|&x| to_plonky2(x)).collect())
        .collect();
    drop(rows);
    let t = Instant::now();
    let theirs = Plonky2Tree::<GoldilocksField, PoseidonHash>::new(theirs_rows, 4);
    let theirs_s = t.elapsed().as_secs_f64();
    let theirs_cap: Vec<[Goldilocks; 4]> = theirs
        .cap
        .0
        .iter()
        .map(|&h| digest_from_plonky2(h))
        .collect();
    assert_eq!(theirs_cap, cap, "caps differ");

    let rate = |s: f64| n as f64 / s;
    println!(
        "merkle 2^{log_n} x {width}, cap 4, {} threads",
        rayon::current_num_threads()
    );
    println!(
        "  plonky2 MerkleTree::new   {theirs_s:8.3} s  {:12.0} leaves/s",
        rate(theirs_s)
    );
    println!(
        "  zkaccel MerkleTree::new   {ours_s:8.3} s  {:12.0} leaves/s  ratio {:.2}x",
        rate(ours_s),
        theirs_s / ours_s
    );
    println!(
        "  zkaccel build_streaming   {stream_s:8.3} s  {:12.0} leaves/s  ratio {:.2}x",
        rate(stream_s),
        theirs_s / stream_s
    );
}
