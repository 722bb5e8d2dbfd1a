#![doc = include_str!("../README.md")]

use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::FontStyle;
use thiserror::Error;
pub use zkaccel_hwmodel::sweep::SweepChart;
use zkaccel_hwmodel::sweep::MAX_SWEEP_POINTS;
use zkaccel_hwmodel::{Sweep, SweepModel};

/// Why a sweep's files could not be written.
#[derive(Debug, Error)]
pub enum PlotError {
    /// No TrueType font could be read for the charts' text.
    #[error("no TrueType font for the plots (tried {tried}); pass --font FILE.ttf")]
    NoFont {
        /// The paths tried, comma-separated.
        tried: String,
    },
    /// A sweep that cannot name files or CSV rows (a knob that is not a plain name, a value
    /// with a comma or a line break, no points, series of the wrong length).
    #[error("sweep: {0}")]
    Sweep(String),
    /// Drawing failed.
    #[error("drawing {stem}: {message}")]
    Draw {
        /// The file stem being drawn.
        stem: String,
        /// plotters' message.
        message: String,
    },
    /// Creating the directory or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

pub mod files;

pub use files::{write_atomically, FileSet};

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> PlotError + '_ {
    move |source| PlotError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Where a sans-serif TrueType font usually is on Debian-like systems.
pub const FONT_CANDIDATES: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Regular.ttf",
];

/// Proof that a font is registered with plotters as `sans-serif` (the charts' text).
#[derive(Debug, Clone, Copy)]
pub struct PlotFont(());

/// Reads `path`, or the first of [`FONT_CANDIDATES`] found, and registers it.
///
/// # Errors
/// [`PlotError::NoFont`] when no font can be read or registered.
pub fn load_font(path: Option<&Path>) -> Result<PlotFont, PlotError> {
    let tried: Vec<PathBuf> = match path {
        Some(p) => vec![p.to_path_buf()],
        None => FONT_CANDIDATES.iter().map(PathBuf::from).collect(),
    };
    for candidate in &tried {
        if let Ok(bytes) = std::fs::read(candidate) {
            // plotters keeps the font for the process's lifetime.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return Ok(PlotFont(()));
            }
        }
    }
    Err(PlotError::NoFont {
        tried: tried
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
    })
}

/// A chart with points and series of its length.
fn check_chart(chart: &SweepChart) -> Result<(), PlotError> {
    if chart.labels.is_empty() {
        return Err(PlotError::Sweep("no points".into()));
    }
    for (name, values) in &chart.series {
        if values.len() != chart.labels.len() {
            return Err(PlotError::Sweep(format!(
                "series {name}: {} values for {} points",
                values.len(),
                chart.labels.len()
            )));
        }
    }
    Ok(())
}

/// Draws the chart's series against the knob's values.
fn draw<DB: DrawingBackend>(
    chart_data: &SweepChart,
    root: DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let n = chart_data.labels.len();
    let top = chart_data
        .series
        .iter()
        .flat_map(|(_, values)| values.iter().copied())
        .filter(|v| v.is_finite())
        .fold(1.0f64, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption(chart_data.title.as_str(), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)
        .map_err(|e| err(&e))?;
    let labels = &chart_data.labels;
    chart
        .configure_mesh()
        .x_labels(n)
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                labels[i as usize].clone()
            } else {
                String::new()
            }
        })
        .x_desc(chart_data.x_desc.as_str())
        .y_desc(chart_data.y_desc.as_str())
        .draw()
        .map_err(|e| err(&e))?;
    let colours = [RED, BLUE, GREEN, MAGENTA, BLACK];
    for ((name, values), colour) in chart_data.series.iter().zip(colours.into_iter().cycle()) {
        let points: Vec<(f64, f64)> = values
            .iter()
            .enumerate()
            .map(|(i, &v)| (i as f64, v))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(name.as_str())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], colour));
        chart
            .draw_series(
                points
                    .into_iter()
                    .map(|p| Circle::new(p, 3, colour.filled())),
            )
            .map_err(|e| err(&e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))
}

/// Writes `<stem>.svg` and `<stem>.png` into `dir`, both or neither; returns their paths.
///
/// # Errors
/// [`PlotError::Sweep`] for a chart without points or with a series of the wrong length;
/// [`PlotError::Draw`] or [`PlotError::Io`] when drawing or writing fails.
pub fn write_svg_and_png(
    chart: &SweepChart,
    font: &PlotFont,
    dir: &Path,
    stem: &str,
) -> Result<(PathBuf, PathBuf), PlotError> {
    let mut set = FileSet::new();
    let paths = stage_svg_and_png(&mut set, chart, font, dir, stem)?;
    set.commit().map_err(io_error(dir))?;
    Ok(paths)
}

fn stage_svg_and_png(
    set: &mut FileSet,
    chart: &SweepChart,
    _font: &PlotFont,
    dir: &Path,
    stem: &str,
) -> Result<(PathBuf, PathBuf), PlotError> {
    check_chart(chart)?;
    let draw_error = |message: String| PlotError::Draw {
        stem: stem.to_owned(),
        message,
    };
    let size = (900, 540);
    let mut svg = String::new();
    draw(
        chart,
        SVGBackend::with_string(&mut svg, size).into_drawing_area(),
    )
    .map_err(draw_error)?;
    let svg_path = dir.join(format!("{stem}.svg"));
    set.add(&svg_path, svg).map_err(io_error(&svg_path))?;
    // The bitmap backend picks the encoder from the extension: it draws to a staged .png.
    let png_path = dir.join(format!("{stem}.png"));
    let mut failed = None;
    set.add_by_path(&png_path, "png", |hidden| {
        draw(chart, BitMapBackend::new(hidden, size).into_drawing_area()).map_err(|m| {
            failed = Some(m);
            std::io::Error::other("drawing failed")
        })
    })
    .map_err(|e| match failed.take() {
        Some(m) => draw_error(m),
        None => io_error(&png_path)(e),
    })?;
    Ok((svg_path, png_path))
}

/// The files one sweep was written to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SweepFiles {
    /// The CSV.
    pub csv: PathBuf,
    /// The chart as SVG.
    pub svg: PathBuf,
    /// The chart as PNG.
    pub png: PathBuf,
}

/// A knob names files and a value sits in a CSV cell: refuse what would escape either.
fn check_names<'a>(
    knob: &str,
    values: impl ExactSizeIterator<Item = &'a str>,
) -> Result<(), PlotError> {
    // A chart of more categories than a sweep takes would draw for as long as a forged
    // sweep asks.
    if values.len() > MAX_SWEEP_POINTS {
        return Err(PlotError::Sweep(format!(
            "{} points: a sweep has at most {MAX_SWEEP_POINTS}",
            values.len()
        )));
    }
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if knob.is_empty() || knob.len() > 64 || !knob.chars().all(plain) {
        return Err(PlotError::Sweep(format!(
            "knob {knob:?}: a plain name (letters, digits, _ and -) names the files"
        )));
    }
    for value in values {
        if value.is_empty() || value.len() > 64 || value.contains([',', '"', '\n', '\r']) {
            return Err(PlotError::Sweep(format!(
                "{knob}={value:.80?}: a value is one CSV cell of 1 to 64 bytes (no comma, quote \
                 or line break)"
            )));
        }
    }
    Ok(())
}

fn write_sweep_files(
    dir: &Path,
    stem: &str,
    csv_text: &str,
    chart: &SweepChart,
    font: &PlotFont,
) -> Result<SweepFiles, PlotError> {
    check_chart(chart)?;
    std::fs::create_dir_all(dir).map_err(io_error(dir))?;
    // The three files appear together or not at all.
    let mut set = FileSet::new();
    let csv = dir.join(format!("{stem}.csv"));
    set.add(&csv, csv_text).map_err(io_error(&csv))?;
    let (svg, png) = stage_svg_and_png(&mut set, chart, font, dir, stem)?;
    set.commit().map_err(io_error(dir))?;
    Ok(SweepFiles { csv, svg, png })
}

/// Writes a sweep of any model into `dir` (created if missing): `<stem>-<knob>.csv`, `.svg`
/// and `.png` (`sweep-` for UniZK, `ntt-sweep-` for the NTT core, `acclmt-sweep-` for
/// AcclMT; the chart the model describes), as `zkaccel model … sweep` does. The three files
/// appear together or not at all.
///
/// # Errors
/// [`PlotError::Sweep`] for a knob that is not a plain name, a value that is not one CSV
/// cell, no points or a row the CSV writer refuses; [`PlotError::Draw`] or [`PlotError::Io`].
pub fn write_sweep<M: SweepModel>(
    sweep: &Sweep<M>,
    dir: &Path,
    font: &PlotFont,
) -> Result<SweepFiles, PlotError> {
    check_names(&sweep.knob, sweep.points.iter().map(|p| p.value.as_str()))?;
    let csv = sweep
        .to_csv()
        .map_err(|e| PlotError::Sweep(e.to_string()))?;
    write_sweep_files(dir, &sweep.file_stem(), &csv, &sweep.chart(), font)
}
