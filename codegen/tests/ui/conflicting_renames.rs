#[derive(quarry::Decode)]
#[quarry(rename_all = "camelCase")]
struct Config {
    #[quarry(rename = "hostName")]
    host: String,
    host_name: String,
    #[quarry(alias = "host")]
    address: String,
}

fn main() {}
