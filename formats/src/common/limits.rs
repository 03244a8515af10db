/// Resource limits every parser enforces in its core, whatever the builder.
/// Exceeding one is an ordinary error naming the limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// Maximum nesting of containers (default 128).
    pub max_depth: usize,
    /// Maximum input size in bytes (default 1 GiB).
    pub max_document_size: usize,
    /// Maximum number of nodes YAML alias expansion may add (default 1,000,000).
    pub max_alias_expansion: usize,
    /// Maximum number of bytes XML entity expansion may produce (default 10 MiB).
    pub max_entity_expansion: usize,
    /// Maximum number of attributes on one XML element (default 1,024).
    pub max_attributes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 128,
            max_document_size: 1 << 30,
            max_alias_expansion: 1_000_000,
            max_entity_expansion: 10 << 20,
            max_attributes: 1024,
        }
    }
}

impl Limits {
    /// These limits with a different nesting depth.
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }

    /// These limits with a different document size limit.
    pub fn with_max_document_size(mut self, bytes: usize) -> Self {
        self.max_document_size = bytes;
        self
    }

    /// These limits with a different bound on the nodes YAML aliases may add.
    pub fn with_max_alias_expansion(mut self, nodes: usize) -> Self {
        self.max_alias_expansion = nodes;
        self
    }

    /// These limits with a different bound on the bytes XML entities may expand to.
    pub fn with_max_entity_expansion(mut self, bytes: usize) -> Self {
        self.max_entity_expansion = bytes;
        self
    }

    /// These limits with a different number of attributes allowed on one XML element.
    pub fn with_max_attributes(mut self, attributes: usize) -> Self {
        self.max_attributes = attributes;
        self
    }
}
