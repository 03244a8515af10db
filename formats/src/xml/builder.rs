//! The XML builder trait: what the one XML parser tells whoever builds its output.

use std::borrow::Cow;

use crate::common::Span;
pub(crate) use quarry_raw_value::TextRef;

/// True when `s` holds only XML white space (or is empty).
#[inline]
pub fn is_xml_whitespace(s: &str) -> bool {
    s.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
}

/// The namespace URI bound to the `xml` prefix.
pub const XML_NAMESPACE: &str = "http://www.w3.org/XML/1998/namespace";
/// The namespace URI of `xmlns` attributes.
pub const XMLNS_NAMESPACE: &str = "http://www.w3.org/2000/xmlns/";

/// An attribute as the parser keeps it while reading a start tag; builders see it
/// through [`Attribute`].
#[derive(Debug, Clone)]
pub(crate) struct RawAttribute<'a> {
    pub(crate) name: Cow<'a, str>,
    pub(crate) prefix_len: usize,
    pub(crate) value: Value<'a>,
    pub(crate) span: Span,
    pub(crate) value_span: Span,
    /// The namespace: 0 none, otherwise an index (plus one) into the in-scope bindings.
    pub(crate) ns: u32,
    /// Written in the tag (not added from a default the internal subset declares).
    pub(crate) specified: bool,
}

impl RawAttribute<'_> {
    /// The local part of the name.
    #[inline]
    pub(crate) fn local_name(&self) -> &str {
        if self.prefix_len > 0 {
            &self.name[self.prefix_len + 1..]
        } else {
            &self.name
        }
    }
}

/// An attribute value: borrowed from the input, or decoded into the tag's buffer.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    Borrowed(&'a str),
    Decoded(usize, usize),
}

impl<'a> Value<'a> {
    /// The value's text as a plain string.
    #[inline]
    pub(crate) fn as_str<'s>(self, values: &'s str) -> &'s str
    where
        'a: 's,
    {
        match self {
            Value::Borrowed(s) => s,
            Value::Decoded(start, end) => values.get(start..end).unwrap_or(""),
        }
    }

    /// The value's text, given the buffer decoded values live in.
    #[inline]
    pub(crate) fn text<'s>(self, values: &'s str) -> TextRef<'a, 's> {
        match self {
            Value::Borrowed(s) => TextRef::Borrowed(s),
            Value::Decoded(start, end) => TextRef::Decoded(values.get(start..end).unwrap_or("")),
        }
    }
}

/// One attribute of a start tag, its value normalized (references decoded, white space
/// characters turned into spaces, as XML 1.0 §3.3.3 says for CDATA).
#[derive(Debug, Clone, Copy)]
pub struct Attribute<'a, 'p> {
    raw: &'p RawAttribute<'a>,
    values: &'p str,
    bindings: &'p [NamespaceBinding<'a>],
}

impl<'a, 'p> Attribute<'a, 'p> {
    /// The qualified name, as written (`xlink:href`).
    #[inline]
    pub fn name(&self) -> &'p Cow<'a, str> {
        &self.raw.name
    }

    /// The prefix, if the name has one.
    pub fn prefix(&self) -> Option<&'p str> {
        let raw = self.raw;
        (raw.prefix_len > 0).then(|| &raw.name[..raw.prefix_len])
    }

    /// The local part of the name.
    pub fn local_name(&self) -> &'p str {
        let raw = self.raw;
        if raw.prefix_len > 0 {
            &raw.name[raw.prefix_len + 1..]
        } else {
            &raw.name
        }
    }

    /// The normalized value: borrowed from the input when nothing was decoded.
    #[inline]
    pub fn value(&self) -> TextRef<'a, 'p> {
        self.raw.value.text(self.values)
    }

    /// The resolved namespace URI (`xmlns` declarations have the xmlns namespace;
    /// unprefixed attributes have none).
    pub fn namespace(&self) -> Option<&'p str> {
        resolve(self.bindings, self.raw.ns)
    }

    /// From the name to the closing quote.
    #[inline]
    pub fn span(&self) -> Span {
        self.raw.span
    }

    /// The value between the quotes.
    #[inline]
    pub fn value_span(&self) -> Span {
        self.raw.value_span
    }

    /// True when the attribute is written in the tag; false when the internal subset's
    /// `<!ATTLIST>` supplied it as a default (the infoset's \[specified\] property). A
    /// defaulted attribute has an empty span at the end of the element's name.
    #[inline]
    pub fn specified(&self) -> bool {
        self.raw.specified
    }
}

/// The attributes of a [`StartTag`], in document order.
#[derive(Debug, Clone)]
pub struct StartTagAttributes<'a, 'p> {
    iter: std::slice::Iter<'p, RawAttribute<'a>>,
    values: &'p str,
    bindings: &'p [NamespaceBinding<'a>],
}

impl<'a, 'p> Iterator for StartTagAttributes<'a, 'p> {
    type Item = Attribute<'a, 'p>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        let raw = self.iter.next()?;
        Some(Attribute {
            raw,
            values: self.values,
            bindings: self.bindings,
        })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.iter.size_hint()
    }
}

impl ExactSizeIterator for StartTagAttributes<'_, '_> {}

fn resolve<'p>(bindings: &'p [NamespaceBinding<'_>], ns: u32) -> Option<&'p str> {
    match ns {
        0 => None,
        NS_XML => Some(XML_NAMESPACE),
        NS_XMLNS => Some(XMLNS_NAMESPACE),
        i => {
            let uri = &bindings.get(i as usize - 1)?.uri;
            (!uri.is_empty()).then_some(&**uri)
        }
    }
}

/// A namespace binding in scope: `prefix` (empty for the default namespace) to `uri`.
#[derive(Debug, Clone)]
pub struct NamespaceBinding<'a> {
    /// The prefix; empty for `xmlns="..."`.
    pub prefix: Cow<'a, str>,
    /// The URI; empty un-declares the default namespace.
    pub uri: Cow<'a, str>,
}

/// Marks a namespace that is not a binding on the stack.
pub(crate) const NS_XML: u32 = u32::MAX;
pub(crate) const NS_XMLNS: u32 = u32::MAX - 1;

/// A start tag (`<name attr="value">` or `<name/>`), as the builder sees it.
#[derive(Debug)]
pub struct StartTag<'a, 'p> {
    pub(crate) name: Cow<'a, str>,
    pub(crate) prefix_len: usize,
    pub(crate) ns: u32,
    pub(crate) attributes: &'p [RawAttribute<'a>],
    /// The decoded attribute values.
    pub(crate) values: &'p str,
    pub(crate) bindings: &'p [NamespaceBinding<'a>],
    /// How many of `bindings` (at the end) this tag declares.
    pub(crate) declared: usize,
    pub(crate) span: Span,
    pub(crate) empty: bool,
}

impl<'a, 'p> StartTag<'a, 'p> {
    /// The qualified name as written (`svg:rect`).
    #[inline]
    pub fn name(&self) -> &Cow<'a, str> {
        &self.name
    }

    /// The prefix, if any.
    pub fn prefix(&self) -> Option<&str> {
        (self.prefix_len > 0).then(|| &self.name[..self.prefix_len])
    }

    /// The local part of the name.
    pub fn local_name(&self) -> &str {
        if self.prefix_len > 0 {
            &self.name[self.prefix_len + 1..]
        } else {
            &self.name
        }
    }

    /// The resolved namespace URI of the element.
    pub fn namespace(&self) -> Option<&'p str> {
        resolve(self.bindings, self.ns)
    }

    /// The attributes, in document order (namespace declarations included).
    #[inline]
    pub fn attributes(&self) -> StartTagAttributes<'a, 'p> {
        StartTagAttributes {
            iter: self.attributes.iter(),
            values: self.values,
            bindings: self.bindings,
        }
    }

    /// The namespace bindings this tag declares (`xmlns`, `xmlns:p`).
    pub fn declared_namespaces(&self) -> &'p [NamespaceBinding<'a>] {
        &self.bindings[self.bindings.len() - self.declared..]
    }

    /// Every namespace binding in scope, outermost first (later ones shadow earlier ones).
    pub fn namespaces_in_scope(&self) -> &'p [NamespaceBinding<'a>] {
        self.bindings
    }

    /// From `<` to `>`.
    #[inline]
    pub fn span(&self) -> Span {
        self.span
    }

    /// True for an empty-element tag (`<name/>`); its end follows at once.
    #[inline]
    pub fn is_empty_element(&self) -> bool {
        self.empty
    }
}

/// The XML declaration (`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Declaration<'a> {
    /// `1.0` (or another `1.x`).
    pub version: &'a str,
    /// The declared encoding, as written.
    pub encoding: Option<&'a str>,
    /// The standalone flag, when given.
    pub standalone: Option<bool>,
}

/// The document type declaration. The internal subset is parsed and its entities
/// expanded by the parser; an external subset is never read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Doctype<'a> {
    /// The root element name it declares.
    pub name: &'a str,
    /// The public identifier, if any.
    pub public_id: Option<&'a str>,
    /// The system identifier (never fetched), if any.
    pub system_id: Option<&'a str>,
    /// The internal subset's source text, if any.
    pub internal_subset: Option<&'a str>,
}

/// Receives the parse of one XML document, in document order.
///
/// The parser is monomorphized over its builder; every hook but the element, text and
/// end events defaults to doing nothing, so a builder pays only for what it uses.
/// `()` is the validate-only builder. Events from inside an internal entity's
/// replacement text carry the span of the entity reference.
pub trait XmlBuilder<'a> {
    /// The document's text, before any other event, when the strings the builder is
    /// handed may borrow from it (not for a transcoded document, whose strings are owned).
    #[inline]
    fn source(&mut self, _src: &'a str) {}
    /// The XML declaration at `span`.
    #[inline]
    fn declaration(&mut self, _declaration: &Declaration<'_>, _span: Span) {}
    /// The document type declaration at `span`.
    #[inline]
    fn doctype(&mut self, _doctype: &Doctype<'_>, _span: Span) {}
    /// A start tag; for `<name/>` [`XmlBuilder::end_element`] follows at once.
    fn start_element(&mut self, tag: &StartTag<'a, '_>);
    /// The end of the innermost open element; `span` covers its end tag
    /// (for `<name/>`, the empty tag's end).
    fn end_element(&mut self, span: Span);
    /// Character data (a maximal run between markup, references decoded and line ends
    /// normalized). White-space-only runs are reported too.
    fn text(&mut self, text: TextRef<'a, '_>, span: Span);
    /// A CDATA section's content; by default, text.
    #[inline]
    fn cdata(&mut self, text: TextRef<'a, '_>, span: Span) {
        self.text(text, span)
    }
    /// A comment's content (between `<!--` and `-->`).
    #[inline]
    fn comment(&mut self, _text: TextRef<'a, '_>, _span: Span) {}
    /// A processing instruction: its target and its data (possibly empty).
    #[inline]
    fn processing_instruction(
        &mut self,
        _target: TextRef<'a, '_>,
        _data: TextRef<'a, '_>,
        _span: Span,
    ) {
    }
    /// A reference to an entity the parser may not read (declared external, or
    /// undeclared after an unread external subset): it is skipped.
    #[inline]
    fn skipped_entity(&mut self, _name: &str, _span: Span) {}
}

/// The validate-only builder: builds nothing, allocates nothing.
impl<'a> XmlBuilder<'a> for () {
    #[inline]
    fn start_element(&mut self, _: &StartTag<'a, '_>) {}
    #[inline]
    fn end_element(&mut self, _: Span) {}
    #[inline]
    fn text(&mut self, _: TextRef<'a, '_>, _: Span) {}
}
