#[derive(quarry::Decode)]
struct Pair(#[quarry(flatten)] std::collections::BTreeMap<String, u8>, u8);

#[derive(quarry::Decode)]
enum Shape {
    Circle {
        #[quarry(flatten)]
        extra: std::collections::BTreeMap<String, u8>,
    },
}

fn main() {}
