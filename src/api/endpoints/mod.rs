//! The typed endpoint methods of [`Client`](super::Client), one file per
//! resource. Each builds a `Call`, sends it through the client's single
//! request path and decodes the answer.

mod account_more;
mod auth;
mod bot;
mod channels;
mod contacts;
mod contacts_more;
mod custom_statuses;
mod funnels;
mod messages;
mod params;
mod plan;
mod send;
mod teams;
mod templates;
mod users;
mod webhooks;

pub use auth::KeyUser;
pub use messages::Deletion;
pub use send::NO_RECIPIENT;
