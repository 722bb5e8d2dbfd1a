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

/// Draws the sweep's speedup per class against the knob's values.
fn draw<DB: DrawingBackend>(
    sweep: &Sweep,
    root: DrawingArea<DB, plotters::coord::Shift>,
) -> Result<(), String>
where
    DB::ErrorType: 'static,
{
    let err = |e: &dyn std::fmt::Display| e.to_string();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let n = sweep.points.len();
    let top = sweep
        .points
        .iter()
        .flat_map(|p| p.speedup)
        .fold(1.0f64, f64::max)
        * 1.1;
    let mut chart = ChartBuilder::on(&root)
        .caption(
            format!(
                "UniZK model: speedup over the base configuration vs {}",
                sweep.knob
            ),
            ("sans-serif", 20),
        )
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(50)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)
        .map_err(|e| err(&e))?;
    let labels: Vec<String> = sweep.points.iter().map(|p| p.value.clone()).collect();
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
        .x_desc(sweep.knob.as_str())
        .y_desc("speedup (×)")
        .draw()
        .map_err(|e| err(&e))?;
    let colours = [RED, BLUE, GREEN, MAGENTA, BLACK];
    for (column, (name, colour)) in SWEEP_COLUMNS.iter().zip(colours).enumerate() {
        if *name == "layout" {
            continue;
        }
        let points: Vec<(f64, f64)> = sweep
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64, p.speedup[column]))
            .collect();
        chart
            .draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))
            .map_err(|e| err(&e))?
            .label(*name)
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
    sweep: &Sweep,
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
