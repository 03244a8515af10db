//! Binary plists' direct path against their RawValue path, on the JSON documents turned
//! into binary plists.

use proptest::prelude::*;
use quarry::{json, Decode, Format};

use super::json::server_document;
use crate::attributes::Server;

proptest! {
    #[test]
    fn bplist_direct_path_equals_raw_value_path(doc in server_document()) {
        // The same documents as binary plists (a plist has no null: those are left out).
        let value = json::parse(doc.as_bytes()).unwrap();
        let Ok(file) = quarry::plist::to_vec_binary(&value) else { return Ok(()) };
        let raw = Server::decode(quarry::plist::parse(&file).unwrap());
        let mut source = quarry::plist::DirectSource::new(&file, quarry::Limits::default()).unwrap();
        let direct = Server::decode_direct(&mut source).ok();
        prop_assert_eq!(direct.as_ref(), raw.as_ref().ok(), "{}", doc);
        let facade = quarry::from_slice::<Server>(&file, Format::Plist);
        prop_assert_eq!(facade.ok(), raw.ok());
    }
}
