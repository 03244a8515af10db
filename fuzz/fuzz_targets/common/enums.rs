//! Enums of every tagging, shared by the derive targets: each has a direct path that must
//! agree with the RawValue path or fall back.

/// Internally tagged: read directly when the tag comes first (a newtype variant, whose
/// content is the rest of the object, falls back).
#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
#[quarry(tag = "kind", rename_all = "lowercase")]
pub enum Step {
    Halt,
    Jump { to: u16, when: Option<bool> },
    Note(Memo),
}

/// A newtype variant's content.
#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
pub struct Memo {
    pub text: String,
}

/// Adjacently tagged.
#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
#[quarry(tag = "t", content = "c")]
pub enum Hook {
    Off,
    Run(String),
    Env { key: String, value: Option<String> },
}

/// Externally tagged, with data (a tuple variant falls back).
#[derive(quarry::Decode, quarry::Encode, Debug, PartialEq)]
pub enum Action {
    Stop,
    Wait(u32),
    Move { x: i8, y: i8 },
    Pair(u8, u8),
}
