use std::fmt::Write;

use quarry_raw_value::Position;

/// Draws the source line holding `position` with a caret under its column:
///
/// ```text
///   3 |   "port": 80,,
///     |              ^
/// ```
///
/// Used by the CLI for every format. Tabs are kept so the caret lines up in a terminal;
/// very long lines are cut around the column.
pub fn render_snippet(src: &[u8], position: Position) -> String {
    const WINDOW: usize = 100;
    let offset = position.offset.min(src.len());
    let line_start = src[..offset]
        .iter()
        .rposition(|&b| b == b'\n' || b == b'\r')
        .map_or(0, |i| i + 1);
    let line_end = src[offset..]
        .iter()
        .position(|&b| b == b'\n' || b == b'\r')
        .map_or(src.len(), |i| offset + i);
    let line = String::from_utf8_lossy(&src[line_start..line_end]);
    let chars: Vec<char> = line.chars().collect();
    let column = position.column.saturating_sub(1).min(chars.len());
    let first = column.saturating_sub(WINDOW / 2);
    let last = (first + WINDOW).min(chars.len());
    let mut shown = String::new();
    let mut pad = String::new();
    if first > 0 {
        shown.push('…');
        pad.push(' ');
    }
    for (i, &c) in chars[first..last].iter().enumerate() {
        let c = if c.is_control() && c != '\t' { '?' } else { c };
        shown.push(c);
        if first + i < column {
            pad.push(if c == '\t' { '\t' } else { ' ' });
        }
    }
    if last < chars.len() {
        shown.push('…');
    }
    let number = position.line.to_string();
    let gutter = " ".repeat(number.len());
    let mut out = String::new();
    let _ = writeln!(out, "{number} | {shown}");
    let _ = write!(out, "{gutter} | {pad}^");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::common::position_at;

    #[test]
    fn caret_sits_under_the_column() {
        let src = b"{\n  \"a\": 1,,\n}";
        let snippet = render_snippet(src, position_at(src, 11));
        assert_eq!(snippet, "2 |   \"a\": 1,,\n  |          ^");
    }

    #[test]
    fn long_lines_are_cut_and_end_of_input_works() {
        let src = format!("[{}", "1,".repeat(500));
        let snippet = render_snippet(src.as_bytes(), position_at(src.as_bytes(), src.len()));
        assert!(snippet.starts_with("1 | …"));
        assert!(snippet.ends_with('^'));
        assert!(snippet.lines().next().unwrap().chars().count() < 120);
    }
}
