//! Runs one XML arm in a loop, for a profiler: `profile_xml ARM [FILE] [ITERATIONS]`.
//! With ARM one of tree, roxmltree, check, quick-xml (the bare event loop) a FILE is read;
//! with ARM decode or qx-decode (struct decode by quarry or by quick-xml's serde) every
//! generated corpus document is decoded (FILE is then a name filter, `-` for all).
//! `times` prints each generated document's quarry/quick-xml decode time ratio. Set
//! `PROFILE_XML_HEAP` to measure in bench-report's heap (every contest built first).

use std::hint::black_box;
use std::time::Instant;

use quarry::{Decode, Format};
use quarry_corpus_gen::shapes::{Article, Config, Person, Reading, Records, SmallMessage, Wide};
use quarry_corpus_gen::Shape;
use serde::de::DeserializeOwned;

fn quarry_decode<'a, T: Decode<'a>>(bytes: &'a [u8]) -> usize {
    quarry::from_slice::<T>(bytes, Format::Xml).is_ok() as usize
}

fn qx_decode<T: DeserializeOwned>(bytes: &[u8]) -> usize {
    quick_xml::de::from_str::<T>(std::str::from_utf8(bytes).expect("utf-8")).is_ok() as usize
}

fn decode(shape: Shape, bytes: &[u8], quick: bool) -> usize {
    macro_rules! go {
        ($t:ty) => {
            if quick {
                qx_decode::<$t>(bytes)
            } else {
                quarry_decode::<$t>(bytes)
            }
        };
    }
    match shape {
        Shape::SmallMessage => go!(SmallMessage),
        Shape::PersonBatch => go!(Records<Person>),
        Shape::EscapedArticles => go!(Records<Article>),
        Shape::Telemetry => go!(Records<Reading>),
        Shape::WideRecord => go!(Records<Wide>),
        Shape::IntList => go!(Records<i64>),
        Shape::Config => go!(Config),
    }
}

fn quick_xml_events(input: &str) -> usize {
    use quick_xml::events::Event;
    let mut reader = quick_xml::Reader::from_str(input);
    let mut count = 0;
    loop {
        match reader.read_event() {
            Ok(Event::Eof) | Err(_) => break,
            Ok(_) => count += 1,
        }
    }
    count
}

fn main() {
    let mut args = std::env::args().skip(1);
    let arm = args.next().expect("ARM");
    let file = args.next().unwrap_or_else(|| "-".into());
    let iterations: usize = args.next().map_or(200, |n| n.parse().expect("ITERATIONS"));
    let corpus: Vec<_> = quarry_corpus_gen::xml_corpus()
        .into_iter()
        .filter(|d| file == "-" || d.name.contains(file.as_str()))
        .collect();
    // With `PROFILE_XML_HEAP` set, every contest of bench-report is built first and kept
    // alive, so the allocator works in the heap bench-report measures in.
    let _contests =
        std::env::var_os("PROFILE_XML_HEAP").map(|_| quarry_benches::contests::all_contests());
    let mut sink = 0usize;
    match arm.as_str() {
        "decode" | "qx-decode" => {
            for _ in 0..iterations {
                for doc in &corpus {
                    sink += decode(doc.shape, &doc.bytes, arm == "qx-decode");
                }
            }
        }
        "times" => {
            let mut product = 1.0f64;
            for doc in &corpus {
                let time = |quick: bool| {
                    (0..5)
                        .map(|_| {
                            let start = Instant::now();
                            for _ in 0..iterations {
                                black_box(decode(doc.shape, black_box(&doc.bytes), quick));
                            }
                            start.elapsed().as_secs_f64()
                        })
                        .fold(f64::INFINITY, f64::min)
                };
                let (ours, theirs) = (time(false), time(true));
                product *= theirs / ours;
                println!("{:<28} {:>6.2}x", doc.name, theirs / ours);
            }
            let mean = product.powf(1.0 / corpus.len() as f64);
            println!("geomean {mean:.2}x");
        }
        _ => {
            let bytes = std::fs::read(&file).expect("readable FILE");
            let text = std::str::from_utf8(&bytes).unwrap_or("");
            for _ in 0..iterations {
                sink += match arm.as_str() {
                    "tree" => quarry::xml::parse_tree(&bytes).map_or(0, |d| d.node_count()),
                    "roxmltree" => {
                        let options = roxmltree::ParsingOptions {
                            allow_dtd: true,
                            ..Default::default()
                        };
                        roxmltree::Document::parse_with_options(text, options)
                            .map_or(0, |d| d.descendants().len())
                    }
                    "check" => quarry::xml::check(&bytes).is_ok() as usize,
                    "quick-xml" => quick_xml_events(text),
                    other => panic!("unknown arm {other}"),
                };
            }
        }
    }
    println!("{sink}");
}
