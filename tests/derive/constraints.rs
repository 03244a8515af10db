//! Constraints (`range`, `len`, `pattern`, `validate`): every failure of a decode
//! reported at once, and the constraints of newtype variants in every tagging and of
//! flattened fields applied on both paths.

use std::collections::BTreeMap;

use quarry::{Decode, Encode};

use crate::paths::{both_paths, errors, via_direct, via_raw};

fn even(value: &u32) -> Result<(), String> {
    if value % 2 == 0 {
        Ok(())
    } else {
        Err(format!("{value} is odd"))
    }
}

#[derive(Decode, Encode, Debug, PartialEq)]
pub(crate) struct Account {
    #[quarry(len = 1..=8, pattern = "^[a-z]+$")]
    user: String,
    #[quarry(validate = even)]
    quota: u32,
    #[quarry(range = 0.0..=1.0)]
    ratio: Option<f64>,
}

#[test]
fn constraints_accumulate() {
    let ok = r#"{"user": "ada", "quota": 2, "ratio": 0.5}"#;
    assert_eq!(via_direct::<Account>(ok).unwrap().quota, 2);
    let bad = r#"{"user": "ADA_LOVELACE", "quota": 3, "ratio": 1.5}"#;
    assert!(via_direct::<Account>(bad).is_none());
    assert_eq!(
        errors::<Account>(bad),
        "user: expected length in 1..=8, found length 12 at line 1, column 10\n\
         user: expected a string matching `^[a-z]+$`, found string \"ADA_LOVELACE\" at line 1, column 10\n\
         quota: 3 is odd at line 1, column 35\n\
         ratio: expected number in 0.0..=1.0, found 1.5 at line 1, column 47"
    );
    assert_eq!(
        via_raw::<Account>(r#"{"user": "a", "quota": 0, "ratio": null}"#)
            .unwrap()
            .ratio,
        None
    );
}

/// The constraints of the one field of a newtype variant, in every tagging style: each
/// enum has a variant per constraint kind (an internally tagged variant holds a map, so
/// it takes `len` and `validate`).
#[derive(Decode, Debug, PartialEq)]
pub(crate) enum CheckedExternal {
    Len(#[quarry(len = 1..=3)] String),
    Range(#[quarry(range = 1..=9)] u32),
    Pattern(#[quarry(pattern = "^[a-z]+$")] String),
    Validate(#[quarry(validate = even)] u32),
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(tag = "t", content = "c")]
pub(crate) enum CheckedAdjacent {
    Len(#[quarry(len = 1..=3)] String),
    Range(#[quarry(range = 1..=9)] u32),
    Pattern(#[quarry(pattern = "^[a-z]+$")] String),
    Validate(#[quarry(validate = even)] u32),
}

fn at_most_two(map: &BTreeMap<String, u32>) -> Result<(), String> {
    match map.len() {
        0..=2 => Ok(()),
        n => Err(format!("{n} entries, at most 2 allowed")),
    }
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(tag = "t")]
pub(crate) enum CheckedInternal {
    Len(#[quarry(len = 1..=2)] BTreeMap<String, u32>),
    Validate(#[quarry(validate = at_most_two)] BTreeMap<String, u32>),
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(untagged)]
pub(crate) enum CheckedUntaggedNumber {
    Small(#[quarry(range = 1..=9)] u32),
    Word(#[quarry(len = 1..=3)] String),
}

#[derive(Decode, Debug, PartialEq)]
#[quarry(untagged)]
pub(crate) enum CheckedUntagged {
    Even(#[quarry(validate = even)] u32),
    Lower(#[quarry(pattern = "^[a-z]+$")] String),
}

/// Every case of `cases` whose result differs from the expected error, as text (so a
/// failure lists every constraint kind that was not enforced).
fn wrong<'a, T: Decode<'a> + PartialEq + std::fmt::Debug>(
    cases: &[(&'a str, &str)],
) -> Vec<String> {
    cases
        .iter()
        .filter_map(|&(src, message)| {
            let got = both_paths::<T>(src);
            (got != Err(message.to_owned())).then(|| format!("{src}: {got:?}"))
        })
        .collect()
}

#[test]
fn constraints_on_externally_tagged_newtype_variants_apply() {
    assert_eq!(
        both_paths::<CheckedExternal>(r#"{"Len": "abc"}"#),
        Ok(CheckedExternal::Len("abc".into()))
    );
    // The error sits under the variant's name; a type error names the accepted range,
    // as on a struct field.
    let failures = wrong::<CheckedExternal>(&[
        (
            r#"{"Len": "toolong"}"#,
            "Len: expected length in 1..=3, found length 7",
        ),
        (
            r#"{"Range": 70}"#,
            "Range: expected integer in 1..=9, found 70",
        ),
        (
            r#"{"Range": "x"}"#,
            "Range: expected integer in 1..=9, found string \"x\"",
        ),
        (
            r#"{"Pattern": "A1"}"#,
            "Pattern: expected a string matching `^[a-z]+$`, found string \"A1\"",
        ),
        (r#"{"Validate": 3}"#, "Validate: 3 is odd"),
    ]);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn constraints_on_adjacently_tagged_newtype_variants_apply() {
    assert_eq!(
        both_paths::<CheckedAdjacent>(r#"{"t": "Range", "c": 9}"#),
        Ok(CheckedAdjacent::Range(9))
    );
    // The error sits under the content key.
    let failures = wrong::<CheckedAdjacent>(&[
        (
            r#"{"t": "Len", "c": "toolong"}"#,
            "c: expected length in 1..=3, found length 7",
        ),
        (
            r#"{"t": "Range", "c": 0}"#,
            "c: expected integer in 1..=9, found 0",
        ),
        (
            r#"{"t": "Pattern", "c": "A1"}"#,
            "c: expected a string matching `^[a-z]+$`, found string \"A1\"",
        ),
        (r#"{"t": "Validate", "c": 3}"#, "c: 3 is odd"),
    ]);
    assert!(failures.is_empty(), "{failures:#?}");
    // Through the facade, with the position of the offending value.
    assert_eq!(
        errors::<CheckedAdjacent>(r#"{"t": "Len", "c": "toolong"}"#),
        "c: expected length in 1..=3, found length 7 at line 1, column 19"
    );
}

#[test]
fn constraints_on_internally_tagged_newtype_variants_apply() {
    assert_eq!(
        both_paths::<CheckedInternal>(r#"{"t": "Len", "a": 1}"#),
        Ok(CheckedInternal::Len(BTreeMap::from([("a".to_owned(), 1)])))
    );
    // The content is the map itself, so the error has no path.
    let failures = wrong::<CheckedInternal>(&[
        (
            r#"{"t": "Len", "a": 1, "b": 2, "c": 3}"#,
            "expected length in 1..=2, found length 3",
        ),
        (
            r#"{"t": "Validate", "a": 1, "b": 2, "c": 3}"#,
            "3 entries, at most 2 allowed",
        ),
    ]);
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn constraints_on_untagged_newtype_variants_apply() {
    // A variant whose constraint fails does not match.
    assert_eq!(
        both_paths::<CheckedUntaggedNumber>("7"),
        Ok(CheckedUntaggedNumber::Small(7))
    );
    assert_eq!(
        both_paths::<CheckedUntaggedNumber>(r#""ab""#),
        Ok(CheckedUntaggedNumber::Word("ab".into()))
    );
    assert_eq!(
        both_paths::<CheckedUntagged>("4"),
        Ok(CheckedUntagged::Even(4))
    );
    assert_eq!(
        both_paths::<CheckedUntagged>(r#""ab""#),
        Ok(CheckedUntagged::Lower("ab".into()))
    );
    let none = "data did not match any variant of untagged enum";
    let mut failures = wrong::<CheckedUntaggedNumber>(&[
        (
            "70",
            &format!(
                "{none} `CheckedUntaggedNumber`: `Small`: expected integer in 1..=9, found 70; \
                 `Word`: expected string, found 70"
            ),
        ),
        (
            r#""toolong""#,
            &format!(
                "{none} `CheckedUntaggedNumber`: `Small`: expected integer in 1..=9, found string \"toolong\"; \
                 `Word`: expected length in 1..=3, found length 7"
            ),
        ),
    ]);
    failures.extend(wrong::<CheckedUntagged>(&[
        (
            "3",
            &format!(
                "{none} `CheckedUntagged`: `Even`: 3 is odd; `Lower`: expected string, found 3"
            ),
        ),
        (
            r#""A1""#,
            &format!(
                "{none} `CheckedUntagged`: `Even`: expected integer, found string \"A1\"; \
                 `Lower`: expected a string matching `^[a-z]+$`, found string \"A1\""
            ),
        ),
    ]));
    assert!(failures.is_empty(), "{failures:#?}");
}

/// A constraint on a flattened field applies to the value the field gathered; the field
/// has no key, so the error sits at the struct.
#[derive(Decode, Debug, PartialEq)]
pub(crate) struct Gathered {
    name: String,
    #[quarry(flatten, validate = at_most_two)]
    rest: BTreeMap<String, u32>,
}

#[test]
fn constraints_on_flattened_fields_apply() {
    assert_eq!(
        both_paths::<Gathered>(r#"{"name": "x", "a": 1, "b": 2}"#).map(|g| g.rest.len()),
        Ok(2)
    );
    assert_eq!(
        both_paths::<Gathered>(r#"{"name": "x", "a": 1, "b": 2, "c": 3}"#),
        Err("3 entries, at most 2 allowed".to_owned())
    );
}
