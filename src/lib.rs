//! quarry
