use quarry::Decode;

#[derive(Decode)]
#[quarry(untagged)]
enum Wrapped {
    Wrap(Box<Self>),
    Shared(std::rc::Rc<Wrapped>),
    Number(u8),
}

#[derive(Decode)]
struct Again(Box<Again>);

#[derive(Decode)]
struct Rest {
    name: String,
    #[quarry(flatten)]
    rest: Option<Box<Rest>>,
}

// Through another type, or under a key, the derive lets it be: the first stops at the
// recursion limit at run time, the second reads a deeper value.
#[derive(Decode)]
#[quarry(untagged)]
enum Fine {
    Keyed { inner: Box<Fine> },
    List(Vec<Fine>),
    Maybe(Option<Box<Fine>>),
    Number(u8),
}

fn main() {}
