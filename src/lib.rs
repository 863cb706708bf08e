//! frontdesk: a keyboard-driven terminal inbox for the Conversation Messaging Service.

pub mod api;
pub mod cli;
pub mod config;
pub mod drafts;
pub mod index;
pub mod mcp;
pub mod report;
pub mod server;
pub mod text;
pub mod triage;
pub mod tui;
pub mod webhook;
