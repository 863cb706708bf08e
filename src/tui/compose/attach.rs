//! A file by URL on the reply (`C-o`): the service fetches it from the
//! web address, the reply's text is its caption, and it goes as
//! `messages send --image URL` does (POST /messages/send with `type`
//! image, document, audio or video and `content.url`).

/// The kinds of file a send takes.
pub const KINDS: [&str; 4] = ["image", "document", "audio", "video"];

/// The kind choice that guesses from the URL's extension.
pub const GUESS: &str = "from the extension";

/// The file the reply of one contact carries.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// One of [`KINDS`].
    pub kind: &'static str,
    pub url: String,
}

impl Attachment {
    /// The file's name as the composer shows it (the URL's last segment).
    pub fn file_name(&self) -> String {
        crate::api::file_name_of(&self.url)
    }

    /// What the thread shows of it before the service's copy comes back.
    pub fn shown(&self, caption: &str) -> String {
        let head = format!("[{}: {}]", self.kind, self.file_name());
        if caption.trim().is_empty() {
            head
        } else {
            format!("{head} {caption}")
        }
    }
}

/// The kind a URL's extension says: an unknown one is a document.
pub fn guess_kind(url: &str) -> &'static str {
    let path = url.split(['?', '#']).next().unwrap_or_default();
    let ext = path
        .rsplit('/')
        .next()
        .and_then(|name| name.rsplit_once('.'))
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "jpg" | "jpeg" | "png" | "gif" | "webp" | "bmp" | "heic" => "image",
        "mp3" | "ogg" | "oga" | "opus" | "wav" | "m4a" | "aac" | "amr" => "audio",
        "mp4" | "mov" | "webm" | "mkv" | "3gp" | "avi" => "video",
        _ => "document",
    }
}

/// The kind chosen in the form: one of [`KINDS`], or guessed from `url`.
pub fn kind_of(chosen: Option<&str>, url: &str) -> &'static str {
    chosen
        .and_then(|c| KINDS.iter().find(|k| **k == c))
        .copied()
        .unwrap_or_else(|| guess_kind(url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kind_is_guessed_from_the_extension_and_a_choice_wins() {
        assert_eq!(guess_kind("https://x.example/a/photo.JPG?size=2"), "image");
        assert_eq!(guess_kind("https://x.example/voice.ogg"), "audio");
        assert_eq!(guess_kind("https://x.example/clip.mp4#t=3"), "video");
        assert_eq!(guess_kind("https://x.example/manual.pdf"), "document");
        assert_eq!(guess_kind("https://x.example/"), "document");
        assert_eq!(kind_of(Some("video"), "https://x.example/photo.png"), "video");
        assert_eq!(kind_of(Some(GUESS), "https://x.example/photo.png"), "image");
        let a = Attachment {
            kind: "document",
            url: "https://x.example/files/manual.pdf?dl=1".into(),
        };
        assert_eq!(a.shown("here it is"), "[document: manual.pdf] here it is");
    }
}
