//! frontdesk: a keyboard-driven terminal inbox for the Conversation Messaging Service.

pub mod api;
pub mod cli;
pub mod config;
pub mod drafts;
pub mod fill;
pub mod hub;
pub mod hubclient;
pub mod index;
pub mod listen;
pub mod macros;
pub mod mcp;
pub mod notify;
pub mod report;
pub mod server;
pub mod snippets;
pub mod snooze;
pub mod stamp;
pub mod text;
pub mod triage;
pub mod tui;
pub mod webhook;
