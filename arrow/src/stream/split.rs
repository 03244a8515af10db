//! Cutting a source into chunks of whole records without parsing them: a scan of each
//! format's record boundaries (a JSON array's items, a YAML stream's documents, the
//! elements under an XML root), so that the one parser then reads a chunk at a time.
//! Every byte of the source lands in exactly one chunk, in order, so the parser sees
//! what the whole-file reader sees; a scan only has to know where a record may end.

use std::io::BufRead;

use crate::error::Error;

/// Where a chunk starts in its source: line (from 1) and column (from 1, in characters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Place {
    pub(crate) line: u64,
    pub(crate) column: u64,
}

/// Tracks the line and column of the next byte taken from the source.
#[derive(Debug)]
struct Tracker {
    line: u64,
    column: u64,
}

impl Tracker {
    fn new() -> Self {
        Tracker { line: 1, column: 1 }
    }

    fn place(&self) -> Place {
        Place {
            line: self.line,
            column: self.column,
        }
    }

    /// Moves past `bytes`.
    fn advance(&mut self, bytes: &[u8]) {
        let rest = match memchr::memrchr(b'\n', bytes) {
            Some(at) => {
                self.line += memchr::memchr_iter(b'\n', bytes).count() as u64;
                self.column = 1;
                &bytes[at + 1..]
            }
            None => bytes,
        };
        self.column += rest.iter().filter(|&&b| (b as i8) >= -0x40).count() as u64;
    }

    #[cold]
    fn error(&self, message: &str) -> Error {
        Error::new(message).at(None, self.line, self.column)
    }
}

/// The items of a top-level JSON array. The `[`, the commas between items and the `]`
/// are turned into spaces, so that a chunk is a run of JSON values (as in JSON Lines)
/// at the same lines and columns as in the source. A document whose value is not an
/// array is one record, taken whole.
#[derive(Debug)]
pub(crate) struct JsonArray {
    at: JsonAt,
    tracker: Tracker,
    /// The nesting inside the current item, its string state and whether it is a bare
    /// scalar (which ends at a delimiter rather than at a closing byte).
    depth: usize,
    in_string: bool,
    escaped: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum JsonAt {
    /// Before the document's value.
    Start,
    /// After `[`: an item or `]`.
    First,
    /// After `,`: an item.
    Next,
    /// Inside an item.
    Item,
    /// Inside a bare scalar item.
    Scalar,
    /// After an item: `,` or `]`.
    After,
    /// After `]`: only whitespace.
    Closed,
    /// Not an array: the rest is one document.
    Whole,
}

/// Whether a chunk holding `len` bytes is full.
fn full(len: usize, chunk: usize) -> bool {
    len >= chunk
}

impl JsonArray {
    pub(crate) fn new() -> Self {
        JsonArray {
            at: JsonAt::Start,
            tracker: Tracker::new(),
            depth: 0,
            in_string: false,
            escaped: false,
        }
    }

    /// Whether the source's value is a top-level array (known once a chunk was read).
    pub(crate) fn is_array(&self) -> bool {
        !matches!(self.at, JsonAt::Start | JsonAt::Whole)
    }

    /// Appends whole items to `chunk` (cleared first) until it holds `size` bytes or the
    /// source ends; the place of its first byte, or `None` at the end of the source.
    pub(crate) fn fill(
        &mut self,
        source: &mut impl BufRead,
        chunk: &mut Vec<u8>,
        size: usize,
    ) -> Result<Option<Place>, Error> {
        chunk.clear();
        let place = self.tracker.place();
        loop {
            let buffer = source.fill_buf()?;
            if buffer.is_empty() {
                return match self.at {
                    JsonAt::Item if self.depth > 0 || self.in_string => Err(self
                        .tracker
                        .error("unexpected end of input inside a record")),
                    JsonAt::Scalar | JsonAt::Item => {
                        self.at = JsonAt::After;
                        Err(self.tracker.error("expected `,` or `]`, found the end"))
                    }
                    JsonAt::First | JsonAt::Next | JsonAt::After => {
                        Err(self.tracker.error("expected `]`, found the end"))
                    }
                    _ if chunk.is_empty() => Ok(None),
                    _ => Ok(Some(place)),
                };
            }
            if self.at == JsonAt::Whole {
                let n = buffer.len();
                chunk.extend_from_slice(buffer);
                self.tracker.advance(&chunk[chunk.len() - n..]);
                source.consume(n);
                continue;
            }
            let (taken, cut, blank) = self.scan(buffer, chunk.len(), size);
            let from = chunk.len();
            chunk.extend_from_slice(&buffer[..taken]);
            source.consume(taken);
            for at in blank {
                chunk[from + at] = b' ';
            }
            self.tracker.advance(&chunk[from..]);
            if let Some(message) = cut.err() {
                return Err(self.tracker.error(message));
            }
            if cut == Ok(true) {
                return Ok(Some(place));
            }
        }
    }

    /// Scans `buffer`: how many bytes to take, whether the chunk is then complete (or the
    /// structural error met, at the end of the taken bytes), and which taken bytes are
    /// structural (to be blanked).
    fn scan(
        &mut self,
        buffer: &[u8],
        had: usize,
        size: usize,
    ) -> (usize, Result<bool, &'static str>, Vec<usize>) {
        let mut blank = Vec::new();
        let mut i = 0;
        while i < buffer.len() {
            let b = buffer[i];
            match self.at {
                JsonAt::Item => {
                    if self.in_string {
                        // Straight to the next quote or backslash.
                        match memchr::memchr2(b'"', b'\\', &buffer[i..]) {
                            None => {
                                self.escaped = false;
                                i = buffer.len();
                                continue;
                            }
                            Some(0) => {}
                            Some(skip) => {
                                self.escaped = false;
                                i += skip;
                                continue;
                            }
                        }
                        let b = buffer[i];
                        if self.escaped {
                            self.escaped = false;
                        } else if b == b'\\' {
                            self.escaped = true;
                        } else if b == b'"' {
                            self.in_string = false;
                            if self.depth == 0 {
                                self.at = JsonAt::After;
                            }
                        }
                    } else if self.escaped {
                        self.escaped = false;
                    } else {
                        match b {
                            b'"' => self.in_string = true,
                            b'{' | b'[' => self.depth += 1,
                            b'}' | b']' => {
                                self.depth = self.depth.saturating_sub(1);
                                if self.depth == 0 {
                                    self.at = JsonAt::After;
                                }
                            }
                            _ => {}
                        }
                    }
                    i += 1;
                }
                JsonAt::Scalar => match b {
                    b',' | b']' | b' ' | b'\t' | b'\n' | b'\r' => self.at = JsonAt::After,
                    _ => i += 1,
                },
                JsonAt::After => match b {
                    b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                    b',' => {
                        blank.push(i);
                        self.at = JsonAt::Next;
                        i += 1;
                    }
                    b']' => {
                        blank.push(i);
                        self.at = JsonAt::Closed;
                        i += 1;
                    }
                    _ => return (i, Err("expected `,` or `]` after a record"), blank),
                },
                JsonAt::Start | JsonAt::First | JsonAt::Next | JsonAt::Closed => match b {
                    b' ' | b'\t' | b'\n' | b'\r' => i += 1,
                    b'[' if self.at == JsonAt::Start => {
                        blank.push(i);
                        self.at = JsonAt::First;
                        i += 1;
                    }
                    _ if self.at == JsonAt::Start => {
                        self.at = JsonAt::Whole;
                        return (i, Ok(false), blank);
                    }
                    b']' if self.at == JsonAt::First => {
                        blank.push(i);
                        self.at = JsonAt::Closed;
                        i += 1;
                    }
                    _ if self.at == JsonAt::Closed => {
                        return (i, Err("unexpected content after the array"), blank)
                    }
                    b',' | b']' => return (i, Err("expected a record"), blank),
                    _ => {
                        // A cut goes before an item, once the chunk is full.
                        if full(had + i, size) {
                            return (i, Ok(true), blank);
                        }
                        self.at = match b {
                            b'{' | b'[' => {
                                self.depth = 1;
                                JsonAt::Item
                            }
                            b'"' => {
                                self.depth = 0;
                                self.in_string = true;
                                JsonAt::Item
                            }
                            _ => JsonAt::Scalar,
                        };
                        i += 1;
                    }
                },
                JsonAt::Whole => return (i, Ok(false), blank),
            }
        }
        (i, Ok(false), blank)
    }
}

/// The documents of a YAML stream, cut at the lines that start one: `---` at the start
/// of a line (a document marker wherever it stands, by the YAML grammar), or the
/// directives (`%`) that follow a `...` line. A chunk always starts at a line's start.
#[derive(Debug)]
pub(crate) struct YamlStream {
    line: u64,
    /// The last marker line was `...` (directives may follow).
    ended: bool,
    /// Directives were met since `...`: the `---` they lead to is not a cut.
    directives: bool,
    /// A line read but not yet placed in a chunk (it starts the next one).
    held: Vec<u8>,
    done: bool,
}

impl YamlStream {
    pub(crate) fn new() -> Self {
        YamlStream {
            line: 1,
            // The stream's start is a place for directives, as after `...`.
            ended: true,
            directives: false,
            held: Vec::new(),
            done: false,
        }
    }

    pub(crate) fn fill(
        &mut self,
        source: &mut impl BufRead,
        chunk: &mut Vec<u8>,
        size: usize,
    ) -> Result<Option<Place>, Error> {
        chunk.clear();
        let place = Place {
            line: self.line,
            column: 1,
        };
        chunk.append(&mut self.held);
        if !chunk.is_empty() {
            self.line += 1;
        }
        while !self.done {
            let start = chunk.len();
            if source.read_until(b'\n', chunk)? == 0 {
                self.done = true;
                break;
            }
            let line = &chunk[start..];
            let marker = |m: &[u8]| {
                line.starts_with(m)
                    && matches!(line.get(3), None | Some(b' ' | b'\t' | b'\r' | b'\n'))
            };
            let cut = if marker(b"---") {
                let cut = !self.directives;
                self.ended = false;
                self.directives = false;
                cut
            } else if marker(b"...") {
                self.ended = true;
                false
            } else if line.first() == Some(&b'%') && self.ended {
                let cut = !self.directives;
                self.directives = true;
                cut
            } else {
                false
            };
            if cut && start > 0 && full(start, size) {
                self.held.extend_from_slice(&chunk[start..]);
                chunk.truncate(start);
                return Ok(Some(place));
            }
            self.line += 1;
        }
        Ok((!chunk.is_empty()).then_some(place))
    }
}

/// The elements at the records' depth in an XML document (by default, those under the
/// root). The first chunk is the source from its start; each later one is the prolog and
/// the root's start tag as in the source (so that the declaration, the DTD's entities and
/// the namespaces in scope hold), the start tags of the elements still open between the
/// root and the records, a line break, the source's next elements, and closing tags for
/// the open elements and the root when the source's are still to come. A chunk is cut
/// only where an element at the records' depth or above ends. A UTF-16 document is taken
/// whole.
#[derive(Debug)]
pub(crate) struct XmlElements {
    phase: Phase,
    at: XmlAt,
    tracker: Tracker,
    /// The prolog and the root's start tag, once the root is open.
    head: Vec<u8>,
    /// The root's name, for the closing tag of a chunk.
    root: Vec<u8>,
    /// Elements open inside the root.
    depth: usize,
    /// The depth inside the root the records are at (1: the root's children).
    level: usize,
    /// The elements open between the root and the records: name and start tag.
    ancestors: Vec<(Vec<u8>, Vec<u8>)>,
    /// Where in the chunk the tag being read starts.
    tag_start: usize,
    /// A start tag just read opened an element between the root and the records.
    opened: bool,
    /// A start tag's name so far (the root's and the open ancestors' are kept).
    name: Vec<u8>,
    first: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Prolog,
    Content,
    Epilog,
    Whole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum XmlAt {
    /// Text, or between markup.
    Text,
    /// After `<`.
    Open,
    /// After `<!`.
    Bang,
    /// Inside a comment, CDATA section or processing instruction: it ends at `>` after
    /// `repeat` or more `byte`s in a row (`-->`, `]]>`, `?>`); `seen` counts them.
    Until { byte: u8, repeat: u8, seen: u8 },
    /// Inside a DOCTYPE declaration: the quote it is in, the internal subset's `[` depth.
    Doctype { quote: u8, brackets: u32 },
    /// Inside a tag: an end tag or not, the quote it is in, the last byte outside quotes,
    /// and whether its name is still being read.
    Tag {
        end: bool,
        quote: u8,
        last: u8,
        naming: bool,
    },
}

/// What a tag's end did.
enum Closed {
    Nothing,
    /// An element at the records' depth or above ended: a chunk may end here.
    Record,
    /// An element between the root and the records opened.
    Ancestor,
}

impl XmlElements {
    /// The records are the elements `level` deep inside the root (1: its children).
    pub(crate) fn new(level: usize) -> Self {
        XmlElements {
            phase: Phase::Prolog,
            at: XmlAt::Text,
            tracker: Tracker::new(),
            head: Vec::new(),
            root: Vec::new(),
            depth: 0,
            level,
            ancestors: Vec::new(),
            tag_start: 0,
            opened: false,
            name: Vec::new(),
            first: true,
        }
    }

    /// Fills `chunk` (cleared first) with the next chunk: whole elements of the root
    /// until it holds `size` bytes of the source, or the rest of the source. Returns the
    /// place of its source bytes and how many bytes stand before them (the head and a
    /// line break; 0 in the first chunk), or `None` at the end.
    pub(crate) fn fill(
        &mut self,
        source: &mut impl BufRead,
        chunk: &mut Vec<u8>,
        size: usize,
    ) -> Result<Option<(Place, usize)>, Error> {
        chunk.clear();
        let place = self.tracker.place();
        let mut lead = 0;
        if self.first {
            let buffer = source.fill_buf()?;
            if buffer.starts_with(&[0xFF, 0xFE])
                || buffer.starts_with(&[0xFE, 0xFF])
                || buffer.first() == Some(&0)
                || buffer.get(1) == Some(&0)
            {
                self.phase = Phase::Whole;
            }
            self.first = false;
        } else if self.phase == Phase::Content {
            chunk.extend_from_slice(&self.head);
            for (_, tag) in &self.ancestors {
                chunk.extend_from_slice(tag);
            }
            chunk.push(b'\n');
            lead = chunk.len();
        }
        loop {
            let buffer = source.fill_buf()?;
            if buffer.is_empty() {
                return Ok((chunk.len() > lead).then_some((place, lead)));
            }
            let from = chunk.len();
            let (taken, cut) = if self.phase == Phase::Whole {
                (buffer.len(), false)
            } else {
                self.scan(buffer, from, chunk.len() - lead, size)
            };
            chunk.extend_from_slice(&buffer[..taken]);
            source.consume(taken);
            self.tracker.advance(&chunk[from..]);
            if self.phase == Phase::Content && self.head.is_empty() {
                // The root opened in these bytes: the first chunk holds the prolog.
                self.head.extend_from_slice(&chunk[..from + taken]);
            }
            if self.opened {
                // The start tag ends these bytes and began in this chunk.
                self.opened = false;
                let tag = chunk[self.tag_start.min(chunk.len())..].to_vec();
                self.ancestors.push((self.name.clone(), tag));
            }
            if cut {
                for (name, _) in self.ancestors.iter().rev() {
                    chunk.extend_from_slice(b"</");
                    chunk.extend_from_slice(name);
                    chunk.push(b'>');
                }
                chunk.extend_from_slice(b"</");
                chunk.extend_from_slice(&self.root);
                chunk.push(b'>');
                return Ok(Some((place, lead)));
            }
        }
    }

    /// Scans `buffer`, to be appended to the chunk at `from`: how many bytes to take, and
    /// whether the chunk ends after them (a record just ended and the chunk is full).
    /// Stops right after the root's start tag too, so that the head ends there, and
    /// after the start tag of an element between the root and the records, to keep it.
    fn scan(&mut self, buffer: &[u8], from: usize, had: usize, size: usize) -> (usize, bool) {
        let mut i = 0;
        while i < buffer.len() {
            let b = buffer[i];
            i += 1;
            match &mut self.at {
                XmlAt::Text => {
                    match memchr::memchr(b'<', &buffer[i - 1..]) {
                        Some(skip) => i += skip,
                        None => return (buffer.len(), false),
                    }
                    self.tag_start = from + i - 1;
                    self.at = XmlAt::Open;
                }
                XmlAt::Open => {
                    self.at = match b {
                        b'?' => XmlAt::Until {
                            byte: b'?',
                            repeat: 1,
                            seen: 0,
                        },
                        b'!' => XmlAt::Bang,
                        b'/' => XmlAt::Tag {
                            end: true,
                            quote: 0,
                            last: b,
                            naming: false,
                        },
                        _ => {
                            self.name.clear();
                            self.name.push(b);
                            XmlAt::Tag {
                                end: false,
                                quote: 0,
                                last: b,
                                naming: true,
                            }
                        }
                    }
                }
                XmlAt::Bang => {
                    self.at = match b {
                        b'-' => XmlAt::Until {
                            byte: b'-',
                            repeat: 2,
                            seen: 1,
                        },
                        b'[' => XmlAt::Until {
                            byte: b']',
                            repeat: 2,
                            seen: 0,
                        },
                        _ => XmlAt::Doctype {
                            quote: 0,
                            brackets: 0,
                        },
                    }
                }
                XmlAt::Until { byte, repeat, seen } => {
                    if b == *byte {
                        *seen = seen.saturating_add(1);
                    } else if b == b'>' && *seen >= *repeat {
                        self.at = XmlAt::Text;
                    } else {
                        *seen = 0;
                    }
                }
                XmlAt::Doctype { quote, brackets } => match b {
                    _ if *quote != 0 && b == *quote => *quote = 0,
                    _ if *quote != 0 => {}
                    b'"' | b'\'' => *quote = b,
                    b'[' => *brackets += 1,
                    b']' => *brackets = brackets.saturating_sub(1),
                    b'>' if *brackets == 0 => self.at = XmlAt::Text,
                    _ => {}
                },
                XmlAt::Tag {
                    end,
                    quote,
                    last,
                    naming,
                } => {
                    if *quote != 0 {
                        if b == *quote {
                            *quote = 0;
                        }
                        continue;
                    }
                    match b {
                        b'"' | b'\'' => *quote = b,
                        b'>' => {
                            let (end, empty) = (*end, *last == b'/');
                            self.at = XmlAt::Text;
                            match self.tag_closed(end, empty) {
                                Closed::Record if full(had + i, size) => return (i, true),
                                Closed::Ancestor => return (i, false),
                                Closed::Nothing
                                    if self.phase == Phase::Content && self.head.is_empty() =>
                                {
                                    return (i, false)
                                }
                                _ => {}
                            }
                            continue;
                        }
                        _ => {}
                    }
                    if *naming {
                        if matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'/') {
                            *naming = false;
                        } else {
                            self.name.push(b);
                        }
                    }
                    if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
                        *last = b;
                    }
                }
            }
        }
        (i, false)
    }

    /// A tag ended: an end tag or not, and whether it was an empty-element tag.
    fn tag_closed(&mut self, end: bool, empty: bool) -> Closed {
        match self.phase {
            Phase::Prolog if !end => {
                // The root's start tag: an empty root has no records, and the rest is
                // read as it stands.
                if empty {
                    self.phase = Phase::Epilog;
                } else {
                    self.phase = Phase::Content;
                    self.root = std::mem::take(&mut self.name);
                }
                Closed::Nothing
            }
            Phase::Content if end && self.depth == 0 => {
                self.phase = Phase::Epilog;
                Closed::Nothing
            }
            Phase::Content if end => {
                let depth = self.depth;
                self.depth -= 1;
                if depth < self.level {
                    self.ancestors.pop();
                }
                if depth <= self.level {
                    Closed::Record
                } else {
                    Closed::Nothing
                }
            }
            Phase::Content if empty => {
                if self.depth < self.level {
                    Closed::Record
                } else {
                    Closed::Nothing
                }
            }
            Phase::Content => {
                self.depth += 1;
                if self.depth < self.level {
                    self.opened = true;
                    Closed::Ancestor
                } else {
                    Closed::Nothing
                }
            }
            _ => Closed::Nothing,
        }
    }
}
