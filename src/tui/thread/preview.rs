//! Inline previews of image attachments, under the selected message, in
//! terminals that show images (kitty, sixel, iTerm2; `ratatui-image`).
//!
//! Off unless the setting allows it and the terminal answered the protocol
//! query at start with a graphics protocol (`FRONTDESK_IMAGE_PROTOCOL`
//! forces one: `halfblocks`, `sixel`, `kitty`, `iterm2`, or `off`). An
//! image is fetched only over http(s), at most [`MAX_BYTES`], decoded off
//! the draw (`spawn_blocking`) and kept per URL; the loop is woken with
//! `ThreadMsg::PreviewReady` to draw it. A failure leaves the attachment
//! lines as they are.

use std::collections::HashMap;
use std::io::Cursor;
use std::ops::Range;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use image::{DynamicImage, ImageFormat};
use ratatui::Frame;
use ratatui::layout::{Rect, Size};
use ratatui::widgets::Clear;
use ratatui_image::picker::{Picker, ProtocolType};
use ratatui_image::protocol::Protocol;
use ratatui_image::{Image, Resize};

use super::layout::Kind;
use crate::api::{AttachmentKind, Message};

/// The largest image body fetched.
pub const MAX_BYTES: usize = 5 * 1024 * 1024;
/// How many rows a preview takes.
pub const ROWS: u16 = 6;
/// How many columns a preview takes at most.
const COLS: u16 = 24;
/// How long the terminal has to answer the protocol query.
const QUERY_TIMEOUT: Duration = Duration::from_millis(400);

enum Entry {
    Loading,
    Ready {
        image: DynamicImage,
        drawn: Option<(Size, Protocol)>,
    },
    Failed(String),
}

struct Shared {
    picker: Picker,
    cache: Mutex<HashMap<String, Entry>>,
    wake: Option<Wake>,
}

/// The previews of a session: off (`None`) or a protocol and a cache.
/// Cloning shares the cache.
#[derive(Clone, Default)]
pub struct Previews(Option<Arc<Shared>>);

/// Told when an image is ready, so the loop draws a frame
/// (`ThreadMsg::PreviewReady`).
pub type Wake = Arc<dyn Fn() + Send + Sync>;

impl std::fmt::Debug for Previews {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.0 {
            None => f.write_str("Previews(off)"),
            Some(s) => write!(f, "Previews({:?})", s.picker.protocol_type()),
        }
    }
}

impl Previews {
    /// Previews drawn with `picker`; `wake` is told when an image is ready.
    pub fn with_picker(picker: Picker, wake: Option<Wake>) -> Previews {
        Previews(Some(Arc::new(Shared {
            picker,
            cache: Mutex::new(HashMap::new()),
            wake,
        })))
    }

    /// At start, in the alternate screen and before the loop reads input:
    /// the setting, the override, then the terminal's answer decide.
    pub fn start(enabled: bool, wake: Wake) -> Previews {
        if !enabled {
            return Previews::default();
        }
        let forced = std::env::var("FRONTDESK_IMAGE_PROTOCOL").unwrap_or_default();
        let picker = match forced.trim() {
            "" => query(),
            "off" => None,
            name => forced_protocol(name).map(|p| {
                let mut picker = Picker::halfblocks();
                picker.set_protocol_type(p);
                picker
            }),
        };
        match picker {
            Some(p) => {
                tracing::info!("image previews with {:?}", p.protocol_type());
                Previews::with_picker(p, Some(wake))
            }
            None => Previews::default(),
        }
    }

    pub fn on(&self) -> bool {
        self.0.is_some()
    }

    /// The failure kept for `url`, if its fetch or decoding failed.
    pub fn failure(&self, url: &str) -> Option<String> {
        let s = self.0.as_ref()?;
        let cache = s.cache.lock().ok()?;
        match cache.get(url) {
            Some(Entry::Failed(why)) => Some(why.clone()),
            _ => None,
        }
    }

    /// Keeps a decoded image (or why there is none) for `url`.
    pub fn put(&self, url: &str, result: Result<DynamicImage, String>) {
        let Some(s) = &self.0 else { return };
        if let Ok(mut cache) = s.cache.lock() {
            let entry = match result {
                Ok(image) => Entry::Ready { image, drawn: None },
                Err(why) => {
                    tracing::info!("no preview: {why}");
                    Entry::Failed(why)
                }
            };
            cache.insert(url.to_string(), entry);
        }
    }

    /// Starts fetching `url` unless it is known; needs a tokio runtime.
    fn request(&self, url: &str) {
        let Some(s) = &self.0 else { return };
        let Ok(mut cache) = s.cache.lock() else { return };
        if cache.contains_key(url) {
            return;
        }
        let Ok(rt) = tokio::runtime::Handle::try_current() else {
            return;
        };
        cache.insert(url.to_string(), Entry::Loading);
        let (me, url) = (self.clone(), url.to_string());
        let wake = s.wake.clone();
        rt.spawn(async move {
            let result = match fetch(&url).await {
                Ok(body) => tokio::task::spawn_blocking(move || decode(&body))
                    .await
                    .unwrap_or_else(|_| Err("the decoder stopped".into())),
                Err(e) => Err(e),
            };
            me.put(&url, result);
            if let Some(w) = wake {
                w();
            }
        });
    }

    /// Draws `url`'s image into `area` if it is ready (fetching it if it
    /// is unknown). The rows it takes are cleared across `pane`, so no
    /// piece of a covered line (half a link) shows beside it. Whether
    /// anything was drawn.
    pub fn draw(&self, url: &str, frame: &mut Frame, area: Rect, pane: Rect) -> bool {
        let Some(s) = &self.0 else { return false };
        self.request(url);
        let Ok(mut cache) = s.cache.lock() else { return false };
        let Some(Entry::Ready { image, drawn }) = cache.get_mut(url) else {
            return false;
        };
        let size = area.as_size();
        if drawn.as_ref().is_none_or(|(at, _)| *at != size) {
            match s.picker.new_protocol(image.clone(), size, Resize::Fit(None)) {
                Ok(p) => *drawn = Some((size, p)),
                Err(e) => {
                    let why = format!("cannot draw the image: {e}");
                    cache.insert(url.to_string(), Entry::Failed(why));
                    return false;
                }
            }
        }
        let Some((_, p)) = drawn else { return false };
        let fit = p.size();
        let area = Rect::new(area.x, area.y, fit.width.min(area.width), fit.height.min(area.height));
        frame.render_widget(
            Clear,
            Rect::new(pane.x, area.y, pane.width, area.height).intersection(pane),
        );
        frame.render_widget(Image::new(p).allow_clipping(true), area);
        true
    }
}

fn forced_protocol(name: &str) -> Option<ProtocolType> {
    match name {
        "halfblocks" => Some(ProtocolType::Halfblocks),
        "sixel" => Some(ProtocolType::Sixel),
        "kitty" => Some(ProtocolType::Kitty),
        "iterm2" => Some(ProtocolType::Iterm2),
        _ => None,
    }
}

/// Asks the terminal (stdio) which graphics protocol it speaks. `None`
/// when stdio is not a terminal, it did not answer in time, or it shows no
/// images (halfblocks are not a preview worth the rows).
// QueryStdioOptions has a private field: no `..Default` initializer.
#[allow(clippy::field_reassign_with_default)]
fn query() -> Option<Picker> {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() || !worth_asking(&|k| std::env::var(k).ok())
    {
        return None;
    }
    let mut options = ratatui_image::picker::cap_parser::QueryStdioOptions::default();
    options.timeout = QUERY_TIMEOUT;
    match Picker::from_query_stdio_with_options(options) {
        Ok(p) if p.protocol_type() != ProtocolType::Halfblocks => Some(p),
        Ok(_) => None,
        Err(e) => {
            tracing::info!("no image previews: the terminal's answer: {e}");
            None
        }
    }
}

/// Whether the environment names a terminal that may show images (inside
/// tmux too, where the outer terminal's variables are inherited). The
/// query's reader keeps waiting on stdin when nothing answers (a plain
/// pty; tmux with no image terminal outside) and would take the first
/// key: a terminal that names nothing of the kind is not asked, and
/// `FRONTDESK_IMAGE_PROTOCOL` forces a protocol there.
pub fn worth_asking(env: &dyn Fn(&str) -> Option<String>) -> bool {
    let set = |k: &str| env(k).is_some_and(|v| !v.is_empty());
    let term = env("TERM").unwrap_or_default();
    let program = env("TERM_PROGRAM").unwrap_or_default();
    [
        "KITTY_WINDOW_ID",
        "ITERM_SESSION_ID",
        "WEZTERM_EXECUTABLE",
        "KONSOLE_VERSION",
    ]
    .iter()
    .any(|k| set(k))
        || [
            "xterm-kitty",
            "xterm-ghostty",
            "foot",
            "foot-extra",
            "mlterm",
            "contour",
            "wezterm",
        ]
        .iter()
        .any(|t| term == *t)
        || ["iTerm.app", "WezTerm", "ghostty"].iter().any(|p| program == *p)
}

/// Whether `url` may be fetched for a preview: an http(s) link, as `o`
/// opens.
pub fn fetchable(url: &str) -> bool {
    crate::api::is_web_link(url)
}

/// The body at `url`, refused past [`MAX_BYTES`].
async fn fetch(url: &str) -> Result<Vec<u8>, String> {
    if !fetchable(url) {
        return Err("only http(s) images are previewed".into());
    }
    let client = reqwest::Client::builder()
        .timeout(Duration::from_secs(20))
        .redirect(reqwest::redirect::Policy::limited(3))
        .build()
        .map_err(|e| format!("no HTTP client: {e}"))?;
    let mut resp = client
        .get(url)
        .send()
        .await
        .map_err(|_| "the image could not be fetched".to_string())?;
    if !resp.status().is_success() {
        return Err(format!("the image's server answered {}", resp.status().as_u16()));
    }
    if resp.content_length().is_some_and(|n| n > MAX_BYTES as u64) {
        return Err(too_big());
    }
    let mut body = Vec::new();
    while let Some(chunk) = resp
        .chunk()
        .await
        .map_err(|_| "the image's download broke off".to_string())?
    {
        if body.len() + chunk.len() > MAX_BYTES {
            return Err(too_big());
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

fn too_big() -> String {
    format!("the image is larger than {} MB: no preview", MAX_BYTES / (1024 * 1024))
}

/// Decodes a png, jpeg, gif or webp body (bounded in size); anything else
/// is refused with a message.
pub fn decode(body: &[u8]) -> Result<DynamicImage, String> {
    if body.len() > MAX_BYTES {
        return Err(too_big());
    }
    let not_image = || "not an image frontdesk previews (png, jpeg, gif, webp)".to_string();
    let mut reader = image::ImageReader::new(Cursor::new(body))
        .with_guessed_format()
        .map_err(|_| not_image())?;
    match reader.format() {
        Some(ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Gif | ImageFormat::WebP) => {}
        _ => return Err(not_image()),
    }
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(8192);
    limits.max_image_height = Some(8192);
    limits.max_alloc = Some(128 * 1024 * 1024);
    reader.limits(limits);
    reader
        .decode()
        .map_err(|e| format!("the image could not be decoded: {e}"))
}

/// The first image attachment of `m` that may be previewed.
pub fn image_url(m: &Message) -> Option<String> {
    m.rich
        .attachments()
        .into_iter()
        .find(|a| a.kind == AttachmentKind::Image && fetchable(&a.url))
        .map(|a| a.url)
}

/// Where the preview of the message whose rows are `rows` (header first,
/// in pane rows) goes in a pane `inner`: under its rows when they fit,
/// else above its header, else under it clipped to the pane. Indented as
/// received messages are; sent ones on the right.
pub fn place(inner: Rect, rows: std::ops::Range<u16>, right: bool) -> Option<Rect> {
    let w = inner.width.saturating_sub(4).min(COLS);
    if w < 4 || inner.height == 0 {
        return None;
    }
    let x = if right { inner.right() - w - 2 } else { inner.x + 2 };
    let below = inner.height.saturating_sub(rows.end);
    let (y, h) = if below >= ROWS {
        (rows.end, ROWS)
    } else if rows.start >= ROWS {
        (rows.start - ROWS, ROWS)
    } else if below > 0 {
        (rows.end, below)
    } else {
        return None;
    };
    Some(Rect::new(x, inner.y + y, w, h))
}

/// The pane rows of the selected message (its header, then its body),
/// from the thread's visible lines.
pub fn selected_rows(visible: &[super::layout::Row]) -> Option<Range<u16>> {
    let head = visible
        .iter()
        .position(|(k, t, _)| matches!(k, Kind::Header(_)) && t.starts_with('▶'))?;
    let end = visible[head + 1..]
        .iter()
        .position(|(k, _, _)| !matches!(k, Kind::Body(_)))
        .map_or(visible.len(), |n| head + 1 + n);
    Some(head as u16..end as u16)
}
