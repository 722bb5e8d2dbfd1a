//! The sweep files: what the CLI, Python and the Ray sweeps write, and what they refuse.

use zkaccel_hwmodel::acclmt::ControllerConfig;
use zkaccel_hwmodel::ntt_fpga::{CoreKind, NttCoreConfig};
use zkaccel_hwmodel::unizk::{workloads, Mode, UnizkConfig};
use zkaccel_plot::{load_font, write_sweep, PlotError};

fn values(list: &[&str]) -> Vec<String> {
    list.iter().map(|v| (*v).to_owned()).collect()
}

fn leftovers(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn a_unizk_sweep_writes_its_csv_svg_and_png_and_nothing_else() {
    let font = load_font(None).expect("a system font (fonts-dejavu)");
    let records = workloads::kernels("fibonacci").unwrap();
    let sweep = UnizkConfig::preset(Mode::Paper)
        .sweep(&records, "spm_mb", &values(&["2", "8", "32"]))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("nested/out");
    let files = write_sweep(&sweep, &out, &font).unwrap();
    assert_eq!(
        leftovers(&out),
        ["sweep-spm_mb.csv", "sweep-spm_mb.png", "sweep-spm_mb.svg"]
    );
    let csv = std::fs::read_to_string(&files.csv).unwrap();
    assert_eq!(csv, sweep.to_csv().unwrap());
    let mut lines = csv.lines();
    assert!(lines.next().unwrap().starts_with("spm_mb,ntt_ms,"));
    assert_eq!(
        lines.map(|l| l.split(',').count()).collect::<Vec<_>>(),
        [11; 3]
    );
    let svg = std::fs::read_to_string(&files.svg).unwrap();
    assert!(svg.starts_with("<svg") && svg.contains("spm_mb"));
    assert_eq!(
        &std::fs::read(&files.png).unwrap()[..8],
        b"\x89PNG\r\n\x1a\n"
    );
}

#[test]
fn an_ntt_sweep_writes_under_its_own_stem() {
    let font = load_font(None).unwrap();
    let base = NttCoreConfig {
        width_bits: 256,
        log_points: 8,
        pipelines: 1,
        mul_latency: 5,
        kind: CoreKind::Overlapped,
        clock_mhz: 68.0,
    };
    let sweep = base
        .sweep(4096, "pipelines", &values(&["1", "2", "4"]))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files = write_sweep(&sweep, dir.path(), &font).unwrap();
    assert_eq!(files.csv, dir.path().join("ntt-sweep-pipelines.csv"));
    assert_eq!(
        std::fs::read_to_string(&files.csv).unwrap(),
        sweep.to_csv().unwrap()
    );
    assert_eq!(leftovers(dir.path()).len(), 3);
}

#[test]
fn an_acclmt_sweep_writes_under_its_own_stem() {
    let font = load_font(None).unwrap();
    let sweep = ControllerConfig::default()
        .sweep(1 << 13, "merger", &values(&["on", "off"]))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let files = write_sweep(&sweep, dir.path(), &font).unwrap();
    assert_eq!(files.csv, dir.path().join("acclmt-sweep-merger.csv"));
    let csv = std::fs::read_to_string(&files.csv).unwrap();
    assert_eq!(csv, sweep.to_csv().unwrap());
    assert!(csv.starts_with("merger,batch,"));
    assert_eq!(csv.lines().count(), 3);
    assert_eq!(leftovers(dir.path()).len(), 3);
    // The merger's point is the base (speedup 1); without it the tree takes longer.
    assert!((sweep.points[0].speedup - 1.0).abs() < 1e-12);
    assert!(sweep.points[1].speedup < 1.0);
}

#[test]
fn names_that_would_escape_the_directory_or_the_csv_are_refused_before_writing() {
    let font = load_font(None).unwrap();
    let records = workloads::kernels("fibonacci").unwrap();
    let good = UnizkConfig::preset(Mode::Paper)
        .sweep(&records, "vsas", &values(&["16", "32"]))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let hostile_knobs = ["../escape", "a/b", "", ".hidden", "x y", &"k".repeat(65)];
    for knob in hostile_knobs {
        let mut sweep = good.clone();
        sweep.knob = knob.to_owned();
        let err = write_sweep(&sweep, dir.path(), &font).unwrap_err();
        assert!(matches!(err, PlotError::Sweep(_)), "{knob:?}: {err}");
    }
    for value in ["1,2", "say \"x\"", "1\n2", ""] {
        let mut sweep = good.clone();
        sweep.points[1].value = value.to_owned();
        let err = write_sweep(&sweep, dir.path(), &font).unwrap_err();
        assert!(matches!(err, PlotError::Sweep(_)), "{value:?}: {err}");
    }
    let mut many = good.clone();
    many.points = (0..65)
        .map(|i| {
            let mut p = good.points[0].clone();
            p.value = i.to_string();
            p
        })
        .collect();
    assert!(matches!(
        write_sweep(&many, dir.path(), &font),
        Err(PlotError::Sweep(_))
    ));
    let mut long = good.clone();
    long.points[0].value = "9".repeat(65);
    assert!(matches!(
        write_sweep(&long, dir.path(), &font),
        Err(PlotError::Sweep(_))
    ));
    let mut empty = good.clone();
    empty.points.clear();
    assert!(matches!(
        write_sweep(&empty, dir.path(), &font),
        Err(PlotError::Sweep(_))
    ));
    assert!(
        leftovers(dir.path()).is_empty(),
        "{:?}",
        leftovers(dir.path())
    );
}

#[test]
fn a_missing_font_and_an_unwritable_directory_are_typed_errors() {
    let err = load_font(Some(std::path::Path::new("/nonexistent/font.ttf"))).unwrap_err();
    assert!(matches!(err, PlotError::NoFont { .. }));
    assert!(err.to_string().contains("/nonexistent/font.ttf"));

    let font = load_font(None).unwrap();
    let records = workloads::kernels("fibonacci").unwrap();
    let sweep = UnizkConfig::preset(Mode::Paper)
        .sweep(&records, "vsas", &values(&["16"]))
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "x").unwrap();
    let err = write_sweep(&sweep, &file.join("below"), &font).unwrap_err();
    assert!(matches!(err, PlotError::Io { .. }), "{err}");
}
