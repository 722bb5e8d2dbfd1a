//! Design-space sweeps, one abstraction for every model: a knob set to each of a list of
//! values, the rest of a base configuration fixed, one [`SweepPoint`] per value. A model says
//! what its points are and how one prints as a CSV row and a chart ([`SweepModel`]); the
//! sweep's JSON (serde), CSV (the `csv` crate over the model's flat row type) and chart data
//! come from here, the same for the CLI and Python.

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::ModelError;

/// Most values one sweep may take (the UniZK and NTT models'; AcclMT's simulated trees take
/// at most [`crate::acclmt::MAX_ACCLMT_SWEEP_POINTS`]).
pub const MAX_SWEEP_POINTS: usize = 64;

/// A model a sweep runs on.
pub trait SweepModel {
    /// The model's name in the CLI and Python (`unizk`, `ntt-fpga`, `acclmt`).
    const NAME: &'static str;
    /// The model's name in prose (`UniZK`, `FPGA NTT`, `AcclMT`).
    const LABEL: &'static str;
    /// Files of a sweep of knob `k` are `<FILE_STEM>-<k>.csv`, `.svg` and `.png`.
    const FILE_STEM: &'static str;
    /// The knobs the model's sweeps take.
    const KNOBS: &'static [&'static str];
    /// Most values one sweep takes.
    const MAX_POINTS: usize;
    /// The configuration the knob varies (and what else the points share).
    type Base: Debug + Clone + PartialEq + Send + Sync + Serialize + DeserializeOwned;
    /// What the model answers for one value.
    type Point: Debug + Clone + PartialEq + Send + Sync + Serialize + DeserializeOwned;
    /// One point as a flat CSV row (scalar fields only; the first column is the knob's
    /// value and is named after the knob in the header).
    type Row<'a>: Serialize
    where
        Self: 'a;

    /// The point's CSV row.
    fn row<'a>(value: &'a str, point: &'a Self::Point) -> Self::Row<'a>;

    /// The chart of a sweep: its caption, y axis and series (one value per point).
    fn chart(sweep: &Sweep<Self>) -> SweepChart
    where
        Self: Sized;
}

/// One value of a sweep and the model's answer for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SweepPoint<P> {
    /// The knob's value, as given (trimmed).
    pub value: String,
    /// The model's answer (its fields appear beside `value` in the JSON).
    #[serde(flatten)]
    pub result: P,
}

impl<P> std::ops::Deref for SweepPoint<P> {
    type Target = P;
    fn deref(&self) -> &P {
        &self.result
    }
}

/// A knob swept over values on model `M`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct Sweep<M: SweepModel> {
    /// The knob.
    pub knob: String,
    /// The base configuration.
    pub base: M::Base,
    /// The points, in the order given.
    pub points: Vec<SweepPoint<M::Point>>,
}

/// A line chart's data: one or more series over a sweep's values (categorical x).
#[derive(Debug, Clone, PartialEq)]
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

impl<M: SweepModel> Sweep<M> {
    /// Runs `point` once per value of `knob`, after checking the number of values (1 to
    /// `M::MAX_POINTS`).
    ///
    /// # Errors
    /// [`ModelError::SweepPoints`] for no or too many values; `point`'s errors.
    pub fn run(
        knob: &str,
        base: M::Base,
        values: &[String],
        mut point: impl FnMut(&str) -> Result<M::Point, ModelError>,
    ) -> Result<Self, ModelError> {
        if values.is_empty() || values.len() > M::MAX_POINTS {
            return Err(ModelError::SweepPoints {
                knob: crate::error::shown(knob, 40),
                got: values.len(),
                max: M::MAX_POINTS,
            });
        }
        let points = values
            .iter()
            .map(|value| {
                let value = value.trim();
                Ok(SweepPoint {
                    value: value.to_owned(),
                    result: point(value)?,
                })
            })
            .collect::<Result<_, ModelError>>()?;
        Ok(Self {
            knob: knob.to_owned(),
            base,
            points,
        })
    }

    /// The sweep as CSV: a header naming the knob and the row's fields, then one row per
    /// point, written by the `csv` crate from [`SweepModel::Row`].
    ///
    /// # Errors
    /// [`ModelError::Csv`] if a row does not serialise as a flat record (a model's bug,
    /// not the input's).
    pub fn to_csv(&self) -> Result<String, ModelError> {
        let mut writer = csv::Writer::from_writer(Vec::new());
        for p in &self.points {
            writer
                .serialize(M::row(&p.value, &p.result))
                .map_err(|e| csv_problem(&e))?;
        }
        let bytes = writer.into_inner().map_err(|e| csv_problem(&e))?;
        let text = String::from_utf8(bytes).map_err(|e| csv_problem(&e))?;
        // The header's first column is `value`; name it after the knob, as a reader of the
        // file expects.
        Ok(match text.strip_prefix("value") {
            Some(rest) => format!("{}{rest}", self.knob),
            None => text,
        })
    }

    /// The chart's data.
    pub fn chart(&self) -> SweepChart {
        M::chart(self)
    }

    /// The files' stem: `<FILE_STEM>-<knob>`.
    pub fn file_stem(&self) -> String {
        format!("{}-{}", M::FILE_STEM, self.knob)
    }

    /// The knob's values, in order.
    pub fn labels(&self) -> Vec<String> {
        self.points.iter().map(|p| p.value.clone()).collect()
    }

    /// One series: `f` of every point.
    pub fn series(&self, name: &str, f: impl Fn(&M::Point) -> f64) -> (String, Vec<f64>) {
        (name.to_owned(), self.points.iter().map(|p| f(p)).collect())
    }
}

fn csv_problem(e: &dyn std::fmt::Display) -> ModelError {
    ModelError::Csv {
        message: e.to_string(),
    }
}

/// Parses `knob=v1,v2,…` (the CLI's `--sweep` / `--param`).
///
/// # Errors
/// [`ModelError::Syntax`] without `=`; [`ModelError::SweepPoints`] with no values or more
/// than [`MAX_SWEEP_POINTS`].
pub fn parse_param(param: &str) -> Result<(String, Vec<String>), ModelError> {
    let (knob, values) = param.split_once('=').ok_or_else(|| ModelError::Syntax {
        text: crate::error::shown(param, 80),
        expected: "knob=v1,v2,…",
    })?;
    let values: Vec<String> = values
        .split(',')
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .map(str::to_owned)
        .collect();
    if values.is_empty() || values.len() > MAX_SWEEP_POINTS {
        return Err(ModelError::SweepPoints {
            knob: crate::error::shown(knob.trim(), 40),
            got: values.len(),
            max: MAX_SWEEP_POINTS,
        });
    }
    Ok((knob.trim().to_owned(), values))
}

/// A knob's value as a number of its kind.
///
/// # Errors
/// [`ModelError::NotANumber`] naming the knob.
pub fn parse_value<T: std::str::FromStr>(knob: &str, value: &str) -> Result<T, ModelError> {
    value.trim().parse().map_err(|_| ModelError::NotANumber {
        name: knob.to_owned(),
        value: crate::error::shown(value, 40),
        expected: "a number of its kind",
    })
}

/// An unknown knob of model `M`.
pub(crate) fn unknown_knob<M: SweepModel>(knob: &str) -> ModelError {
    ModelError::Unknown {
        what: "knob",
        name: crate::error::shown(knob, 40),
        known: crate::Names(M::KNOBS),
    }
}

#[cfg(test)]
mod tests {
    use crate::acclmt::{AcclmtSweep, ControllerConfig};
    use crate::ntt_fpga::sweep::NttSweep;
    use crate::ntt_fpga::{CoreKind, NttCoreConfig};

    fn values(list: &[&str]) -> Vec<String> {
        list.iter().map(|v| (*v).to_owned()).collect()
    }

    fn ntt_base() -> NttCoreConfig {
        NttCoreConfig {
            width_bits: 256,
            log_points: 8,
            pipelines: 1,
            mul_latency: 5,
            kind: CoreKind::Overlapped,
            clock_mhz: 68.0,
        }
    }

    /// The CSV, read back by an independent reader, holds each point's numbers under the
    /// header the model's row names, the knob first.
    #[test]
    fn the_csv_reads_back_as_the_points() {
        let sweep = ntt_base()
            .sweep(4096, "pipelines", &values(&["1", " 2", "4 "]))
            .unwrap();
        let text = sweep.to_csv().unwrap();
        let mut reader = csv::Reader::from_reader(text.as_bytes());
        let header: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
        assert_eq!(header[0], "pipelines");
        assert_eq!(header.len(), 13, "{header:?}");
        let column = |name: &str| header.iter().position(|h| h == name).unwrap();
        let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
        assert_eq!(rows.len(), 3);
        for (row, point) in rows.iter().zip(&sweep.points) {
            assert_eq!(&row[0], point.value);
            assert_eq!(row[column("cycles")].parse::<u64>().unwrap(), point.cycles);
            assert_eq!(row[column("us")].parse::<f64>().unwrap(), point.us);
            assert_eq!(
                row[column("speedup")].parse::<f64>().unwrap(),
                point.speedup
            );
            assert_eq!(&row[column("core")], "ours");
        }
        assert_eq!(
            sweep
                .points
                .iter()
                .map(|p| p.value.as_str())
                .collect::<Vec<_>>(),
            ["1", "2", "4"]
        );
    }

    /// A sweep's JSON (what Python holds and hands back to `write_sweep`) decodes to the same
    /// sweep, its points' fields beside `value`.
    #[test]
    fn the_json_round_trips_with_the_points_fields_flat() {
        let ntt = ntt_base()
            .sweep(4096, "core", &values(&["ours", "pipezk"]))
            .unwrap();
        let json = serde_json::to_value(&ntt).unwrap();
        assert_eq!(json["points"][1]["value"], "pipezk");
        assert_eq!(json["points"][1]["config"]["kind"], "pipe-zk-replica");
        assert_eq!(json["base"]["points"], 4096);
        assert_eq!(serde_json::from_value::<NttSweep>(json).unwrap(), ntt);
        let tree = ControllerConfig::default()
            .sweep(1 << 13, "merger", &values(&["off"]))
            .unwrap();
        let json = serde_json::to_string(&tree).unwrap();
        assert_eq!(serde_json::from_str::<AcclmtSweep>(&json).unwrap(), tree);
    }

    /// The count of values is checked before any point runs, against the model's bound.
    #[test]
    fn too_few_or_too_many_values_are_refused_by_the_models_bound() {
        let many: Vec<String> = (1..=65).map(|i| i.to_string()).collect();
        for list in [&[][..], &many[..]] {
            let err = ntt_base().sweep(4096, "pipelines", list).unwrap_err();
            assert!(
                matches!(err, crate::ModelError::SweepPoints { max: 64, .. }),
                "{err}"
            );
        }
        let err = ControllerConfig::default()
            .sweep(1 << 13, "batch", &many[..33])
            .unwrap_err();
        assert!(
            matches!(
                err,
                crate::ModelError::SweepPoints {
                    got: 33,
                    max: 32,
                    ..
                }
            ),
            "{err}"
        );
    }
}
