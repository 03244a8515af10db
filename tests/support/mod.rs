//! What the conformance harnesses share: every case runs guarded, so a panic or a hang
//! fails that case (and is counted) instead of stopping the suite.

use std::sync::mpsc;
use std::time::Duration;

/// Runs `case` on its own thread: `Some` of its result when it finishes within `seconds`,
/// `None` when it panicked or did not finish.
pub fn guarded<T: Send + 'static>(
    seconds: u64,
    case: impl FnOnce() -> T + Send + 'static,
) -> Option<T> {
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(case));
        let _ = send.send(result.ok());
    });
    receive
        .recv_timeout(Duration::from_secs(seconds))
        .ok()
        .flatten()
}
