//! Teams and templates: not offered, members, a template's and a team's record.

use crossterm::event::KeyCode;

use super::*;

#[test]
fn not_offered_shows_in_the_tab() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('3'));
    let [AccountEffect::FetchTeams { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Teams {
            id,
            result: Err(ApiError::NotOffered {
                what: "a team list".into(),
            }),
        }),
    );
    assert_eq!(
        m.catalog.teams.error.as_deref(),
        Some("this server does not offer a team list")
    );
    assert!(m.catalog.teams.loading.is_none());
    // Keys still work; Enter with no teams does nothing.
    assert!(account_fx(&update(&mut m, code(KeyCode::Enter))).is_empty());
    update(&mut m, key('j'));
}

#[test]
fn members_of_the_selected_team() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('3'));
    let [AccountEffect::FetchTeams { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    let teams = vec![
        crate::api::Team {
            uuid: "tm1".into(),
            name: "Sales".into(),
            ..Default::default()
        },
        crate::api::Team {
            uuid: "tm2".into(),
            name: "Support".into(),
            ..Default::default()
        },
    ];
    update(&mut m, Msg::Account(AccountMsg::Teams { id, result: Ok(teams) }));
    update(&mut m, key('j'));
    let fx = update(&mut m, key('m'));
    let [
        AccountEffect::FetchTeam { .. },
        AccountEffect::FetchMembers { id, ref team },
    ] = account_fx(&fx)[..]
    else {
        panic!("{fx:?}")
    };
    assert_eq!(team, "tm2");
    // An answer for another team is dropped.
    update(
        &mut m,
        Msg::Account(AccountMsg::Members {
            id,
            team: "tm1".into(),
            result: Ok(vec![]),
        }),
    );
    assert!(acc(&m).members.list.data.is_none());
    update(
        &mut m,
        Msg::Account(AccountMsg::Members {
            id,
            team: "tm2".into(),
            result: Ok(vec![Default::default()]),
        }),
    );
    assert_eq!(acc(&m).members.list.data.as_ref().unwrap().len(), 1);
}

#[test]
fn enter_on_a_template_reads_its_record() {
    let mut m = open_with_templates(3);
    update(&mut m, key('j'));
    let fx = update(&mut m, code(KeyCode::Enter));
    let [AccountEffect::FetchTemplate { id, ref uuid }] = account_fx(&fx)[..] else {
        panic!("{fx:?}")
    };
    assert_eq!(uuid, "t1");
    let full = Template {
        text: "The whole text, longer than the list's".into(),
        ..template(1)
    };
    // An answer for a template no longer opened is dropped.
    update(
        &mut m,
        Msg::Account(AccountMsg::Template {
            id,
            uuid: "t0".into(),
            result: Ok(template(0)),
        }),
    );
    assert!(acc(&m).template.as_ref().unwrap().remote.data.is_none());
    update(
        &mut m,
        Msg::Account(AccountMsg::Template {
            id,
            uuid: "t1".into(),
            result: Ok(full.clone()),
        }),
    );
    let opened = acc(&m).template.as_ref().unwrap();
    assert_eq!(opened.remote.data.as_ref(), Some(&full));
    // `r` reads the list and the opened record again.
    let fx = update(&mut m, key('r'));
    assert!(
        matches!(
            account_fx(&fx)[..],
            [
                AccountEffect::FetchTemplates { .. },
                AccountEffect::FetchTemplate { .. }
            ]
        ),
        "{fx:?}"
    );
}

#[test]
fn enter_on_a_team_reads_its_record_and_members() {
    let mut m = open_with_templates(1);
    let fx = update(&mut m, key('3'));
    let [AccountEffect::FetchTeams { id }] = account_fx(&fx)[..] else {
        panic!()
    };
    let sales = crate::api::Team {
        uuid: "tm1".into(),
        name: "Sales".into(),
        ..Default::default()
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Teams {
            id,
            result: Ok(vec![sales.clone()]),
        }),
    );
    let fx = update(&mut m, code(KeyCode::Enter));
    let [
        AccountEffect::FetchTeam { id, ref uuid },
        AccountEffect::FetchMembers { ref team, .. },
    ] = account_fx(&fx)[..]
    else {
        panic!("{fx:?}")
    };
    assert_eq!((uuid.as_str(), team.as_str()), ("tm1", "tm1"));
    let full = crate::api::Team {
        members: Some(4),
        default: true,
        ..sales
    };
    update(
        &mut m,
        Msg::Account(AccountMsg::Team {
            id,
            uuid: "tm1".into(),
            result: Ok(full.clone()),
        }),
    );
    assert_eq!(acc(&m).members.detail.data.as_ref(), Some(&full));
}
