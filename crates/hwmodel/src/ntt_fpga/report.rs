//! The NTT model's reports, as both front ends print them: [`CoreRun`] (one configuration) and
//! [`NttTables`] (Tables III, V and VII beside the paper's). Each is `Serialize` (the CLI's
//! `--json`, Python's dicts) and `Display` (the CLI's text).

use std::fmt;

use serde::Serialize;

use super::{
    end_to_end_ms, table_vii_points, table_vii_u50, CoreKind, EndToEndSeries, NttCoreConfig,
    TableIiiRow, TableViiCell, TABLE_III, TABLE_III_POINTS, TABLE_VII_CPU, TABLE_VII_U50,
    TABLE_V_MS, TABLE_V_SIZES,
};
use crate::ModelError;

/// One configuration of the core on one task.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CoreRun {
    /// The configuration.
    pub config: NttCoreConfig,
    /// The task's points.
    pub points: u64,
    /// Core cycles of the task.
    pub cycles: u64,
    /// Milliseconds at the configuration's clock.
    pub ms: f64,
}

impl CoreRun {
    /// `config` on a `points`-point task.
    ///
    /// # Errors
    /// As [`NttCoreConfig::core_cycles`].
    pub fn new(config: NttCoreConfig, points: u64) -> Result<Self, ModelError> {
        Ok(Self {
            config,
            points,
            cycles: config.core_cycles(points)?,
            ms: config.core_ms(points)?,
        })
    }
}

impl fmt::Display for CoreRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "cycles={}", self.cycles)
    }
}

/// One row of Table III: the paper's configuration at the model's latency and clock.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TableIiiModelRow {
    /// The configuration modelled.
    pub config: NttCoreConfig,
    /// The paper's row.
    pub paper: TableIiiRow,
    /// The model's cycles on Table III's 4096-point task.
    pub cycles: u64,
    /// The PipeZK replica's cycles on the same task.
    pub pipezk_replica_cycles: u64,
}

/// One size of Table V: the end-to-end model per series beside the paper's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TableVRow {
    /// The transform's points.
    pub points: u64,
    /// Milliseconds per series, in [`EndToEndSeries::ALL`]'s order.
    pub ms: [f64; 4],
    /// The paper's milliseconds, in the same order.
    pub paper_ms: [f64; 4],
}

/// One input size of Table VII's U50 column beside the paper's, and the paper's CPU columns.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct TableViiRow {
    /// Table VII's input size.
    pub input: u64,
    /// The padded transform's points.
    pub points: u64,
    /// The model's (ms, 10^6 B/s, 10^6 B/(W·s)).
    pub model: TableViiCell,
    /// The paper's U50 (ms, 10^6 B/s, 10^6 B/(W·s)).
    pub paper: TableViiCell,
    /// The paper's Ryzen 9 5900X on one core and on twelve.
    pub paper_cpu: [TableViiCell; 2],
}

/// Tables III, V and VII (U50 column) from the model beside the paper's.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NttTables {
    /// The wide multiplier's latency the tables were modelled at.
    pub mul_latency: u32,
    /// The clock they were modelled at.
    pub clock_mhz: f64,
    /// Table III: the core on 4096 points.
    pub table_iii: Vec<TableIiiModelRow>,
    /// Table V's column names, in the rows' order.
    pub table_v_series: [&'static str; 4],
    /// Table V: end to end (the calibrated `n·(a + b·log2 n)` model per series).
    pub table_v: Vec<TableVRow>,
    /// Table VII, U50 column.
    pub table_vii: Vec<TableViiRow>,
}

impl NttTables {
    /// The tables at multiplier latency `mul_latency` and `clock_mhz`.
    ///
    /// # Errors
    /// As [`NttCoreConfig::core_cycles`] and [`end_to_end_ms`] for an unusable latency or
    /// clock.
    pub fn new(mul_latency: u32, clock_mhz: f64) -> Result<Self, ModelError> {
        let table_iii = TABLE_III
            .iter()
            .map(|row| {
                let ours = NttCoreConfig {
                    mul_latency,
                    clock_mhz,
                    ..NttCoreConfig::table_iii(row)
                };
                let pipezk = NttCoreConfig {
                    kind: CoreKind::PipeZkReplica,
                    ..ours
                };
                Ok(TableIiiModelRow {
                    config: ours,
                    paper: *row,
                    cycles: ours.core_cycles(TABLE_III_POINTS)?,
                    pipezk_replica_cycles: pipezk.core_cycles(TABLE_III_POINTS)?,
                })
            })
            .collect::<Result<_, ModelError>>()?;
        let table_v = TABLE_V_SIZES
            .iter()
            .enumerate()
            .map(|(i, &points)| {
                let mut ms = [0.0; 4];
                for (column, series) in EndToEndSeries::ALL.into_iter().enumerate() {
                    ms[column] = end_to_end_ms(series, points, clock_mhz)?;
                }
                Ok(TableVRow {
                    points,
                    ms,
                    paper_ms: std::array::from_fn(|column| TABLE_V_MS[column][i]),
                })
            })
            .collect::<Result<_, ModelError>>()?;
        let table_vii = TABLE_VII_U50
            .into_iter()
            .zip(TABLE_VII_CPU)
            .map(|((input, ms, mb_s, eff), (_, cpu))| {
                Ok(TableViiRow {
                    input,
                    points: table_vii_points(input),
                    model: table_vii_u50(input, clock_mhz)?,
                    paper: (ms, mb_s, eff),
                    paper_cpu: cpu,
                })
            })
            .collect::<Result<_, ModelError>>()?;
        Ok(Self {
            mul_latency,
            clock_mhz,
            table_iii,
            table_v_series: EndToEndSeries::ALL.map(EndToEndSeries::name),
            table_v,
            table_vii,
        })
    }
}

impl fmt::Display for NttTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Table III (4096 points, 256-bit, L = {}: a butterfly every {} cycles, {} MHz)",
            self.mul_latency,
            3 * (u64::from(self.mul_latency) + 1) + 1,
            self.clock_mhz
        )?;
        writeln!(
            f,
            "{:<42} {:>8} {:>8} {:>8} {:>9} {:>8}",
            "configuration", "paper", "model", "error", "PipeZK", "ratio"
        )?;
        for row in &self.table_iii {
            writeln!(
                f,
                "{:<42} {:>8} {:>8} {:>+7.1}% {:>9} {:>8.3}",
                format!(
                    "{} rounds & {} sub-tasks & {} in parallel",
                    row.paper.log_points,
                    TABLE_III_POINTS >> row.paper.log_points,
                    row.paper.pipelines
                ),
                row.paper.cycles,
                row.cycles,
                100.0 * (row.cycles as f64 / row.paper.cycles as f64 - 1.0),
                row.pipezk_replica_cycles,
                row.pipezk_replica_cycles as f64 / row.cycles as f64,
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Table V (ms, end to end; calibrated: n·(a + b·log2 n) cycles per series)"
        )?;
        write!(f, "{:>9}", "N")?;
        for name in self.table_v_series {
            write!(f, " {:>26}", format!("{name} (paper)"))?;
        }
        writeln!(f)?;
        for row in &self.table_v {
            write!(f, "{:>9}", row.points)?;
            for (ms, paper) in row.ms.iter().zip(row.paper_ms) {
                write!(f, " {:>26}", format!("{ms:.3} ({paper:.3})"))?;
            }
            writeln!(f)?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "Table VII, U50 column (256-bit; 10^6 B/s over 2·next_pow2(input); 6.49 W)"
        )?;
        writeln!(
            f,
            "{:>10} {:>9} {:>20} {:>20} {:>20}   paper's Ryzen 9 5900X ms: 1 core, 12 cores",
            "input", "points", "ms (paper)", "MB/s (paper)", "MB/(W·s) (paper)"
        )?;
        for row in &self.table_vii {
            let ((m_ms, m_mb_s, m_eff), (ms, mb_s, eff)) = (row.model, row.paper);
            writeln!(
                f,
                "{:>10} {:>9} {:>20} {:>20} {:>20}   {:>10} {:>10}",
                row.input,
                row.points,
                format!("{m_ms:.3} ({ms})"),
                format!("{m_mb_s:.3} ({mb_s})"),
                format!("{m_eff:.3} ({eff})"),
                row.paper_cpu[0].0,
                row.paper_cpu[1].0
            )?;
        }
        Ok(())
    }
}
