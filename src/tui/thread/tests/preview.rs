//! Inline image previews: drawn under (or over) the selected image message
//! with a fixed protocol (halfblocks), off by the setting, and bodies that
//! are too big or not images refused with a message.

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui_image::picker::Picker;
use serde_json::json;

use super::rich::thread_with;
use crate::api::Message;
use crate::tui::fixtures::now;
use crate::tui::model::Model;
use crate::tui::theme::Theme;
use crate::tui::thread::preview::{MAX_BYTES, Previews, decode, fetchable, worth_asking};

const URL: &str = "https://files.example.com/u/2/photo.png";

fn photo() -> Vec<Message> {
    let mut m: Message = serde_json::from_value(json!({
        "text": "my photo", "status": "received", "attachments": [URL] }))
    .unwrap();
    m.created_at = Some(now() - chrono::Duration::minutes(1));
    vec![m]
}

fn red() -> image::DynamicImage {
    image::DynamicImage::ImageRgb8(image::RgbImage::from_pixel(240, 240, image::Rgb([255, 0, 0])))
}

fn png(img: &image::DynamicImage) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

fn frame(m: &Model) -> Buffer {
    let mut t = Terminal::new(TestBackend::new(m.width, m.height)).unwrap();
    t.draw(|f| crate::tui::view::view(m, f, &Theme::plain())).unwrap();
    t.backend().buffer().clone()
}

/// Cells of `buf` painted red (what a halfblock preview of `red()` is).
fn red_cells(buf: &Buffer) -> Vec<(u16, u16)> {
    let red = ratatui::style::Color::Rgb(255, 0, 0);
    let mut out = Vec::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let c = &buf[(x, y)];
            if c.fg == red || c.bg == red {
                out.push((x, y));
            }
        }
    }
    out
}

fn text(buf: &Buffer) -> String {
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_decoded_image_is_drawn_by_the_selected_message_inside_the_thread_pane() {
    let mut m = thread_with(photo(), 80, 24);
    let before = frame(&m);
    assert!(red_cells(&before).is_empty(), "no preview before one is on");
    m.thread.previews = Previews::with_picker(Picker::halfblocks(), None);
    m.thread.previews.put(URL, decode(&png(&red())));
    let buf = frame(&m);
    let cells = red_cells(&buf);
    assert!(
        cells.len() >= 12,
        "the preview paints a block of cells: {}",
        cells.len()
    );
    // Inside the thread pane (the right part at 80 columns), a few rows high.
    let rows: std::collections::BTreeSet<u16> = cells.iter().map(|c| c.1).collect();
    assert!(rows.len() >= 2 && rows.len() <= 6, "a few rows high: {rows:?}");
    let text = text(&buf);
    let header = text
        .lines()
        .position(|l| l.contains("▶ ‹"))
        .expect("the selected message");
    let top = *rows.first().unwrap() as usize;
    let bottom = *rows.last().unwrap() as usize;
    assert!(
        bottom < header || top > header,
        "not over the header: rows {top}..={bottom}, header {header}"
    );
    assert!(text.contains("[image] photo.png"), "the attachment line stays:\n{text}");
}

#[test]
fn previews_turned_off_draw_nothing_and_a_failure_keeps_the_attachment_line() {
    let off = Previews::start(false, std::sync::Arc::new(|| {}));
    assert!(!off.on(), "image_previews = false: off, the terminal not even asked");
    let mut m = thread_with(photo(), 80, 24);
    m.thread.previews = off;
    m.thread.previews.put(URL, Ok(red()));
    assert!(red_cells(&frame(&m)).is_empty(), "no preview when off");

    m.thread.previews = Previews::with_picker(Picker::halfblocks(), None);
    m.thread.previews.put(URL, decode(b"%PDF-1.4 not a picture"));
    let buf = frame(&m);
    assert!(red_cells(&buf).is_empty());
    assert!(text(&buf).contains("[image] photo.png"));
    assert!(
        m.thread
            .previews
            .failure(URL)
            .is_some_and(|w| w.contains("not an image"))
    );
}

#[test]
fn oversized_or_non_image_bodies_and_non_http_urls_are_refused_with_a_message() {
    let big = vec![0u8; MAX_BYTES + 1];
    let e = decode(&big).expect_err("too big");
    assert!(e.contains("larger than 5 MB"), "{e}");
    let e = decode(b"<html>hello</html>").expect_err("not an image");
    assert!(e.contains("not an image"), "{e}");
    assert!(decode(&png(&red())).is_ok(), "a png decodes");
    for url in [
        "file:///etc/passwd",
        "ftp://x/y.png",
        "https://x/a\u{1b}]b.png",
        "data:image/png;base64,AA",
    ] {
        assert!(!fetchable(url), "{url:?} is not fetched");
    }
    assert!(fetchable(URL));
}

#[test]
fn only_a_terminal_that_may_show_images_is_asked_so_no_keys_are_taken() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    };
    assert!(
        !worth_asking(&env(&[("TERM", "xterm-256color")])),
        "a plain xterm (the test pty)"
    );
    assert!(!worth_asking(&env(&[])));
    assert!(worth_asking(&env(&[("TERM", "xterm-kitty")])));
    assert!(worth_asking(&env(&[
        ("TERM", "xterm-256color"),
        ("TERM_PROGRAM", "iTerm.app")
    ])));
    assert!(
        !worth_asking(&env(&[
            ("TERM", "tmux-256color"),
            ("TERM_PROGRAM", "tmux"),
            ("TMUX", "/t,1,0")
        ])),
        "tmux alone: nothing outside may answer"
    );
    assert!(
        worth_asking(&env(&[
            ("TERM", "tmux-256color"),
            ("TMUX", "/t,1,0"),
            ("KITTY_WINDOW_ID", "1")
        ])),
        "kitty outside"
    );
}

/// Over the lines above the selected message, the preview's rows are
/// cleared across the pane: no piece of a covered line shows beside it.
#[test]
fn the_rows_a_preview_covers_show_nothing_else() {
    let mut older: Message = serde_json::from_value(json!({
        "text": "zz ".repeat(200), "status": "received" }))
    .unwrap();
    older.created_at = Some(now() - chrono::Duration::minutes(5));
    let mut thread = photo();
    thread.push(older);
    let mut m = thread_with(thread, 80, 24);
    m.thread.previews = Previews::with_picker(Picker::halfblocks(), None);
    m.thread.previews.put(URL, decode(&png(&red())));
    let buf = frame(&m);
    let rows: std::collections::BTreeSet<u16> = red_cells(&buf).iter().map(|c| c.1).collect();
    assert!(!rows.is_empty());
    let text = text(&buf);
    for y in rows {
        let line = text.lines().nth(usize::from(y)).unwrap_or_default();
        assert!(!line.contains('z'), "row {y} beside the image: {line:?}\n{text}");
    }
    assert!(text.contains("zz zz"), "the lines not covered still show:\n{text}");
}
