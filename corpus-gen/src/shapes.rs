//! The benchmark shapes as Rust types: each derives quarry's `Decode`/`Encode`, serde's
//! `Deserialize`/`Serialize` and toml-spanner's `Toml`, so every library decodes into
//! exactly the same struct.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `small-message`: a few fields, the size of an RPC payload.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct SmallMessage {
    pub id: u64,
    pub kind: String,
    pub ok: bool,
    pub text: String,
}

/// One record of `person-batch`, `unknown-fields` and `large`.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Person {
    pub id: u64,
    pub name: String,
    pub email: String,
    pub age: u8,
    pub active: bool,
    pub score: f64,
    pub balance_cents: i64,
    pub phone: Option<String>,
    pub address: Address,
    /// Absent means empty: XML cannot tell an empty list from a missing one.
    #[quarry(default)]
    #[serde(default)]
    #[toml(default)]
    pub tags: Vec<String>,
}

/// A postal address.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Address {
    pub street: String,
    pub city: String,
    pub zip: String,
    pub country: String,
}

/// One record of `escaped-articles`: string-heavy, with escapes and non-ASCII text.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Article {
    pub title: String,
    pub author: String,
    pub body: String,
    /// Absent means empty: XML cannot tell an empty list from a missing one.
    #[quarry(default)]
    #[serde(default)]
    #[toml(default)]
    pub tags: Vec<String>,
}

/// One record of `telemetry`: floats and large integers.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Reading {
    pub device_id: u64,
    pub timestamp_ns: u64,
    pub seq: u32,
    pub temperature: f64,
    pub humidity: f64,
    pub pressure: f64,
    pub voltage: f64,
    pub samples: Vec<f64>,
}

/// One record of `wide-record`: 24 integer fields.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Wide {
    pub f01: i64,
    pub f02: i64,
    pub f03: i64,
    pub f04: i64,
    pub f05: i64,
    pub f06: i64,
    pub f07: i64,
    pub f08: i64,
    pub f09: i64,
    pub f10: i64,
    pub f11: i64,
    pub f12: i64,
    pub f13: i64,
    pub f14: i64,
    pub f15: i64,
    pub f16: i64,
    pub f17: i64,
    pub f18: i64,
    pub f19: i64,
    pub f20: i64,
    pub f21: i64,
    pub f22: i64,
    pub f23: i64,
    pub f24: i64,
}

/// `config`: a realistic application configuration with nested tables.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Config {
    pub service: Service,
    pub http: Http,
    pub database: Database,
    pub logging: Logging,
    pub features: BTreeMap<String, bool>,
    pub limits: Vec<Limit>,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Service {
    pub name: String,
    pub version: String,
    pub environment: String,
    pub region: String,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Http {
    pub host: String,
    pub port: u16,
    pub workers: u32,
    pub read_timeout_ms: u64,
    pub write_timeout_ms: u64,
    pub tls: Option<Tls>,
    pub allowed_origins: Vec<String>,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Tls {
    pub cert_path: String,
    pub key_path: String,
    pub min_version: String,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Database {
    pub url: String,
    pub pool_min: u32,
    pub pool_max: u32,
    pub statement_timeout_ms: u64,
    pub replicas: Vec<Replica>,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Replica {
    pub url: String,
    pub weight: u8,
    pub read_only: bool,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Logging {
    pub level: String,
    pub format: String,
    pub targets: BTreeMap<String, String>,
}

#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Limit {
    pub route: String,
    pub requests_per_second: u32,
    pub burst: u32,
}

/// The batch shapes in formats whose documents must be tables (TOML) or need one root:
/// the records under one key, `records`.
#[derive(
    quarry::Decode,
    quarry::Encode,
    Deserialize,
    Serialize,
    toml_spanner::Toml,
    Debug,
    Clone,
    PartialEq,
)]
#[toml(ignore_unknown_fields)]
#[allow(missing_docs)]
pub struct Records<T> {
    pub records: Vec<T>,
}
