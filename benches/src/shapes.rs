//! Typed shapes of the real corpus files, deriving both quarry's and serde's traits, so
//! each library decodes into exactly the same struct. Every field of the documents is
//! declared, as an application would.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// `twitter.json`: a search result page.
pub mod twitter {
    use super::*;

    /// The document.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    pub struct Twitter {
        /// The tweets.
        pub statuses: Vec<Status>,
        /// Paging data.
        pub search_metadata: SearchMetadata,
    }

    /// One tweet.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Status {
        pub metadata: Metadata,
        pub created_at: String,
        pub id: u64,
        pub id_str: String,
        pub text: String,
        pub source: String,
        pub truncated: bool,
        pub in_reply_to_status_id: Option<u64>,
        pub in_reply_to_status_id_str: Option<String>,
        pub in_reply_to_user_id: Option<u64>,
        pub in_reply_to_user_id_str: Option<String>,
        pub in_reply_to_screen_name: Option<String>,
        pub user: User,
        pub geo: Option<()>,
        pub coordinates: Option<()>,
        pub place: Option<()>,
        pub contributors: Option<()>,
        pub retweeted_status: Option<Box<Status>>,
        pub retweet_count: u32,
        pub favorite_count: u32,
        pub entities: StatusEntities,
        pub favorited: bool,
        pub retweeted: bool,
        pub possibly_sensitive: Option<bool>,
        pub lang: String,
    }

    /// Search metadata of a tweet.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Metadata {
        pub result_type: String,
        pub iso_language_code: String,
    }

    /// A tweet's author.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct User {
        pub id: u64,
        pub id_str: String,
        pub name: String,
        pub screen_name: String,
        pub location: String,
        pub description: String,
        pub url: Option<String>,
        pub entities: UserEntities,
        pub protected: bool,
        pub followers_count: u32,
        pub friends_count: u32,
        pub listed_count: u32,
        pub created_at: String,
        pub favourites_count: u32,
        pub utc_offset: Option<i32>,
        pub time_zone: Option<String>,
        pub geo_enabled: bool,
        pub verified: bool,
        pub statuses_count: u32,
        pub lang: String,
        pub contributors_enabled: bool,
        pub is_translator: bool,
        pub is_translation_enabled: bool,
        pub profile_background_color: String,
        pub profile_background_image_url: String,
        pub profile_background_image_url_https: String,
        pub profile_background_tile: bool,
        pub profile_image_url: String,
        pub profile_image_url_https: String,
        pub profile_banner_url: Option<String>,
        pub profile_link_color: String,
        pub profile_sidebar_border_color: String,
        pub profile_sidebar_fill_color: String,
        pub profile_text_color: String,
        pub profile_use_background_image: bool,
        pub default_profile: bool,
        pub default_profile_image: bool,
        pub following: bool,
        pub follow_request_sent: bool,
        pub notifications: bool,
    }

    /// Links in a user's profile.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct UserEntities {
        pub url: Option<UserUrl>,
        pub description: UserUrl,
    }

    /// A list of links.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct UserUrl {
        pub urls: Vec<Url>,
    }

    /// A link.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Url {
        pub url: String,
        pub expanded_url: String,
        pub display_url: String,
        pub indices: (u32, u32),
    }

    /// What a tweet mentions.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct StatusEntities {
        pub hashtags: Vec<Hashtag>,
        pub symbols: Vec<()>,
        pub urls: Vec<Url>,
        pub user_mentions: Vec<UserMention>,
        pub media: Option<Vec<Media>>,
    }

    /// A hashtag.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Hashtag {
        pub text: String,
        pub indices: (u32, u32),
    }

    /// A mentioned user.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct UserMention {
        pub screen_name: String,
        pub name: String,
        pub id: u64,
        pub id_str: String,
        pub indices: (u32, u32),
    }

    /// An attached picture.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Media {
        pub id: u64,
        pub id_str: String,
        pub indices: (u32, u32),
        pub media_url: String,
        pub media_url_https: String,
        pub url: String,
        pub display_url: String,
        pub expanded_url: String,
        #[serde(rename = "type")]
        #[quarry(rename = "type")]
        pub kind: String,
        pub sizes: Sizes,
        pub source_status_id: Option<u64>,
        pub source_status_id_str: Option<String>,
    }

    /// Picture sizes.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Sizes {
        pub medium: Size,
        pub small: Size,
        pub thumb: Size,
        pub large: Size,
    }

    /// One picture size.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Size {
        pub w: u16,
        pub h: u16,
        pub resize: String,
    }

    /// Paging data of the search.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct SearchMetadata {
        pub completed_in: f64,
        pub max_id: u64,
        pub max_id_str: String,
        pub next_results: String,
        pub query: String,
        pub refresh_url: String,
        pub count: u32,
        pub since_id: u64,
        pub since_id_str: String,
    }
}

/// `citm_catalog.json`: an event catalogue, mostly maps and integer ids.
pub mod citm {
    use super::*;

    /// The document.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[quarry(rename_all = "camelCase")]
    #[allow(missing_docs)]
    pub struct Catalog {
        pub area_names: BTreeMap<u64, String>,
        pub audience_sub_category_names: BTreeMap<u64, String>,
        pub block_names: BTreeMap<u64, String>,
        pub events: BTreeMap<u64, Event>,
        pub performances: Vec<Performance>,
        pub seat_category_names: BTreeMap<u64, String>,
        pub sub_topic_names: BTreeMap<u64, String>,
        pub subject_names: BTreeMap<u64, String>,
        pub topic_names: BTreeMap<u64, String>,
        pub topic_sub_topics: BTreeMap<u64, Vec<u64>>,
        pub venue_names: BTreeMap<String, String>,
    }

    /// An event.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[quarry(rename_all = "camelCase")]
    #[allow(missing_docs)]
    pub struct Event {
        pub description: Option<String>,
        pub id: u64,
        pub logo: Option<String>,
        pub name: String,
        pub sub_topic_ids: Vec<u64>,
        pub subject_code: Option<String>,
        pub subtitle: Option<String>,
        pub topic_ids: Vec<u64>,
    }

    /// A performance of an event.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[quarry(rename_all = "camelCase")]
    #[allow(missing_docs)]
    pub struct Performance {
        pub event_id: u64,
        pub id: u64,
        pub logo: Option<String>,
        pub name: Option<String>,
        pub prices: Vec<Price>,
        pub seat_categories: Vec<SeatCategory>,
        pub seat_map_image: Option<String>,
        pub start: u64,
        pub venue_code: String,
    }

    /// A price.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[quarry(rename_all = "camelCase")]
    #[allow(missing_docs)]
    pub struct Price {
        pub amount: u64,
        pub audience_sub_category_id: u64,
        pub seat_category_id: u64,
    }

    /// A seat category.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[quarry(rename_all = "camelCase")]
    #[allow(missing_docs)]
    pub struct SeatCategory {
        pub areas: Vec<Area>,
        pub seat_category_id: u64,
    }

    /// An area.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[serde(rename_all = "camelCase")]
    #[quarry(rename_all = "camelCase")]
    #[allow(missing_docs)]
    pub struct Area {
        pub area_id: u64,
        pub block_ids: Vec<u64>,
    }
}

/// `Cargo.lock`: the resolved dependency graph of a Rust workspace.
pub mod cargo_lock {
    use super::*;

    /// The document.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct CargoLock {
        pub version: u32,
        pub package: Vec<Package>,
    }

    /// One locked package.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Package {
        pub name: String,
        pub version: String,
        pub source: Option<String>,
        pub checksum: Option<String>,
        #[quarry(default)]
        #[serde(default)]
        pub dependencies: Vec<String>,
    }
}

/// `uv.lock`: a Python project's resolved dependencies, with artifact hashes.
pub mod uv_lock {
    use super::*;

    /// The document.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(rename_all = "kebab-case")]
    #[serde(rename_all = "kebab-case")]
    #[allow(missing_docs)]
    pub struct UvLock {
        pub version: u32,
        pub revision: Option<u32>,
        pub requires_python: String,
        #[quarry(default)]
        #[serde(default)]
        pub resolution_markers: Vec<String>,
        pub package: Vec<Package>,
    }

    /// One locked package.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(rename_all = "kebab-case")]
    #[serde(rename_all = "kebab-case")]
    #[allow(missing_docs)]
    pub struct Package {
        pub name: String,
        pub version: Option<String>,
        pub source: BTreeMap<String, String>,
        #[quarry(default)]
        #[serde(default)]
        pub dependencies: Vec<Dependency>,
        pub sdist: Option<Artifact>,
        #[quarry(default)]
        #[serde(default)]
        pub wheels: Vec<Artifact>,
    }

    /// A dependency edge.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Dependency {
        pub name: String,
        pub marker: Option<String>,
    }

    /// A source or wheel archive.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(rename_all = "kebab-case")]
    #[serde(rename_all = "kebab-case")]
    #[allow(missing_docs)]
    pub struct Artifact {
        pub url: Option<String>,
        pub hash: Option<String>,
        pub size: Option<u64>,
        pub upload_time: Option<String>,
    }
}

/// `Cargo.toml`: a Rust package or workspace manifest (the parts a build tool reads).
pub mod cargo_manifest {
    use super::*;

    /// The document.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(rename_all = "kebab-case")]
    #[serde(rename_all = "kebab-case")]
    #[allow(missing_docs)]
    pub struct Manifest {
        pub package: Option<Package>,
        #[quarry(default)]
        #[serde(default)]
        pub dependencies: BTreeMap<String, Dependency>,
        #[quarry(default)]
        #[serde(default)]
        pub dev_dependencies: BTreeMap<String, Dependency>,
        #[quarry(default)]
        #[serde(default)]
        pub features: BTreeMap<String, Vec<String>>,
        #[quarry(default)]
        #[serde(default)]
        pub example: Vec<Target>,
        #[quarry(default)]
        #[serde(default)]
        pub bin: Vec<Target>,
    }

    /// `[package]`.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[allow(missing_docs)]
    pub struct Package {
        pub name: String,
        pub description: Option<String>,
    }

    /// A dependency: a version requirement, or a table of details.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(untagged)]
    #[serde(untagged)]
    #[allow(missing_docs)]
    pub enum Dependency {
        Version(String),
        Detailed(DependencyDetail),
    }

    /// A dependency given as a table.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(rename_all = "kebab-case")]
    #[serde(rename_all = "kebab-case")]
    #[allow(missing_docs)]
    pub struct DependencyDetail {
        pub version: Option<String>,
        pub path: Option<String>,
        pub workspace: Option<bool>,
        pub optional: Option<bool>,
        pub default_features: Option<bool>,
        #[quarry(default)]
        #[serde(default)]
        pub features: Vec<String>,
    }

    /// `[[example]]` or `[[bin]]`.
    #[derive(quarry::Decode, quarry::Encode, Deserialize, Serialize, Debug, PartialEq)]
    #[quarry(rename_all = "kebab-case")]
    #[serde(rename_all = "kebab-case")]
    #[allow(missing_docs)]
    pub struct Target {
        pub name: String,
        pub path: Option<String>,
        #[quarry(default)]
        #[serde(default)]
        pub required_features: Vec<String>,
        pub doc_scrape_examples: Option<bool>,
    }
}
