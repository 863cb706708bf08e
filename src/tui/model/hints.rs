//! Hints shown to the user that both `update` (as a toast) and the views
//! (in a pane) use: they live here so the two layers never import each
//! other.

/// Without a user uuid there is no way to read or change my availability.
pub const NO_USER_HINT: &str = "set user_uuid in config or --user to manage your availability";
