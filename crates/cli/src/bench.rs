//! `zkaccel bench`: the throughput of every implemented kernel on this machine, as a table.
//!
//! Each kernel runs over an independent batch for a fixed wall-clock budget (0.2 s with
//! `--quick`, 1 s otherwise); the figure is elements processed per second on one thread. These
//! are quick health figures for users; the peer comparisons live in the criterion benches
//! (`cargo bench`), which run ours and the peers in one group on identical inputs.

use std::hint::black_box;
use std::time::{Duration, Instant};

use clap::Args;
use rand::rngs::StdRng;
use rand::{RngCore, SeedableRng};
use serde::Serialize;
use zkaccel_field::modmul::MulAlgorithm;
use zkaccel_field::{Field, PrimeField};
use zkaccel_fp256::{Fp256, Fp256Config, MulBackend};
use zkaccel_goldilocks::{Goldilocks, Goldilocks2};
use zkaccel_plonky2::Plonky2Hasher;
use zkaccel_presets::{CircomPoseidon, NeptuneHasher, NeptunePoseidon};

#[derive(Args)]
pub struct BenchArgs {
    /// A short run (about 0.2 s per kernel).
    #[arg(long)]
    quick: bool,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Only kernels whose name contains this string.
    #[arg(long)]
    filter: Option<String>,
}

/// One row of the report.
#[derive(Debug, Serialize)]
pub struct Measurement {
    kernel: &'static str,
    field: &'static str,
    implementation: String,
    elements_per_second: f64,
    nanoseconds_per_element: f64,
}

/// Runs `kernel` (which processes `batch` elements) repeatedly for `budget`.
fn measure(budget: Duration, batch: usize, mut kernel: impl FnMut()) -> f64 {
    kernel(); // warm-up
    let start = Instant::now();
    let mut runs = 0u64;
    while start.elapsed() < budget {
        kernel();
        runs += 1;
    }
    (runs as f64 * batch as f64) / start.elapsed().as_secs_f64()
}

fn random_vec<F: PrimeField>(rng: &mut StdRng, n: usize) -> Vec<F> {
    (0..n)
        .map(|_| {
            let v = [
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
                rng.next_u64(),
            ];
            F::from_limbs_reduced(&v)
        })
        .collect()
}

struct Bench {
    budget: Duration,
    filter: Option<String>,
    rows: Vec<Measurement>,
}

impl Bench {
    fn wants(&self, kernel: &str, field: &str) -> bool {
        self.filter
            .as_deref()
            .is_none_or(|f| kernel.contains(f) || field.contains(f))
    }

    fn add(
        &mut self,
        kernel: &'static str,
        field: &'static str,
        implementation: impl Into<String>,
        batch: usize,
        run: impl FnMut(),
    ) {
        if !self.wants(kernel, field) {
            return;
        }
        let eps = measure(self.budget, batch, run);
        self.rows.push(Measurement {
            kernel,
            field,
            implementation: implementation.into(),
            elements_per_second: eps,
            nanoseconds_per_element: 1e9 / eps,
        });
    }

    fn fields_goldilocks(&mut self, rng: &mut StdRng) {
        const N: usize = 4096;
        let a: Vec<Goldilocks> = random_vec(rng, N);
        let b: Vec<Goldilocks> = random_vec(rng, N);
        let mut out = a.clone();
        self.add("field-mul", "goldilocks", "scalar", N, || {
            out.iter_mut().zip(&b).for_each(|(x, y)| *x *= *y);
            black_box(&mut out);
        });
        #[cfg(target_arch = "x86_64")]
        {
            use zkaccel_goldilocks::x86_64::{backend, mul_assign_slices};
            let name = format!("{:?} (run-time choice)", backend()).to_lowercase();
            self.add("field-mul", "goldilocks", name, N, || {
                mul_assign_slices(&mut out, &b);
                black_box(&mut out);
            });
        }
        let ea: Vec<Goldilocks2> = a.chunks(2).map(|c| Goldilocks2::new(c[0], c[1])).collect();
        let eb: Vec<Goldilocks2> = b.chunks(2).map(|c| Goldilocks2::new(c[0], c[1])).collect();
        let mut eout = ea.clone();
        self.add("field-mul", "goldilocks2", "scalar", N / 2, || {
            eout.iter_mut().zip(&eb).for_each(|(x, y)| *x *= *y);
            black_box(&mut eout);
        });
        let x = a[1];
        self.add("field-inverse", "goldilocks", "fermat", 1, || {
            black_box(black_box(x).inverse());
        });
    }

    fn fields_fp256<C: Fp256Config>(&mut self, rng: &mut StdRng, field: &'static str) {
        const N: usize = 4096;
        let a: Vec<Fp256<C>> = random_vec(rng, N);
        let b: Vec<Fp256<C>> = random_vec(rng, N);
        let mut out = a.clone();
        self.add(
            "field-mul",
            field,
            "montgomery-batch (run-time choice)",
            N,
            || {
                Fp256::<C>::mul_assign_slices(&mut out, &b);
                black_box(&mut out);
            },
        );
        let chosen = format!("montgomery-{:?}", Fp256::<C>::mul_backend()).to_lowercase();
        self.add("field-mul", field, chosen, N, || {
            out.iter_mut().zip(&b).for_each(|(x, y)| *x *= *y);
            black_box(&mut out);
        });
        self.add("field-mul", field, "montgomery-portable", N, || {
            out.iter_mut()
                .zip(&b)
                .for_each(|(x, y)| *x = x.mul_using(*y, MulBackend::Portable));
            black_box(&mut out);
        });
        const M: usize = 256;
        let ca: Vec<_> = a[..M].iter().map(|x| x.to_canonical_u256()).collect();
        let cb: Vec<_> = b[..M].iter().map(|x| x.to_canonical_u256()).collect();
        let barrett = Fp256::<C>::barrett();
        let peasant = Fp256::<C>::peasant();
        for alg in [MulAlgorithm::Barrett, MulAlgorithm::RussianPeasant] {
            let mut cout = ca.clone();
            self.add(
                "field-mul",
                field,
                format!("{} (reference)", alg.name()),
                M,
                || {
                    for (x, y) in cout.iter_mut().zip(&cb) {
                        *x = match alg {
                            MulAlgorithm::Barrett => barrett.mul(x, y),
                            _ => peasant.mul(x, y),
                        };
                    }
                    black_box(&mut cout);
                },
            );
        }
        let x = a[1];
        self.add("field-inverse", field, "fermat", 1, || {
            black_box(black_box(x).inverse());
        });
    }
}

impl Bench {
    fn mimc(&mut self, rng: &mut StdRng) {
        use zkaccel_presets::MimcPreset as Preset;
        const N: usize = 1024;
        let xs: Vec<zkaccel_bn254::Fr> = random_vec(rng, N);
        let ks: Vec<zkaccel_bn254::Fr> = random_vec(rng, N);
        let mimc = Preset::Circomlib.cipher();
        let (x, k) = (xs[0], ks[0]);
        self.add(
            "mimc-cipher",
            "bn254",
            "circomlib x^7/91, one cipher",
            1,
            || {
                black_box(mimc.encrypt(black_box(x), black_box(k)));
            },
        );
        self.add(
            "mimc-cipher",
            "bn254",
            "circomlib batch, 1 thread",
            N,
            || {
                black_box(
                    mimc.encrypt_batch_single_thread(&xs, &ks)
                        .expect("equal lengths"),
                );
            },
        );
        let threads = rayon_threads();
        self.add(
            "mimc-cipher",
            "bn254",
            format!("circomlib batch, {threads} threads"),
            N,
            || {
                black_box(mimc.encrypt_batch(&xs, &ks).expect("equal lengths"));
            },
        );
        let msgs: Vec<Vec<zkaccel_bn254::Fr>> = xs.chunks(4).map(<[_]>::to_vec).collect();
        self.add(
            "mimc-hash",
            "bn254",
            "circomlib MP, 4 blocks, batch",
            msgs.len(),
            || {
                black_box(mimc.hash_batch(&msgs, k));
            },
        );
        // MiMCSponge nodes of a Merkle tree: two elements in, one out, key 0.
        let sponge = Preset::CircomlibSponge.sponge();
        let zero = zkaccel_bn254::Fr::ZERO;
        self.add(
            "mimc-sponge",
            "bn254",
            "circomlib x^5/220, 2-to-1 node",
            1,
            || {
                black_box(
                    sponge
                        .hash(black_box(&xs[..2]), zero, 1)
                        .expect("one output"),
                );
            },
        );
        let pairs: Vec<&[zkaccel_bn254::Fr]> = xs.chunks(2).collect();
        self.add(
            "mimc-sponge",
            "bn254",
            format!("circomlib 2-to-1, batch, {threads} threads"),
            pairs.len(),
            || {
                black_box(sponge.hash_batch(&pairs, zero, 1).expect("one output"));
            },
        );
    }
}

impl Bench {
    fn poseidon(&mut self, rng: &mut StdRng) {
        use zkaccel_plonky2::Plonky2Poseidon;
        const N: usize = 1024;
        let h = Plonky2Poseidon::get();
        let states: Vec<Goldilocks> = random_vec(rng, 12 * N);
        let mut one: [Goldilocks; 12] = states[..12].try_into().expect("12 elements");
        self.add(
            "poseidon-perm",
            "goldilocks",
            "plonky2 t=12, one at a time",
            1,
            || {
                h.permute(black_box(&mut one));
            },
        );
        let lanes = Goldilocks::packing_widths()[0];
        let mut batch = states.clone();
        self.add(
            "poseidon-perm",
            "goldilocks",
            format!("plonky2 t=12, batch, one thread, {lanes} lanes"),
            N,
            || {
                h.permutation()
                    .permute_many_single_thread(black_box(&mut batch))
                    .expect("whole states");
            },
        );
        let threads = rayon_threads();
        let mut batch = states;
        self.add(
            "poseidon-perm",
            "goldilocks",
            format!("plonky2 t=12, {threads} threads"),
            N,
            || {
                h.permutation()
                    .permute_many(black_box(&mut batch))
                    .expect("whole states");
            },
        );
        let neptune = NeptunePoseidon::<zkaccel_bls12_381::Fr>::new(2, Default::default())
            .expect("arity 2 is defined");
        let children: Vec<zkaccel_bls12_381::Fr> = random_vec(rng, 2 * N);
        self.add(
            "poseidon-hash",
            "bls12-381",
            "neptune arity 2, one hash",
            1,
            || {
                black_box(
                    neptune
                        .hash(black_box(&children[..2]))
                        .expect("two children"),
                );
            },
        );
        self.add(
            "poseidon-hash",
            "bls12-381",
            format!("neptune arity 2, batch, {threads} threads"),
            N,
            || {
                black_box(neptune.hash_many(&children).expect("whole nodes"));
            },
        );
        let circom = CircomPoseidon::get(3).expect("t = 3 is defined");
        let inputs: Vec<zkaccel_bn254::Fr> = random_vec(rng, 2 * N);
        self.add(
            "poseidon-hash",
            "bn254",
            "circomlib t=3, one hash",
            1,
            || {
                black_box(circom.hash(black_box(&inputs[..2])).expect("two inputs"));
            },
        );
        self.add(
            "poseidon-hash",
            "bn254",
            format!("circomlib t=3, batch, {threads} threads"),
            N,
            || {
                black_box(circom.hash_many(&inputs).expect("whole inputs"));
            },
        );
    }
}

impl Bench {
    fn merkle(&mut self, rng: &mut StdRng) {
        use zkaccel_merkle::MerkleTree;
        const N: usize = 1 << 12;
        const W: usize = 135;
        let rows: Vec<Goldilocks> = random_vec(rng, N * W);
        let threads = rayon_threads();
        self.add(
            "merkle-tree",
            "goldilocks",
            format!("plonky2 4096 x 135, cap 4, {threads} threads"),
            N,
            || {
                black_box(
                    MerkleTree::new(Plonky2Hasher, rows.clone(), W, 4).expect("power of two"),
                );
            },
        );
        let leaves: Vec<zkaccel_bls12_381::Fr> = random_vec(rng, N);
        let hasher = NeptuneHasher::new(
            zkaccel_presets::NeptunePoseidon::new(2, Default::default()).expect("arity 2"),
        );
        self.add(
            "merkle-tree",
            "bls12-381",
            format!("neptune arity 2, 4096 leaves, {threads} threads"),
            N,
            || {
                black_box(
                    MerkleTree::new(hasher.clone(), leaves.clone(), 1, 0).expect("power of two"),
                );
            },
        );
    }
}

impl Bench {
    /// A whole STARK proof (rows proved per second): Fibonacci 2^12 under starky's
    /// standard_fast configuration, the proof starky would return.
    fn stark(&mut self) {
        use zkaccel_stark::{prove, FibonacciAir, StarkConfig};
        const LOG_ROWS: usize = 12;
        let (trace, pis) = FibonacciAir::trace(1 << LOG_ROWS, Goldilocks::ZERO, Goldilocks::ONE)
            .expect("a power of two");
        let config = StarkConfig::standard_fast();
        self.add(
            "stark-prove",
            "goldilocks",
            format!(
                "fibonacci 2^{LOG_ROWS}, standard_fast, {} threads",
                rayon_threads()
            ),
            1 << LOG_ROWS,
            || {
                let proof = prove::<_, zkaccel_plonky2::Plonky2Goldilocks>(
                    &FibonacciAir,
                    &config,
                    trace.clone(),
                    &pis,
                    &mut zkaccel_kernel_trace::NoTrace,
                )
                .expect("a valid trace");
                std::hint::black_box(proof);
            },
        );
    }

    fn ntt(&mut self, rng: &mut StdRng) {
        use zkaccel_ntt::{NttPlan, Order};
        const LOG_N: usize = 16;
        let threads = rayon_threads();
        let goldilocks: Vec<Goldilocks> = random_vec(rng, 1 << LOG_N);
        let plan = NttPlan::<Goldilocks>::new(LOG_N).expect("2^16 fits Goldilocks");
        let mut data = goldilocks.clone();
        self.add(
            "ntt",
            "goldilocks",
            format!("2^16 forward NN, {threads} threads"),
            1 << LOG_N,
            || plan.forward(&mut data, Order::NN).expect("power of two"),
        );
        let bn: Vec<zkaccel_bn254::Fr> = random_vec(rng, 1 << LOG_N);
        let plan = NttPlan::<zkaccel_bn254::Fr>::new(LOG_N).expect("2^16 fits BN254");
        let mut data = bn.clone();
        self.add(
            "ntt",
            "bn254",
            format!("2^16 forward NN, {threads} threads"),
            1 << LOG_N,
            || plan.forward(&mut data, Order::NN).expect("power of two"),
        );
    }
}

fn rayon_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

fn print_table(rows: &[Measurement]) {
    // Each text column as wide as its longest entry.
    let width = |header: &str, column: fn(&Measurement) -> &str| {
        rows.iter()
            .map(|r| column(r).len())
            .fold(header.len(), usize::max)
    };
    let kernel = width("kernel", |r| r.kernel);
    let field = width("field", |r| r.field);
    let implementation = width("implementation", |r| &r.implementation);
    println!(
        "{:<kernel$} {:<field$} {:<implementation$} {:>14} {:>12}",
        "kernel", "field", "implementation", "Melem/s", "ns/elem"
    );
    println!("{}", "-".repeat(kernel + field + implementation + 30));
    for r in rows {
        println!(
            "{:<kernel$} {:<field$} {:<implementation$} {:>14.2} {:>12.2}",
            r.kernel,
            r.field,
            r.implementation,
            r.elements_per_second / 1e6,
            r.nanoseconds_per_element
        );
    }
}

/// Runs `zkaccel bench`.
pub fn run(args: &BenchArgs) -> Result<(), Box<dyn std::error::Error>> {
    let mut bench = Bench {
        budget: Duration::from_millis(if args.quick { 200 } else { 1000 }),
        filter: args.filter.clone(),
        rows: Vec::new(),
    };
    let mut rng = StdRng::seed_from_u64(1);
    bench.fields_goldilocks(&mut rng);
    bench.fields_fp256::<zkaccel_bn254::FrConfig>(&mut rng, "bn254");
    bench.fields_fp256::<zkaccel_bls12_381::FrConfig>(&mut rng, "bls12-381");
    bench.mimc(&mut rng);
    bench.poseidon(&mut rng);
    bench.merkle(&mut rng);
    bench.ntt(&mut rng);
    bench.stark();
    if bench.rows.is_empty() {
        return Err(format!(
            "--filter {:?} matches no kernel or field (see `zkaccel bench --quick` for the rows)",
            args.filter.as_deref().unwrap_or_default()
        )
        .into());
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&bench.rows)?);
    } else {
        println!(
            "zkaccel bench{}: throughput on this machine (one thread unless a row says otherwise)",
            if args.quick { " --quick" } else { "" }
        );
        print_table(&bench.rows);
    }
    Ok(())
}
