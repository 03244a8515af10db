//! What the report binaries share: the date, the machine, and rewriting one section of
//! RESULTS.md.

/// `YYYY-MM-DD` of today (UTC), from the system clock.
pub fn today() -> String {
    let days = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() / 86_400) as i64;
    quarry::Date::from_days_since_unix_epoch(days).map_or_else(String::new, |d| d.to_string())
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

/// Replaces the section `name` of RESULTS.md (between its `bench-report:NAME` markers)
/// with `report`, or appends it; exits on a write error.
pub fn write_section(name: &str, report: &str) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../RESULTS.md");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let begin = format!("<!-- bench-report:{name}:begin -->");
    let end = format!("<!-- bench-report:{name}:end -->");
    let updated = match (text.find(&begin), text.find(&end)) {
        (Some(b), Some(e)) if b < e => format!(
            "{}{begin}\n{report}{end}{}",
            &text[..b],
            &text[e + end.len()..]
        ),
        _ => format!("{text}\n{begin}\n{report}{end}\n"),
    };
    if let Err(e) = std::fs::write(&path, updated) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(2);
    }
    eprintln!("rewrote the `{name}` section of {}", path.display());
}
