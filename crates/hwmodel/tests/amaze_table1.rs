//! One test per row of AMAZE's Table 1, and sanity of the design-space knobs.

use zkaccel_hwmodel::amaze::{schedule_levels, AmazeConfig, Arch, Design, ModelError, Reduction};

fn report(design: Design) -> zkaccel_hwmodel::amaze::AmazeReport {
    AmazeConfig::preset(design)
        .report()
        .expect("presets are valid")
}

/// The pipelined designs' cycles equal the paper's exactly; the others within 2 %.
fn check_row(design: Design) {
    let r = report(design);
    let paper = design.paper();
    assert_eq!(r.batch, paper.batch, "{}: batch", design.name());
    let tolerance = match design {
        Design::Amz1 | Design::Amz1a | Design::Amz2 | Design::Amz2a => 0.0,
        _ => 0.02,
    };
    let error = (r.cycles as f64 - paper.cycles as f64).abs() / paper.cycles as f64;
    assert!(
        error <= tolerance,
        "{}: model {} cycles vs paper {} ({:.2} %)",
        design.name(),
        r.cycles,
        paper.cycles,
        100.0 * error
    );
    // At the paper's clock, the amortised throughput follows from the cycles.
    let t_err =
        (r.amortised_throughput - paper.amortised_throughput).abs() / paper.amortised_throughput;
    assert!(
        t_err <= tolerance + 0.001,
        "{}: throughput {} vs {}",
        design.name(),
        r.amortised_throughput,
        paper.amortised_throughput
    );
    let l_err =
        (r.amortised_latency_us - paper.amortised_latency_us).abs() / paper.amortised_latency_us;
    assert!(
        l_err <= tolerance + 0.001,
        "{}: latency {} vs {}",
        design.name(),
        r.amortised_latency_us,
        paper.amortised_latency_us
    );
}

#[test]
fn table1_amz1() {
    check_row(Design::Amz1);
    assert_eq!(report(Design::Amz1).cycles, 4823);
}
#[test]
fn table1_amz1a() {
    check_row(Design::Amz1a);
    assert_eq!(report(Design::Amz1a).cycles, 1547);
}
#[test]
fn table1_amz1b() {
    check_row(Design::Amz1b);
}
#[test]
fn table1_amz2() {
    check_row(Design::Amz2);
    assert_eq!(report(Design::Amz2).cycles, 3640);
}
#[test]
fn table1_amz2a() {
    check_row(Design::Amz2a);
    assert_eq!(report(Design::Amz2a).cycles, 1183);
}
#[test]
fn table1_amz2b() {
    check_row(Design::Amz2b);
}
#[test]
fn table1_amz3() {
    check_row(Design::Amz3);
}

#[test]
fn design_space_knobs_are_sane() {
    // x^7 needs at least three levels (its critical path), so a third multiplier adds nothing.
    assert_eq!(schedule_levels(7, 1), 4);
    assert_eq!(schedule_levels(7, 2), 3);
    assert_eq!(schedule_levels(7, 3), 3);
    // x^5 is a chain: more multipliers never help.
    assert_eq!(schedule_levels(5, 1), 3);
    assert_eq!(schedule_levels(5, 4), 3);
    let mut c = AmazeConfig::preset(Design::Amz1);
    c.exponent = 5;
    c.rounds = 110; // the gnark parameters
    let r = c.report().unwrap();
    assert_eq!(r.cycles_per_round, 3 * 13 + 1);
    assert_eq!(r.cycles, 110 * 40);
    // A smaller batch keeps the latency and lowers the throughput proportionally.
    let full = AmazeConfig::preset(Design::Amz1).report().unwrap();
    let mut half = AmazeConfig::preset(Design::Amz1);
    half.batch = Some(6);
    let h = half.report().unwrap();
    assert_eq!(h.cycles, full.cycles);
    assert!(
        (h.amortised_throughput * 13.0 / 6.0 - full.amortised_throughput).abs()
            < 1e-6 * full.amortised_throughput
    );
    // More multiplier stages: longer pipeline, larger batch, same throughput per cycle order.
    let mut deep = AmazeConfig::preset(Design::Amz1);
    deep.int_mul_stages = 4;
    let d = deep.report().unwrap();
    assert_eq!(d.multiplier_latency, 15);
    assert_eq!(d.batch, 16);
    // Utilisation is a fraction.
    for design in Design::ALL {
        let u = report(design).multiplier_utilisation;
        assert!(u > 0.0 && u <= 1.0, "{}: {u}", design.name());
    }
}

#[test]
fn impossible_configurations_are_typed_errors() {
    let mut c = AmazeConfig::preset(Design::Amz3);
    c.arch = Arch::Pipelined;
    assert_eq!(c.report(), Err(ModelError::PeasantPipelined));
    let mut c = AmazeConfig::preset(Design::Amz1);
    c.batch = Some(14);
    assert!(matches!(
        c.report(),
        Err(ModelError::OutOfRange { ref name, .. }) if name.starts_with("batch")
    ));
    c.batch = Some(0);
    assert!(c.report().is_err());
    let mut c = AmazeConfig::preset(Design::Amz1);
    c.multipliers = 0;
    assert!(c.report().is_err());
    assert!(AmazeConfig::from_json("{\"name\": 1}").is_err());
    assert!("AMZ-9".parse::<Design>().is_err());
    assert_eq!("amz-2b".parse::<Design>().unwrap(), Design::Amz2b);
    assert_eq!(
        AmazeConfig::preset(Design::Amz2).reduction,
        Reduction::BarrettChunked
    );
}

#[test]
fn configurations_round_trip_through_json() {
    for design in Design::ALL {
        let c = AmazeConfig::preset(design);
        let text = serde_json::to_string(&c).unwrap();
        assert_eq!(AmazeConfig::from_json(&text).unwrap(), c);
    }
}
