//! Namespaces in XML 1.0 for the start tag just read: declarations, prefix resolution,
//! and attribute uniqueness (by name, and by namespace and local name).

use super::*;

impl<'a> Parser<'a> {
    /// Namespace declarations, prefix resolution and attribute uniqueness for the
    /// start tag just read; returns the element's namespace.
    #[inline(always)]
    pub(super) fn namespaces(&mut self, c: &Cursor<'_>, name: &NameInfo) -> Result<u32> {
        if self.attrs.is_empty() && (name.colon.is_none() || !self.namespaces) {
            // No declarations and no attributes to resolve or compare: only the
            // element's own (default) namespace.
            return Ok(if self.namespaces {
                self.lookup_prefix("").unwrap_or(0)
            } else {
                0
            });
        }
        self.declared_namespaces(c, name)
    }

    // Namespaces in XML 1.0:
    // [1] NSAttName ::= PrefixedAttName | DefaultAttName
    // [2] PrefixedAttName ::= 'xmlns:' NCName
    // [3] DefaultAttName ::= 'xmlns'
    /// [`Parser::namespaces`] for a tag with attributes or a prefix.
    #[inline(never)]
    fn declared_namespaces(&mut self, c: &Cursor<'_>, name: &NameInfo) -> Result<u32> {
        if !self.namespaces {
            self.check_unique(c, 0)?;
            return Ok(0);
        }
        let at = |p: &Self, kind| p.error(c, name.start, kind);
        // Declarations first: they apply to the tag they sit on.
        for attr in &self.attrs {
            let value = attr.value.as_str(&self.values);
            let declared = if attr.prefix_len == 0 {
                if attr.name != "xmlns" {
                    continue;
                }
                if value == XML_NAMESPACE || value == XMLNS_NAMESPACE {
                    return Err(at(self, ErrorKind::InvalidNamespaceDeclaration));
                }
                ""
            } else {
                if &attr.name[..attr.prefix_len] != "xmlns" {
                    continue;
                }
                let local = &attr.name[attr.prefix_len + 1..];
                let ok = match local {
                    "xmlns" => false,
                    "xml" => value == XML_NAMESPACE,
                    _ => !value.is_empty() && value != XML_NAMESPACE && value != XMLNS_NAMESPACE,
                };
                if !ok {
                    return Err(at(self, ErrorKind::InvalidNamespaceDeclaration));
                }
                local
            };
            let prefix = match &attr.name {
                Cow::Borrowed(s) => Cow::Borrowed(&s[s.len() - declared.len()..]),
                Cow::Owned(_) => Cow::Owned(declared.to_owned()),
            };
            self.binding_keys.push(prefix_key(declared));
            self.epoch = self.epoch.wrapping_add(1);
            self.bindings.push(NamespaceBinding {
                prefix,
                uri: match attr.value {
                    Value::Borrowed(s) => Cow::Borrowed(s),
                    Value::Decoded(..) => Cow::Owned(value.to_owned()),
                },
            });
        }
        let element_ns = if name.colon.is_none() {
            self.lookup_prefix("").unwrap_or(0)
        } else {
            let prefix = c.str(name.start, name.start + name.prefix_len());
            match prefix {
                "xml" => NS_XML,
                "xmlns" => return Err(at(self, ErrorKind::InvalidNamespaceDeclaration)),
                _ => self
                    .lookup_prefix(prefix)
                    .ok_or_else(|| at(self, ErrorKind::UnboundPrefix(prefix.to_owned())))?,
            }
        };
        let mut prefixed = 0;
        for i in 0..self.attrs.len() {
            let attr = &self.attrs[i];
            let ns = if attr.prefix_len == 0 {
                if attr.name == "xmlns" {
                    NS_XMLNS
                } else {
                    0
                }
            } else {
                prefixed += 1;
                match &attr.name[..attr.prefix_len] {
                    "xml" => NS_XML,
                    "xmlns" => NS_XMLNS,
                    prefix => match self.lookup_prefix(prefix) {
                        Some(ns) => ns,
                        None => {
                            let prefix = prefix.to_owned();
                            return Err(self.error(
                                c,
                                attr.span.start,
                                ErrorKind::UnboundPrefix(prefix),
                            ));
                        }
                    },
                }
            };
            self.attrs[i].ns = ns;
        }
        self.check_unique(c, prefixed)?;
        Ok(element_ns)
    }

    /// The binding (index plus one) of `prefix`, innermost first.
    #[inline(always)]
    fn lookup_prefix(&self, prefix: &str) -> Option<u32> {
        if self.bindings.is_empty() {
            return None;
        }
        let key = prefix_key(prefix);
        let exact = prefix.len() <= 7;
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61) as usize;
        if exact {
            let (k, found, epoch) = self.prefix_cache[slot].get();
            if k == key && epoch == self.epoch {
                return Some(found);
            }
        }
        let found = self
            .binding_keys
            .iter()
            .enumerate()
            .rev()
            .find(|&(i, &k)| k == key && (exact || self.bindings[i].prefix == prefix))
            .map(|(i, _)| i as u32 + 1)?;
        if exact {
            self.prefix_cache[slot].set((key, found, self.epoch));
        }
        Some(found)
    }

    /// Drops the namespace bindings beyond the first `len`.
    #[inline]
    pub(super) fn drop_bindings(&mut self, len: usize) {
        if self.bindings.len() != len {
            self.bindings.truncate(len);
            self.binding_keys.truncate(len);
            self.epoch = self.epoch.wrapping_add(1);
        }
    }

    fn ns_uri(&self, ns: u32) -> &str {
        match ns {
            0 => "",
            NS_XML => XML_NAMESPACE,
            NS_XMLNS => XMLNS_NAMESPACE,
            i => self.bindings.get(i as usize - 1).map_or("", |b| &b.uri),
        }
    }

    fn check_unique(&self, c: &Cursor<'_>, prefixed: usize) -> Result<()> {
        let attrs = &self.attrs;
        let n = attrs.len();
        if n < 2 {
            return Ok(());
        }
        let dup = |i: usize| {
            let a = &attrs[i];
            self.error(
                c,
                a.span.start,
                ErrorKind::DuplicatedAttribute(a.name.to_string()),
            )
        };
        if n <= 64 {
            // A 64-bit filter on (length, first byte, last byte): only a name whose bit
            // is already set is compared with the names before it.
            let mut filter = 0u64;
            for i in 0..n {
                let bit = 1u64 << name_bit(&attrs[i].name);
                if filter & bit != 0
                    && attrs[..i]
                        .iter()
                        .any(|b| may_equal(&attrs[i].name, &b.name) && attrs[i].name == b.name)
                {
                    return Err(dup(i));
                }
                filter |= bit;
            }
        } else {
            let mut seen = std::collections::HashSet::with_capacity(n);
            for (i, a) in attrs.iter().enumerate() {
                if !seen.insert(&*a.name) {
                    return Err(dup(i));
                }
            }
        }
        if prefixed >= 2 && n <= 64 {
            let mut filter = 0u64;
            for i in 0..n {
                let a = &attrs[i];
                if a.prefix_len == 0 {
                    continue;
                }
                let bit = 1u64 << name_bit(a.local_name());
                if filter & bit != 0 {
                    for b in &attrs[..i] {
                        if b.prefix_len > 0
                            && may_equal(a.local_name(), b.local_name())
                            && a.local_name() == b.local_name()
                            && (a.ns == b.ns || self.ns_uri(a.ns) == self.ns_uri(b.ns))
                        {
                            return Err(dup(i));
                        }
                    }
                }
                filter |= bit;
            }
        } else if prefixed >= 2 {
            let mut seen = std::collections::HashSet::with_capacity(prefixed);
            for (i, a) in attrs.iter().enumerate() {
                if a.prefix_len > 0 && !seen.insert((self.ns_uri(a.ns), a.local_name())) {
                    return Err(dup(i));
                }
            }
        }
        Ok(())
    }
}

/// A prefix's length and first seven bytes in one word: equal keys mean equal
/// prefixes when the prefix is at most seven bytes long.
#[inline]
fn prefix_key(prefix: &str) -> u64 {
    let b = prefix.as_bytes();
    let mut word = [0u8; 8];
    let n = b.len().min(7);
    word[..n].copy_from_slice(&b[..n]);
    word[7] = b.len().min(255) as u8;
    u64::from_le_bytes(word)
}

/// A bit (0..64) for a name, from its length, first and last byte.
#[inline]
fn name_bit(name: &str) -> u32 {
    let b = name.as_bytes();
    let h = b.len() as u32 * 7
        + u32::from(*b.first().unwrap_or(&0)) * 3
        + u32::from(*b.last().unwrap_or(&0));
    h & 63
}

/// A cheap test that two names may be equal (length, first and last byte) before
/// comparing them.
#[inline]
fn may_equal(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    a.len() == b.len() && a.first() == b.first() && a.last() == b.last()
}
