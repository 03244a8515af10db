//! Lists a parser keeps on its thread between documents: the lists of the last
//! document, emptied, for the next one to fill, so that a small document's stacks and
//! tables cost no allocation and no free (each would be a malloc and a free per
//! document, and a growth or two on the way).
//!
//! A spare list is declared with `thread_local!` as a `Cell<Vec<T<'static>>>`; the
//! lists handed out and back hold the same items with the document's lifetime. They
//! are always empty in between, so no item ever changes lifetime.

use std::cell::Cell;
use std::thread::LocalKey;

/// The most a spare list keeps, in bytes: a large document's lists go back to the
/// allocator.
pub(crate) const SPARE_BYTES: usize = 64 * 1024;

/// This thread's spare list in `spare`, empty (an empty list without an allocation when
/// there is none).
#[inline]
pub(crate) fn take_spare<T: 'static, U>(spare: &'static LocalKey<Cell<Vec<T>>>) -> Vec<U> {
    recycled(spare.try_with(Cell::take).unwrap_or_default())
}

/// Empties `list` and hands it back to `spare` when it is small enough to keep.
#[inline]
pub(crate) fn keep_spare<T: 'static, U>(spare: &'static LocalKey<Cell<Vec<T>>>, list: Vec<U>) {
    if list.capacity() * std::mem::size_of::<U>() <= SPARE_BYTES && list.capacity() > 0 {
        let list = recycled(list);
        // A nested document's lists may come back while the slot is full: keep the larger.
        let _ = spare.try_with(|slot| {
            let held = slot.take();
            slot.set(if held.capacity() > list.capacity() {
                held
            } else {
                list
            });
        });
    }
}

/// `list`'s allocation, emptied, for items of another lifetime (the same layout: the
/// collect reuses the allocation in place, and the closure is never called).
fn recycled<T, U>(mut list: Vec<T>) -> Vec<U> {
    list.clear();
    list.into_iter()
        .map(|_| unreachable!("the list is empty"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static SPARE: Cell<Vec<&'static str>> = const { Cell::new(Vec::new()) };
    }

    #[test]
    fn a_list_handed_back_is_handed_out_again_empty_in_its_allocation() {
        let text = String::from("borrowed");
        let mut list: Vec<&str> = take_spare(&SPARE);
        assert_eq!(list.capacity(), 0);
        list.reserve(100);
        list.push(&text);
        let (ptr, capacity) = (list.as_ptr(), list.capacity());
        keep_spare(&SPARE, list);
        let again: Vec<&str> = take_spare(&SPARE);
        assert!(again.is_empty());
        assert_eq!((again.as_ptr(), again.capacity()), (ptr, capacity));
        // The slot is empty now, and a list too large to keep is not kept.
        assert_eq!(take_spare::<_, &str>(&SPARE).capacity(), 0);
        keep_spare(&SPARE, Vec::<&str>::with_capacity(SPARE_BYTES));
        assert_eq!(take_spare::<_, &str>(&SPARE).capacity(), 0);
        // Of two lists handed back, the larger is kept.
        keep_spare(&SPARE, Vec::<&str>::with_capacity(8));
        keep_spare(&SPARE, Vec::<&str>::with_capacity(4));
        assert_eq!(take_spare::<_, &str>(&SPARE).capacity(), 8);
    }
}
