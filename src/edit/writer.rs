//! The writer: the text of each splice, in the style of what surrounds it. Scalars keep
//! their quoting, entries their siblings' indentation and separators; TOML entries go in
//! their table's own section (before its sub-tables), beside dotted-key siblings, or under
//! a new header, and a TOML section or array of tables is removed to where the next
//! section's header begins.

use std::borrow::Cow;

use super::plan::{
    column_indent, first_on_line, indentation, line_end, line_start, skip_space,
    skip_space_on_line, slice, splice, trim_trailing_space, with_leading_comments, Splice,
};
use super::view::{Kind, Style, View};
use super::EditError;
use crate::{Format, RawValue, Segment, Span};

/// Writes splices into `text`, a document in `format`.
pub(super) struct Writer<'t> {
    text: &'t str,
    format: Format,
}

impl<'t> Writer<'t> {
    pub(super) fn new(text: &'t str, format: Format) -> Self {
        Writer { text, format }
    }

    /// A scalar or flow value written inline, in `style` where the value allows.
    pub(super) fn inline(
        &self,
        value: &RawValue<'_>,
        style: Option<Style>,
    ) -> Result<String, EditError> {
        let err = |e: crate::EncodeError| EditError::Encode(e.to_string());
        match self.format {
            Format::Json | Format::Jsonc => crate::json::to_string(value).map_err(err),
            Format::Toml => {
                if let (RawValue::String(s), Some(Style::SingleQuoted)) = (value, style) {
                    if !s.contains(['\'', '\n', '\r']) && !s.chars().any(char::is_control) {
                        return Ok(format!("'{s}'"));
                    }
                }
                crate::toml::inline_value(value).map_err(err)
            }
            Format::Yaml => {
                if let RawValue::String(s) = value {
                    let safe = !s.chars().any(|c| c.is_control());
                    match style {
                        Some(Style::SingleQuoted) if safe => {
                            return Ok(format!("'{}'", s.replace('\'', "''")))
                        }
                        Some(Style::DoubleQuoted) => {
                            return crate::json::to_string(value).map_err(err)
                        }
                        _ => {}
                    }
                }
                let flow = crate::yaml::to_string_flow(value).map_err(err)?;
                Ok(flow.trim_end_matches('\n').to_owned())
            }
            other => Err(EditError::Unsupported(other)),
        }
    }

    /// A key as the format writes it.
    fn key(&self, key: &str) -> Result<String, EditError> {
        match self.format {
            Format::Toml => Ok(crate::toml::key_text(key)),
            _ => self.inline(&RawValue::String(Cow::Borrowed(key)), None),
        }
    }

    pub(super) fn set(
        &self,
        view: &View,
        target: usize,
        value: &RawValue<'static>,
        parent: usize,
        last: Option<&Segment>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[target];
        match node.kind {
            Kind::Scalar(style) => {
                let flow_container = matches!(value, RawValue::Map(m) if !m.is_empty())
                    || matches!(value, RawValue::Seq(s) if !s.is_empty());
                if self.format == Format::Yaml && node.span.start == node.span.end {
                    if let Some(splices) = self.set_empty(view, value, parent, last)? {
                        return Ok(splices);
                    }
                }
                if self.format == Format::Yaml && flow_container && self.block_parent(view, parent)
                {
                    return self.replace_block(view, target, value, parent, last);
                }
                // A string where there was none is quoted as its siblings' strings are.
                let style = match (style, value) {
                    (Style::Plain, RawValue::String(_)) if self.format != Format::Yaml => {
                        sibling_string_style(view, parent).unwrap_or(style)
                    }
                    _ => style,
                };
                let text = self.inline(value, Some(style))?;
                Ok(vec![splice(node.span.start..node.span.end, text)])
            }
            Kind::Flow { .. } | Kind::Alias => {
                let text = self.inline(value, None)?;
                Ok(vec![splice(node.span.start..node.span.end, text)])
            }
            Kind::Block { .. } => self.replace_block(view, target, value, parent, last),
            Kind::Section | Kind::Implicit | Kind::Dotted | Kind::TableArray => {
                Err(EditError::CannotPlace(
                    "a TOML table is replaced by removing it and inserting the new value".into(),
                ))
            }
        }
    }

    /// YAML: `value` written where an empty node is (its span only marks a place): after
    /// its entry's `:` or its item's `-` and the anchor it keeps (a tag there typed the
    /// empty node, and goes); under an explicit `? key` without a `:`, on a `:` line of
    /// its own; after a flow key alone, with a `:`. `None` for an empty node elsewhere.
    fn set_empty(
        &self,
        view: &View,
        value: &RawValue<'static>,
        parent: usize,
        last: Option<&Segment>,
    ) -> Result<Option<Vec<Splice>>, EditError> {
        let p = &view.nodes[parent];
        let block = matches!(p.kind, Kind::Block { .. });
        // Where the entry starts, and where the value's text goes (after an indicator).
        let (entry_start, indicator) = match (last, p.kind) {
            (Some(Segment::Key(k)), Kind::Block { map: true } | Kind::Flow { map: true }) => {
                let (_, key, _) = p
                    .entries
                    .iter()
                    .rev()
                    .find(|(name, _, _)| name == k)
                    .ok_or_else(|| EditError::NotFound(k.clone()))?;
                let start = self.yaml_entry_start(key.start);
                let colon = skip_space(self.text, key.end, self.format);
                let bytes = self.text.as_bytes();
                let found = bytes.get(colon) == Some(&b':')
                    && match bytes.get(colon + 1) {
                        None => true,
                        Some(b) => b.is_ascii_whitespace() || matches!(b, b',' | b'}' | b']'),
                    };
                if !found {
                    let text = self.inline(value, None)?;
                    let key_end = trim_trailing_space(self.text, key.start, key.end);
                    if !block {
                        // `{a, b: c}`: the key alone gets its `:` (apart from a `?`).
                        let gap = if self.text[..key_end].ends_with('?') {
                            " "
                        } else {
                            ""
                        };
                        let text = format!("{gap}: {text}");
                        return Ok(Some(vec![splice(key_end..key_end, text)]));
                    }
                    // `? a` alone: a `:` line under the `?`, after the key's line.
                    let eol = line_end(self.text, key_end);
                    let at = match self.text[..eol].strip_suffix('\n') {
                        Some(line) => line.strip_suffix('\r').unwrap_or(line).len(),
                        None => eol,
                    };
                    let indent = column_indent(self.text, start);
                    let text = self.block_or_inline(value, &format!("{indent}  "), text)?;
                    return Ok(Some(vec![splice(at..at, format!("\n{indent}:{text}"))]));
                }
                (start, colon + 1)
            }
            (Some(Segment::Index(i)), Kind::Block { map: false }) => {
                let item = *p
                    .items
                    .get(*i)
                    .ok_or_else(|| EditError::NotFound(i.to_string()))?;
                let dash = self.dash_before(view.nodes[item].span.start);
                (dash, dash + 1)
            }
            _ => return Ok(None),
        };
        // The properties after the indicator: anchors stay, tags go.
        let end = self.properties_end(indicator);
        let anchors: Vec<&str> = self.text[indicator..end]
            .split_whitespace()
            .filter(|t| t.starts_with('&'))
            .collect();
        let mut text = self.inline(value, None)?;
        if block {
            let indent = format!("{}  ", column_indent(self.text, entry_start));
            text = self.block_or_inline(value, &indent, text)?;
        } else {
            text = format!(" {text}");
        }
        let props: String = anchors.iter().map(|a| format!(" {a}")).collect();
        Ok(Some(vec![splice(indicator..end, format!("{props}{text}"))]))
    }

    /// ` value` on the line, or a non-empty collection in block style on the lines
    /// below, indented by `indent`.
    fn block_or_inline(
        &self,
        value: &RawValue<'static>,
        indent: &str,
        inline: String,
    ) -> Result<String, EditError> {
        match value {
            RawValue::Map(m) if !m.is_empty() => Ok(format!("\n{}", self.block(value, indent)?)),
            RawValue::Seq(s) if !s.is_empty() => Ok(format!("\n{}", self.block(value, indent)?)),
            _ => Ok(format!(" {inline}")),
        }
    }

    fn block_parent(&self, view: &View, parent: usize) -> bool {
        matches!(view.nodes[parent].kind, Kind::Block { .. })
    }

    /// YAML: a value under a block key (or item) replaced by `value`, written after the
    /// key's `:` (or the item's `-`): a scalar on the same line, a collection in block
    /// style below it.
    fn replace_block(
        &self,
        view: &View,
        target: usize,
        value: &RawValue<'static>,
        parent: usize,
        last: Option<&Segment>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[target];
        let (start, indent) = match (last, view.nodes[parent].kind) {
            (Some(Segment::Key(k)), Kind::Block { map: true }) => {
                let (_, key_span, _) = view.nodes[parent]
                    .entries
                    .iter()
                    .rev()
                    .find(|(key, _, _)| key == k)
                    .ok_or_else(|| EditError::NotFound(k.clone()))?;
                let colon = self.text[key_span.end..node.span.start.max(key_span.end)]
                    .find(':')
                    .map_or(key_span.end, |i| key_span.end + i + 1);
                (
                    colon,
                    format!("{}  ", column_indent(self.text, key_span.start)),
                )
            }
            (Some(Segment::Index(_)), Kind::Block { map: false }) => {
                let dash = self.text[..node.span.start]
                    .rfind('-')
                    .map_or(node.span.start, |i| i + 1);
                (
                    dash,
                    format!("{}  ", column_indent(self.text, dash.saturating_sub(1))),
                )
            }
            _ => {
                let text = self.inline(value, None)?;
                return Ok(vec![splice(node.span.start..node.span.end, text)]);
            }
        };
        let end = trim_trailing_space(self.text, start, node.span.end);
        let text = match value {
            RawValue::Map(m) if !m.is_empty() => format!("\n{}", self.block(value, &indent)?),
            RawValue::Seq(s) if !s.is_empty() => format!("\n{}", self.block(value, &indent)?),
            _ => format!(" {}", self.inline(value, None)?),
        };
        Ok(vec![splice(start..end, text)])
    }

    /// `value` in YAML block style, every line indented by `indent`, without the final
    /// line break.
    fn block(&self, value: &RawValue<'static>, indent: &str) -> Result<String, EditError> {
        let text = crate::yaml::to_string(value).map_err(|e| EditError::Encode(e.to_string()))?;
        let text = text.strip_prefix("---\n").unwrap_or(&text);
        let lines: Vec<String> = text
            .trim_end_matches('\n')
            .lines()
            .map(|l| format!("{indent}{l}"))
            .collect();
        Ok(lines.join("\n"))
    }

    pub(super) fn insert(
        &self,
        view: &View,
        parent: usize,
        key: &str,
        value: &RawValue<'static>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[parent];
        let key_text = self.key(key)?;
        match node.kind {
            Kind::Flow { map: true } => {
                let pair = match self.format {
                    Format::Toml => format!("{key_text} = {}", self.inline(value, None)?),
                    _ => format!("{key_text}: {}", self.inline(value, None)?),
                };
                self.flow_append(view, parent, pair)
            }
            Kind::Block { map: true } => {
                let last = node
                    .entries
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty block mapping".into()))?;
                let indent = column_indent(self.text, last.1.start);
                let end = self.entry_end(view, last.2);
                let at = line_end(self.text, end);
                let line = match value {
                    RawValue::Map(m) if !m.is_empty() => {
                        format!(
                            "{indent}{key_text}:\n{}",
                            self.block(value, &format!("{indent}  "))?
                        )
                    }
                    RawValue::Seq(s) if !s.is_empty() => {
                        format!(
                            "{indent}{key_text}:\n{}",
                            self.block(value, &format!("{indent}  "))?
                        )
                    }
                    _ => format!("{indent}{key_text}: {}", self.inline(value, None)?),
                };
                Ok(vec![self.line_at(at, &line)])
            }
            Kind::Section => {
                if is_big_table(value) {
                    if let Some(splice) = self.new_section(view, parent, key, value)? {
                        return Ok(vec![splice]);
                    }
                }
                let line = format!("{key_text} = {}", self.inline(value, None)?);
                let (at, indent) = self.section_insert_point(view, parent);
                Ok(vec![self.line_at(at, &format!("{indent}{line}"))])
            }
            Kind::Dotted => {
                // Beside its siblings, with the prefix they are written with (a sub-table
                // under a header of its own is no sibling line).
                let (_, key_span, child) = node
                    .entries
                    .iter()
                    .rev()
                    .find(|(_, _, c)| !is_header_kind(view.nodes[*c].kind))
                    .ok_or_else(|| EditError::CannotPlace("an empty dotted table".into()))?;
                let start = line_start(self.text, key_span.start);
                let indent = indentation(self.text, key_span.start);
                let prefix = slice(self.text, start + indent.len(), key_span.start);
                let end = self.entry_end(view, *child);
                let at = line_end(self.text, end);
                let line = format!("{indent}{prefix}{key_text} = {}", self.inline(value, None)?);
                Ok(vec![self.line_at(at, &line)])
            }
            Kind::Implicit => {
                // A header of its own, just before its first sub-table's header.
                let first = self
                    .first_header_within(view, parent)
                    .ok_or_else(|| EditError::CannotPlace("a table without a header".into()))?;
                let at =
                    with_leading_comments(self.text, line_start(self.text, first), self.format);
                let header = self.header_path(view, parent)?;
                let text = format!("[{header}]\n{key_text} = {}\n\n", self.inline(value, None)?);
                Ok(vec![splice(at..at, text)])
            }
            _ => Err(EditError::WrongKind {
                path: key.to_owned(),
                expected: "a key of a map",
            }),
        }
    }

    /// A whole line inserted at `at` (a line start, or the end of a text without a final
    /// line break).
    fn line_at(&self, at: usize, line: &str) -> Splice {
        if at > 0 && !self.text[..at].ends_with('\n') {
            splice(at..at, format!("\n{line}"))
        } else {
            splice(at..at, format!("{line}\n"))
        }
    }

    /// Where a TOML section's last key/value line ends (or its header's line), and the
    /// indentation of its lines.
    fn section_insert_point(&self, view: &View, section: usize) -> (usize, String) {
        let node = &view.nodes[section];
        let own: Vec<&(String, Span, usize)> = node
            .entries
            .iter()
            .filter(|(_, _, c)| {
                !matches!(
                    view.nodes[*c].kind,
                    Kind::Section | Kind::Implicit | Kind::TableArray
                )
            })
            .collect();
        match own.iter().max_by_key(|(_, _, c)| self.entry_end(view, *c)) {
            Some((_, key_span, child)) => {
                let end = self.entry_end(view, *child);
                (
                    line_end(self.text, end),
                    indentation(self.text, key_span.start).to_owned(),
                )
            }
            None if section == 0 => {
                // Keys of the root go before the first header.
                let first = self.first_header_within(view, 0);
                match first {
                    Some(h) => (
                        with_leading_comments(self.text, line_start(self.text, h), self.format),
                        String::new(),
                    ),
                    None => (self.text.len(), String::new()),
                }
            }
            None => (line_end(self.text, node.span.end), String::new()),
        }
    }

    /// Where the text of an entry's value ends (a dotted table: its last entry's).
    fn entry_end(&self, view: &View, node: usize) -> usize {
        let n = &view.nodes[node];
        let mut end = n.span.end;
        if matches!(n.kind, Kind::Dotted) {
            for (_, _, c) in &n.entries {
                end = end.max(self.entry_end(view, *c));
            }
        }
        end
    }

    /// The start of the first `[header]` among `node`'s descendants (in TOML).
    fn first_header_within(&self, view: &View, node: usize) -> Option<usize> {
        let mut best: Option<usize> = None;
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            for (_, _, c) in &view.nodes[n].entries {
                let child = &view.nodes[*c];
                match child.kind {
                    Kind::Section => {
                        best = Some(best.map_or(child.span.start, |b| b.min(child.span.start)))
                    }
                    Kind::TableArray => {
                        for &i in &child.items {
                            let s = view.nodes[i].span.start;
                            best = Some(best.map_or(s, |b| b.min(s)));
                        }
                    }
                    Kind::Implicit => stack.push(*c),
                    _ => {}
                }
            }
        }
        best
    }

    /// TOML: `value` as a new `[section.key]` table (and its sub-tables) after the
    /// section's own text; `None` when the section has no header path (a table in an
    /// array of tables), where the value is written inline instead.
    fn new_section(
        &self,
        view: &View,
        section: usize,
        key: &str,
        value: &RawValue<'static>,
    ) -> Result<Option<Splice>, EditError> {
        let Some(mut path) = header_keys(view, 0, section) else {
            return Ok(None);
        };
        if view.nodes[section].kind != Kind::Section || (section != 0 && path.is_empty()) {
            return Ok(None);
        }
        path.push(key.to_owned());
        let mut wrapped = value.clone();
        for k in path.iter().rev() {
            wrapped = RawValue::Map(vec![(Cow::Owned(k.clone()), wrapped)]);
        }
        let body =
            crate::toml::to_string(&wrapped).map_err(|e| EditError::Encode(e.to_string()))?;
        let at = self.section_end(view, section, true);
        let before = &self.text[..at];
        let lead = if before.is_empty() || before.ends_with("\n\n") {
            ""
        } else if before.ends_with('\n') {
            "\n"
        } else {
            "\n\n"
        };
        Ok(Some(splice(at..at, format!("{lead}{body}"))))
    }

    /// The dotted key path of a TOML table, for a new `[header]` (inside an array of
    /// tables, the header names the array's last table so far: it is written within that
    /// table's sections).
    fn header_path(&self, view: &View, target: usize) -> Result<String, EditError> {
        fn find(view: &View, at: usize, target: usize, path: &mut Vec<String>) -> bool {
            if at == target {
                return true;
            }
            if view.nodes[at].kind == Kind::TableArray {
                return view.nodes[at]
                    .items
                    .iter()
                    .any(|&i| find(view, i, target, path));
            }
            for (k, _, c) in &view.nodes[at].entries {
                path.push(k.clone());
                if find(view, *c, target, path) {
                    return true;
                }
                path.pop();
            }
            false
        }
        let mut path = Vec::new();
        if !find(view, 0, target, &mut path) {
            return Err(EditError::CannotPlace(
                "a table inside an inline value".into(),
            ));
        }
        Ok(path
            .iter()
            .map(|k| crate::toml::key_text(k))
            .collect::<Vec<_>>()
            .join("."))
    }

    /// `{a: 1}` / `[1]` with one more member: after the last (and its trailing comma, if
    /// it has one), separated as the members before it are.
    fn flow_append(
        &self,
        view: &View,
        parent: usize,
        member: String,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[parent];
        let last_end = match (node.entries.last(), node.items.last()) {
            (Some((_, _, c)), _) => Some(view.nodes[*c].span.end),
            (None, Some(c)) => Some(view.nodes[*c].span.end),
            (None, None) => None,
        };
        let Some(last_end) = last_end else {
            // Empty: right after the opening bracket.
            let open = self.flow_open(node.span) + 1;
            let inner = slice(self.text, open, node.span.end.saturating_sub(1));
            let text = match (self.format, inner.trim().is_empty()) {
                (Format::Toml, _)
                    if node.entries.is_empty() && matches!(node.kind, Kind::Flow { map: true }) =>
                {
                    format!(" {member} ")
                }
                _ => member,
            };
            let close = node.span.end.saturating_sub(1);
            return Ok(vec![splice(open..close, text)]);
        };
        // The separator: what stands between the first member and the one before it.
        let first_start = match (node.entries.first(), node.items.first()) {
            (Some((_, key_span, _)), _) => key_span.start,
            (None, Some(c)) => view.nodes[*c].span.start,
            _ => last_end,
        };
        let multiline = slice(self.text, node.span.start, first_start).contains('\n');
        let sep = if multiline {
            let last_start = match (node.entries.last(), node.items.last()) {
                (Some((_, key_span, _)), _) => key_span.start,
                (None, Some(c)) => view.nodes[*c].span.start,
                _ => last_end,
            };
            format!("\n{}", indentation(self.text, last_start))
        } else {
            " ".to_owned()
        };
        let after = skip_space_on_line(self.text, last_end, self.format);
        let trailing_comma = self.text[after..].starts_with(',');
        let comma_end = if trailing_comma { after + 1 } else { last_end };
        if multiline {
            // On a line of its own, after whatever comment ends the last member's line.
            let eol = self.text[comma_end..]
                .find('\n')
                .map_or(self.text.len(), |i| comma_end + i);
            let close = node.span.end.saturating_sub(1);
            if eol < close && eol > comma_end {
                let mut splices = Vec::new();
                if !trailing_comma {
                    splices.push(splice(last_end..last_end, ","));
                }
                let tail = if trailing_comma { "," } else { "" };
                splices.push(splice(eol..eol, format!("{sep}{member}{tail}")));
                return Ok(splices);
            }
        }
        if trailing_comma {
            // A trailing comma: the new member goes after it and keeps one.
            return Ok(vec![splice(
                comma_end..comma_end,
                format!("{sep}{member},"),
            )]);
        }
        Ok(vec![splice(last_end..last_end, format!(",{sep}{member}"))])
    }

    pub(super) fn push(
        &self,
        view: &View,
        target: usize,
        value: &RawValue<'static>,
    ) -> Result<Vec<Splice>, EditError> {
        let node = &view.nodes[target];
        match node.kind {
            Kind::Flow { map: false } => {
                let item = self.inline(value, None)?;
                self.flow_append(view, target, item)
            }
            Kind::Block { map: false } => {
                let last = *node
                    .items
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty block sequence".into()))?;
                let item_start = view.nodes[last].span.start;
                let dash = self.dash_before(item_start);
                let indent = column_indent(self.text, dash);
                let at = line_end(self.text, view.nodes[last].span.end);
                let line = match value {
                    RawValue::Map(m) if !m.is_empty() => {
                        let block = self.block(value, &format!("{indent}  "))?;
                        format!("{indent}- {}", block.trim_start())
                    }
                    RawValue::Seq(s) if !s.is_empty() => {
                        let block = self.block(value, &format!("{indent}  "))?;
                        format!("{indent}- {}", block.trim_start())
                    }
                    _ => format!("{indent}- {}", self.inline(value, None)?),
                };
                Ok(vec![self.line_at(at, &line)])
            }
            Kind::TableArray => {
                let RawValue::Map(entries) = value else {
                    return Err(EditError::WrongKind {
                        path: "the array of tables".into(),
                        expected: "a table to push",
                    });
                };
                let last = *node
                    .items
                    .last()
                    .ok_or_else(|| EditError::CannotPlace("an empty array of tables".into()))?;
                let header = self.text[line_start(self.text, view.nodes[last].span.start)..]
                    .lines()
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_owned();
                let end = self.section_end(view, last, true);
                let mut text = String::new();
                if !self.text[..end].ends_with("\n\n") {
                    text.push('\n');
                }
                text.push_str(&header);
                text.push('\n');
                for (k, v) in entries {
                    text.push_str(&format!("{} = {}\n", self.key(k)?, self.inline(v, None)?));
                }
                let at = end;
                let prefix = if at > 0 && !self.text[..at].ends_with('\n') {
                    "\n"
                } else {
                    ""
                };
                Ok(vec![splice(at..at, format!("{prefix}{text}"))])
            }
            _ => Err(EditError::WrongKind {
                path: "the value".into(),
                expected: "a sequence",
            }),
        }
    }

    /// The end of a TOML section's text: the start of the next header that is not one of
    /// its own sub-tables' (with that header's leading comments), or the end.
    fn section_end(&self, view: &View, section: usize, keep_blank: bool) -> usize {
        let start = view.nodes[section].span.start;
        let own_end = self.subtree_end(view, section);
        let mut next = self.text.len();
        for n in &view.nodes {
            let s = n.span.start;
            if matches!(n.kind, Kind::Section)
                && s > own_end.max(start)
                && s < next
                && self.is_header_at(s)
            {
                next = s;
            }
        }
        let next_line = line_start(self.text, next.min(self.text.len()));
        if next >= self.text.len() {
            return self.text.len();
        }
        let with_comments = with_leading_comments(self.text, next_line, self.format);
        // Leave a blank line that separates sections where it is, when asked.
        let mut end = with_comments;
        while keep_blank && end > 0 && self.text[..end].ends_with("\n\n") {
            end -= 1;
        }
        end
    }

    fn is_header_at(&self, pos: usize) -> bool {
        self.text[pos..].starts_with('[')
    }

    /// The furthest span end in a node's subtree.
    fn subtree_end(&self, view: &View, node: usize) -> usize {
        let n = &view.nodes[node];
        let mut end = n.span.end;
        for (_, _, c) in &n.entries {
            end = end.max(self.subtree_end(view, *c));
        }
        for c in &n.items {
            end = end.max(self.subtree_end(view, *c));
        }
        end
    }

    /// The splices that remove `target` from its parent, the last node of `trail` (the
    /// nodes from the root down, at `parent_path`).
    pub(super) fn remove(
        &self,
        view: &View,
        trail: &[usize],
        parent_path: &[Segment],
        target: usize,
    ) -> Result<Vec<Splice>, EditError> {
        let parent = *trail.last().unwrap_or(&0);
        let p = &view.nodes[parent];
        if self.format == Format::Toml {
            // Inside an inline table, dotted keys are members like any other.
            let inline = trail
                .iter()
                .rev()
                .take_while(|&&n| {
                    matches!(view.nodes[n].kind, Kind::Dotted | Kind::Flow { map: true })
                })
                .find(|&&n| matches!(view.nodes[n].kind, Kind::Flow { map: true }));
            if let Some(&flow) = inline {
                if p.kind == Kind::Dotted
                    || view.nodes[flow]
                        .entries
                        .iter()
                        .any(|e| view.nodes[e.2].kind == Kind::Dotted)
                {
                    return self.inline_table_remove(view, flow, target);
                }
            }
        }
        match p.kind {
            Kind::Flow { map } => {
                // The member and one comma beside it.
                let yaml = self.format == Format::Yaml;
                let members: Vec<(usize, usize)> = if map {
                    p.entries
                        .iter()
                        .map(|(_, ks, c)| match yaml {
                            true => (
                                self.yaml_entry_start(ks.start),
                                self.yaml_entry_end(*ks, view.nodes[*c].span),
                            ),
                            false => (ks.start, view.nodes[*c].span.end),
                        })
                        .collect()
                } else {
                    p.items
                        .iter()
                        .map(|c| {
                            let span = view.nodes[*c].span;
                            match yaml {
                                true => (self.yaml_entry_start(span.start), span.end),
                                false => (span.start, span.end),
                            }
                        })
                        .collect()
                };
                let i = if map {
                    p.entries.iter().position(|(_, _, c)| *c == target)
                } else {
                    p.items.iter().position(|&c| c == target)
                }
                .ok_or_else(|| EditError::CannotPlace("a member not found".into()))?;
                let (start, end) = members[i];
                let open = self.flow_open(p.span);
                if yaml && map && !self.text[open..].starts_with('{') {
                    // A single pair in a flow sequence (`[a: b]`) left empty is `{}`.
                    return Ok(vec![splice(start..end, "{}")]);
                }
                let range = if i + 1 < members.len() {
                    start..members[i + 1].0
                } else if i > 0 {
                    members[i - 1].1..end
                } else {
                    let open = open + 1;
                    let close = p.span.end - 1;
                    let inner_end = skip_space(self.text, end, self.format);
                    let inner_end = if self.text[inner_end..].starts_with(',') {
                        inner_end + 1
                    } else {
                        end
                    };
                    if matches!(self.format, Format::Toml) {
                        open..close
                    } else {
                        start.max(open)..inner_end.min(close)
                    }
                };
                Ok(vec![splice(range, "")])
            }
            Kind::Block { map } => {
                // Where each member starts (its key, the `?` and properties before it, or
                // its item's `-`) and ends (an empty value: after its `:`).
                let members: Vec<(usize, usize)> = if map {
                    p.entries
                        .iter()
                        .map(|(_, key_span, c)| {
                            (
                                self.yaml_entry_start(key_span.start),
                                self.yaml_entry_end(*key_span, view.nodes[*c].span),
                            )
                        })
                        .collect()
                } else {
                    p.items
                        .iter()
                        .map(|&c| {
                            let span = view.nodes[c].span;
                            let dash = self.dash_before(span.start);
                            (dash, self.yaml_item_end(dash, span))
                        })
                        .collect()
                };
                let i = if map {
                    p.entries.iter().position(|(_, _, c)| *c == target)
                } else {
                    p.items.iter().position(|&c| c == target)
                }
                .ok_or_else(|| EditError::CannotPlace("an entry not found".into()))?;
                let (start, end) = members[i];
                if members.len() == 1 {
                    return self.empty_block(view, trail, parent_path, (start, end), map);
                }
                if !first_on_line(self.text, start) {
                    // The first entry of a compact collection (`- a: 1` over `  b: 2`):
                    // the next entry moves up into its place.
                    let next = members
                        .get(i + 1)
                        .map(|m| m.0)
                        .ok_or_else(|| EditError::CannotPlace("an entry not found".into()))?;
                    return Ok(vec![splice(start..next, "")]);
                }
                // The comment lines above, but not into the previous entry's text (a block
                // scalar's lines can read as comments).
                let floor = match i.checked_sub(1).map(|j| members[j]) {
                    Some((a, b)) => line_end(self.text, trim_trailing_space(self.text, a, b)),
                    None => 0,
                };
                let from =
                    with_leading_comments(self.text, line_start(self.text, start), self.format)
                        .max(floor);
                let to = line_end(self.text, trim_trailing_space(self.text, start, end));
                Ok(vec![splice(from..to, "")])
            }
            Kind::Section | Kind::Dotted | Kind::Implicit | Kind::TableArray => {
                self.toml_remove(view, trail, target)
            }
            _ => Err(EditError::CannotPlace("cannot remove from here".into())),
        }
    }

    /// TOML: the splices that remove `target` from its table or array of tables. A
    /// table's text is spread: every section of its subtree goes, from its header to the
    /// next header, and so does every `key = value` line of it written elsewhere (dotted
    /// keys in an enclosing section), each with the comment lines directly above it. A
    /// table left empty stays (as `a.b = {}` where its dotted keys were, as a `[a.b]`
    /// header where its sub-tables were), and an array of tables left empty is written
    /// `key = []` in its table.
    fn toml_remove(
        &self,
        view: &View,
        trail: &[usize],
        target: usize,
    ) -> Result<Vec<Splice>, EditError> {
        let parent = *trail.last().unwrap_or(&0);
        let p = &view.nodes[parent];
        // The key's span; an array of tables' table has its header.
        let key_span = p
            .entries
            .iter()
            .find(|(_, _, c)| *c == target)
            .map(|e| e.1)
            .or_else(|| p.items.contains(&target).then_some(view.nodes[target].span))
            .ok_or_else(|| EditError::CannotPlace("an entry not found".into()))?;
        // Every header of the document, in order.
        let mut headers: Vec<usize> = view.nodes[1..]
            .iter()
            .filter(|n| n.kind == Kind::Section && self.is_header_at(n.span.start))
            .map(|n| n.span.start)
            .collect();
        headers.sort_unstable();
        let mut sections = Vec::new();
        let mut lines = Vec::new();
        self.toml_text_of(view, target, key_span, &mut sections, &mut lines);
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        for &h in &sections {
            let from = with_leading_comments(self.text, line_start(self.text, h), self.format);
            let to = headers
                .iter()
                .find(|&&next| next > h)
                .map_or(self.text.len(), |&next| {
                    with_leading_comments(self.text, line_start(self.text, next), self.format)
                });
            ranges.push((from, to));
        }
        // Lines inside a removed section go with it.
        let in_section = |pos: usize| ranges.iter().any(|&(a, b)| a <= pos && pos < b);
        let lines: Vec<(usize, usize)> = lines
            .into_iter()
            .filter(|&(line, _)| !in_section(line))
            .collect();
        let first_line = lines.iter().map(|l| l.0).min();
        for &(line, end) in &lines {
            let from = with_leading_comments(self.text, line, self.format);
            ranges.push((from, line_end(self.text, end)));
        }
        ranges.sort_unstable();
        let mut splices: Vec<Splice> = Vec::new();
        for (from, to) in ranges {
            match splices.last_mut() {
                Some(last) if from <= last.range.end => last.range.end = last.range.end.max(to),
                _ => splices.push(splice(from..to, "")),
            }
        }
        let emptied = p.entries.len() + p.items.len() == 1;
        if !emptied {
            return Ok(splices);
        }
        let owner = trail.len().checked_sub(2).map(|o| trail[o]);
        let owner_key = owner.and_then(|o| {
            view.nodes[o]
                .entries
                .iter()
                .find(|(_, _, c)| *c == parent)
                .map(|(k, span, _)| (o, k.as_str(), *span))
        });
        match p.kind {
            // An emptied dotted table stays as `a.b = {}` on the first line that named it.
            Kind::Dotted => {
                let ((_, _, p_key), line) = owner_key.zip(first_line).ok_or_else(|| {
                    EditError::CannotPlace("an emptied dotted table without its line".into())
                })?;
                let indent = indentation(self.text, line);
                let prefix = slice(self.text, line + indent.len(), p_key.end);
                let text = format!("{indent}{prefix} = {{}}\n");
                merge_insert(&mut splices, splice(line..line, text));
            }
            // An emptied table that only sub-tables' headers made gets a header of its own.
            Kind::Implicit => {
                let at = splices.first().map_or(0, |s| s.range.start);
                let text = format!("[{}]\n", self.header_path(view, parent)?);
                merge_insert(&mut splices, splice(at..at, text));
            }
            // An emptied array of tables is written `key = []` in its table.
            Kind::TableArray => {
                let (owner, key, _) = owner_key.ok_or_else(|| {
                    EditError::CannotPlace("an array of tables without its table".into())
                })?;
                for insert in self.insert(view, owner, key, &RawValue::Seq(Vec::new()))? {
                    merge_insert(&mut splices, insert);
                }
            }
            _ => {}
        }
        Ok(splices)
    }

    /// The text of a TOML node under the key at `key_span`: the header starts of the
    /// sections in its subtree, and the `(line start, value end)` of each of its
    /// `key = value` lines.
    fn toml_text_of(
        &self,
        view: &View,
        node: usize,
        key_span: Span,
        sections: &mut Vec<usize>,
        lines: &mut Vec<(usize, usize)>,
    ) {
        let n = &view.nodes[node];
        match n.kind {
            Kind::Section | Kind::Implicit | Kind::Dotted | Kind::TableArray => {
                if n.kind == Kind::Section && self.is_header_at(n.span.start) {
                    sections.push(n.span.start);
                }
                for (_, span, c) in &n.entries {
                    self.toml_text_of(view, *c, *span, sections, lines);
                }
                if n.kind == Kind::TableArray {
                    for &i in &n.items {
                        self.toml_text_of(view, i, view.nodes[i].span, sections, lines);
                    }
                }
            }
            _ => lines.push((line_start(self.text, key_span.start), n.span.end)),
        }
    }

    /// YAML: where the entry whose key starts at `key` begins: at the properties
    /// (`&anchor`, `!tag`) and the `?` indicator written before the key on its line.
    fn yaml_entry_start(&self, key: usize) -> usize {
        let bytes = self.text.as_bytes();
        let line = line_start(self.text, key);
        let mut start = key;
        loop {
            let mut end = start;
            while end > line && matches!(bytes[end - 1], b' ' | b'\t') {
                end -= 1;
            }
            let mut token = end;
            while token > line && !matches!(bytes[token - 1], b' ' | b'\t' | b'{' | b'[' | b',') {
                token -= 1;
            }
            match &self.text[token..end] {
                "?" => return token,
                t if t.starts_with(['&', '!']) => start = token,
                _ => return start,
            }
        }
    }

    /// YAML: where a mapping entry's text ends: its value's end, or, for an empty value
    /// (whose span can stand on the next line), after the `:` indicator and the
    /// properties written after it.
    fn yaml_entry_end(&self, key: Span, value: Span) -> usize {
        if value.start < value.end {
            return value.end.max(key.end);
        }
        let colon = skip_space(self.text, key.end, self.format);
        let bytes = self.text.as_bytes();
        let indicator = bytes.get(colon) == Some(&b':')
            && match bytes.get(colon + 1) {
                None => true,
                Some(b) => b.is_ascii_whitespace() || matches!(b, b',' | b'}' | b']'),
            };
        match indicator {
            true => self.properties_end(colon + 1),
            false => key.end,
        }
    }

    /// YAML: where a block sequence item whose `-` is at `dash` ends: its content's end,
    /// or, when empty, after the `-` and the properties written after it.
    fn yaml_item_end(&self, dash: usize, item: Span) -> usize {
        match item.start < item.end {
            true => item.end,
            false => self.properties_end(dash + 1),
        }
    }

    /// The end of the node properties (`&anchor`, `!tag`) written from `pos` on its line,
    /// or `pos` when there are none.
    fn properties_end(&self, pos: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut end = pos;
        loop {
            let token = skip_space_on_line(self.text, end, self.format);
            if !matches!(bytes.get(token), Some(b'&' | b'!')) {
                return end;
            }
            end = token;
            while end < bytes.len()
                && !bytes[end].is_ascii_whitespace()
                && !matches!(bytes[end], b',' | b'}' | b']')
            {
                end += 1;
            }
        }
    }

    /// The `{` or `[` of the flow collection at `span` (in YAML, after its properties).
    fn flow_open(&self, span: Span) -> usize {
        match self.format {
            Format::Yaml => skip_space(self.text, self.properties_end(span.start), self.format)
                .min(span.end.saturating_sub(1)),
            _ => span.start,
        }
    }

    /// The `-` of the block sequence item whose content starts at `pos`.
    fn dash_before(&self, pos: usize) -> usize {
        self.text[..pos].rfind('-').unwrap_or(pos)
    }

    /// YAML: the only entry of a block collection removed, the collection written `{}` or
    /// `[]` in its place (after its key's `:` or its item's `-`), as the whole document
    /// when it is the root.
    fn empty_block(
        &self,
        view: &View,
        trail: &[usize],
        parent_path: &[Segment],
        (entry_start, entry_end): (usize, usize),
        map: bool,
    ) -> Result<Vec<Splice>, EditError> {
        let empty = if map { "{}" } else { "[]" };
        let parent = *trail.last().unwrap_or(&0);
        let p = &view.nodes[parent];
        // The end: the entry's last line, with the comment that ends it.
        let mut end = trim_trailing_space(self.text, entry_start, entry_end).max(p.span.start);
        let eol = line_end(self.text, end);
        let line_rest = slice(self.text, end, eol).trim_end_matches(['\n', '\r']);
        let rest = line_rest.trim_start_matches([' ', '\t']);
        if rest.is_empty() || rest.starts_with('#') {
            end += line_rest.len();
        }
        let owner = match (trail.len().checked_sub(2), parent_path.last()) {
            (Some(o), Some(segment)) => Some((trail[o], segment)),
            _ => None,
        };
        let Some((owner, segment)) = owner else {
            // The document itself.
            return Ok(vec![splice(p.span.start..end, empty)]);
        };
        let after = match (view.nodes[owner].kind, segment) {
            (Kind::Block { map: true }, Segment::Key(_)) => {
                let (_, key_span, _) = view.nodes[owner]
                    .entries
                    .iter()
                    .find(|(_, _, c)| *c == parent)
                    .ok_or_else(|| EditError::CannotPlace("an entry not found".into()))?;
                let between = slice(self.text, key_span.end, p.span.start);
                key_span.end + between.find(':').map_or(0, |i| i + 1)
            }
            (Kind::Block { map: false }, Segment::Index(_)) => self.dash_before(p.span.start) + 1,
            _ => {
                return Err(EditError::CannotPlace(
                    "the collection cannot be emptied in place here".into(),
                ))
            }
        };
        // An anchor or tag written after the `:` stays with the collection.
        let own_line = slice(self.text, after, p.span.start);
        let own_line = &own_line[..own_line.find('\n').unwrap_or(own_line.len())];
        let props = own_line.split(" #").next().unwrap_or("").trim_end();
        let start = after + props.len();
        Ok(vec![splice(start..end, format!(" {empty}"))])
    }

    /// TOML: members of an inline table removed, dotted keys included
    /// (`{a.b.c = 1, a.b.d = 2}`): each member with one comma beside it, or every member
    /// when none is left.
    fn inline_table_remove(
        &self,
        view: &View,
        flow: usize,
        target: usize,
    ) -> Result<Vec<Splice>, EditError> {
        let mut members = Vec::new();
        self.inline_members(view, flow, &mut members);
        members.sort_by_key(|m| m.0);
        let mut gone = Vec::new();
        leaves(view, target, &mut gone);
        // A dotted table left empty stays, as `a.b = {}` in its first member's place.
        let mut rewrite = None;
        let owner = view
            .nodes
            .iter()
            .position(|n| n.entries.iter().any(|e| e.2 == target));
        if let Some(p) = owner.filter(|&p| p != flow && view.nodes[p].kind == Kind::Dotted) {
            let mut all = Vec::new();
            leaves(view, p, &mut all);
            let p_key = view
                .nodes
                .iter()
                .find_map(|n| n.entries.iter().find(|e| e.2 == p).map(|e| e.1));
            let first = members.iter().find(|m| all.contains(&m.2));
            if let (true, Some(p_key), Some(&(start, end, leaf))) =
                (all.iter().all(|l| gone.contains(l)), p_key, first)
            {
                gone.retain(|&l| l != leaf);
                rewrite = Some(splice(
                    start..end,
                    format!("{} = {{}}", slice(self.text, start, p_key.end)),
                ));
            }
        }
        let removed: Vec<bool> = members.iter().map(|m| gone.contains(&m.2)).collect();
        let node = &view.nodes[flow];
        let Some(kept) = removed.iter().rposition(|r| !r) else {
            // (`rewrite` keeps a member, so it is never set here.)
            let open = node.span.start + 1;
            let close = node.span.end.saturating_sub(1);
            return Ok(vec![splice(open..close, "")]);
        };
        let mut splices = Vec::new();
        for i in 0..kept {
            if removed[i] {
                splices.push(splice(members[i].0..members[i + 1].0, ""));
            }
        }
        if let Some(last) = removed.iter().rposition(|r| *r).filter(|&l| l > kept) {
            splices.push(splice(members[kept].1..members[last].1, ""));
        }
        splices.extend(rewrite);
        if splices.is_empty() {
            return Err(EditError::CannotPlace("a member not found".into()));
        }
        Ok(splices)
    }

    /// The members of a TOML inline table: where each `key = value` starts (its whole
    /// dotted key) and ends, and the value's node.
    fn inline_members(&self, view: &View, node: usize, out: &mut Vec<(usize, usize, usize)>) {
        for (_, key_span, c) in &view.nodes[node].entries {
            if view.nodes[*c].kind == Kind::Dotted {
                self.inline_members(view, *c, out);
            } else {
                out.push((
                    self.dotted_key_start(key_span.start),
                    view.nodes[*c].span.end,
                    *c,
                ));
            }
        }
    }

    /// The start of the dotted key whose last part starts at `pos` (`a.b.c`: the `a`).
    fn dotted_key_start(&self, pos: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut at = pos;
        loop {
            let mut p = at;
            while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
                p -= 1;
            }
            if p == 0 || bytes[p - 1] != b'.' {
                return at;
            }
            p -= 1;
            while p > 0 && matches!(bytes[p - 1], b' ' | b'\t') {
                p -= 1;
            }
            match bytes.get(p.wrapping_sub(1)) {
                Some(&q @ (b'"' | b'\'')) => {
                    let Some(open) = self.text[..p - 1].rfind(q as char) else {
                        return at;
                    };
                    at = open;
                }
                Some(_) => {
                    while p > 0
                        && (bytes[p - 1].is_ascii_alphanumeric()
                            || matches!(bytes[p - 1], b'_' | b'-'))
                    {
                        p -= 1;
                    }
                    at = p;
                }
                None => return at,
            }
        }
    }
}

/// `insert` (text at a point) folded into the removal splices: into the one that begins
/// or ends there or holds the point (its text goes first), or kept beside them.
fn merge_insert(splices: &mut Vec<Splice>, insert: Splice) {
    let at = insert.range.start;
    match splices
        .iter_mut()
        .find(|s| s.range.start <= at && at <= s.range.end)
    {
        Some(s) => s.text.insert_str(0, &insert.text),
        None => splices.push(insert),
    }
}

/// A TOML table or array of tables written under headers of its own, not in its parent's
/// lines.
fn is_header_kind(kind: Kind) -> bool {
    matches!(kind, Kind::Section | Kind::Implicit | Kind::TableArray)
}

/// A TOML table better written as a `[section]` than inline: one holding a table (or an
/// array of tables), or more than three keys, as toml_edit and `cargo add` write them.
fn is_big_table(value: &RawValue<'_>) -> bool {
    let RawValue::Map(entries) = value else {
        return false;
    };
    entries.len() > 3
        || entries.iter().any(|(_, v)| match v {
            RawValue::Map(m) => !m.is_empty(),
            RawValue::Seq(items) => {
                !items.is_empty() && items.iter().all(|i| matches!(i, RawValue::Map(_)))
            }
            _ => false,
        })
}

/// The keys from `at` down to the table `target` (`None` when it is not reached through
/// maps alone, as a table in an array of tables is not).
fn header_keys(view: &View, at: usize, target: usize) -> Option<Vec<String>> {
    if at == target {
        return Some(Vec::new());
    }
    for (k, _, c) in &view.nodes[at].entries {
        if let Some(mut rest) = header_keys(view, *c, target) {
            rest.insert(0, k.clone());
            return Some(rest);
        }
    }
    None
}

/// The nodes `node` stands for as members: itself, or a dotted table's leaves.
fn leaves(view: &View, node: usize, out: &mut Vec<usize>) {
    if view.nodes[node].kind == Kind::Dotted {
        for (_, _, c) in &view.nodes[node].entries {
            leaves(view, *c, out);
        }
    } else {
        out.push(node);
    }
}

/// How the first string among a map's or sequence's members is quoted.
fn sibling_string_style(view: &View, parent: usize) -> Option<Style> {
    let p = &view.nodes[parent];
    p.entries
        .iter()
        .map(|e| e.2)
        .chain(p.items.iter().copied())
        .find_map(|c| match view.nodes[c].kind {
            Kind::Scalar(style @ (Style::SingleQuoted | Style::DoubleQuoted)) => Some(style),
            _ => None,
        })
}
