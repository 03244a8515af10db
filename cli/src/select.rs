//! `get` paths with wildcards: `servers[*].host`, `dependencies.*.version`.
//!
//! A pattern is matched against the document's value (what the struct door builds,
//! and what paths address in every format); each match is a concrete path, which the
//! format's tree then prints.

use quarry::decode::{Path as ValuePath, Segment};
use quarry::RawValue;

/// One step of a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    /// A concrete key or index.
    Exact(Segment),
    /// `[*]`: every item of a sequence.
    AnyIndex,
    /// `*`: every key of a map.
    AnyKey,
}

/// A path that may hold wildcards.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern {
    steps: Vec<Step>,
}

impl Pattern {
    /// Parses the CLI's path syntax plus `[*]` and a `*` key; `None` when malformed.
    pub fn parse(text: &str) -> Option<Pattern> {
        let mut steps = Vec::new();
        // The text between wildcards is an ordinary path.
        let mut plain = String::new();
        let flush = |plain: &mut String, steps: &mut Vec<Step>| -> Option<()> {
            let part = plain.trim_matches('.');
            if !part.is_empty() {
                let path = ValuePath::parse(part)?;
                steps.extend(path.segments.into_iter().map(Step::Exact));
            }
            plain.clear();
            Some(())
        };
        let mut rest = text;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix("[*]") {
                flush(&mut plain, &mut steps)?;
                steps.push(Step::AnyIndex);
                rest = after;
            } else if rest.starts_with('*') && (plain.is_empty() || plain.ends_with('.')) {
                let after = &rest[1..];
                if !(after.is_empty() || after.starts_with('.') || after.starts_with('[')) {
                    return None;
                }
                flush(&mut plain, &mut steps)?;
                steps.push(Step::AnyKey);
                rest = after;
            } else if rest.starts_with("[\"") {
                // A quoted key may hold `*` or `[*]`: copy it whole.
                let close = rest.find("\"]")? + 2;
                plain.push_str(&rest[..close]);
                rest = &rest[close..];
            } else {
                let ch = rest.chars().next()?;
                plain.push(ch);
                rest = &rest[ch.len_utf8()..];
            }
        }
        flush(&mut plain, &mut steps)?;
        (!steps.is_empty()).then_some(Pattern { steps })
    }

    /// True when the pattern can match more than one value.
    pub fn has_wildcard(&self) -> bool {
        self.steps.iter().any(|s| !matches!(s, Step::Exact(_)))
    }

    /// Every value the pattern matches in `value`, with its concrete path, in document
    /// order. With `xml`, a repeated element's name holds a sequence only when it
    /// repeats, so `[*]` and `[0]` also match an element that occurs once.
    pub fn matches<'v, 'a>(
        &self,
        value: &'v RawValue<'a>,
        xml: bool,
    ) -> Vec<(ValuePath, &'v RawValue<'a>)> {
        let mut found = vec![(Vec::new(), value)];
        for step in &self.steps {
            let mut next = Vec::new();
            for (path, value) in found {
                let mut push = |segment: Segment, child: &'v RawValue<'a>| {
                    let mut path: Vec<Segment> = path.clone();
                    path.push(segment);
                    next.push((path, child));
                };
                match (step, value) {
                    (Step::Exact(Segment::Key(key)), RawValue::Map(entries)) => {
                        if let Some((_, child)) = entries.iter().find(|(k, _)| k == key) {
                            push(Segment::Key(key.clone()), child);
                        }
                    }
                    (Step::Exact(Segment::Index(i)), RawValue::Seq(items)) => {
                        if let Some(child) = items.get(*i) {
                            push(Segment::Index(*i), child);
                        }
                    }
                    (Step::Exact(Segment::Index(0)) | Step::AnyIndex, _) if xml => {
                        push(Segment::Index(0), value)
                    }
                    (Step::AnyIndex, RawValue::Seq(items)) => {
                        for (i, child) in items.iter().enumerate() {
                            push(Segment::Index(i), child);
                        }
                    }
                    (Step::AnyKey, RawValue::Map(entries)) => {
                        // A repeated key matches once, as a lookup finds the first.
                        let mut seen: Vec<&str> = Vec::new();
                        for (key, child) in entries {
                            if !seen.contains(&&**key) {
                                seen.push(key);
                                push(Segment::Key(key.to_string()), child);
                            }
                        }
                    }
                    _ => {}
                }
            }
            found = next;
        }
        found
            .into_iter()
            .map(|(segments, value)| (ValuePath { segments }, value))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use super::*;

    fn value() -> RawValue<'static> {
        quarry::json::parse(
            br#"{"servers": [{"host": "a"}, {"host": "b"}, {"port": 1}],
                "deps": {"x": {"version": "1"}, "y": {"version": "2"}, "x": {"version": "3"}},
                "a*b": 1}"#,
        )
        .unwrap()
    }

    fn found(pattern: &str) -> Vec<String> {
        let v = value();
        Pattern::parse(pattern)
            .unwrap()
            .matches(&v, false)
            .into_iter()
            .map(|(path, value)| format!("{path}={}", quarry::json::to_string(value).unwrap()))
            .collect()
    }

    #[test]
    fn wildcards_match_every_item_and_key_in_order() {
        assert_eq!(
            found("servers[*].host"),
            [r#"servers[0].host="a""#, r#"servers[1].host="b""#]
        );
        assert_eq!(
            found("deps.*.version"),
            [r#"deps.x.version="1""#, r#"deps.y.version="2""#]
        );
        assert_eq!(found("*").len(), 3);
        assert_eq!(found("servers[1]"), [r#"servers[1]={"host":"b"}"#]);
        assert!(found("servers[*].nope").is_empty());
        // A quoted key is a key, whatever it holds.
        assert_eq!(found(r#"["a*b"]"#), [r#"["a*b"]=1"#]);
        assert!(!Pattern::parse("servers[0].host").unwrap().has_wildcard());
        assert!(Pattern::parse("servers[*]").unwrap().has_wildcard());
    }

    #[test]
    fn malformed_patterns_are_refused() {
        for bad in ["", "a.*b", "a[", "[x]"] {
            assert_eq!(Pattern::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn xml_matches_a_single_element_as_a_sequence_of_one() {
        let text = |s: &'static str| RawValue::Text(Cow::Borrowed(s));
        let one = RawValue::Map(vec![(Cow::Borrowed("item"), text("x"))]);
        let pattern = Pattern::parse("item[*]").unwrap();
        assert_eq!(pattern.matches(&one, true).len(), 1);
        assert_eq!(pattern.matches(&one, false).len(), 0);
    }
}
