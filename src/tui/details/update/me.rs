//! My status: available or away (`v`), and a custom status (`s`, picked
//! from the account's list).

use super::super::fx::DetailsEffect;
use super::super::state::{Availability, Details, NO_USER_HINT};
use crate::api::{ApiError, CustomStatusChange, TeamMember, UserStatus, UserStatusUpdate};
use crate::tui::form::{FuzzyPicker, custom_status_picker as picker};
use crate::tui::shared::{Out, ReqId, ToastKind};

/// `v`: available ↔ away, shown at once and put back on failure.
pub fn toggle_availability(st: &mut Details, out: &mut Out<DetailsEffect>) {
    let av = &mut st.me;
    let Some(user) = av.user.clone() else {
        return out.toast(ToastKind::Info, NO_USER_HINT);
    };
    if av.pending.is_some() {
        return;
    }
    let next = !av.available.unwrap_or(false);
    av.before = Some(av.available);
    av.available = Some(next); // optimistic; restored on failure
    av.changing_custom = false;
    let id = out.id();
    av.pending = Some(id);
    out.fx(DetailsEffect::SetUserStatus {
        id,
        user,
        update: UserStatusUpdate {
            available: Some(next),
            custom_status: CustomStatusChange::Keep,
        },
    });
}

/// `s`: the picker over the custom statuses (the root shows it as an
/// overlay), or a toast saying why there is none.
pub fn custom_status_picker(st: &mut Details, out: &mut Out<DetailsEffect>) -> Option<FuzzyPicker> {
    let av = &st.me;
    if av.user.is_none() {
        out.toast(ToastKind::Info, NO_USER_HINT);
        return None;
    }
    match &av.statuses {
        None => out.toast(ToastKind::Info, "custom statuses are still loading"),
        Some(Err(e)) => out.toast(ToastKind::Error, e.clone()),
        Some(Ok(list)) => {
            let current = av.custom_status.as_ref().map(|(id, _)| id.as_str());
            return Some(picker(list, current));
        }
    }
    None
}

/// The custom status picker chose `id` ("" clears it).
pub fn set_custom_status(st: &mut Details, out: &mut Out<DetailsEffect>, id: String) {
    let av = &mut st.me;
    let Some(user) = av.user.clone() else {
        return;
    };
    let change = if id.is_empty() {
        CustomStatusChange::Clear
    } else {
        CustomStatusChange::Set(id)
    };
    let req = out.id();
    av.pending = Some(req);
    av.changing_custom = true;
    av.before = Some(av.available);
    out.fx(DetailsEffect::SetUserStatus {
        id: req,
        user,
        update: UserStatusUpdate {
            available: None,
            custom_status: change,
        },
    });
}

pub(super) fn status_set(
    av: &mut Availability,
    out: &mut Out<DetailsEffect>,
    id: ReqId,
    result: Result<UserStatus, ApiError>,
) {
    if av.pending != Some(id) {
        return;
    }
    av.pending = None;
    match result {
        Ok(status) => {
            if let Some(a) = status.appearance {
                av.available = Some(a.available);
            }
            av.custom_status = status
                .custom_status
                .and_then(|c| c.id.map(|id| (id, c.name.unwrap_or_default())))
                .filter(|(id, _)| !id.is_empty());
            av.before = None;
            let text = match (av.changing_custom, &av.custom_status, av.available) {
                (true, Some((_, name)), _) => format!("custom status: {name}"),
                (true, None, _) => "custom status cleared".to_string(),
                (false, _, Some(true)) => "you are available".to_string(),
                (false, _, Some(false)) => "you are away".to_string(),
                (false, _, None) => "status saved".to_string(),
            };
            out.toast(ToastKind::Success, text);
        }
        Err(e) => {
            if let Some(before) = av.before.take() {
                av.available = before;
            }
            out.toast(ToastKind::Error, format!("could not set your status: {e}"));
        }
    }
}

/// There is no GET for my own status; a team member entry with my email
/// tells it, until I change it here (and my name, for snippets).
pub(super) fn learn_my_status(av: &mut Availability, member: &TeamMember) {
    if av.email.as_deref() == Some(member.email.as_str()) && !member.name.trim().is_empty() {
        av.name = Some(member.name.clone());
    }
    if av.email.as_deref() != Some(member.email.as_str()) || av.pending.is_some() || av.available.is_some() {
        return;
    }
    av.available = member.available;
    if let Some(cs) = member.user_custom_status.as_ref() {
        let id = cs.id.clone().unwrap_or_default();
        let name = cs.name.clone();
        if !id.is_empty() {
            av.custom_status = Some((id, name));
        }
    }
}
