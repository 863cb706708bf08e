//! Templates: the picker over the catalog's approved templates (fetched
//! through the root when they never were), and the values form for a
//! template's `{{n}}` placeholders.

use super::super::fx::ComposeEffect;
use super::super::state::{Compose, Stage};
use super::placeholders::placeholders;
use super::send::{fail, send_template};
use crate::api::Template;
use crate::tui::form::{FieldId, FieldKind, FieldSpec, Form, FuzzyPicker, PickItem, TextCheck};
use crate::tui::shared::catalog::Part;
use crate::tui::shared::{Cx, Note, Out};

/// Ctrl-T: the picker over the catalog's approved templates, fetched
/// first if they never were (or the last fetch failed).
pub(super) fn open_templates(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>) {
    match cx.catalog.approved_templates() {
        Some(list) => show_picker(st, out, &list),
        None => {
            if !cx.catalog.loading(Part::Templates) {
                out.note(Note::Fetch(Part::Templates));
            }
            st.stage = Stage::LoadingTemplates;
        }
    }
}

/// The catalog's templates answered: a composer waiting for them shows
/// the picker, or why there is none.
pub fn templates_arrived(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>) {
    if !matches!(st.stage, Stage::LoadingTemplates) {
        return;
    }
    match (cx.catalog.approved_templates(), cx.catalog.templates.error.clone()) {
        (Some(list), _) => show_picker(st, out, &list),
        (None, error) => {
            st.stage = Stage::Edit;
            let uuid = st.open.clone().unwrap_or_default();
            fail(
                st,
                out,
                &uuid,
                error.unwrap_or_else(|| "could not load templates".into()),
            );
        }
    }
}

fn show_picker(st: &mut Compose, out: &mut Out<ComposeEffect>, list: &[Template]) {
    if list.is_empty() {
        st.stage = Stage::Edit;
        let uuid = st.open.clone().unwrap_or_default();
        return fail(st, out, &uuid, "there are no approved templates".into());
    }
    let items = list
        .iter()
        .map(|t| PickItem {
            label: crate::text::sanitize_line(if t.title.is_empty() { &t.uuid } else { &t.title }),
            detail: crate::text::sanitize_line(&t.text),
            key: t.uuid.clone(),
        })
        .collect();
    st.stage = Stage::Templates(FuzzyPicker::new("Send a template", items));
}

pub(super) fn choose_template(st: &mut Compose, cx: &Cx, out: &mut Out<ComposeEffect>, uuid: &str) {
    let Some(t) = cx
        .catalog
        .approved_templates()
        .and_then(|l| l.into_iter().find(|t| t.uuid == uuid))
    else {
        st.stage = Stage::Edit;
        return;
    };
    let ph = placeholders(&t.text);
    if ph.is_empty() {
        st.stage = Stage::Edit;
        return send_template(st, cx, out, &t, Vec::new(), None, false);
    }
    let fields = ph
        .iter()
        .map(|n| FieldSpec {
            key: FieldId::Placeholder(*n),
            label: format!("{{{{{n}}}}}"),
            kind: FieldKind::Text {
                value: String::new(),
                check: TextCheck::Any,
            },
            required: true,
            help: None,
        })
        .collect();
    let title = format!("Values for “{}”", crate::text::sanitize_line(&t.title));
    let form = Form::new(title, fields);
    st.stage = Stage::Values { template: t, form };
}
