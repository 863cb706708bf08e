//! Forms over the account overlay: renaming a template or channel, and the
//! webhook log's event kinds and page size.

use crossterm::event::KeyEvent;

use crate::tui::account::fx::AccountEffect;
use crate::tui::account::state::Open as State;
use crate::tui::account::state::{AccountForm, AccountTab, EVENT_KINDS, MAX_PAGE_SIZE, Rename, RenameTarget};
use crate::tui::form::{FieldId, FieldKind, FieldSpec, Form, FormOutcome, FormValue, TextCheck};
use crate::tui::shared::catalog::Catalog;
use crate::tui::shared::{Cx, Out, ToastKind};

type O<'a> = Out<'a, AccountEffect>;

pub(super) fn key(st: &mut State, cx: &Cx, out: &mut O, key: KeyEvent) {
    let Some(acc) = st.as_mut() else { return };
    let form = match acc.form.as_mut() {
        Some(AccountForm::Rename(r)) => &mut r.form,
        Some(AccountForm::EventFilter(f)) => f,
        None => return,
    };
    let outcome = form.handle_key(cx.keys, key);
    let rename = matches!(acc.form, Some(AccountForm::Rename(_)));
    match outcome {
        FormOutcome::Pending => {}
        FormOutcome::Cancelled => acc.form = None,
        FormOutcome::Submitted if rename => submit_rename(st, cx, out),
        FormOutcome::Submitted => submit_event_filter(st, out),
    }
}

pub(super) fn paste(st: &mut State, text: &str) {
    match st.as_mut().and_then(|a| a.form.as_mut()) {
        Some(AccountForm::Rename(r)) => r.form.handle_paste(text),
        Some(AccountForm::EventFilter(f)) => f.handle_paste(text),
        None => {}
    }
}

/// The rename form: one required title, pre-filled.
fn rename_form(target: RenameTarget, title: &str) -> Form {
    Form::new(
        format!("Rename {} {title}", target.noun()),
        vec![FieldSpec {
            key: FieldId::Title,
            label: "Title".into(),
            kind: FieldKind::Text {
                value: title.to_string(),
                check: TextCheck::Any,
            },
            required: true,
            help: None,
        }],
    )
}

pub(super) fn open_rename(st: &mut State, cx: &Cx) {
    let Some(acc) = st.as_mut() else { return };
    let cat = cx.catalog;
    let row = match acc.tab {
        AccountTab::Templates => cat
            .templates
            .data
            .as_ref()
            .and_then(|t| t.get(acc.templates_cursor.selected))
            .map(|t| (RenameTarget::Template, t.uuid.clone(), t.title.clone())),
        AccountTab::Channels => cat
            .channels
            .data
            .as_ref()
            .and_then(|c| c.get(acc.channels_cursor.selected))
            .map(|c| (RenameTarget::Channel, c.uuid.clone(), c.title.clone())),
        _ => None,
    };
    let Some((target, uuid, title)) = row else { return };
    acc.form = Some(AccountForm::Rename(Rename {
        target,
        uuid,
        form: rename_form(target, &title),
        saving: None,
    }));
}

pub(super) fn current_title(cat: &Catalog, target: RenameTarget, uuid: &str) -> Option<String> {
    match target {
        RenameTarget::Template => cat
            .templates
            .data
            .as_ref()?
            .iter()
            .find(|t| t.uuid == uuid)
            .map(|t| t.title.clone()),
        RenameTarget::Channel => cat
            .channels
            .data
            .as_ref()?
            .iter()
            .find(|c| c.uuid == uuid)
            .map(|c| c.title.clone()),
    }
}

fn submit_rename(st: &mut State, cx: &Cx, out: &mut O) {
    let id = out.id();
    let Some(acc) = st.as_mut() else { return };
    let Some(AccountForm::Rename(rename)) = acc.form.as_mut() else {
        return;
    };
    if rename.saving.is_some() {
        return;
    }
    let title = match rename.form.value(&FieldId::Title) {
        Some(FormValue::Text(t)) => t.trim().to_string(),
        _ => String::new(),
    };
    let (target, uuid) = (rename.target, rename.uuid.clone());
    if current_title(cx.catalog, target, &uuid).as_deref() == Some(title.as_str()) {
        acc.form = None;
        out.toast(ToastKind::Info, "nothing changed");
        return;
    }
    rename.saving = Some(id);
    rename.form.set_busy(true);
    out.fx(AccountEffect::Rename {
        id,
        target,
        uuid,
        title,
    });
}

/// `s` on the webhook log: which event kinds (none ticked: all) and how
/// many per page.
pub(super) fn open_event_filter(st: &mut State) {
    let Some(acc) = st.as_mut() else { return };
    let w = &acc.webhooks;
    let mut kinds: Vec<String> = EVENT_KINDS.iter().map(|k| k.to_string()).collect();
    let seen = w.events.data.iter().flatten().map(|e| e.event.as_str().to_string());
    for k in seen.chain(w.subscriptions.iter().cloned()) {
        if !k.is_empty() && !kinds.contains(&k) {
            kinds.push(k);
        }
    }
    let form = Form::new(
        "Webhook log filter",
        vec![
            FieldSpec {
                key: FieldId::EventKinds,
                label: "Event kinds".into(),
                kind: FieldKind::Multi {
                    options: kinds,
                    selected: w.subscriptions.clone(),
                    allow_custom: true,
                },
                required: false,
                help: Some("none ticked: every kind".into()),
            },
            FieldSpec {
                key: FieldId::PageSize,
                label: "Per page".into(),
                kind: FieldKind::Text {
                    value: w.items.map(|n| n.to_string()).unwrap_or_default(),
                    check: TextCheck::Number,
                },
                required: false,
                help: Some(format!("1 to {MAX_PAGE_SIZE}; empty: the server's default")),
            },
        ],
    );
    let mut form = form;
    form.set_submit_verb("apply");
    acc.form = Some(AccountForm::EventFilter(form));
}

/// The page size typed: `Ok(None)` when empty.
pub(crate) fn page_size(text: &str) -> Result<Option<u32>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(n) if (1..=MAX_PAGE_SIZE).contains(&n) => Ok(Some(n)),
        _ => Err(format!("per page must be a whole number from 1 to {MAX_PAGE_SIZE}")),
    }
}

fn submit_event_filter(st: &mut State, out: &mut O) {
    let Some(acc) = st.as_mut() else { return };
    let Some(AccountForm::EventFilter(form)) = acc.form.as_mut() else {
        return;
    };
    let kinds = match form.value(&FieldId::EventKinds) {
        Some(FormValue::Many(k)) => k,
        _ => Vec::new(),
    };
    let typed = match form.value(&FieldId::PageSize) {
        Some(FormValue::Text(t)) => t,
        _ => String::new(),
    };
    let items = match page_size(&typed) {
        Ok(n) => n,
        Err(e) => return form.set_error(e),
    };
    acc.form = None;
    let w = &mut acc.webhooks;
    if w.subscriptions == kinds && w.items == items {
        return;
    }
    w.subscriptions = kinds;
    w.items = items;
    super::rows::restart_log(st, out);
}
