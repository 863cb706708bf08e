//! frontdesk: a keyboard-driven terminal inbox for the Conversation Messaging Service.

pub mod server;
