#[derive(quarry::Decode)]
#[quarry(rename_all = "camel_case", tag = "type")]
struct Config {
    #[quarry(pattern = "([a-z]")]
    name: String,
    #[quarry(skip, range = 1..=2)]
    port: u16,
}

fn main() {}
