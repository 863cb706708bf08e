//! Calling a slice: the root builds the slice's read-only context from the
//! model, lends it its own state, and takes back its effects (wrapped into
//! the root's `Effect`) and notes (routed by [`super::notes::route`]).

/// `call!(model, fx, field, Effect::Variant, |st, cx, out| body)` runs
/// `body` with `st = &mut model.field`, a [`Cx`](crate::tui::shared::Cx)
/// built from the rest of the model and an `Out` for the slice's effects.
/// For the inbox itself (which holds the contacts), pass `contacts: none`.
/// The inbox (`call!(model, fx, inbox, ...)`) is lent its parts, which the
/// root keeps as separate fields, and reads no contacts through `Cx`.
///
/// `call!(model, fx, inbox keep, ...)` routes none of the notes: it returns
/// `(result, notes)` for the root to route (`update/inbox.rs`).
macro_rules! call {
    ($model:expr, $fx:expr, inbox, $wrap:path, |$st:ident, $cx:ident, $out:ident| $body:expr) => {
        $crate::tui::update::call::call!(@go route $model, $fx, inbox, $wrap, |$st, $cx, $out| $body)
    };
    ($model:expr, $fx:expr, inbox keep, $wrap:path, |$st:ident, $cx:ident, $out:ident| $body:expr) => {
        $crate::tui::update::call::call!(@go keep $model, $fx, inbox, $wrap, |$st, $cx, $out| $body)
    };
    (@go $mode:ident $model:expr, $fx:expr, inbox, $wrap:path, |$st:ident, $cx:ident, $out:ident| $body:expr) => {
        $crate::tui::update::call::call!(@run $mode $model, $fx, $wrap, m => &$crate::tui::shared::NoContacts,
            state => &mut $crate::tui::inbox::Inbox {
                list: &mut m.list,
                views: &mut m.views,
                marks: &mut m.marks,
                sync: &mut m.sync,
                settle: &mut m.settle,
                badges: &m.badges,
            },
            |$st, $cx, $out| $body)
    };
    ($model:expr, $fx:expr, slices . $field:ident, $wrap:path, |$st:ident, $cx:ident, $out:ident| $body:expr) => {
        $crate::tui::update::call::call!(@run route $model, $fx, $wrap, m => &m.list, state => &mut m.slices.$field, |$st, $cx, $out| $body)
    };
    ($model:expr, $fx:expr, $field:ident, $wrap:path, |$st:ident, $cx:ident, $out:ident| $body:expr) => {
        $crate::tui::update::call::call!(@run route $model, $fx, $wrap, m => &m.list, state => &mut m.$field, |$st, $cx, $out| $body)
    };
    ($model:expr, $fx:expr, $field:ident, $wrap:path, contacts: none, |$st:ident, $cx:ident, $out:ident| $body:expr) => {
        $crate::tui::update::call::call!(@run route $model, $fx, $wrap, m => &$crate::tui::shared::NoContacts, state => &mut m.$field, |$st, $cx, $out| $body)
    };
    (@run $mode:ident $model:expr, $fx:expr, $wrap:path, $m:ident => $contacts:expr, state => $state:expr, |$st:ident, $cx:ident, $out:ident| $body:expr) => {{
        let $m: &mut $crate::tui::model::Model = $model;
        let areas = $m.areas();
        let selected = $m.list.selected_row().map(|r| r.uuid.clone());
        let indexed = $m.sync.enabled();
        let open = $m.thread.contact.clone();
        let shown = $m.details.shown(open.as_deref()).cloned();
        let (result, effects, notes) = {
            let cx_value = $crate::tui::shared::Cx {
                now: $m.now,
                keys: &$m.keys,
                session: &$m.session,
                focus: $m.focus,
                areas,
                width: $m.width,
                height: $m.height,
                toasting: $m.status.current().is_some(),
                selected: selected.as_deref(),
                contacts: $contacts,
                catalog: &$m.catalog,
                known: &$m.known,
                open: open.as_deref(),
                shown: shown.as_ref(),
                indexed,
                undo_at: $m.act.undo.newest_at($m.now),
                colleagues: &$m.colleagues,
            };
            let $cx = &cx_value;
            let mut out_value = $crate::tui::shared::Out::new(&mut $m.ids);
            let $out = &mut out_value;
            let $st = $state;
            let result = $body;
            let (effects, notes) = out_value.finish();
            (result, effects, notes)
        };
        let fx: &mut Vec<$crate::tui::effect::Effect> = $fx;
        fx.extend(effects.into_iter().map($wrap));
        $crate::tui::update::call::call!(@finish $mode $m, fx, result, notes)
    }};
    (@finish route $m:ident, $fx:ident, $result:ident, $notes:ident) => {{
        $crate::tui::update::notes::route($m, $notes, $fx);
        $result
    }};
    (@finish keep $m:ident, $fx:ident, $result:ident, $notes:ident) => {
        ($result, $notes)
    };
}

pub(crate) use call;
