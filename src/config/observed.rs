//! Observed traffic (`--traffic-from FILE`, a scenario's `traffic_from`):
//! the trace is read and fitted once, here. Its busiest period's rate is the
//! observed rate the peak grows from ([`Resolver::peak`]), and without a
//! `--traffic` the fit chooses the traffic law ([`Observed::law_inputs`],
//! called by [`Resolver::traffic`]), so every command gets the same law from
//! the same inputs.

use std::path::{Path, PathBuf};

use serde::Serialize;

use super::scenario::Scenario;
use super::{input_file, Resolver, Source, Sourced};
use crate::cli::{ObservedArgs, SizingArgs};
use crate::error::{InputError, InputResult};
use crate::model::defaults::MAX_TRACE_BYTES;
use crate::model::law::{Dispersion, TrafficKind, TrafficModel};
use crate::model::observed::{
    self, fit::Dispersion as Shape, fit::PerSecond, TraceFit, TraceFormat,
};

/// Where a law (or its dispersion) came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LawFrom {
    /// Fitted from per-second counts.
    Fitted,
    /// Assumed: the data is coarser than a second.
    Assumed,
    /// Given by a flag or the scenario.
    Given,
}

/// A trace read and fitted, and the law chosen with it.
#[derive(Debug, Clone, PartialEq)]
pub struct Observed {
    /// The flag or scenario field that named the files.
    pub by: Source,
    /// The files, as given.
    pub files: Vec<String>,
    /// Their format.
    pub format: TraceFormat,
    /// The time of the first and the last point, Unix seconds.
    pub span: (i64, i64),
    /// How many gaps (runs of missing periods) the trace has.
    pub gaps: usize,
    /// Prometheus: series added.
    pub series_summed: usize,
    /// CloudWatch: the result's `Id`.
    pub metric_id: Option<String>,
    /// The fit.
    pub fit: TraceFit,
    /// The law the commands use, once resolved, with where its kind and its
    /// dispersion came from.
    pub law: Option<(TrafficModel, LawFrom, Option<LawFrom>)>,
    /// The trace itself, kept for `--replay` only.
    pub trace: Option<observed::ObservedTrace>,
}

impl Observed {
    /// A source of a figure taken from the trace (`fitted from --traffic-from f.csv`).
    pub fn source(&self, how: &'static str) -> Source {
        Source::Trace {
            how,
            by: Box::new(self.by.clone()),
            files: self.files.join(", "),
        }
    }

    /// The trace's name in a message: `--traffic-from f.csv`.
    pub fn named(&self) -> String {
        format!("{} {}", self.by, self.files.join(", "))
    }

    /// The traffic kind and dispersion, given the `--traffic` and
    /// `--dispersion` resolved (flag or scenario): as given when a kind is
    /// given (gamma-poisson without a dispersion takes the fitted one); a
    /// dispersion alone makes it gamma-poisson; neither: the fit says
    /// (per-second data) or Poisson within each period is assumed.
    pub fn law_inputs(
        &mut self,
        t: Option<Sourced<TrafficKind>>,
        d: Option<Sourced<f64>>,
    ) -> InputResult<(Sourced<TrafficKind>, Option<Sourced<f64>>)> {
        let fitted = match &self.fit.per_second {
            PerSecond::Fitted(s) => Some((s.dispersion, s.variance_to_mean)),
            PerSecond::CoarserThanSecond | PerSecond::NoLikes => None,
        };
        let coarse = format!(
            "{} is per {} s: a period's count does not say how its seconds vary",
            self.named(),
            self.fit.period_seconds
        );
        let (t, d, from, d_from) = match (t, d) {
            (Some(t), None) if t.value == TrafficKind::GammaPoisson => match fitted {
                Some((Shape::GammaShape(k), _)) => {
                    let k = self.fitted_shape(k)?;
                    (t, Some(k), LawFrom::Given, Some(LawFrom::Fitted))
                }
                Some((Shape::NotOverdispersed, r)) => {
                    return Err(t.error(format!(
                        "{} is not overdispersed (variance-to-mean {r:.3}): no Gamma shape to \
                         fit; pass --dispersion K or --traffic poisson",
                        self.named()
                    )))
                }
                None => return Err(t.error(format!("{coarse}; pass --dispersion K"))),
            },
            (Some(t), d) => {
                let d_from = d.as_ref().map(|_| LawFrom::Given);
                (t, d, LawFrom::Given, d_from)
            }
            (None, Some(d)) => {
                let t = Sourced::new(TrafficKind::GammaPoisson, d.source.clone());
                (t, Some(d), LawFrom::Given, Some(LawFrom::Given))
            }
            (None, None) => match fitted {
                Some((Shape::GammaShape(k), _)) if k <= Dispersion::MAX => {
                    let k = self.fitted_shape(k)?;
                    let t = Sourced::new(TrafficKind::GammaPoisson, k.source.clone());
                    (t, Some(k), LawFrom::Fitted, Some(LawFrom::Fitted))
                }
                Some(_) => {
                    let t = Sourced::new(TrafficKind::Poisson, self.source("fitted from"));
                    (t, None, LawFrom::Fitted, None)
                }
                None => {
                    let how = "assumed within each period of";
                    let t = Sourced::new(TrafficKind::Poisson, self.source(how));
                    (t, None, LawFrom::Assumed, None)
                }
            },
        };
        // Kept until the law is built: the kind's and dispersion's sources.
        self.law = Some((TrafficModel::Poisson, from, d_from));
        Ok((t, d))
    }

    /// The fitted shape, refused below the smallest accepted.
    fn fitted_shape(&self, k: f64) -> InputResult<Sourced<f64>> {
        let k = Sourced::new(k, self.source("fitted from"));
        if k.value < Dispersion::MIN {
            return Err(k.error(format!(
                "the Gamma shape K = {:.3e} is below {} (the seconds vary more than any law \
                 shardplan models: a burst, a step or mixed traffic?); pass --dispersion K to \
                 choose one, or a quieter stretch of the trace",
                k.value,
                Dispersion::MIN
            )));
        }
        Ok(k)
    }
}

/// A time line takes no observed traffic: its curve gives the rate second
/// by second.
pub fn refuse_on_timeline(a: &ObservedArgs) -> InputResult<()> {
    let why = "on a time line (its [curve] gives the rate second by second); observed \
               traffic plans a flat load";
    super::refuse(!a.traffic_from.is_empty(), "--traffic-from", why)?;
    super::refuse(a.metric_id.is_some(), "--metric-id", why)
}

/// The trace files a run reads: what named them, the paths, and their
/// names as shown.
type TraceFiles = (Source, Vec<PathBuf>, Vec<String>);

impl Resolver {
    /// Reads `--traffic-from` (else the scenario's `traffic_from`) once, for
    /// the commands that plan from it; `sizing` are the command's sizing
    /// flags (a `--peak` or `--observed` flag beside `--traffic-from` is
    /// refused; beside the scenario's `traffic_from`, the flag wins).
    pub fn observe(&mut self, a: &ObservedArgs, sizing: Option<&SizingArgs>) -> InputResult<()> {
        self.observe_called = true;
        let s = self.scenario.scenario.clone();
        let Some((by, paths, shown)) = self.trace_files(a, sizing, &s)? else {
            return Ok(());
        };
        let metric_id = Sourced::flag("--metric-id", a.metric_id.clone())
            .or(self.field("metric_id", &s.metric_id));
        let texts = self.read_traces(&by, &paths, &shown)?;
        let docs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let id = metric_id.as_ref().map(|m| m.value.as_str());
        let trace = observed::parse(&docs, id).map_err(|e| {
            let name = shown.get(e.document).unwrap_or(&shown[0]);
            InputError::new(format!("{by} {name}"), e)
        })?;
        if let Some(m) = &metric_id {
            self.inputs.record("metric_id", m);
        }
        let fit = TraceFit::new(&trace);
        self.inputs
            .record("traffic_from", &Sourced::new(shown.clone(), by.clone()));
        self.observed = Some(Box::new(Observed {
            by,
            files: shown,
            format: trace.format,
            span: (trace.start, *trace.times.last().unwrap_or(&trace.start)),
            gaps: trace.gaps.len(),
            series_summed: trace.series_summed,
            metric_id: trace.metric_id.clone(),
            fit,
            law: None,
            trace: self.keep_trace.then_some(trace),
        }));
        Ok(())
    }

    /// The trace files to read, what named them and their names as shown:
    /// `--traffic-from`, else the scenario's `traffic_from` (not beside a
    /// `--peak` or `--observed` flag); `None` when neither names one.
    fn trace_files(
        &self,
        a: &ObservedArgs,
        sizing: Option<&SizingArgs>,
        s: &Scenario,
    ) -> InputResult<Option<TraceFiles>> {
        let peak_flag = sizing.and_then(|z| match (z.peak, z.observed) {
            (Some(_), _) => Some("--peak"),
            (None, Some(_)) => Some("--observed"),
            (None, None) => None,
        });
        if !a.traffic_from.is_empty() {
            if let Some(flag) = peak_flag {
                return Err(InputError::new(
                    flag,
                    "cannot be given with --traffic-from, which supplies the observed rate \
                     (peak = its busiest second x --growth); drop one of them",
                ));
            }
            let shown = a
                .traffic_from
                .iter()
                .map(|p| input_file::shown(p))
                .collect();
            Ok(Some((
                Source::Flag("--traffic-from"),
                a.traffic_from.clone(),
                shown,
            )))
        } else if let Some(f) = s.traffic_from.as_ref().filter(|_| peak_flag.is_none()) {
            let by = self.scenario.source("traffic_from");
            if super::scenario::BUNDLED
                .iter()
                .any(|(n, _)| *n == self.scenario.name)
            {
                return Err(InputError::new(
                    &by,
                    "a bundled scenario cannot name a file",
                ));
            }
            Ok(Some((by, vec![self.beside_scenario(f)], vec![f.clone()])))
        } else {
            let flagged = a.metric_id.is_some();
            let field = s.metric_id.is_some() && s.traffic_from.is_none();
            if flagged || field {
                let what = match flagged {
                    true => "--metric-id".to_string(),
                    false => self.scenario.field("metric_id"),
                };
                return Err(InputError::new(
                    what,
                    "has no effect without --traffic-from (or a scenario's traffic_from)",
                ));
            }
            Ok(None)
        }
    }

    /// The trace files' texts, each read within the bound of a trace.
    fn read_traces(
        &self,
        by: &Source,
        paths: &[PathBuf],
        shown: &[String],
    ) -> InputResult<Vec<String>> {
        let mut texts = Vec::with_capacity(paths.len());
        for (path, name) in paths.iter().zip(shown) {
            let what = format!("{by} {name}");
            let bytes = input_file::read_bounded(
                &self.claims,
                &what,
                path,
                MAX_TRACE_BYTES,
                "a trace is one metric's counts over time",
            )?;
            let text =
                String::from_utf8(bytes).map_err(|_| InputError::new(&what, "not UTF-8 text"))?;
            texts.push(text);
        }
        Ok(texts)
    }

    /// A path the scenario names, relative to the scenario file's folder
    /// (the current folder for a scenario on standard input).
    fn beside_scenario(&self, f: &str) -> PathBuf {
        if let Some(dir) = self.scenario_folder.as_ref() {
            if Path::new(f).is_relative() {
                return dir.join(f);
            }
        }
        let file = Path::new(&self.scenario.file);
        match file.parent() {
            Some(dir) if !input_file::is_stdin(file) && Path::new(f).is_relative() => dir.join(f),
            _ => PathBuf::from(f),
        }
    }

    /// A command that does not read observed traffic refuses a scenario
    /// that names some.
    pub fn unobserved(&self) -> InputResult<()> {
        if self.observe_called || self.scenario.scenario.traffic_from.is_none() {
            return Ok(());
        }
        Err(InputError::new(
            self.scenario.field("traffic_from"),
            "is read by size, risk, sweep, simulate (a flat load) and report; this command \
             does not plan from observed traffic",
        ))
    }

    /// The observed traffic with the law the commands use (resolving the
    /// law from `--traffic` and `--dispersion` when no step has yet).
    pub fn observed_traffic(
        &mut self,
        traffic: Option<TrafficKind>,
        dispersion: Option<f64>,
    ) -> InputResult<Option<&Observed>> {
        let unresolved = self.observed.as_ref().is_some_and(|o| o.law.is_none());
        if unresolved {
            self.traffic(traffic, dispersion)?;
        }
        Ok(self.observed.as_deref())
    }
}
