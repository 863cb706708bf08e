//! Test and bench data: contacts, messages and models with a fixed clock,
//! including hostile text (escape sequences, emoji, CJK, RTL, combining
//! marks).

use chrono::{DateTime, Duration, TimeZone, Utc};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::api::{
    Bot, BotStatus, Contact, ContactTeam, FieldMeta, FieldType, FieldValue, Message, MessageStatus, Meta, Page,
};
use crate::tui::model::{Model, Session};
use crate::tui::msg::{ListFetch, Msg};
use crate::tui::update::update;

/// The fixed "now" of tests and snapshots.
pub fn now() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 20, 15, 30, 0).unwrap()
}

const NAMES: &[&str] = &[
    "Ana Souza",
    "\u{1b}[31mRed\u{1b}[0m Alert\u{7}",
    "李小龙 Bruce",
    "محمد علي",
    "דוד כהן",
    "Zoë 👍🏽 Émile",
    "Nguyễn Văn A",
    "e\u{301}cole combining",
];

pub fn contact(i: usize) -> Contact {
    let name = if i < NAMES.len() {
        NAMES[i].to_string()
    } else {
        format!("Contact {i:05}")
    };
    Contact {
        uuid: format!("{i:032x}"),
        name,
        phone_number: format!("+55119{i:07}"),
        created_at: Some(now() - Duration::days(30 + i as i64)),
        source: if i.is_multiple_of(3) {
            "messaging_app".into()
        } else {
            "instagram".into()
        },
        href: Some(format!("https://app.example.test/contacts/{i:032x}")),
        conversation_href: Some(format!("https://app.example.test/chat/{i:032x}")),
        assigned_user: i.is_multiple_of(2).then(|| "agent@example.test".to_string()),
        tags: match i % 4 {
            0 => vec!["vip".into()],
            1 => vec!["billing".into(), "urgent".into()],
            2 => vec!["标签".into()],
            _ => vec![],
        },
        // Closed a minute after its last activity: a customer who wrote
        // after the close would count it open again.
        closed_at: (i % 5 == 4).then(|| now() - Duration::minutes(7 * i as i64 + 2)),
        activity_at: Some(now() - Duration::minutes(7 * i as i64 + 3)),
        team: (i % 3 == 1).then(|| ContactTeam {
            uuid: Some("team-1".into()),
            name: Some("Support".into()),
        }),
        ..Default::default()
    }
}

/// A contact with every field set, hostile text included, and field types.
pub fn full_contact(i: usize) -> Contact {
    let mut c = contact(i);
    c.note = Some("Prefers WhatsApp.\n\u{1b}]52;c;aGk=\u{7}sneaky 👍🏽 مرحبا".into());
    c.funnel_id = Some("funnel-1".into());
    c.custom_fields.insert("plan".into(), FieldValue::Text("Gold".into()));
    c.custom_fields.insert(
        "interests".into(),
        FieldValue::List(vec!["shoes".into(), "hats".into()]),
    );
    let mut meta = std::collections::BTreeMap::new();
    meta.insert(
        "plan".to_string(),
        FieldMeta {
            value: FieldValue::Text("Gold".into()),
            field_type: FieldType::Dropdown,
            options: vec!["Gold".into(), "Silver".into()],
        },
    );
    meta.insert(
        "interests".to_string(),
        FieldMeta {
            value: FieldValue::List(vec!["shoes".into(), "hats".into()]),
            field_type: FieldType::Checkbox,
            options: vec!["shoes".into(), "hats".into(), "bags".into()],
        },
    );
    c.custom_fields_metadata = Some(meta);
    c
}

pub fn contacts(range: std::ops::Range<usize>) -> Vec<Contact> {
    range.map(contact).collect()
}

pub fn page<T>(items: Vec<T>, next: Option<&str>) -> Page<T> {
    Page {
        items,
        meta: Meta {
            page: None,
            pages: None,
            next: next.map(str::to_string),
        },
    }
}

/// A thread, newest first as the server sends it.
pub fn messages(n: usize) -> Vec<Message> {
    let texts = [
        "Hello! I ordered shoes last week and they have not arrived yet. Can you check the status please?",
        "Sure, let me look that up for you.",
        "Internal: customer is VIP, expedite \u{1b}[2J\u{1b}[H",
        "谢谢你的帮助 👍🏽 شكرا جزيلا תודה רבה 🇯🇵",
        "e\u{301}e\u{301} combining marks and a very_long_unbroken_word_that_must_be_split_somewhere_in_the_middle",
    ];
    let mut out: Vec<Message> = (0..n)
        .map(|i| Message {
            uuid: (i % 5 != 2).then(|| format!("m{i:04}")),
            text: texts[i % texts.len()].to_string(),
            created_at: Some(now() - Duration::hours(30) + Duration::minutes(17 * i as i64)),
            status: match i % 5 {
                1 => MessageStatus::Sent,
                2 => MessageStatus::Note,
                _ => MessageStatus::Received,
            },
            channel: "messaging_app".into(),
            from: if i % 5 == 1 {
                "agent".into()
            } else {
                "+5511900000001".into()
            },
            to: String::new(),
            sent_by: None,
            rich: Default::default(),
        })
        .collect();
    out.reverse();
    out
}

pub fn bot(running: bool) -> Bot {
    Bot {
        uuid: "bot-1".into(),
        name: "Sales bot".into(),
        status: if running { BotStatus::Started } else { BotStatus::Ended },
        conversation_started_at: None,
        version: Some(3),
        latest_bot_version: Some(true),
    }
}

pub fn key(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE))
}

pub fn code(code: KeyCode) -> Msg {
    Msg::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn ctrl(c: char) -> Msg {
    Msg::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// The base URL of the tests' session.
pub const TEST_BASE_URL: &str = "http://127.0.0.1:9/v1";

/// A model of `w` x `h` with no contacts, a user uuid and a fixed clock.
pub fn empty_model(w: u16, h: u16) -> Model {
    let session = Session {
        demo: true,
        account: "demo account".into(),
        base_url: TEST_BASE_URL.into(),
        // Never written by update-level tests (effects are data); a test
        // that runs the effects sets a temporary directory of its own.
        drafts_dir: Some(std::path::PathBuf::from("/nonexistent/frontdesk-test/drafts")),
        history_file: None,
        bell: false,
        tz: None,
        macros: Vec::new(),
        hub: None,
        agent: None,
        assign_on_reply: false,
    };
    let mut m = Model::new(session, Some("user-1".into()), now());
    update(&mut m, Msg::Resize(w, h));
    m
}

/// A model with `n` contacts loaded (one page answer) and more to come.
pub fn model_with(n: usize, w: u16, h: u16) -> Model {
    model_of(contacts(0..n), Some("c1"), w, h)
}

/// The list's refresh (its first page again) answered with `items`.
pub fn refreshed(m: &mut Model, items: Vec<Contact>, next: Option<&str>) -> Vec<crate::tui::effect::Effect> {
    let id = m.next_id();
    m.list.paging.refreshing = Some(id);
    let generation = m.list.paging.generation;
    update(
        m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch: ListFetch::Refresh,
            result: Ok(page(items, next)),
        },
    )
}

/// A model with `items` loaded as the walk's first page answer, `next`
/// its cursor.
pub fn model_of(items: Vec<Contact>, next: Option<&str>, w: u16, h: u16) -> Model {
    let mut m = empty_model(w, h);
    let id = m.next_id();
    m.list.paging.loading = Some(id);
    let generation = m.list.paging.generation;
    update(
        &mut m,
        Msg::ContactsLoaded {
            id,
            generation,
            fetch: ListFetch::Next,
            result: Ok(page(items, next)),
        },
    );
    m
}

/// A model whose list is backed by a complete local index holding `n`
/// contacts (read from it as at start), with previews for none yet.
pub fn indexed_model(n: usize, w: u16, h: u16) -> Model {
    use crate::tui::msg::index::{IndexMsg, SyncStatus};
    let mut m = empty_model(w, h);
    m.sync.status = Some(SyncStatus {
        synced_at: Some(now() - Duration::seconds(20)),
        complete: true,
        ..SyncStatus::default()
    });
    let generation = m.list.paging.generation;
    m.sync.loading = Some(generation);
    update(
        &mut m,
        Msg::Index(IndexMsg::Loaded {
            generation,
            contacts: contacts(0..n),
            done: true,
        }),
    );
    m
}

/// Answers the load of the open thread (the first contact's, which the
/// fixtures select) with `n` messages; `older` is the cursor to older ones.
pub fn load_thread(m: &mut Model, n: usize, older: Option<&str>) {
    let (Some(contact), Some(id)) = (m.thread.contact.clone(), m.thread.loading) else {
        panic!("the fixture opens the first thread");
    };
    update(
        m,
        Msg::Thread(crate::tui::thread::ThreadMsg::Loaded {
            id,
            contact,
            fetch: crate::tui::thread::ThreadFetch::Initial,
            result: Ok(page(messages(n), older)),
        }),
    );
}
