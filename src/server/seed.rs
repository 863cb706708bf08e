//! Deterministic demo data. The same seed gives the same account structure
//! and text; times are laid out relative to "now" (rounded to the minute) at
//! seed time so the demo always looks alive.

use rand::rngs::StdRng;
use rand::seq::{IndexedRandom, SliceRandom};
use rand::{Rng, SeedableRng};
use rusqlite::{Connection, params};
use serde_json::{Map, Value};

use super::config::ServerConfig;
use super::db::{self, hex32, hyphenated};
use super::error::ServerError;
use super::seed_text::*;
use super::webhooks::log::simulated_response;

const MINUTE: i64 = 60_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// Contacts beyond this many get short threads so 100,000 seed in seconds.
const RICH_THREADS: usize = 400;

pub const USERS: &[(&str, &str)] = &[
    ("Alex Agent", "alex@frontdesk.example"),
    ("Bea Support", "bea@frontdesk.example"),
    ("Chen Wei 陈伟", "chen@frontdesk.example"),
    ("Dana Levi דנה", "dana@frontdesk.example"),
    ("Émile Roux", "emile@frontdesk.example"),
    ("Farah Haddad", "farah@frontdesk.example"),
];
const TEAMS: &[&str] = &["Support", "Sales", "Billing", "VIP Care 💎"];
const CHANNELS: &[(&str, &str, &str)] = &[
    ("Main line", "messaging_app", "+15550100"),
    ("WhatsApp EU", "whatsapp", "+4930555010"),
    ("Telegram shop", "telegram", "@frontdesk_shop"),
    ("Instagram DMs", "instagram", "@frontdesk.shop"),
    ("Facebook Page", "facebook", "frontdesk.shop"),
];
const FUNNELS: &[(&str, &str)] = &[
    ("New lead", "🌱"),
    ("Qualified", "🔍"),
    ("Negotiation", "🤝"),
    ("Won", "🏆"),
];
const TAGS: &[&str] = &[
    "vip",
    "lead",
    "urgent",
    "returning",
    "wholesale",
    "complaint",
    "beta",
    "Newsletter",
];
const STATUSES: &[(&str, &str)] = &[
    ("In a meeting", "📅"),
    ("Lunch", "🍜"),
    ("Focus time", "🎧"),
    ("On holiday", "🏖️"),
];
const TEMPLATES: &[(&str, &str, &str)] = &[
    ("order_shipped", "approved", "Hi {{1}}, your order {{2}} has shipped 🚚"),
    (
        "follow_up",
        "approved",
        "Hello {{1}}, we have not heard from you in a while. Can we help with anything?",
    ),
    ("welcome", "approved", "Welcome to Frontdesk Shop, {{1}}! 🎉"),
    (
        "payment_reminder",
        "approved",
        "Dear {{1}}, invoice {{2}} is due on {{3}}.",
    ),
    ("feedback", "approved", "How did we do? Reply 1–5 ⭐"),
    (
        "reengage_ja",
        "approved",
        "{{1}}様、お久しぶりです。ご質問はありますか？",
    ),
    ("black_friday", "rejected", "🔥🔥 HUGE SALE 90% OFF click now!!! 🔥🔥"),
    ("crypto_offer", "rejected", "Invest in our coin today, {{1}}"),
];

pub fn fields() -> Vec<(&'static str, &'static str, Vec<&'static str>)> {
    vec![
        ("Company", "text", vec![]),
        ("Work email", "email", vec![]),
        ("Order total", "number", vec![]),
        ("Birthday", "date", vec![]),
        ("Plan", "dropdown", vec!["Free", "Pro", "Enterprise"]),
        (
            "Interests",
            "checkbox",
            vec!["Shoes", "Bags", "Watches", "Gift cards 🎁"],
        ),
    ]
}

pub fn seed(conn: &mut Connection, cfg: &ServerConfig) -> Result<(), ServerError> {
    let mut rng = StdRng::seed_from_u64(cfg.seed);
    let now = cfg.clock.now_ms() / MINUTE * MINUTE;
    let tx = conn.transaction()?;
    let sources: Vec<&str> = SOURCES.iter().map(|s| s.0).collect();
    db::set_setting(&tx, "sources", &serde_json::to_string(&sources)?)?;
    db::set_setting(&tx, "bot_enabled", if cfg.bot_enabled { "true" } else { "false" })?;
    db::set_setting(&tx, "bot_uuid", &hex32(&mut rng))?;
    db::set_setting(&tx, "bot_name", "Frontdesk Helper 🤖")?;
    db::set_setting(&tx, "bot_version", "3")?;
    // The API key belongs to the first collaborator (GET /auth/me).
    db::set_setting(&tx, "api_user", USERS[0].1)?;

    for (i, (name, emoji)) in STATUSES.iter().enumerate() {
        let at = now - (90 - i as i64) * DAY;
        tx.execute(
            "INSERT INTO custom_statuses (uuid, name, emoji, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
            params![hyphenated(&mut rng), name, emoji, at],
        )?;
    }
    for (i, (name, email)) in USERS.iter().enumerate() {
        let status: Option<i64> = (i % 2 == 1).then_some((i as i64 / 2) % STATUSES.len() as i64 + 1);
        let at = now - rng.random_range(1..48) * HOUR;
        tx.execute(
            "INSERT INTO users (uuid, email, name, available, available_at, custom_status_id, custom_status_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?5)",
            params![hex32(&mut rng), email, name, i % 3 != 2, at, status],
        )?;
    }
    // One user who never confirmed the invitation, one deactivated: the
    // plan's activeUsers leaves both out.
    tx.execute("UPDATE users SET confirmed = 0 WHERE id = 5", [])?;
    tx.execute("UPDATE users SET active = 0 WHERE id = 6", [])?;
    for (i, name) in TEAMS.iter().enumerate() {
        tx.execute(
            "INSERT INTO teams (uuid, name, created_at, is_default) VALUES (?1, ?2, ?3, ?4)",
            params![hex32(&mut rng), name, now - (200 - i as i64 * 10) * DAY, i == 0],
        )?;
        for u in 0..USERS.len() {
            if u % TEAMS.len() == i || (u + i) % 3 == 0 {
                tx.execute(
                    "INSERT INTO team_members (team_id, user_id) VALUES (?1, ?2)",
                    params![i + 1, u + 1],
                )?;
            }
        }
    }
    for (i, (title, kind, phone)) in CHANNELS.iter().enumerate() {
        tx.execute(
            "INSERT INTO channels (uuid, title, type, main, phone) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![hex32(&mut rng), title, kind, i == 0, phone],
        )?;
    }
    let mut funnel_ids = Vec::new();
    for (i, (name, emoji)) in FUNNELS.iter().enumerate() {
        let uuid = hyphenated(&mut rng);
        tx.execute(
            "INSERT INTO funnels (uuid, name, emoji, position, created_at) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![uuid, name, emoji, i + 1, now - (300 - i as i64) * DAY],
        )?;
        funnel_ids.push(uuid);
    }
    for t in TAGS {
        tx.execute("INSERT INTO tags (name) VALUES (?1)", [t])?;
    }
    for (name, kind, options) in fields() {
        tx.execute(
            "INSERT INTO custom_fields (name, type, options) VALUES (?1, ?2, ?3)",
            params![name, kind, serde_json::to_string(&options)?],
        )?;
    }
    for (i, (title, status, text)) in TEMPLATES.iter().enumerate() {
        tx.execute(
            "INSERT INTO templates (uuid, title, template_type, category, status, text, created_at)
             VALUES (?1, ?2, 'text', ?3, ?4, ?5, ?6)",
            params![
                hex32(&mut rng),
                title,
                if i % 3 == 2 { "UTILITY" } else { "MARKETING" },
                status,
                text,
                now - (60 - i as i64) * DAY
            ],
        )?;
    }
    seed_contacts(&tx, &mut rng, cfg, now, &funnel_ids)?;
    seed_events(&tx, &mut rng, now)?;
    super::seed_docs::seed(&tx, cfg.seed, now)?;
    db::set_setting(&tx, "seeded", &now.to_string())?;
    tx.commit()?;
    Ok(())
}

fn seed_contacts(
    tx: &rusqlite::Transaction<'_>,
    rng: &mut StdRng,
    cfg: &ServerConfig,
    now: i64,
    funnels: &[String],
) -> Result<(), ServerError> {
    let mut contact = tx.prepare(
        "INSERT INTO contacts (id, uuid, conversation_uuid, name, phone, avatar_url, created_at, source,
           assigned_user, team_id, channel_id, closed_at, funnel_uuid, note, tags, custom_fields,
           bot_status, bot_started_at, last_activity)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)",
    )?;
    let mut message = tx.prepare(
        "INSERT INTO messages (uuid, contact_id, text, created_at, status, channel, sender, recipient)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    let fields = fields();
    let weights: u32 = SOURCES.iter().map(|s| s.1).sum();
    for i in 0..cfg.contacts {
        let id = i as i64 + 1;
        let (cc, given, family, family_first) = COUNTRIES.choose(rng).copied().unwrap_or(COUNTRIES[0]);
        let (g, f) = (
            *given.choose(rng).unwrap_or(&"Sam"),
            *family.choose(rng).unwrap_or(&"Lee"),
        );
        let name = if family_first {
            format!("{f} {g}")
        } else {
            format!("{g} {f}")
        };
        // The running index makes every number unique.
        let phone = format!("{cc}{}{:07}", rng.random_range(200..999), i);
        let mut pick = rng.random_range(0..weights);
        let source = SOURCES
            .iter()
            .find(|(_, w)| {
                let hit = pick < *w;
                pick = pick.saturating_sub(*w);
                hit
            })
            .map_or("messaging_app", |s| s.0);
        let channel_id = CHANNELS.iter().position(|c| c.1 == source).map_or(1, |p| p as i64 + 1);
        // A quarter of the conversations moved in the last day, the rest over two months.
        let age = if rng.random_bool(0.25) {
            rng.random_range(0..DAY)
        } else {
            rng.random_range(DAY..60 * DAY)
        };
        // Who wrote last varies (every tenth conversation ends with a note)
        // and every fiftieth, from the second, is open with the customer
        // waiting for minutes. Decided by the index, not the generator, so
        // the draws (and the uuids) stay those of the same seed.
        let waiting_now = i % 50 == 1;
        let note_last = i % 10 == 6;
        let age = if waiting_now {
            (2 + (i / 50 % 40) as i64) * MINUTE
        } else {
            age
        };
        let last_activity = now - age / 1000 * 1000;
        let created_at = last_activity - rng.random_range(1..400) * DAY;
        let uuid = hex32(rng);
        let avatar = rng
            .random_bool(0.3)
            .then(|| format!("https://avatars.example.com/{uuid}.png"));
        let assigned = rng.random_bool(0.6).then(|| USERS.choose(rng).map_or("", |u| u.1));
        let team = rng.random_bool(0.7).then(|| rng.random_range(1..=TEAMS.len() as i64));
        let closed = rng
            .random_bool(0.3)
            .then(|| last_activity + rng.random_range(1..120) * MINUTE);
        let closed = closed.map(|c| c.min(now)).filter(|_| !waiting_now);
        let funnel = funnels.choose(rng).cloned().unwrap_or_default();
        let note = rng
            .random_bool(0.2)
            .then(|| CONTACT_NOTES.choose(rng).copied().unwrap_or(""));
        let n_tags = rng.random_range(0..=3);
        let mut tags: Vec<&str> = TAGS.choose_multiple(rng, n_tags).copied().collect();
        tags.sort();
        let mut cf = Map::new();
        for (fname, kind, options) in &fields {
            if !rng.random_bool(0.5) {
                continue;
            }
            let v = match *kind {
                "text" => COMPANIES.choose(rng).copied().unwrap_or("").to_string(),
                "email" => format!("buyer{i}@example.org"),
                "number" => format!("{}.{:02}", rng.random_range(5..2000), rng.random_range(0..100)),
                "date" => format!(
                    "{}-{:02}-{:02}",
                    rng.random_range(1950..2006),
                    rng.random_range(1..=12),
                    rng.random_range(1..=28)
                ),
                "dropdown" => options.choose(rng).copied().unwrap_or("").to_string(),
                _ => {
                    let n = rng.random_range(1..=2);
                    let mut o: Vec<&str> = options.choose_multiple(rng, n).copied().collect();
                    o.shuffle(rng);
                    serde_json::to_string(&o)?
                }
            };
            cf.insert(fname.to_string(), Value::String(v));
        }
        let (bot_status, bot_at) = if cfg.bot_enabled {
            match rng.random_range(0..10) {
                0..=5 => (Some("started"), Some(last_activity - HOUR)),
                6..=7 => (Some("in_progress"), Some(last_activity - HOUR)),
                _ => (Some("ended"), None),
            }
        } else {
            (None, None)
        };
        contact.execute(params![
            id,
            uuid,
            hex32(rng),
            name,
            phone,
            avatar,
            created_at,
            source,
            assigned,
            team,
            channel_id,
            closed,
            funnel,
            note,
            serde_json::to_string(&tags)?,
            Value::Object(cf).to_string(),
            bot_status,
            bot_at,
            last_activity
        ])?;

        let count = if i < RICH_THREADS {
            rng.random_range(3..=25)
        } else {
            rng.random_range(1..=3)
        };
        let business = CHANNELS[channel_id as usize - 1].2;
        let mut t = last_activity;
        for k in 0..count {
            let drawn = if k == 0 {
                if i % 25 == 3 || rng.random_bool(0.65) {
                    "received"
                } else {
                    "sent"
                }
            } else {
                match rng.random_range(0..20) {
                    0..=8 => "received",
                    9..=17 => "sent",
                    _ => "note",
                }
            };
            let text: String = match drawn {
                // Every 25th rich thread opens with a very long message.
                "received" if i < RICH_THREADS && (rng.random_bool(0.05) || (k == 0 && i % 25 == 3)) => {
                    long_message(rng.random_range(8..20))
                }
                "received" => RECEIVED.choose(rng).copied().unwrap_or("").to_string(),
                "sent" => SENT.choose(rng).copied().unwrap_or("").to_string(),
                _ => NOTES.choose(rng).copied().unwrap_or("").to_string(),
            };
            let uuid = matches!(drawn, "received" | "sent").then(|| hex32(rng));
            let status = match k {
                0 if waiting_now => "received",
                0 if note_last => "note",
                _ => drawn,
            };
            let text = match status {
                _ if status == drawn => text,
                "received" => RECEIVED[i % RECEIVED.len()].to_string(),
                _ => NOTES[i % NOTES.len()].to_string(),
            };
            let (uuid, from, to) = match status {
                "received" => (uuid, phone.as_str(), business),
                "sent" => (uuid, business, phone.as_str()),
                _ => (None, assigned.unwrap_or(USERS[0].1), ""),
            };
            message.execute(params![uuid, id, text, t, status, source, from, to])?;
            // Gaps from a minute to half a day: longer threads span days.
            t -= rng.random_range(1..720) * MINUTE;
        }
    }
    Ok(())
}

fn seed_events(tx: &rusqlite::Transaction<'_>, rng: &mut StdRng, now: i64) -> Result<(), ServerError> {
    const KINDS: &[(&str, &str)] = &[
        ("message_created", "message_object"),
        ("message_status_updated", "message_object"),
        ("contact_created", "contact_object"),
        ("contact_updated", "contact_object"),
        ("conversation_closed", "contact_object"),
        ("conversation_opened", "contact_object"),
    ];
    for n in 1..=40i64 {
        let (event, payload) = KINDS.choose(rng).copied().unwrap_or(KINDS[0]);
        let (response, success) = simulated_response(n);
        tx.execute(
            "INSERT INTO webhook_events (id, event, payload, response, success, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            params![n, event, payload, response.to_string(), success, now - (41 - n) * 37 * MINUTE],
        )?;
    }
    Ok(())
}
