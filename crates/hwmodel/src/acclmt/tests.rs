use super::*;

fn shape(partial_rounds: u32, alpha: u32) -> PoseidonShape {
    PoseidonShape {
        width: 3,
        alpha,
        full_rounds: 8,
        partial_rounds,
    }
}

/// The cycles `hw/acclmt/run.sh` measured on the RTL (Verilator, default parameters): the
/// model must equal them exactly. (instance, design, hashes, cycles, cycles per hash)
const RTL_RUNS: [(u32, u32, bool, u64, u64, f64); 9] = [
    (55, 5, false, 1000, 35678, 34.828),
    (57, 5, false, 1000, 36734, 35.859),
    (56, 5, false, 320, 11372, 35.344),
    (56, 5, true, 320, 10655, 33.000),
    (57, 5, false, 320, 11537, 35.859),
    (57, 5, true, 320, 10820, 33.516),
    (120, 5, false, 320, 21932, 68.344),
    (120, 5, true, 320, 21215, 66.000),
    (46, 7, false, 256, 14982, 58.281),
];

#[test]
fn the_simulation_equals_the_rtls_cycles() {
    for (rp, alpha, baseline, hashes, cycles, per_hash) in RTL_RUNS {
        let config = EngineConfig {
            baseline,
            ..EngineConfig::default()
        };
        let run = config.simulate(&shape(rp, alpha), hashes).unwrap();
        assert_eq!(
            run.cycles, cycles,
            "R_P {rp}, α {alpha}, baseline {baseline}"
        );
        assert!(
            (run.cycles_per_hash - per_hash).abs() < 5e-4,
            "R_P {rp}, α {alpha}, baseline {baseline}: {} cycles/hash, RTL {per_hash}",
            run.cycles_per_hash
        );
    }
}

/// Off the defaults (run.sh's `offgrid` engine: `MulLatency 0`, `Batch 16`, no gaps), where
/// rounds wait for their data: the RTL's cycles again.
#[test]
fn the_simulation_equals_the_rtl_where_rounds_wait() {
    let config = EngineConfig {
        mul_latency: 0,
        batch: 16,
        slot_gap: 0,
        handover_gap: 0,
        ..EngineConfig::default()
    };
    for (rp, alpha, hashes, cycles) in [(56, 5, 320, 12235), (46, 7, 256, 14882)] {
        let run = config.simulate(&shape(rp, alpha), hashes).unwrap();
        assert_eq!(run.cycles, cycles, "R_P {rp}, α {alpha}");
    }
}

#[test]
fn the_steady_state_closed_form_equals_the_simulation() {
    for (rp, alpha, baseline, _, _, _) in RTL_RUNS {
        let config = EngineConfig {
            baseline,
            ..EngineConfig::default()
        };
        let s = shape(rp, alpha);
        let per_pair = config.steady_cycles_per_pair(&s).unwrap() as f64;
        let run = config.simulate(&s, 6 * 64).unwrap();
        assert!(
            (run.cycles_per_hash - per_pair / 64.0).abs() < 1e-9,
            "R_P {rp}"
        );
    }
}

#[test]
fn table_i_arity_2_is_within_3_percent_and_the_rest_within_the_calibration() {
    let rows = table_i(&EngineConfig::default()).unwrap();
    assert_eq!(rows.len(), 4);
    for row in &rows {
        assert!(
            row.error_percent.abs() <= 3.0,
            "arity {}: {:+.2} %",
            row.row.arity,
            row.error_percent
        );
        assert_eq!(row.calibrated, row.row.arity != 2);
    }
    // 35.344 cycles per hash at 500 MHz: 14.15 M hashes/s against the paper's 14.11 M.
    assert!((rows[0].cycles_per_hash - 35.34375).abs() < 1e-9);
}

#[test]
fn the_time_losses_reproduce_the_papers_claims() {
    let (filecoin, long) = paper_time_losses(&EngineConfig::default()).unwrap();
    assert!((filecoin - PAPER_TIME_LOSS.0).abs() <= 0.2, "{filecoin}");
    assert!((long - PAPER_TIME_LOSS.1).abs() <= 0.2, "{long}");
    // Without the overheads the schedule loses exactly (R_F/2)/(R_F + R_P).
    let ideal = EngineConfig {
        handover_gap: 0,
        ..EngineConfig::default()
    };
    let loss = time_loss_percent(&ideal, &shape(56, 5)).unwrap();
    assert!((loss - 100.0 * 4.0 / 64.0).abs() < 1e-9, "{loss}");
}

#[test]
fn bad_configurations_and_shapes_are_refused() {
    let config = EngineConfig::default();
    for bad in [
        PoseidonShape {
            width: 2,
            ..shape(56, 5)
        },
        PoseidonShape {
            width: 13,
            ..shape(56, 5)
        },
        shape(56, 4),
        PoseidonShape {
            full_rounds: 7,
            ..shape(56, 5)
        },
        shape(3, 5),
        shape(121, 5),
    ] {
        assert!(matches!(
            config.simulate(&bad, 64),
            Err(AcclmtModelError::InvalidShape(_))
        ));
    }
    for bad in [
        EngineConfig {
            batch: 24,
            ..config
        },
        EngineConfig { batch: 1, ..config },
        EngineConfig {
            slot_gap: 256,
            ..config
        },
        EngineConfig {
            clock_mhz: f64::NAN,
            ..config
        },
        EngineConfig {
            mul_latency: 17,
            ..config
        },
    ] {
        assert!(matches!(
            bad.simulate(&shape(56, 5), 64),
            Err(AcclmtModelError::InvalidConfig(_))
        ));
    }
    assert!(config.simulate(&shape(56, 5), 0).is_err());
    assert!(config
        .simulate(
            &PoseidonShape {
                width: 5,
                ..shape(56, 5)
            },
            64
        )
        .is_err());
    assert!(PoseidonShape::filecoin(3).is_err());
}

#[test]
fn partial_batches_and_single_hashes_finish() {
    let config = EngineConfig::default();
    for hashes in [1, 2, 31, 33, 63, 65, 100] {
        let run = config.simulate(&shape(56, 5), hashes).unwrap();
        // At least one full pass of the rounds, and no more than the batches' pairs in series.
        assert!(run.cycles > 64 * 28, "{hashes}: {}", run.cycles);
        assert!(
            run.cycles < (hashes.div_ceil(64) + 2) * 2400,
            "{hashes}: {}",
            run.cycles
        );
    }
}
