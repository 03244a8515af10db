#[derive(quarry::Decode)]
struct Config {
    #[quarry(renam = "x")]
    name: String,
}

fn main() {}
