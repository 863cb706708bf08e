//! `messages send --image URL` (and `--document`, `--audio`, `--video`):
//! a file the service fetches from a web address, `--text` its caption.

use clap::Args;

use crate::api::is_web_link;
use crate::cli::error::CliError;

/// The file of a media send: at most one of the four.
#[derive(Debug, Clone, Default, Args)]
#[group(id = "media", multiple = false)]
pub struct MediaArgs {
    /// Send the image at this http(s) URL (--text is its caption)
    #[arg(long, value_name = "URL", conflicts_with = "template")]
    pub image: Option<String>,
    /// Send the document at this http(s) URL
    #[arg(long, value_name = "URL", conflicts_with = "template")]
    pub document: Option<String>,
    /// Send the audio file at this http(s) URL
    #[arg(long, value_name = "URL", conflicts_with = "template")]
    pub audio: Option<String>,
    /// Send the video at this http(s) URL
    #[arg(long, value_name = "URL", conflicts_with = "template")]
    pub video: Option<String>,
}

impl MediaArgs {
    /// The message type and the URL, when a file is given.
    pub fn file(&self) -> Option<(&'static str, &str)> {
        [
            ("image", &self.image),
            ("document", &self.document),
            ("audio", &self.audio),
            ("video", &self.video),
        ]
        .into_iter()
        .find_map(|(kind, url)| url.as_deref().map(|u| (kind, u.trim())))
    }

    /// A file's URL must be a web link: the service fetches it, and a
    /// path on this machine would mean nothing to it.
    pub fn check(&self) -> Result<(), CliError> {
        match self.file() {
            Some((kind, url)) if !is_web_link(url) => Err(CliError::usage(format!(
                "messages send: --{kind} takes an http(s) URL the service can fetch (got {:?}); \
                 upload the file somewhere first",
                crate::cli::output::sanitize(url)
            ))),
            _ => Ok(()),
        }
    }
}
