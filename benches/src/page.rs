//! RESULTS.md and `results/`, rendered from the saved runs.
//!
//! The page's prose lives in `page.md` beside this file, a template whose `{{...}}`
//! placeholders are filled from the runs, so every figure on the page is the one measured:
//!
//! | placeholder | becomes |
//! |---|---|
//! | `{{chart}}` | the chart's image link |
//! | `{{method}}` | the runs' dates, machine, build, rounds and commands |
//! | `{{summary native}}`, `{{summary portable}}` | the table of every arm against every peer |
//! | `{{mean F\|A\|P}}`, `{{low …}}`, `{{high …}}`, `{{inputs …}}` | one summary row's figure (native) |
//! | `{{portable F\|A\|P}}` | that row's geometric mean in the portable run |
//! | `{{portable-share F\|A}}` | quarry's portable MB/s ÷ its native MB/s, geometric mean over the inputs |
//! | `{{losses F}}`, `{{losses F,G}}` | every arm and peer of the formats with an input under 1.0, with its reason |
//! | `{{tables}}` | links to the per-format tables |
//! | `{{dropped}}` | the peers that failed on an input and were left out |
//! | `{{include NAME}}` | the body of `results/NAME.md` (written by memory-report) |
//!
//! After a line `<!-- reasons -->` the template lists, one per line, `F|A|P: why quarry is
//! slower there`; `{{losses F}}` takes each loss's reason from that list, and a loss without
//! one is printed as such, so no loss is ever left off the page.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::report::{Row, Run};

/// The page template.
const TEMPLATE: &str = include_str!("page.md");

/// The formats in the order the page and the chart give them.
const FORMAT_ORDER: [&str; 9] = [
    "json", "yaml", "toml", "xml", "plist", "bplist", "config", "edit", "arrow",
];

/// What each format's group is called in headings.
fn format_title(format: &str) -> &str {
    match format {
        "json" => "JSON",
        "yaml" => "YAML",
        "toml" => "TOML",
        "xml" => "XML",
        "plist" => "XML property lists",
        "bplist" => "binary property lists",
        "config" => "layered configuration",
        "arrow" => "Arrow record batches",
        other => other,
    }
}

fn format_rank(format: &str) -> usize {
    FORMAT_ORDER
        .iter()
        .position(|f| *f == format)
        .unwrap_or(FORMAT_ORDER.len())
}

/// One arm against one peer over every input: the summary table's row.
#[derive(Debug, Clone)]
pub struct Summary {
    /// The format group.
    pub format: String,
    /// The job.
    pub arm: String,
    /// The peer.
    pub peer: String,
    /// quarry ÷ peer on each input, in measuring order.
    pub ratios: Vec<(String, f64)>,
}

impl Summary {
    /// The geometric mean of the ratios.
    pub fn mean(&self) -> f64 {
        geometric_mean(self.ratios.iter().map(|r| r.1))
    }

    /// The lowest ratio and its input.
    pub fn lowest(&self) -> (&str, f64) {
        self.ratios
            .iter()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(("", f64::NAN), |(i, r)| (i.as_str(), *r))
    }

    /// The highest ratio.
    pub fn highest(&self) -> f64 {
        self.ratios.iter().map(|r| r.1).fold(f64::NAN, f64::max)
    }

    /// `format|arm|peer`, as the template names a row.
    pub fn key(&self) -> String {
        format!("{}|{}|{}", self.format, self.arm, self.peer)
    }
}

/// The geometric mean (NaN for none).
pub fn geometric_mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, count) = values.fold((0.0, 0usize), |(s, n), v| (s + v.ln(), n + 1));
    if count == 0 {
        f64::NAN
    } else {
        (sum / count as f64).exp()
    }
}

/// The summary rows of `rows`, by format (in page order), then arm and peer.
pub fn summarize(rows: &[Row]) -> Vec<Summary> {
    // Keyed by the format's place on the page, then format, arm and peer.
    type Key<'a> = (usize, &'a str, &'a str, &'a str);
    let mut groups: BTreeMap<Key<'_>, Vec<(String, f64)>> = BTreeMap::new();
    for r in rows {
        groups
            .entry((format_rank(&r.format), &r.format, &r.arm, &r.peer))
            .or_default()
            .push((r.input.clone(), r.ratio()));
    }
    groups
        .into_iter()
        .map(|((_, format, arm, peer), ratios)| Summary {
            format: format.into(),
            arm: arm.into(),
            peer: peer.into(),
            ratios,
        })
        .collect()
}

fn summary_table(summaries: &[Summary]) -> String {
    let mut out = String::from(
        "| format | arm | peer | inputs | quarry ÷ peer (geometric mean) | lowest | highest |\n\
         |---|---|---|---:|---:|---:|---:|\n",
    );
    for s in summaries {
        let mean = s.mean();
        let mark = if mean < 1.0 { " (loss)" } else { "" };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | **{mean:.2}**{mark} | {:.2} | {:.2} |",
            s.format,
            s.arm,
            s.peer,
            s.ratios.len(),
            s.lowest().1,
            s.highest()
        );
    }
    out
}

/// quarry's MB/s per input of `format`'s `arm` (its rows repeat it once per peer).
fn quarry_speeds<'a>(rows: &'a [Row], format: &str, arm: &str) -> BTreeMap<&'a str, f64> {
    rows.iter()
        .filter(|r| r.format == format && r.arm == arm)
        .map(|r| (r.input.as_str(), r.quarry))
        .collect()
}

fn facts_line(run: &Run, name: &str) -> String {
    let mut out = format!(
        "- **{name} run:** {} · {} · {} · {} · run time {}\n  - `{}`\n",
        run.fact("date"),
        run.fact("machine"),
        run.fact("build"),
        run.fact("rounds"),
        run.fact("run time"),
        run.fact("command")
    );
    for (key, value) in &run.facts {
        if key == "updated" {
            let _ = writeln!(out, "  - rows since re-measured by `{value}`");
        }
    }
    out
}

/// The rendered page: `(path relative to the repository, contents)` for RESULTS.md, the
/// per-format tables and the chart. Warnings (a loss without a reason, a placeholder the
/// renderer does not know) go to the second list.
pub fn render(native: &Run, portable: Option<&Run>) -> (Vec<(String, String)>, Vec<String>) {
    let mut warnings = Vec::new();
    let summaries = summarize(&native.rows);
    let portable_summaries = portable.map(|p| summarize(&p.rows)).unwrap_or_default();
    let (body, reasons_text) = TEMPLATE
        .split_once("<!-- reasons -->")
        .unwrap_or((TEMPLATE, ""));
    let reasons: BTreeMap<&str, &str> = reasons_text
        .lines()
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.trim(), v.trim()))
        .collect();
    let find = |key: &str| summaries.iter().find(|s| s.key() == key);

    let mut formats: Vec<&str> = Vec::new();
    for s in &summaries {
        if !formats.contains(&s.format.as_str()) {
            formats.push(&s.format);
        }
    }

    let mut page = String::new();
    let mut rest = body;
    while let Some(start) = rest.find("{{") {
        page.push_str(&rest[..start]);
        let Some(len) = rest[start..].find("}}") else {
            break;
        };
        let token = &rest[start + 2..start + len];
        rest = &rest[start + len + 2..];
        let (name, argument) = token.split_once(' ').unwrap_or((token, ""));
        let figure = |value: Option<f64>| match value {
            Some(v) if v.is_finite() => format!("{v:.2}"),
            _ => "not measured".to_owned(),
        };
        let expanded = match name {
            "chart" => "![quarry ÷ peer for every arm, log scale](results/chart.svg)".to_owned(),
            "method" => {
                let mut out = facts_line(native, "Native");
                if let Some(p) = portable {
                    out.push_str(&facts_line(p, "Portable"));
                }
                out
            }
            "summary" if argument == "portable" => summary_table(&portable_summaries),
            "summary" => summary_table(&summaries),
            "mean" => figure(find(argument).map(Summary::mean)),
            "low" => figure(find(argument).map(|s| s.lowest().1)),
            "high" => figure(find(argument).map(Summary::highest)),
            "inputs" => find(argument).map_or("0".into(), |s| s.ratios.len().to_string()),
            "portable" => figure(
                portable_summaries
                    .iter()
                    .find(|s| s.key() == argument)
                    .map(Summary::mean),
            ),
            "portable-share" => {
                let (format, arm) = argument.split_once('|').unwrap_or((argument, ""));
                let native_speeds = quarry_speeds(&native.rows, format, arm);
                let portable_speeds = portable
                    .map(|p| quarry_speeds(&p.rows, format, arm))
                    .unwrap_or_default();
                let shares = native_speeds
                    .iter()
                    .filter_map(|(input, n)| portable_speeds.get(input).map(|p| p / n));
                figure(Some(geometric_mean(shares)))
            }
            "losses" => losses(&summaries, argument, &reasons, &mut warnings),
            "tables" => formats
                .iter()
                .map(|f| format!("[{}](results/{f}.md)", format_title(f)))
                .collect::<Vec<_>>()
                .join(" · "),
            "dropped" => native.dropped.iter().map(|d| format!("- {d}\n")).collect(),
            "include" => include(argument),
            _ => {
                warnings.push(format!("page.md: unknown placeholder `{{{{{token}}}}}`"));
                String::new()
            }
        };
        page.push_str(expanded.trim_end_matches('\n'));
    }
    page.push_str(rest);
    let page = format!(
        "<!-- Generated by `bench-report --render` from page.md and results/*.tsv; do not edit. -->\n{}\n",
        page.trim()
    );

    let mut files = vec![("RESULTS.md".to_owned(), page)];
    for format in &formats {
        files.push((
            format!("results/{format}.md"),
            format_tables(format, native, portable),
        ));
    }
    files.push((
        "results/chart.svg".to_owned(),
        crate::chart::draw(&summaries),
    ));
    (files, warnings)
}

/// The bullet list of `format`'s losses: each arm and peer with an input under 1.0.
fn losses(
    summaries: &[Summary],
    format: &str,
    reasons: &BTreeMap<&str, &str>,
    warnings: &mut Vec<String>,
) -> String {
    let mut out = String::new();
    let formats: Vec<&str> = format.split(',').collect();
    for s in summaries
        .iter()
        .filter(|s| formats.contains(&s.format.as_str()))
    {
        let under: Vec<&(String, f64)> = s.ratios.iter().filter(|r| r.1 < 1.0).collect();
        if under.is_empty() {
            continue;
        }
        let (input, low) = s.lowest();
        let reason = reasons.get(s.key().as_str()).copied().unwrap_or_else(|| {
            warnings.push(format!("page.md: no reason for the loss `{}`", s.key()));
            "No reason is written for this loss yet."
        });
        let subject = if formats.len() > 1 {
            format!("{} {}", format_title(&s.format), s.arm)
        } else {
            s.arm.clone()
        };
        let _ = writeln!(
            out,
            "- **{subject} against {}:** {} of {} inputs under 1.0, the lowest {low:.2} ({input}). {reason}",
            s.peer,
            under.len(),
            s.ratios.len()
        );
    }
    if out.is_empty() {
        out.push_str("- No input under 1.0 against any peer.\n");
    }
    out
}

/// The body of `results/NAME.md`: everything after its heading and generated-file note.
fn include(name: &str) -> String {
    let path = crate::report::results_dir().join(format!("{name}.md"));
    match std::fs::read_to_string(&path) {
        Ok(text) => text
            .lines()
            .filter(|l| !l.starts_with("# ") && !l.starts_with("<!-- Generated"))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_owned(),
        Err(_) => format!("Not measured yet: `results/{name}.md` is written by memory-report."),
    }
}

/// `results/FORMAT.md`: every row of the format, native and portable.
fn format_tables(format: &str, native: &Run, portable: Option<&Run>) -> String {
    let mut out = format!(
        "# {}: every input against every peer\n\n<!-- Generated by `bench-report --render`; do not edit. -->\n\n\
         quarry ÷ peer above 1 means quarry is faster. MB/s is 10^6 bytes of input per second (of \
         the encoded document, for encode). The method is on [RESULTS.md](../RESULTS.md).\n",
        format_title(format)
    );
    for (name, run) in [("Native build", Some(native)), ("Portable build", portable)] {
        let Some(run) = run else { continue };
        let _ = write!(out, "\n## {name}\n\n{}\n", facts_line(run, name));
        out.push_str(
            "| input | arm | quarry MB/s | peer | peer MB/s | quarry ÷ peer |\n|---|---|---:|---|---:|---:|\n",
        );
        for r in run.rows.iter().filter(|r| r.format == format) {
            let ratio = r.ratio();
            let mark = if ratio < 1.0 { " (loss)" } else { "" };
            let _ = writeln!(
                out,
                "| {} | {} | {:.0} | {} | {:.0} | {ratio:.2}{mark} |",
                r.input, r.arm, r.quarry, r.peer, r.theirs
            );
        }
        let prefix = format!("{format} ");
        let dropped: Vec<&String> = run
            .dropped
            .iter()
            .filter(|d| d.starts_with(&prefix))
            .collect();
        if !dropped.is_empty() {
            out.push_str("\nNot measured (the peer fails on the input):\n\n");
            for d in dropped {
                let _ = writeln!(out, "- {d}");
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(format: &str, input: &str, arm: &str, peer: &str, quarry: f64, theirs: f64) -> Row {
        Row {
            format: format.into(),
            input: input.into(),
            arm: arm.into(),
            peer: peer.into(),
            quarry,
            theirs,
        }
    }

    fn run(rows: Vec<Row>) -> Run {
        Run {
            facts: vec![("date".into(), "2026-12-06".into())],
            rows,
            dropped: vec!["json big tree: simd-json fails on this input".into()],
        }
    }

    #[test]
    fn the_summary_is_the_geometric_mean_of_each_arm_and_peer() {
        let rows = vec![
            row("toml", "a", "tree", "toml", 400.0, 100.0),
            row("json", "a", "tree", "serde_json", 200.0, 100.0),
            row("json", "b", "tree", "serde_json", 800.0, 100.0),
        ];
        let summaries = summarize(&rows);
        assert_eq!(
            summaries[0].key(),
            "json|tree|serde_json",
            "JSON comes first"
        );
        assert!((summaries[0].mean() - 4.0).abs() < 1e-9);
        assert_eq!(summaries[0].lowest(), ("a", 2.0));
        assert_eq!(summaries[1].key(), "toml|tree|toml");
    }

    #[test]
    fn every_loss_is_on_the_page_with_or_without_a_reason() {
        let summaries = summarize(&[
            row("json", "a", "encode", "serde_json", 90.0, 100.0),
            row("json", "b", "encode", "serde_json", 120.0, 100.0),
            row("json", "a", "tree", "sonic-rs", 50.0, 100.0),
        ]);
        let reasons = BTreeMap::from([("json|encode|serde_json", "Because.")]);
        let mut warnings = Vec::new();
        let text = losses(&summaries, "json", &reasons, &mut warnings);
        assert!(text.contains(
            "**encode against serde_json:** 1 of 2 inputs under 1.0, the lowest 0.90 (a). Because."
        ));
        assert!(text.contains("**tree against sonic-rs:** 1 of 1 inputs under 1.0"));
        assert_eq!(
            warnings,
            ["page.md: no reason for the loss `json|tree|sonic-rs`"]
        );
    }

    #[test]
    fn the_page_carries_the_measured_figures() {
        let native = run(vec![
            row("json", "a", "tree", "serde_json", 300.0, 100.0),
            row("json", "b", "tree", "serde_json", 300.0, 100.0),
        ]);
        let portable = run(vec![
            row("json", "a", "tree", "serde_json", 150.0, 100.0),
            row("json", "b", "tree", "serde_json", 150.0, 100.0),
        ]);
        let (files, _) = render(&native, Some(&portable));
        let names: Vec<&str> = files.iter().map(|f| f.0.as_str()).collect();
        assert_eq!(
            names,
            ["RESULTS.md", "results/json.md", "results/chart.svg"]
        );
        let page = &files[0].1;
        assert!(page.contains("| json | tree | serde_json | 2 | **3.00** | 3.00 | 3.00 |"));
        assert!(!page.contains("{{"), "every placeholder is filled: {page}");
        assert!(files[1]
            .1
            .contains("| a | tree | 300 | serde_json | 100 | 3.00 |"));
        assert!(files[2].1.starts_with("<svg"));
    }
}
