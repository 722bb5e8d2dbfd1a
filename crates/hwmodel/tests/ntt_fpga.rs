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
/// configuration: (m, P, L, overlap, sub-tasks, cycles).
const RTL_MEASURED: [(u32, u32, u32, bool, u64, u64); 12] = [
    (8, 1, 5, true, 16, 41_493),
    (8, 2, 5, true, 16, 22_037),
    (4, 1, 5, true, 256, 39_073),
    (4, 2, 5, true, 256, 19_617),
    (4, 4, 5, true, 256, 9_889),
    (8, 1, 5, false, 16, 80_208),
    (4, 1, 5, false, 256, 80_128),
    (6, 2, 2, true, 64, 10_612),
    (6, 2, 2, false, 64, 22_144),
    (3, 1, 0, true, 512, 8_223),
    (3, 3, 0, false, 50, 799),
    (5, 1, 5, true, 7, 2_454),
];

#[test]
fn the_model_equals_the_rtl_measurements() {
    for (m, p, l, overlap, subtasks, cycles) in RTL_MEASURED {
        let config = NttCoreConfig {
            width_bits: 256,
            log_points: m,
            pipelines: p,
            mul_latency: l,
            kind: if overlap {
                CoreKind::Overlapped
            } else {
                CoreKind::PipeZkReplica
            },
            clock_mhz: PAPER_CLOCK_MHZ,
        };
        assert_eq!(
            config.core_cycles(subtasks << m).unwrap(),
            cycles,
            "m={m} P={p} L={l} overlap={overlap} sub-tasks={subtasks}"
        );
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
