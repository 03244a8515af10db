// Every placement the derive cannot honour is a compile error, never a silent no-op.

#[derive(quarry::Decode)]
struct Pair(#[quarry(rename = "a")] u8, #[quarry(alias = "b", default)] u8);

#[derive(quarry::Decode)]
#[quarry(rename_all = "camelCase", deny_unknown_fields)]
struct Wrapper(u8);

#[derive(quarry::Decode)]
struct Gathered {
    #[quarry(flatten, rename = "rest")]
    rest: std::collections::BTreeMap<String, u8>,
}

#[derive(quarry::Decode)]
enum Message {
    #[quarry(rename_all = "camelCase")]
    Text(String),
    Empty(#[quarry(skip)] u8),
}

#[derive(quarry::Decode)]
#[quarry(untagged, rename_all = "snake_case")]
enum Loose {
    #[quarry(rename = "n", alias = "num")]
    Number(u8),
}

fn main() {}
