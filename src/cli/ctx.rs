//! What every command runs with (`Ctx`): the output streams and format, and
//! the settings and client loaded on first use.

use std::io::Write;

use super::error::CliError;
use super::output::{self, Format};
use crate::api::Client;
use crate::config::{GlobalArgs, Settings};

/// What a command runs with: where to write, how, and (lazily) the client.
pub struct Ctx<'a> {
    pub global: GlobalArgs,
    pub format: Format,
    /// Colour in tables and records (stdout is a terminal, `NO_COLOR` unset).
    pub color: bool,
    /// Progress of long steps on stderr: a bar on a terminal, a line every
    /// few seconds off one.
    pub progress: output::ProgressMode,
    pub out: &'a mut dyn Write,
    pub err: &'a mut dyn Write,
    pub(super) settings: Option<Settings>,
    pub(super) client: Option<Client>,
}

impl<'a> Ctx<'a> {
    /// The settings, loaded on first use (warnings go to `err`).
    pub fn settings(&mut self) -> Result<&Settings, CliError> {
        if self.settings.is_none() {
            let settings = crate::config::load(&self.global).map_err(|e| CliError::Usage(e.to_string()))?;
            for w in &settings.warnings {
                let _ = writeln!(self.err, "frontdesk: warning: {w}");
            }
            return Ok(self.settings.insert(settings));
        }
        match &self.settings {
            Some(s) => Ok(s),
            None => Err(CliError::Other("the settings could not be kept".into())),
        }
    }

    /// The API client, built on first use. No key configured is a usage
    /// error that says how to configure one.
    pub fn client(&mut self) -> Result<Client, CliError> {
        if let Some(c) = &self.client {
            return Ok(c.clone());
        }
        let settings = self.settings()?;
        if settings.is_demo() {
            return Err(CliError::usage(
                "no API key configured: set FRONTDESK_API_KEY, pass --api-key, or put api_key in the config file \
                 (or a hub: hub_url and hub_token; or run `frontdesk serve` for a local demo server and point \
                 --base-url at it)",
            ));
        }
        let client = match settings.client() {
            Ok(Some(c)) => c,
            Ok(None) => return Err(CliError::usage("no API key configured")),
            Err(e) => return Err(CliError::Usage(e.to_string())),
        };
        self.client = Some(client.clone());
        Ok(client)
    }

    /// Writes a finished document in one go, as it is: frontdesk's own
    /// text, line breaks and all. Whatever came from outside (the server,
    /// the config file, flags) must already be inert in it: build the
    /// document from pieces passed through [`sanitize`] (one line) or
    /// `output::sanitize_multiline`, never sanitize the whole document
    /// (that pictures its own line breaks as `⏎`).
    pub fn emit(&mut self, doc: &str) -> Result<(), CliError> {
        self.out.write_all(doc.as_bytes())?;
        self.out.flush()?;
        Ok(())
    }
}
