//! Plots of the models' sweeps (plotters: SVG and PNG, text through ab_glyph).

use std::path::{Path, PathBuf};

use plotters::prelude::*;
use plotters::style::FontStyle;
use zkaccel_hwmodel::unizk::sweep::SWEEP_COLUMNS;
use zkaccel_hwmodel::unizk::Sweep;

use crate::hw_cmd::write_atomically;

/// Where a sans-serif TrueType font usually is on Debian-like systems.
const FONT_CANDIDATES: [&str; 3] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/lato/Lato-Regular.ttf",
];

/// Font bytes for the plots, registered with plotters as `sans-serif`.
pub struct PlotFont;

/// Reads `path` or the first system font found, and registers it.
///
/// # Errors
/// When no font can be read: the message names the paths tried and `--font`.
pub fn load_font(path: Option<&Path>) -> Result<PlotFont, Box<dyn std::error::Error>> {
    let tried: Vec<PathBuf> = match path {
        Some(p) => vec![p.to_path_buf()],
        None => FONT_CANDIDATES.iter().map(PathBuf::from).collect(),
    };
    for candidate in &tried {
        if let Ok(bytes) = std::fs::read(candidate) {
            // plotters keeps the font for the process's lifetime.
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return Ok(PlotFont);
            }
        }
    }
    Err(format!(
        "no TrueType font for the plots (tried {}); pass --font FILE.ttf",
        tried
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    )
    .into())
}

/// A line chart of a sweep: one or more series over the knob's values (categorical x).
pub struct SweepChart {
    /// The caption.
    pub title: String,
    /// The x axis (the knob).
    pub x_desc: String,
    /// The y axis.
    pub y_desc: String,
    /// The knob's values, in order.
    pub labels: Vec<String>,
    /// Named series, one value per label.
    pub series: Vec<(String, Vec<f64>)>,
}

impl SweepChart {
    /// The UniZK sweep's speedup per class (the layout class aside) over the base.
    pub fn unizk(sweep: &Sweep) -> Self {
        Self {
            title: format!(
                "UniZK model: speedup over the base configuration vs {}",
                sweep.knob
            ),
            x_desc: sweep.knob.clone(),
            y_desc: "speedup (×)".to_owned(),
            labels: sweep.points.iter().map(|p| p.value.clone()).collect(),
            series: SWEEP_COLUMNS
                .iter()
                .enumerate()
                .filter(|(_, name)| **name != "layout")
                .map(|(column, name)| {
                    let values = sweep.points.iter().map(|p| p.speedup[column]).collect();
                    ((*name).to_owned(), values)
                })
                .collect(),
        }
    }
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

/// Writes `<stem>.svg` and `<stem>.png` into `dir`, each atomically.
///
/// # Errors
/// When drawing or writing fails.
pub fn sweep_svg_and_png(
    sweep: &SweepChart,
    _font: &PlotFont,
    dir: &Path,
    stem: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let size = (900, 540);
    let mut svg = String::new();
    draw(
        sweep,
        SVGBackend::with_string(&mut svg, size).into_drawing_area(),
    )?;
    write_atomically(&dir.join(format!("{stem}.svg")), svg)?;
    // The bitmap backend picks the encoder from the extension: draw to a hidden .png in the
    // same directory, then rename over the target.
    let hidden = dir.join(format!(".{stem}.{}.png", std::process::id()));
    let drawn = draw(sweep, BitMapBackend::new(&hidden, size).into_drawing_area());
    if let Err(e) = drawn {
        let _ = std::fs::remove_file(&hidden);
        return Err(e.into());
    }
    std::fs::rename(&hidden, dir.join(format!("{stem}.png")))?;
    Ok(())
}
