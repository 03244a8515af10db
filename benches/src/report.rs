//! What the report binaries share: the date, the machine, the saved runs in `results/`, and
//! writing the generated files.
//!
//! A bench-report run is saved as `results/<section>.tsv` (one line per row, quarry's and the
//! peer's MB/s), so that RESULTS.md, the per-format tables and the chart are rendered from
//! what was measured, never typed by hand: [`crate::page::render`] reads the saved runs.

use std::path::{Path, PathBuf};

/// `YYYY-MM-DD` of today (UTC), from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    quarry::datetime::Date::from_days_since_unix_epoch(days)
        .map_or_else(String::new, |d| d.to_string())
}

/// The CPU model and how many cores this process may use.
pub fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| {
            l.strip_prefix("model name")
                .map(|m| m.trim_start_matches([' ', '\t', ':']).to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    format!("{model}, {cores} cores")
}

/// The first line of every report: `- **Date:** … · **Machine:** …`.
pub fn dated() -> String {
    format!("- **Date:** {} · **Machine:** {}", today(), machine())
}

/// The repository's root (the workspace folder).
pub fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("benches/ sits in the workspace")
        .to_path_buf()
}

/// `results/`, where the generated tables, the chart and the saved runs live.
pub fn results_dir() -> PathBuf {
    repository().join("results")
}

/// Writes `text` to `path` (relative to the repository), or exits with the error.
pub fn write_file(path: &str, text: &str) {
    let full = repository().join(path);
    if let Some(parent) = full.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&full, text) {
        eprintln!("cannot write {}: {e}", full.display());
        std::process::exit(2);
    }
    eprintln!("wrote {path}");
}

/// One measured row: quarry against one peer at one job on one input.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// `json`, `toml`, `bplist`, `config`, ...
    pub format: String,
    /// The input's name (a generated shape or a corpus file).
    pub input: String,
    /// The job: `struct decode`, `tree`, `encode`, ...
    pub arm: String,
    /// The peer library.
    pub peer: String,
    /// quarry's MB/s.
    pub quarry: f64,
    /// The peer's MB/s.
    pub theirs: f64,
}

impl Row {
    /// quarry ÷ peer: above 1 means quarry is faster.
    pub fn ratio(&self) -> f64 {
        self.quarry / self.theirs
    }

    fn key(&self) -> (&str, &str, &str, &str) {
        (&self.format, &self.input, &self.arm, &self.peer)
    }
}

/// A saved bench-report run: how it was made, its rows and the peers it could not measure.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Run {
    /// `key value` facts of the run, in order: `date`, `machine`, `build`, `rounds`,
    /// `run time`, `command` (and `updated` for each filtered run merged in).
    pub facts: Vec<(String, String)>,
    /// The rows, in measuring order.
    pub rows: Vec<Row>,
    /// A note per peer left out of a contest because it failed on the input.
    pub dropped: Vec<String>,
}

impl Run {
    /// The fact `key`, or `""`.
    pub fn fact(&self, key: &str) -> &str {
        self.facts
            .iter()
            .find(|(k, _)| k == key)
            .map_or("", |(_, v)| v.as_str())
    }

    /// The run saved as `results/<section>.tsv`, if there is one.
    pub fn load(section: &str) -> Option<Run> {
        let text = std::fs::read_to_string(results_dir().join(format!("{section}.tsv"))).ok()?;
        Some(Run::parse(&text))
    }

    /// Reads the tab-separated form [`Run::to_tsv`] writes; lines it does not know are passed
    /// over.
    pub fn parse(text: &str) -> Run {
        let mut run = Run::default();
        for line in text.lines() {
            let fields: Vec<&str> = line.split('\t').collect();
            match fields.as_slice() {
                ["fact", key, value] => run.facts.push((key.to_string(), value.to_string())),
                ["row", format, input, arm, peer, quarry, theirs] => run.rows.push(Row {
                    format: format.to_string(),
                    input: input.to_string(),
                    arm: arm.to_string(),
                    peer: peer.to_string(),
                    quarry: quarry.parse().unwrap_or(0.0),
                    theirs: theirs.parse().unwrap_or(f64::INFINITY),
                }),
                ["dropped", note] => run.dropped.push(note.to_string()),
                _ => {}
            }
        }
        run
    }

    /// One line per fact, row and dropped peer, tab-separated.
    pub fn to_tsv(&self) -> String {
        let mut out = String::from("# bench-report's saved run: rendered into RESULTS.md and results/ by `bench-report --render`\n");
        for (key, value) in &self.facts {
            out.push_str(&format!("fact\t{key}\t{value}\n"));
        }
        for r in &self.rows {
            out.push_str(&format!(
                "row\t{}\t{}\t{}\t{}\t{:.1}\t{:.1}\n",
                r.format, r.input, r.arm, r.peer, r.quarry, r.theirs
            ));
        }
        for note in &self.dropped {
            out.push_str(&format!("dropped\t{note}\n"));
        }
        out
    }

    /// `newer`'s rows replace this run's rows of the same contest and peer, and rows it adds
    /// go after them; its facts are recorded as one `updated` fact. A run that measured
    /// everything (no filter) replaces this one whole.
    pub fn merge(&mut self, newer: Run, filtered: bool) {
        if !filtered {
            *self = newer;
            return;
        }
        let updated = format!("{} on {}", newer.fact("command"), newer.fact("date"));
        for row in newer.rows {
            match self.rows.iter_mut().find(|r| r.key() == row.key()) {
                Some(old) => *old = row,
                None => self.rows.push(row),
            }
        }
        for note in newer.dropped {
            if !self.dropped.contains(&note) {
                self.dropped.push(note);
            }
        }
        // The same filtered command run again on the same day is one note.
        let fact = ("updated".to_string(), updated);
        if !self.facts.contains(&fact) {
            self.facts.push(fact);
        }
    }

    /// Saves the run as `results/<section>.tsv`.
    pub fn save(&self, section: &str) {
        write_file(&format!("results/{section}.tsv"), &self.to_tsv());
    }
}

/// Writes a generated report of a binary other than bench-report (memory-report) as
/// `results/<name>.md`, under a heading; RESULTS.md includes it when it is rendered.
pub fn write_section(name: &str, title: &str, report: &str) {
    write_file(
        &format!("results/{name}.md"),
        &format!("# {title}\n\n<!-- Generated by memory-report; do not edit. -->\n\n{report}"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(input: &str, quarry: f64) -> Row {
        Row {
            format: "json".into(),
            input: input.into(),
            arm: "tree".into(),
            peer: "serde_json".into(),
            quarry,
            theirs: 100.0,
        }
    }

    #[test]
    fn a_saved_run_reads_back_equal() {
        let run = Run {
            facts: vec![("date".into(), "2026-12-06".into())],
            rows: vec![row("a b", 250.5), row("c", 80.0)],
            dropped: vec!["xml x tree: roxmltree fails on this input".into()],
        };
        assert_eq!(Run::parse(&run.to_tsv()), run);
    }

    #[test]
    fn a_filtered_run_replaces_only_its_rows() {
        let mut run = Run {
            facts: vec![("date".into(), "2026-12-01".into())],
            rows: vec![row("a", 100.0), row("b", 200.0)],
            dropped: vec![],
        };
        let newer = Run {
            facts: vec![
                ("date".into(), "2026-12-06".into()),
                ("command".into(), "bench-report --filter b".into()),
            ],
            rows: vec![row("b", 300.0), row("c", 50.0)],
            dropped: vec![],
        };
        run.merge(newer.clone(), true);
        run.merge(newer, true);
        let speeds: Vec<(&str, f64)> = run
            .rows
            .iter()
            .map(|r| (r.input.as_str(), r.quarry))
            .collect();
        assert_eq!(speeds, [("a", 100.0), ("b", 300.0), ("c", 50.0)]);
        assert_eq!(run.fact("date"), "2026-12-01");
        assert_eq!(run.fact("updated"), "bench-report --filter b on 2026-12-06");
        let notes = run.facts.iter().filter(|(key, _)| key == "updated").count();
        assert_eq!(
            notes, 1,
            "the same run merged twice is one note: {:?}",
            run.facts
        );
    }
}
