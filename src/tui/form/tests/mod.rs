//! Forms as the user meets them: keys, the contact forms and their
//! requests, and the screens at 80x24 and 160x48.

mod contact;
mod keys;
mod one_enter;
mod rebind;
mod screens;
