//! Following a value path (`servers[0].host`) through any format's tree.

use quarry_raw_value::{Path, Segment};

/// Follows `path` from `start` as far as it goes: `get` steps into a map by key, `at`
/// into a sequence by index. Returns the deepest node reached and how many segments
/// were followed (all of them when the path exists). Every tree's `lookup_prefix` is
/// this walk; decode errors are placed with it, so an error at a missing field points at
/// the map that lacks it.
pub fn follow_path<N: Copy>(
    start: N,
    path: &Path,
    get: impl Fn(&N, &str) -> Option<N>,
    at: impl Fn(&N, usize) -> Option<N>,
) -> (N, usize) {
    let mut node = start;
    for (depth, segment) in path.segments.iter().enumerate() {
        let next = match segment {
            Segment::Key(key) => get(&node, key),
            Segment::Index(index) => at(&node, *index),
        };
        match next {
            Some(n) => node = n,
            None => return (node, depth),
        }
    }
    (node, path.segments.len())
}
