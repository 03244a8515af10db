//! The document type declaration and its internal subset: element, attribute-list,
//! entity and notation declarations, parameter-entity references. A non-validating
//! parser reads them for well-formedness, entities and attribute types; external
//! subsets and entities are never opened.

use super::*;

impl<'a> Parser<'a> {
    // [28] doctypedecl ::= '<!DOCTYPE' S Name (S ExternalID)? S? ('[' intSubset ']' S?)? '>'
    pub(super) fn doctype<B: XmlBuilder<'a>>(
        &mut self,
        c: &mut Cursor<'_>,
        b: &mut B,
    ) -> Result<()> {
        let start = c.pos;
        c.pos += 9;
        self.require_ws(c)?;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        let mut ws = c.skip_ws();
        let mut ids = (None, None);
        if c.starts_with(b"SYSTEM") || c.starts_with(b"PUBLIC") {
            if !ws {
                return Err(self.unexpected(c, "white space"));
            }
            ids = self.external_id(c, false)?;
            self.lenient_entities = true;
            c.skip_ws();
            ws = true;
        }
        let _ = ws;
        let mut subset = None;
        if c.peek() == Some(b'[') {
            c.pos += 1;
            let s = c.pos;
            self.internal_subset(c, 0)?;
            subset = Some((s, c.pos));
            c.pos += 1; // `]`
            c.skip_ws();
        }
        self.expect(c, b'>', "`>`")?;
        let doctype = Doctype {
            name: c.str(name.start, name.end),
            public_id: ids.0.map(|(s, e)| c.str(s, e)),
            system_id: ids.1.map(|(s, e)| c.str(s, e)),
            internal_subset: subset.map(|(s, e)| c.str(s, e)),
        };
        b.doctype(&doctype, Span::new(start, c.pos));
        Ok(())
    }

    // [75] ExternalID ::= 'SYSTEM' S SystemLiteral | 'PUBLIC' S PubidLiteral S SystemLiteral
    // [83] PublicID ::= 'PUBLIC' S PubidLiteral
    // [13] PubidChar ::= #x20 | #xD | #xA | [a-zA-Z0-9] | [-'()+,./:=?;!*#@$_%]
    /// `SYSTEM "sys"` or `PUBLIC "pub" "sys"` (with `public_only`, the system literal
    /// of PUBLIC may be missing, as in notations).
    #[allow(clippy::type_complexity)]
    fn external_id(
        &self,
        c: &mut Cursor<'_>,
        public_only: bool,
    ) -> Result<(Option<(usize, usize)>, Option<(usize, usize)>)> {
        if c.starts_with(b"SYSTEM") {
            c.pos += 6;
            self.require_ws(c)?;
            let sys = self.literal(c)?;
            return Ok((None, Some(sys)));
        }
        self.expect_str(c, b"PUBLIC", "`SYSTEM` or `PUBLIC`")?;
        self.require_ws(c)?;
        let public = self.literal(c)?;
        for i in public.0..public.1 {
            let x = c.bytes()[i];
            let ok = x.is_ascii_alphanumeric()
                || matches!(
                    x,
                    b' ' | b'\r'
                        | b'\n'
                        | b'-'
                        | b'\''
                        | b'('
                        | b')'
                        | b'+'
                        | b','
                        | b'.'
                        | b'/'
                        | b':'
                        | b'='
                        | b'?'
                        | b';'
                        | b'!'
                        | b'*'
                        | b'#'
                        | b'@'
                        | b'$'
                        | b'_'
                        | b'%'
                );
            if !ok {
                return Err(self.unexpected_at(c, i, "a public identifier character"));
            }
        }
        let ws = c.skip_ws();
        if public_only && !matches!(c.peek(), Some(b'"' | b'\'')) {
            return Ok((Some(public), None));
        }
        if !ws {
            return Err(self.unexpected(c, "white space"));
        }
        let sys = self.literal(c)?;
        Ok((Some(public), Some(sys)))
    }

    // [11] SystemLiteral ::= ('"' [^"]* '"') | ("'" [^']* "'")
    // [12] PubidLiteral ::= '"' PubidChar* '"' | "'" (PubidChar - "'")* "'"
    /// A quoted literal; returns the bounds inside the quotes.
    fn literal(&self, c: &mut Cursor<'_>) -> Result<(usize, usize)> {
        let quote = match c.peek() {
            Some(q @ (b'"' | b'\'')) => q,
            _ => return Err(self.unexpected(c, "a quote")),
        };
        let start = c.pos + 1;
        let Some(close) = memchr::memchr(quote, &c.bytes()[start..]) else {
            return Err(self.error(c, c.s.len(), ErrorKind::UnexpectedEnd));
        };
        let end = start + close;
        let b = c.bytes();
        for (i, &x) in b.iter().enumerate().take(end).skip(start) {
            if x < 0x20 && !matches!(x, b'\t' | b'\n' | b'\r') {
                return Err(self.error(c, i, ErrorKind::InvalidChar(x as char)));
            }
            if x == 0xEF {
                self.check_ef(c, i)?;
            }
        }
        c.pos = end + 1;
        Ok((start, end))
    }

    // [28b] intSubset ::= (markupdecl | DeclSep)*
    // [28a] DeclSep ::= PEReference | S
    // [29] markupdecl ::= elementdecl | AttlistDecl | EntityDecl | NotationDecl | PI | Comment
    /// Declarations until `]` (in the document) or the end of a parameter entity.
    fn internal_subset(&mut self, c: &mut Cursor<'_>, depth: usize) -> Result<()> {
        loop {
            c.skip_ws();
            match c.peek() {
                None if c.main => return Err(self.error(c, c.pos, ErrorKind::UnexpectedEnd)),
                None => return Ok(()),
                Some(b']') if c.main => return Ok(()),
                Some(b'%') => self.pe_reference(c, depth)?,
                Some(b'<') => {
                    if c.starts_with(b"<!--") {
                        self.comment(c)?;
                    } else if c.starts_with(b"<?") {
                        self.pi(c)?;
                    } else if c.starts_with(b"<!ELEMENT") {
                        self.element_decl(c)?;
                    } else if c.starts_with(b"<!ATTLIST") {
                        self.attlist_decl(c)?;
                    } else if c.starts_with(b"<!ENTITY") {
                        self.entity_decl(c)?;
                    } else if c.starts_with(b"<!NOTATION") {
                        self.notation_decl(c)?;
                    } else {
                        return Err(self.error(
                            c,
                            c.pos,
                            ErrorKind::InvalidDoctype("unknown markup declaration"),
                        ));
                    }
                }
                Some(_) => return Err(self.unexpected(c, "a markup declaration or `]`")),
            }
        }
    }

    // [69] PEReference ::= '%' Name ';'
    fn pe_reference(&mut self, c: &mut Cursor<'_>, depth: usize) -> Result<()> {
        let start = c.pos;
        c.pos += 1;
        let name = self.ncname(c)?;
        self.expect(c, b';', "`;`")?;
        let nm = c.str(name.start, name.end);
        self.lenient_entities = true;
        match self.params.get(nm).cloned() {
            Some(Entity::Internal { name, text, .. }) => {
                self.enter(c, start, &name, text.len(), depth)?;
                let reference = self.span(c, start, c.pos);
                let mut sub = Cursor {
                    s: &text,
                    pos: 0,
                    main: false,
                    reference,
                };
                self.active.push(name);
                let r = self.internal_subset(&mut sub, depth + 1);
                self.active.pop();
                r
            }
            _ => {
                if !self.standalone {
                    self.skip_declarations = true;
                }
                Ok(())
            }
        }
    }

    /// Fails on `%` (a parameter-entity reference inside a declaration).
    #[inline]
    fn no_pe(&self, c: &Cursor<'_>) -> Result<()> {
        if c.peek() == Some(b'%') {
            return Err(self.error(c, c.pos, ErrorKind::PeReferenceInDeclaration));
        }
        Ok(())
    }

    /// White space inside a declaration (where a PE reference would be an error).
    #[inline]
    fn decl_ws(&self, c: &mut Cursor<'_>) -> Result<bool> {
        let ws = c.skip_ws();
        self.no_pe(c)?;
        Ok(ws)
    }

    fn decl_require_ws(&self, c: &mut Cursor<'_>) -> Result<()> {
        if !self.decl_ws(c)? {
            return Err(self.unexpected(c, "white space"));
        }
        Ok(())
    }

    fn decl_end(&self, c: &mut Cursor<'_>) -> Result<()> {
        self.decl_ws(c)?;
        self.expect(c, b'>', "`>`")
    }

    // [45] elementdecl ::= '<!ELEMENT' S Name S contentspec S? '>'
    // [46] contentspec ::= 'EMPTY' | 'ANY' | Mixed | children
    fn element_decl(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += 9;
        self.decl_require_ws(c)?;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        self.decl_require_ws(c)?;
        if c.starts_with(b"EMPTY") {
            c.pos += 5;
        } else if c.starts_with(b"ANY") {
            c.pos += 3;
        } else if c.peek() == Some(b'(') {
            self.content_model(c)?;
        } else {
            return Err(self.unexpected(c, "`EMPTY`, `ANY` or `(`"));
        }
        self.decl_end(c)
    }

    // [51] Mixed ::= '(' S? '#PCDATA' (S? '|' S? Name)* S? ')*' | '(' S? '#PCDATA' S? ')'
    // [47] children ::= (choice | seq) ('?' | '*' | '+')?
    // [48] cp ::= (Name | choice | seq) ('?' | '*' | '+')?
    // [49] choice ::= '(' S? cp ( S? '|' S? cp )+ S? ')'
    // [50] seq ::= '(' S? cp ( S? ',' S? cp )* S? ')'
    /// `Mixed` or `children`, at `(`, without recursion.
    fn content_model(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += 1;
        self.decl_ws(c)?;
        if c.starts_with(b"#PCDATA") {
            c.pos += 7;
            self.decl_ws(c)?;
            if c.peek() == Some(b')') {
                c.pos += 1;
                if c.peek() == Some(b'*') {
                    c.pos += 1;
                }
                return Ok(());
            }
            loop {
                self.expect(c, b'|', "`|` or `)`")?;
                self.decl_ws(c)?;
                let name = self.name(c)?;
                if !self.qname_ok(&name) {
                    return Err(self.error(c, name.start, ErrorKind::InvalidName));
                }
                self.decl_ws(c)?;
                if c.starts_with(b")*") {
                    c.pos += 2;
                    return Ok(());
                }
                if c.peek() == Some(b')') {
                    c.pos += 1;
                    return Err(self.unexpected(c, "`*`"));
                }
            }
        }
        // `children`: a stack of open groups, each with its separator once known.
        let mut groups: Vec<Option<u8>> = vec![None];
        'cp: loop {
            self.decl_ws(c)?;
            if c.peek() == Some(b'(') {
                if groups.len() >= self.limits.max_depth {
                    return Err(self.error(
                        c,
                        c.pos,
                        ErrorKind::DepthLimitReached(self.limits.max_depth),
                    ));
                }
                c.pos += 1;
                groups.push(None);
                continue 'cp;
            }
            let name = self.name(c)?;
            if !self.qname_ok(&name) {
                return Err(self.error(c, name.start, ErrorKind::InvalidName));
            }
            if matches!(c.peek(), Some(b'?' | b'*' | b'+')) {
                c.pos += 1;
            }
            loop {
                self.decl_ws(c)?;
                match c.peek() {
                    Some(sep @ (b'|' | b',')) => {
                        let top = groups.last_mut().expect("a group is open");
                        match *top {
                            None => *top = Some(sep),
                            Some(s) if s == sep => {}
                            Some(_) => return Err(self.unexpected(c, "the group's separator")),
                        }
                        c.pos += 1;
                        continue 'cp;
                    }
                    Some(b')') => {
                        c.pos += 1;
                        groups.pop();
                        if matches!(c.peek(), Some(b'?' | b'*' | b'+')) {
                            c.pos += 1;
                        }
                        if groups.is_empty() {
                            return Ok(());
                        }
                    }
                    _ => return Err(self.unexpected(c, "`|`, `,` or `)`")),
                }
            }
        }
    }

    // [52] AttlistDecl ::= '<!ATTLIST' S Name AttDef* S? '>'
    // [53] AttDef ::= S Name S AttType S DefaultDecl
    // [54] AttType ::= StringType | TokenizedType | EnumeratedType
    // [60] DefaultDecl ::= '#REQUIRED' | '#IMPLIED' | (('#FIXED' S)? AttValue)
    fn attlist_decl(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += 9;
        self.decl_require_ws(c)?;
        let name = self.name(c)?;
        if !self.qname_ok(&name) {
            return Err(self.error(c, name.start, ErrorKind::InvalidName));
        }
        loop {
            let ws = self.decl_ws(c)?;
            if c.peek() == Some(b'>') {
                c.pos += 1;
                return Ok(());
            }
            if !ws {
                return Err(self.unexpected(c, "white space or `>`"));
            }
            let attr = self.name(c)?;
            if !self.qname_ok(&attr) {
                return Err(self.error(c, attr.start, ErrorKind::InvalidName));
            }
            self.decl_require_ws(c)?;
            // AttType
            const TYPES: [&[u8]; 8] = [
                b"CDATA",
                b"IDREFS",
                b"IDREF",
                b"ID",
                b"ENTITIES",
                b"ENTITY",
                b"NMTOKENS",
                b"NMTOKEN",
            ];
            let tokenized = !c.starts_with(b"CDATA");
            if let Some(t) = TYPES.iter().find(|t| c.starts_with(t)) {
                c.pos += t.len();
            } else if c.starts_with(b"NOTATION") {
                c.pos += 8;
                self.decl_require_ws(c)?;
                self.enumeration(c, true)?;
            } else if c.peek() == Some(b'(') {
                self.enumeration(c, false)?;
            } else {
                return Err(self.unexpected(c, "an attribute type"));
            }
            self.decl_require_ws(c)?;
            // DefaultDecl
            let default = if c.starts_with(b"#REQUIRED") {
                c.pos += 9;
                None
            } else if c.starts_with(b"#IMPLIED") {
                c.pos += 8;
                None
            } else {
                if c.starts_with(b"#FIXED") {
                    c.pos += 6;
                    self.decl_require_ws(c)?;
                }
                let value = self.att_value(c)?;
                let text = value.as_str(&self.values);
                let text = if tokenized {
                    normalize_tokens(text)
                } else {
                    text.to_owned()
                };
                self.values.clear();
                Some(text.into_boxed_str())
            };
            // Declarations after an unread external parameter entity are not processed
            // (§5.1), and the first declaration of an attribute binds (§3.3).
            if !self.skip_declarations {
                let decls = self
                    .attlists
                    .entry(c.str(name.start, name.end).into())
                    .or_default();
                let attr = c.str(attr.start, attr.end);
                if !decls.iter().any(|d| *d.name == *attr) {
                    decls.push(AttDecl {
                        name: attr.into(),
                        tokenized,
                        default,
                    });
                }
            }
        }
    }

    // [58] NotationType ::= 'NOTATION' S '(' S? Name (S? '|' S? Name)* S? ')'
    // [59] Enumeration ::= '(' S? Nmtoken (S? '|' S? Nmtoken)* S? ')'
    /// `( a | b | c )` of names (NOTATION) or name tokens.
    fn enumeration(&self, c: &mut Cursor<'_>, names: bool) -> Result<()> {
        self.expect(c, b'(', "`(`")?;
        loop {
            self.decl_ws(c)?;
            if names {
                self.ncname(c)?;
            } else {
                self.nmtoken(c)?;
            }
            self.decl_ws(c)?;
            match c.peek() {
                Some(b'|') => c.pos += 1,
                Some(b')') => {
                    c.pos += 1;
                    return Ok(());
                }
                _ => return Err(self.unexpected(c, "`|` or `)`")),
            }
        }
    }

    // [71] GEDecl ::= '<!ENTITY' S Name S EntityDef S? '>'
    // [72] PEDecl ::= '<!ENTITY' S '%' S Name S PEDef S? '>'
    // [73] EntityDef ::= EntityValue | (ExternalID NDataDecl?)
    // [74] PEDef ::= EntityValue | ExternalID
    // [76] NDataDecl ::= S 'NDATA' S Name
    fn entity_decl(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += 8;
        self.require_ws(c)?;
        let mut parameter = false;
        if c.peek() == Some(b'%') {
            parameter = true;
            c.pos += 1;
            self.decl_require_ws(c)?;
        }
        let name = self.ncname(c)?;
        self.decl_require_ws(c)?;
        let entity = if matches!(c.peek(), Some(b'"' | b'\'')) {
            let text = self.entity_value(c)?;
            let plain = !text.contains(['<', '&', '\r']);
            let nm = c.str(name.start, name.end);
            Entity::Internal {
                // Parameter entities are kept as `%name` on the stack of active ones.
                name: if parameter {
                    Rc::from(format!("%{nm}"))
                } else {
                    Rc::from(nm)
                },
                text: Rc::from(text),
                plain,
            }
        } else {
            self.external_id(c, false)?;
            let ws = self.decl_ws(c)?;
            if !parameter && c.starts_with(b"NDATA") {
                if !ws {
                    return Err(self.unexpected(c, "white space"));
                }
                c.pos += 5;
                self.decl_require_ws(c)?;
                self.ncname(c)?;
                Entity::Unparsed
            } else {
                Entity::External
            }
        };
        self.decl_end(c)?;
        if self.skip_declarations {
            return Ok(());
        }
        let nm: Box<str> = c.str(name.start, name.end).into();
        let table = if parameter {
            &mut self.params
        } else {
            &mut self.general
        };
        table.entry(nm).or_insert(entity);
        Ok(())
    }

    // [9] EntityValue ::= '"' ([^%&"] | PEReference | Reference)* '"'
    //                  |  "'" ([^%&'] | PEReference | Reference)* "'"
    /// An `EntityValue` literal: its replacement text (character references decoded,
    /// general entity references kept, line ends normalized).
    fn entity_value(&mut self, c: &mut Cursor<'_>) -> Result<String> {
        let quote = c.peek().unwrap_or(b'"');
        c.pos += 1;
        let mut out = String::new();
        let b = c.bytes();
        loop {
            let start = c.pos;
            let mut i = start;
            while i < b.len()
                && !matches!(b[i], b'%' | b'&' | b'\r' | 0xEF)
                && b[i] != quote
                && (b[i] >= 0x20 || b[i] == b'\t' || b[i] == b'\n')
            {
                i += 1;
            }
            out.push_str(c.str(start, i));
            c.pos = i;
            let Some(&x) = b.get(i) else {
                return Err(self.error(c, i, ErrorKind::UnexpectedEnd));
            };
            match x {
                _ if x == quote => {
                    c.pos += 1;
                    return Ok(out);
                }
                b'%' => return Err(self.error(c, i, ErrorKind::PeReferenceInDeclaration)),
                b'&' if c.peek_at(i + 1) == Some(b'#') => {
                    let ch = self.char_ref(c)?;
                    out.push(ch);
                }
                b'&' => {
                    c.pos += 1;
                    let name = self.name(c)?;
                    self.expect(c, b';', "`;`")?;
                    out.push_str(c.str(i, c.pos));
                    let _ = name;
                }
                b'\r' => {
                    c.pos += 1;
                    if c.main && c.peek() == Some(b'\n') {
                        c.pos += 1;
                    }
                    out.push(if c.main { '\n' } else { '\r' });
                }
                0xEF => {
                    self.check_ef(c, i)?;
                    let ch = c.char_at(i).unwrap_or('\u{FFFD}');
                    out.push(ch);
                    c.pos += ch.len_utf8();
                }
                _ => return Err(self.error(c, i, ErrorKind::InvalidChar(x as char))),
            }
        }
    }

    // [82] NotationDecl ::= '<!NOTATION' S Name S (ExternalID | PublicID) S? '>'
    fn notation_decl(&mut self, c: &mut Cursor<'_>) -> Result<()> {
        c.pos += 10;
        self.decl_require_ws(c)?;
        self.ncname(c)?;
        self.decl_require_ws(c)?;
        self.external_id(c, true)?;
        self.decl_end(c)
    }
}
