//! The app's state, [`Model`]: the module file re-exports it.

use chrono::{DateTime, Utc};
use ratatui::layout::Rect;

use crate::tui::details::{Availability, Details};
use crate::tui::inbox::contact_list::ContactList;
use crate::tui::inbox::{Marks, SyncView, Views};
use crate::tui::shared::catalog::Catalog;
use crate::tui::shared::known::Known;
use crate::tui::shared::pane::Pane;
use crate::tui::shared::session::Session;
use crate::tui::shared::status::StatusBar;
use crate::tui::thread::Thread;

use super::overlay::Overlay;
use crate::tui::keymap::resolve::Keymap;
use crate::tui::msg::ReqId;

use crate::tui::shared::layout::{Areas, WIDE, areas};

/// Everything the app knows, in six parts (each field's group is named in
/// its comment):
///
/// - **Session and screen**: fixed facts, the clock, the terminal size and
///   the focused pane.
/// - **The inbox**: the contact list, the open thread and the selected
///   contact's details (with its bot), plus my own availability.
/// - **What the account offers**: `catalog` (templates, channels, teams,
///   plan, funnels, fetched once) and `known` (names learned on the way,
///   for pickers).
/// - **Writing**: forms in flight or kept as drafts, and the composer.
/// - **On top**: the status line with its toasts, an overlay (help,
///   palette, a form) and the account overlay.
/// - **Bookkeeping**: request ids, the selection debounce and quitting.
#[derive(Debug)]
pub struct Model {
    // Session and screen.
    pub session: Session,
    pub now: DateTime<Utc>,
    /// Advances with every tick: spinner frames.
    pub frame: u64,
    /// The session's keys (the defaults with the config's `[keys]`): what
    /// update maps keys through and what help, the palette and footers show.
    pub keys: std::sync::Arc<Keymap>,
    /// Set when a view draws a spinner; the loop reads and clears it after
    /// each frame ([`Model::take_spun`]) and ticks only while one shows.
    spun: std::cell::Cell<bool>,
    pub width: u16,
    pub height: u16,
    pub focus: Pane,

    // The inbox.
    pub list: ContactList,
    pub thread: Thread,
    /// The details pane, its bot and my status.
    pub details: crate::tui::details::State,
    /// The local index behind the list: freshness and previews.
    pub sync: SyncView,
    /// The tabs above the list: views of the work and their counts.
    pub views: Views,

    // What the account offers.
    /// Fetched once, shared by the composer, forms, details and overlay.
    pub catalog: Catalog,
    /// Tags, sources, collaborators, teams and field types met so far.
    pub known: Known,

    // Writing.
    /// Writes on contacts, one or many, their forms, drafts and undo.
    pub act: crate::tui::act::State,
    /// The reply composer, drafts and sent messages.
    pub compose: crate::tui::compose::State,

    // On top.
    pub status: StatusBar,
    pub overlay: Option<Overlay>,
    /// The account overlay (`A`), under help and the palette.
    pub account: crate::tui::account::State,

    // Many at once.
    /// Marked contacts (`Space`, `V`, `*`), what an action on many takes.
    pub marks: Marks,

    /// Badges slices put on rows (snoozed, back…), which views filter on.
    pub badges: crate::tui::shared::Badges,
    /// What the team's hub says colleagues do (empty without a hub).
    pub colleagues: crate::tui::shared::Colleagues,
    /// The slices wired through the registry (`tui/slices.rs`).
    pub slices: crate::tui::slices::Slices,

    // Bookkeeping.
    /// The debounce id the selection waits on.
    pub settle: Option<ReqId>,
    /// The last request id handed out (see [`Model::next_id`]).
    pub(crate) ids: ReqId,
    pub quit: bool,
    /// Notes a slice sent that the root acts on after the call returns.
    pub later: Vec<crate::tui::shared::Note>,
    /// A count typed before a motion (`5j`).
    pub count: Option<u32>,
}

impl Model {
    /// The spinner's glyph for this tick; notes that a spinner showed.
    pub fn spinner(&self) -> &'static str {
        self.spun.set(true);
        crate::tui::widgets::spinner_glyph(self.frame)
    }

    /// Whether a spinner was drawn since the last call.
    pub fn take_spun(&self) -> bool {
        self.spun.replace(false)
    }

    pub fn new(session: Session, user: Option<String>, now: DateTime<Utc>) -> Model {
        let me = session.agent.clone();
        Model {
            session,
            now,
            frame: 0,
            keys: Default::default(),
            spun: Default::default(),
            width: 80,
            height: 24,
            focus: Pane::List,
            list: ContactList::default(),
            thread: Thread {
                me,
                ..Default::default()
            },
            details: Details {
                me: Availability {
                    user,
                    ..Default::default()
                },
                ..Default::default()
            },
            sync: SyncView::default(),
            views: Views::default(),
            catalog: Catalog::default(),
            known: Known::default(),
            status: StatusBar::default(),
            overlay: None,
            count: None,
            account: None,
            marks: Default::default(),
            slices: Default::default(),
            badges: Default::default(),
            colleagues: Default::default(),
            act: Default::default(),
            settle: None,
            compose: Default::default(),
            ids: 1,
            quit: false,
            later: Vec::new(),
        }
    }

    /// This agent's name for a snippet's `{{agent.name}}`: as the team
    /// members name them, else as the team's hub does.
    pub fn agent_name(&self) -> Option<String> {
        self.details.me.name.clone().or_else(|| self.session.agent.clone())
    }

    /// A fresh request id.
    pub fn next_id(&mut self) -> ReqId {
        self.ids += 1;
        self.ids
    }

    /// What a slice's view reads besides its own state.
    pub fn vcx<'a>(&'a self, theme: &'a crate::tui::theme::Theme) -> crate::tui::shared::ViewCx<'a> {
        crate::tui::shared::ViewCx {
            now: self.now,
            theme,
            keys: &self.keys,
            session: &self.session,
            focus: self.focus,
            contacts: &self.list,
            known: &self.known,
            colleagues: &self.colleagues,
            frame: self.frame,
            spun: &self.spun,
        }
    }

    /// The inbox's parts, as its view reads them.
    pub fn inbox(&self) -> crate::tui::inbox::InboxRef<'_> {
        crate::tui::inbox::InboxRef {
            list: &self.list,
            views: &self.views,
            marks: &self.marks,
            sync: &self.sync,
            badges: &self.badges,
        }
    }

    pub fn is_wide(&self) -> bool {
        self.width >= WIDE
    }

    pub fn areas(&self) -> Areas {
        areas(
            Rect::new(0, 0, self.width, self.height),
            self.is_wide(),
            self.focus,
            self.status.current().is_some(),
        )
    }

    /// Contact rows that fit in the list pane (borders, the views' strip
    /// and the header row excluded).
    pub fn list_height(&self) -> usize {
        self.areas().list_rows(self.width, self.height)
    }

    /// The thread pane's inner size, for wrapping and scrolling.
    pub fn thread_inner(&self) -> (u16, u16) {
        let a = self.areas();
        let r = a
            .thread
            .unwrap_or(Rect::new(0, 0, self.width, self.height.saturating_sub(4)));
        (r.width.saturating_sub(2), r.height.saturating_sub(2))
    }
}
