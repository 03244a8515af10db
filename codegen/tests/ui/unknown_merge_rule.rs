#[derive(quarry::Decode)]
struct Config {
    #[quarry(merge = "apend")]
    hosts: Vec<String>,
}

fn main() {}
