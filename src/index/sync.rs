//! Filling the index from the API (placeholder replaced below).
