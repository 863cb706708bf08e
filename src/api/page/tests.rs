use super::*;
use futures::StreamExt;
use std::sync::{Arc, Mutex};

fn page(items: Vec<u32>, page: Option<u32>, pages: Option<u32>, next: Option<&str>) -> Page<u32> {
    Page {
        items,
        meta: Meta {
            page,
            pages,
            next: next.map(str::to_string),
        },
    }
}

#[test]
fn meta_is_lenient() {
    let m: Meta = serde_json::from_str(r#"{"page":"2","pages":7,"next":null,"extra":1}"#).unwrap();
    assert_eq!(
        m,
        Meta {
            page: Some(2),
            pages: Some(7),
            next: None
        }
    );
    let m: Meta = serde_json::from_str(r#"{"next":""}"#).unwrap();
    assert_eq!(m.next, None);
    let m: Meta = serde_json::from_str(r#"{"next":"abc"}"#).unwrap();
    assert_eq!(m.next.as_deref(), Some("abc"));
}

#[tokio::test]
async fn numbered_walk_follows_pages() {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = asked.clone();
    let pages: Vec<_> = walk_numbered(move |n| {
        log.lock().unwrap().push(n);
        async move { Ok(page(vec![n], Some(n), Some(3), None)) }
    })
    .collect()
    .await;
    assert_eq!(pages.len(), 3);
    assert_eq!(*asked.lock().unwrap(), vec![1, 2, 3]);
}

#[tokio::test]
async fn numbered_walk_without_pages_stops_on_empty_or_no_echo() {
    let pages: Vec<_> = walk_numbered(|n| async move {
        let items = if n < 3 { vec![n] } else { vec![] };
        Ok(page(items, Some(n), None, None))
    })
    .collect()
    .await;
    assert_eq!(pages.len(), 3);
    let pages: Vec<_> = walk_numbered(|n| async move { Ok(page(vec![n], None, None, None)) })
        .collect()
        .await;
    assert_eq!(pages.len(), 1);
}

#[tokio::test]
async fn numbered_walk_stops_when_the_server_ignores_the_page() {
    let out: Vec<_> = walk_numbered(|_| async move { Ok(page(vec![1], Some(1), Some(9), None)) })
        .collect()
        .await;
    assert_eq!(out.len(), 2);
    assert!(matches!(out[1], Err(ApiError::Pagination(_))));
}

#[test]
fn cursor_guard_refuses_cycles() {
    let mut g = CursorGuard::new();
    assert_eq!(g.follow(Some("a")).unwrap(), Some(PageRequest::After("a".into())));
    assert_eq!(g.follow(Some("b")).unwrap(), Some(PageRequest::After("b".into())));
    assert!(matches!(g.follow(Some("a")), Err(ApiError::Pagination(_))), "A→B→A");
    assert_eq!(g.follow(None).unwrap(), None);
    assert_eq!(g.follow(Some("")).unwrap(), None);
    g.reset();
    assert!(g.follow(Some("a")).is_ok());
}

#[tokio::test]
async fn cursor_walk_stops_on_null_and_on_repeats() {
    let out: Vec<_> = walk_cursor(|at| async move {
        Ok(match at {
            PageRequest::First => page(vec![1], None, None, Some("a")),
            PageRequest::After(c) if c == "a" => page(vec![2], None, None, Some("b")),
            _ => page(vec![3], None, None, None),
        })
    })
    .collect()
    .await;
    assert_eq!(out.len(), 3);
    assert!(out.iter().all(Result::is_ok));

    let out: Vec<_> = walk_cursor(|at| async move {
        Ok(match at {
            PageRequest::First => page(vec![1], None, None, Some("a")),
            _ => page(vec![2], None, None, Some("a")),
        })
    })
    .collect()
    .await;
    assert_eq!(out.len(), 3);
    assert_eq!(out[2], Err(ApiError::Pagination(REPEATED_CURSOR.into())));
}
