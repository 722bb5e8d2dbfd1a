//! The FPGA NTT core model: one test per row of the paper's Table III, the PipeZK replica's
//! speed-up, and the model against cycle counts the RTL bench measured (`hw/ntt/run.sh`, which
//! also checks model = RTL on every configuration it simulates).

use zkaccel_hwmodel::ntt_fpga::{
    CoreKind, NttCoreConfig, TableIiiRow, PAPER_CLOCK_MHZ, TABLE_III, TABLE_III_POINTS,
};

/// The paper-faithful core's error against one Table III row: what the RTL measures (the
/// model equals it), and the band it stays in. The issue's ±2 % is not met: the paper's
/// half-round lag costs ~2,400 cycles of fill at 8 rounds, which the table's 8-round rows do
/// not leave room for (see the module documentation).
fn check_row(index: usize, expected_error_percent: f64) {
    let row: &TableIiiRow = &TABLE_III[index];
    let config = NttCoreConfig::table_iii(row);
    let cycles = config.core_cycles(TABLE_III_POINTS).unwrap();
    let error = 100.0 * (cycles as f64 / row.cycles as f64 - 1.0);
    assert!(
        (error - expected_error_percent).abs() < 0.05,
        "row {index}: model {cycles} vs paper {}: {error:+.2} %",
        row.cycles
    );
    assert!(error.abs() < 8.5, "row {index}: {error:+.2} %");
    // At the paper's clock the latency in milliseconds follows.
    let ms = config.core_ms(TABLE_III_POINTS).unwrap();
    assert!((ms - cycles as f64 / (PAPER_CLOCK_MHZ * 1e3)).abs() < 1e-12);
}

#[test]
fn table_iii_8_rounds_16_subtasks_1_pipeline() {
    check_row(0, 6.14);
}

#[test]
fn table_iii_8_rounds_16_subtasks_2_pipelines() {
    check_row(1, 8.23);
}

#[test]
fn table_iii_4_rounds_256_subtasks_1_pipeline() {
    check_row(2, -0.85);
}

#[test]
fn table_iii_4_rounds_256_subtasks_2_pipelines() {
    check_row(3, -3.42);
}

#[test]
fn table_iii_4_rounds_256_subtasks_4_pipelines() {
    check_row(4, -6.03);
}

/// Cycle counts the Verilator bench measured on the RTL (hw/ntt, this repository), with the
/// configuration: (m, P, L, core, sub-tasks, cycles). `FullyPipelined` is ntt_core_pipe.
const RTL_MEASURED: [(u32, u32, u32, CoreKind, u64, u64); 19] = [
    (8, 1, 5, CoreKind::Overlapped, 16, 41_493),
    (8, 2, 5, CoreKind::Overlapped, 16, 22_037),
    (4, 1, 5, CoreKind::Overlapped, 256, 39_073),
    (4, 2, 5, CoreKind::Overlapped, 256, 19_617),
    (4, 4, 5, CoreKind::Overlapped, 256, 9_889),
    (8, 1, 5, CoreKind::PipeZkReplica, 16, 80_208),
    (4, 1, 5, CoreKind::PipeZkReplica, 256, 80_128),
    (6, 2, 2, CoreKind::Overlapped, 64, 10_612),
    (6, 2, 2, CoreKind::PipeZkReplica, 64, 22_144),
    (3, 1, 0, CoreKind::Overlapped, 512, 8_223),
    (3, 3, 0, CoreKind::PipeZkReplica, 50, 799),
    (5, 1, 5, CoreKind::Overlapped, 7, 2_454),
    (8, 1, 5, CoreKind::FullyPipelined, 16, 2_334),
    (8, 2, 5, CoreKind::FullyPipelined, 16, 1_310),
    (4, 1, 5, CoreKind::FullyPipelined, 256, 2_134),
    (4, 4, 5, CoreKind::FullyPipelined, 256, 598),
    (3, 3, 0, CoreKind::FullyPipelined, 50, 85),
    (2, 1, 0, CoreKind::FullyPipelined, 100, 210),
    (2, 1, 1, CoreKind::FullyPipelined, 100, 216),
];

#[test]
fn the_model_equals_the_rtl_measurements() {
    for (m, p, l, kind, subtasks, cycles) in RTL_MEASURED {
        let config = NttCoreConfig {
            width_bits: 256,
            log_points: m,
            pipelines: p,
            mul_latency: l,
            kind,
            clock_mhz: PAPER_CLOCK_MHZ,
        };
        assert_eq!(
            config.core_cycles(subtasks << m).unwrap(),
            cycles,
            "m={m} P={p} L={l} {kind:?} sub-tasks={subtasks}"
        );
    }
}

/// The fully pipelined core does a butterfly per cycle where the paper-faithful one does one
/// per 3·(L + 1) + 1: on Table III's task it is 17–19× faster at L = 5, the ratio falling with
/// the pipelines (the fill is paid per lane) and rising with the task.
#[test]
fn the_fully_pipelined_core_is_an_interval_faster() {
    for row in &TABLE_III {
        let ours = NttCoreConfig::table_iii(row);
        let pipelined = NttCoreConfig {
            kind: CoreKind::FullyPipelined,
            ..ours
        };
        let ratio =
            ours.core_cycles(4096).unwrap() as f64 / pipelined.core_cycles(4096).unwrap() as f64;
        assert!((16.5..19.0).contains(&ratio), "{row:?}: {ratio}");
        let big = ours.core_cycles(1 << 20).unwrap() as f64
            / pipelined.core_cycles(1 << 20).unwrap() as f64;
        assert!(big > ratio && big < 19.0, "{row:?}: {big}");
    }
}

/// The paper: "the overall latency is reduced from 2nT to nT … the speedup is very close to
/// twice" once there are many sub-tasks; Table V's large-N ratio is 1.93–1.95.
#[test]
fn the_pipezk_replica_takes_about_twice_as_long() {
    let ours = NttCoreConfig::table_iii(&TABLE_III[0]);
    let pipezk = NttCoreConfig {
        kind: CoreKind::PipeZkReplica,
        ..ours
    };
    let ratio = |points: u64| {
        pipezk.core_cycles(points).unwrap() as f64 / ours.core_cycles(points).unwrap() as f64
    };
    let at_4096 = ratio(4096);
    assert!((1.90..1.97).contains(&at_4096), "{at_4096}");
    // 2n/(n + 1) grows towards its limit with the sub-tasks: one sub-task alone over T, just
    // above 2 (the input lead and the per-round hand-over are paid per sub-task as well).
    let t = (1u64 << 7) * ours.butterfly_interval();
    let limit = ours.subtask_cycles() as f64 / t as f64;
    assert!((2.0..2.1).contains(&limit), "{limit}");
    let mut last = at_4096;
    for log_n in 13..=21 {
        let r = ratio(1 << log_n);
        assert!(r > last && r < limit, "2^{log_n}: {r}");
        last = r;
    }
    assert!(limit - last < 0.01, "{last} vs {limit}");
}

/// More pipelines divide the sub-tasks; the fill stays.
#[test]
fn pipelines_divide_the_steady_state_not_the_fill() {
    for m in [4, 6, 8] {
        let one = NttCoreConfig {
            log_points: m,
            pipelines: 1,
            ..NttCoreConfig::table_iii(&TABLE_III[0])
        };
        let fill = one.subtask_cycles() - (1 << (m - 1)) * one.butterfly_interval();
        let c1 = one.core_cycles(4096).unwrap() - fill;
        for p in [2u32, 4, 8] {
            let cp = NttCoreConfig {
                pipelines: p,
                ..one
            }
            .core_cycles(4096)
            .unwrap()
                - fill;
            assert_eq!(c1, cp * u64::from(p), "m={m} P={p}");
        }
    }
}

use zkaccel_hwmodel::ntt_fpga::{
    end_to_end_ms, table_vii_points, table_vii_throughput, table_vii_u50, throughput_mib_s,
    EndToEndSeries, CPU_WATTS, TABLE_VII_CPU, TABLE_VII_U50, TABLE_V_MS, TABLE_V_SIZES,
};

/// Every cell of one Table V column within `tolerance` (relative), and the same cells of
/// Table VI, which the paper derives from them (MiB/s over N elements of the width).
fn check_table_v_column(series: EndToEndSeries, tolerance: f64) {
    let column = EndToEndSeries::ALL
        .iter()
        .position(|&s| s == series)
        .unwrap();
    for (i, &n) in TABLE_V_SIZES.iter().enumerate() {
        let paper_ms = TABLE_V_MS[column][i];
        let ms = end_to_end_ms(series, n, PAPER_CLOCK_MHZ).unwrap();
        let error = ms / paper_ms - 1.0;
        assert!(
            error.abs() <= tolerance,
            "{} at {n}: model {ms:.3} ms, paper {paper_ms} ({:+.2} %)",
            series.name(),
            100.0 * error
        );
        // Table VI follows from Table V by the paper's unit rule, to its printed digits.
        let paper_mib_s = (n * series.element_bytes()) as f64 / 1048576.0 / (paper_ms / 1e3);
        let mib_s = throughput_mib_s(series, n, PAPER_CLOCK_MHZ).unwrap();
        assert!(((paper_mib_s / mib_s) - (1.0 + error)).abs() < 1e-9);
    }
}

#[test]
fn table_v_pipezk_256() {
    check_table_v_column(EndToEndSeries::PipeZk256, 0.08);
}

#[test]
fn table_v_ours_256() {
    check_table_v_column(EndToEndSeries::Ours256, 0.05);
}

#[test]
fn table_v_pipezk_384() {
    check_table_v_column(EndToEndSeries::PipeZk384, 0.08);
}

#[test]
fn table_v_ours_384() {
    check_table_v_column(EndToEndSeries::Ours384, 0.05);
}

/// Table VI as printed (MiB/s), a few cells: the unit rule reproduces them from Table V.
#[test]
fn table_vi_is_table_v_in_mib_per_second() {
    let printed = [
        (EndToEndSeries::Ours256, 0, 31.375),
        (EndToEndSeries::PipeZk256, 7, 15.841),
        (EndToEndSeries::Ours384, 7, 20.449),
        (EndToEndSeries::PipeZk384, 0, 12.999),
    ];
    for (series, i, mib_s) in printed {
        let column = EndToEndSeries::ALL
            .iter()
            .position(|&s| s == series)
            .unwrap();
        let n = TABLE_V_SIZES[i];
        let from_v =
            (n * series.element_bytes()) as f64 / 1048576.0 / (TABLE_V_MS[column][i] / 1e3);
        assert!(
            (from_v - mib_s).abs() < 0.002,
            "{}: {from_v} vs {mib_s}",
            series.name()
        );
        let model = throughput_mib_s(series, n, PAPER_CLOCK_MHZ).unwrap();
        let tolerance = if matches!(series, EndToEndSeries::Ours256 | EndToEndSeries::Ours384) {
            0.05
        } else {
            0.08
        };
        assert!(
            (model / mib_s - 1.0).abs() <= tolerance * 1.06,
            "{}: {model}",
            series.name()
        );
    }
}

/// Table VII's U50 column: latency, throughput (10^6 B/s over the padded size) and energy
/// efficiency (at 6.49 W), each within 5 % — 6 % for 1,000 inputs, a 2,048-point transform
/// Table V has no row for (the model extrapolates).
#[test]
fn table_vii_u50_column() {
    assert_eq!(table_vii_points(1000), 2048);
    assert_eq!(table_vii_points(1_000_000), 2_097_152);
    for (input, ms, throughput, efficiency) in TABLE_VII_U50 {
        let (m_ms, m_throughput, m_efficiency) = table_vii_u50(input, PAPER_CLOCK_MHZ).unwrap();
        let tolerance = if input == 1000 { 0.06 } else { 0.05 };
        for (model, paper, what) in [
            (m_ms, ms, "ms"),
            (m_throughput, throughput, "MB/s"),
            (m_efficiency, efficiency, "MB/(W·s)"),
        ] {
            assert!(
                (model / paper - 1.0).abs() <= tolerance,
                "{input} inputs, {what}: model {model:.3}, paper {paper}"
            );
        }
    }
}

/// Table VII's CPU cells follow from their latencies by the paper's rules (10^6 B/s over the
/// padded size; efficiency at a constant 1.60 W and 22.47 W), to the printed digits, except
/// the one the paper misprints (1,000,000 inputs, 12 cores: 18.632 against 18.556); and the
/// speed-ups it prints (27.98× and 1.74× at 1,000,000) are its CPU latencies over the U50's.
#[test]
fn table_vii_cpu_columns() {
    for (input, columns) in TABLE_VII_CPU {
        for (cores, ((ms, throughput, efficiency), watts)) in
            columns.into_iter().zip(CPU_WATTS).enumerate()
        {
            let rule = table_vii_throughput(input, ms);
            let misprint = input == 1_000_000 && cores == 1;
            if misprint {
                assert!((rule - 18.556).abs() < 5e-4 && (throughput - rule).abs() > 0.05);
            } else {
                assert!(
                    (rule - throughput).abs() < 1.5e-3,
                    "{input}: {rule} vs {throughput}"
                );
            }
            assert!(
                (throughput / watts - efficiency).abs() < 1.5e-3,
                "{input}: {throughput} / {watts} W vs {efficiency}"
            );
        }
    }
    let u50 = TABLE_VII_U50[3].1;
    let [(one, _, _), (twelve, _, _)] = TABLE_VII_CPU[3].1;
    assert_eq!(format!("{:.2}", one / u50), "27.98");
    assert_eq!(format!("{:.3}", twelve / u50), "1.749");
}

#[test]
fn end_to_end_rejects_bad_sizes_and_clocks() {
    for n in [0, 1, 3, 4095, 1 << 41] {
        assert!(
            end_to_end_ms(EndToEndSeries::Ours256, n, 68.0).is_err(),
            "{n}"
        );
    }
    for clock in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        assert!(end_to_end_ms(EndToEndSeries::Ours256, 4096, clock).is_err());
    }
}

mod trace_replay {
    use zkaccel_hwmodel::ntt_fpga::trace::replay;
    use zkaccel_hwmodel::ntt_fpga::{
        CoreKind, NttModelError, PAPER_CLOCK_MHZ, TABLE_V_MS, TABLE_V_SIZES,
    };
    use zkaccel_kernel_trace::{
        CpuTime, Kernel, KernelRecord, NttLayout, NttOrder, TraceField, SCHEMA_VERSION,
    };

    fn record(id: u64, kernel: Kernel, cpu_ns: Option<u64>) -> KernelRecord {
        KernelRecord {
            version: SCHEMA_VERSION,
            id,
            deps: vec![],
            phase: "standalone".into(),
            kernel,
            cpu: cpu_ns.map(|wall_ns| CpuTime {
                wall_ns,
                threads: 2,
            }),
        }
    }

    fn ntt(field: TraceField, log_n: u32, batch: u64, coset: bool) -> Kernel {
        Kernel::Ntt {
            field,
            log_n,
            batch,
            inverse: false,
            coset,
            order: NttOrder::Nn,
            layout: NttLayout::PolyMajor,
            zero_log: 0,
        }
    }

    /// Table V's cell (ms) for `n` points in column `column` (PipeZK 256, ours 256, PipeZK
    /// 384, ours 384).
    fn paper(column: usize, n: u64) -> f64 {
        TABLE_V_MS[column][TABLE_V_SIZES.iter().position(|&s| s == n).unwrap()]
    }

    /// Each wide-field record costs its batch at Table V's latency (within the model's ±5 %),
    /// a coset transform one scaler pass more (n products at 19 cycles, 68 MHz); Goldilocks
    /// records and other kinds are listed, not dropped; the CPU times are summed.
    #[test]
    fn wide_ntt_records_cost_table_v_and_the_rest_is_listed() {
        let records = [
            record(0, ntt(TraceField::Bn254, 16, 3, false), Some(2_000_000)),
            record(1, ntt(TraceField::Bls12377Fq, 12, 1, true), None),
            record(
                2,
                ntt(TraceField::Goldilocks, 20, 8, false),
                Some(5_000_000),
            ),
            record(3, Kernel::Copy { bytes: 1 << 20 }, Some(1_000)),
            record(4, ntt(TraceField::Bls12381, 0, 5, true), Some(10)),
        ];
        for (core, columns) in [
            (CoreKind::Overlapped, [1, 3]),
            (CoreKind::PipeZkReplica, [0, 2]),
        ] {
            let report = replay(&records, core, PAPER_CLOCK_MHZ).unwrap();
            assert_eq!(report.rows.len(), 3);
            let want_bn = 3.0 * paper(columns[0], 65_536);
            let got_bn = report.rows[0].model_ms;
            assert!(
                (got_bn / want_bn - 1.0).abs() < 0.05,
                "{got_bn} vs {want_bn}"
            );
            let scaler_ms = 4096.0 * 19.0 / (PAPER_CLOCK_MHZ * 1e3);
            let want_fq = paper(columns[1], 4096) + scaler_ms;
            let got_fq = report.rows[1].model_ms;
            assert!(
                (got_fq / want_fq - 1.0).abs() < 0.05,
                "{got_fq} vs {want_fq}"
            );
            assert_eq!(report.rows[2].model_ms, 0.0, "a one-point transform");
            assert_eq!(report.rows[0].cpu_ms, Some(2.0));
            assert_eq!(report.rows[1].cpu_ms, None);
            assert!((report.cpu_ms - 2.00001).abs() < 1e-9);
            let total: f64 = report.rows.iter().map(|r| r.model_ms).sum();
            assert_eq!(report.model_ms, total);
            let skipped: Vec<(u64, &str)> = report
                .not_modelled
                .iter()
                .map(|s| (s.id, s.kind.as_str()))
                .collect();
            assert_eq!(skipped, [(2, "ntt"), (3, "copy")]);
            assert!(report.not_modelled[0].reason.contains("256- and 384-bit"));
            let text = report.to_string();
            assert!(
                text.contains("bls12-377-fq") && text.contains("not modelled: 2"),
                "{text}"
            );
        }
    }

    #[test]
    fn impossible_shapes_and_clocks_are_typed_errors() {
        let huge_batch = [record(0, ntt(TraceField::Bn254, 40, u64::MAX, false), None)];
        // 2^40 points at ~62 cycles each, times 2^64: finite in f64, so the batch is fine;
        // two of them overflow nothing either. Beyond 2^40 points is an error.
        assert!(replay(&huge_batch, CoreKind::Overlapped, 68.0).is_ok());
        let too_long = [record(0, ntt(TraceField::Bn254, 41, 1, false), None)];
        assert!(matches!(
            replay(&too_long, CoreKind::Overlapped, 68.0),
            Err(NttModelError::Points { .. })
        ));
        let beyond_u64 = [record(0, ntt(TraceField::Bls12381, 64, 1, false), None)];
        assert!(replay(&beyond_u64, CoreKind::Overlapped, 68.0).is_err());
        assert_eq!(
            replay(&[], CoreKind::FullyPipelined, 68.0),
            Err(NttModelError::Uncalibrated { core: "pipelined" })
        );
        for clock in [0.0, -68.0, f64::NAN, f64::INFINITY] {
            assert!(matches!(
                replay(&[], CoreKind::Overlapped, clock),
                Err(NttModelError::Invalid { ref name, .. }) if name == "clock_mhz"
            ));
        }
        // A tiny clock makes every time enormous; the sum must stay finite or fail typed.
        let many = vec![record(0, ntt(TraceField::Bn254, 40, u64::MAX, true), None); 2];
        match replay(&many, CoreKind::Overlapped, f64::MIN_POSITIVE) {
            Err(NttModelError::Invalid {
                ref name, value, ..
            }) if name == "batch" => assert_eq!(value, u64::MAX as f64),
            other => panic!("{other:?}"),
        }
    }
}

/// Sweeps move one knob from the base: the pipelines and core sweeps land on the cycles the
/// RTL measured for those configurations, times and area follow the clock and the units, and
/// bad knobs, values and lists are typed errors.
#[test]
fn sweeps_move_one_knob_and_land_on_the_rtl() {
    use zkaccel_hwmodel::ntt_fpga::sweep::MAX_NTT_SWEEP_POINTS;
    use zkaccel_hwmodel::ntt_fpga::NttModelError;
    let base = NttCoreConfig::table_iii(&TABLE_III[0]);
    let values = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let pipelines = base.sweep(4096, "pipelines", &values(&["1", "2"])).unwrap();
    let cycles: Vec<u64> = pipelines.points.iter().map(|p| p.cycles).collect();
    assert_eq!(cycles, [41_493, 22_037]);
    assert_eq!(pipelines.points[1].multipliers, 16);
    let speedup = 41_493.0 / 22_037.0;
    assert!((pipelines.points[1].speedup - speedup).abs() < 1e-12);
    assert!((pipelines.points[1].relative_area_time - 2.0 / speedup).abs() < 1e-12);
    let core = base
        .sweep(4096, "core", &values(&["ours", "pipezk", "pipelined"]))
        .unwrap();
    let cycles: Vec<u64> = core.points.iter().map(|p| p.cycles).collect();
    assert_eq!(cycles, [41_493, 80_208, 2_334]);
    assert_eq!(core.points[2].multipliers, 24);
    let m4 = base.sweep(4096, "log_points", &values(&["4"])).unwrap();
    assert_eq!(m4.points[0].cycles, 39_073);
    // Twice the clock: the same cycles in half the time.
    let clock = base.sweep(4096, "clock_mhz", &values(&["136"])).unwrap();
    assert_eq!(clock.points[0].cycles, 41_493);
    assert!((clock.points[0].speedup - 2.0).abs() < 1e-12);
    let csv = pipelines.to_csv().unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    assert!(csv.starts_with("pipelines,width,log_points,"), "{csv}");
    let unknown = |what| move |e: &NttModelError| matches!(e, NttModelError::Unknown { what: w, .. } if *w == what);
    type Kind<'a> = &'a dyn Fn(&NttModelError) -> bool;
    let cases: [(&str, Vec<String>, Kind); 5] = [
        ("colour", vec!["1".to_string()], &unknown("knob")),
        ("pipelines", vec!["two".to_string()], &|e| {
            matches!(e, NttModelError::NotANumber { .. })
        }),
        ("core", vec!["fast".to_string()], &unknown("core")),
        ("pipelines", vec![], &|e| {
            matches!(e, NttModelError::SweepPoints { got: 0, .. })
        }),
        (
            "pipelines",
            vec!["1".to_string(); MAX_NTT_SWEEP_POINTS + 1],
            &|e| {
                matches!(
                    e,
                    NttModelError::SweepPoints {
                        max: MAX_NTT_SWEEP_POINTS,
                        ..
                    }
                )
            },
        ),
    ];
    for (knob, vals, expected) in cases {
        let err = base.sweep(4096, knob, &vals).unwrap_err();
        assert!(expected(&err), "{knob}={vals:?}: {err:?}");
    }
    for (knob, value) in [("pipelines", "0"), ("log_points", "17"), ("width", "100")] {
        assert!(
            base.sweep(4096, knob, &values(&[value])).is_err(),
            "{knob}={value}"
        );
    }
    // A sub-task larger than the task.
    assert!(matches!(
        base.sweep(4096, "log_points", &values(&["13"])),
        Err(NttModelError::Points { .. })
    ));
}

/// The smallest worst-row relative error over Table III of
/// `F + (S/P + 1)·2^(m−1)·II + (S/P)·c` for an interval `II`, minimised over a fill `F ≥ 0`
/// and a per-sub-task cost `c ∈ {0, 0.1, …, 40}`, `F` by bisection on the error: the best a
/// core that issues a butterfly every `II` cycles in each round unit can do.
fn table_iii_minimax(interval: f64) -> f64 {
    let rows: Vec<(f64, f64, f64)> = TABLE_III
        .iter()
        .map(|row| {
            let per_lane = (TABLE_III_POINTS >> row.log_points) as f64 / f64::from(row.pipelines);
            let bound = (per_lane + 1.0) * f64::from(1u32 << (row.log_points - 1)) * interval;
            (bound, per_lane, row.cycles as f64)
        })
        .collect();
    let mut best = f64::INFINITY;
    for tenths in 0..=400 {
        let cost = f64::from(tenths) / 10.0;
        // Some F ≥ 0 keeps every row within ±e.
        let fits = |e: f64| {
            let (mut low, mut high) = (0.0f64, f64::INFINITY);
            for &(bound, per_lane, paper) in &rows {
                let base = bound + per_lane * cost;
                low = low.max((1.0 - e) * paper - base);
                high = high.min((1.0 + e) * paper - base);
            }
            low <= high
        };
        let (mut lo, mut hi) = (0.0, 0.5);
        if !fits(hi) {
            continue;
        }
        for _ in 0..50 {
            let mid = 0.5 * (lo + hi);
            if fits(mid) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
        best = best.min(hi);
    }
    best
}

/// `hw/ntt/README.md`'s claim that Table III's ±2 % is out of reach for a whole butterfly
/// interval, whatever fill and per-sub-task cost are added: 5.08 / 2.06 / 2.60 / 7.5 % at
/// `II` = 16 / 17 / 18 / 19, and within 2 % only for average intervals near 17.3.
#[test]
fn table_iii_within_2_percent_needs_a_fractional_interval() {
    let expected = [(16.0, 5.08), (17.0, 2.06), (18.0, 2.60), (19.0, 7.50)];
    for (interval, percent) in expected {
        let error = 100.0 * table_iii_minimax(interval);
        assert!(
            (error - percent).abs() < 0.01,
            "II {interval}: {error:.3} %"
        );
        assert!(error > 2.0);
    }
    for interval in [17.04, 17.3, 17.73] {
        assert!(table_iii_minimax(interval) < 0.02, "II {interval}");
    }
    assert!(table_iii_minimax(17.0) > table_iii_minimax(17.3));
}
