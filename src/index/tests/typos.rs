//! Search quality: typos forgiven where it helps, and the ranking.

use super::*;

#[test]
fn a_word_within_a_typo_of_a_name_or_a_message_word_still_finds() {
    let mut ix = sample();
    ix.store_messages("c", Some(at(10)), &[message("I want a refund please")])
        .unwrap();
    assert_eq!(uuids(ix.search("lovelaec", 10).unwrap()), ["a"], "two letters swapped");
    assert_eq!(uuids(ix.search("refnud", 10).unwrap()), ["c"]);
    assert_eq!(uuids(ix.search("marly", 10).unwrap()), ["b"], "a letter left out");
    assert_eq!(
        uuids(ix.search("ada lovelaec", 10).unwrap()),
        ["a"],
        "with an exact word"
    );
    assert_eq!(uuids(ix.search("lovleac", 10).unwrap()), ["a"], "still being typed");
}

#[test]
fn typos_are_not_guessed_for_short_words_or_far_ones() {
    let ix = sample();
    assert!(
        ix.search("bbo", 10).unwrap().is_empty(),
        "three letters: too many neighbours"
    );
    assert!(ix.search("lxvxlxce", 10).unwrap().is_empty(), "three edits away");
    assert!(ix.search("ada zzzzzz", 10).unwrap().is_empty(), "every word must match");
}

#[test]
fn an_exact_hit_keeps_typo_hits_out_and_nearer_typos_rank_first() {
    let mut ix = sample();
    ix.upsert_contacts(&[contact("l", "Leo Lovelance", "+5", 50)], at(0))
        .unwrap();
    // Both are spelled differently from the query: the nearer (one swap)
    // comes first, though Leo's conversation is newer.
    assert_eq!(uuids(ix.search("lovelaec", 10).unwrap()), ["a", "l"]);
    // Spelled right: only the exact hit, no guess.
    assert_eq!(uuids(ix.search("lovelace", 10).unwrap()), ["a"]);
    let scores: Vec<f64> = ix.search("lovelaec", 10).unwrap().into_iter().map(|h| h.1).collect();
    assert!(scores[0] < scores[1], "{scores:?}");
}

#[test]
fn a_version_2_file_gets_its_typo_words_from_what_it_already_holds() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("v2.sqlite");
    {
        let mut ix = Index::open(&path).unwrap().index;
        ix.upsert_contacts(&[contact("a", "Ada Lovelace", "+1", 1)], at(0))
            .unwrap();
        // As a version-2 file: no words table (nor what came after it).
        ix.conn
            .execute_batch(
                "DROP TRIGGER search_terms_forget; DROP TABLE search_terms;
                 ALTER TABLE sync_state DROP COLUMN account;
                 ALTER TABLE sync_state DROP COLUMN checked_at; ALTER TABLE contacts DROP COLUMN state_at;
                 ALTER TABLE sync_state DROP COLUMN search_pending; ALTER TABLE messages DROP COLUMN wait;
                 PRAGMA user_version = 2;",
            )
            .unwrap();
    }
    let opened = Index::open(&path).unwrap();
    assert!(opened.warning.is_none(), "{:?}", opened.warning);
    assert_eq!(uuids(opened.index.search("lovelaec", 10).unwrap()), ["a"]);
}

#[test]
fn typo_words_are_forgotten_when_the_index_is_cleared() {
    let mut ix = sample();
    let n = |ix: &Index| -> i64 {
        ix.conn
            .query_row("SELECT count(*) FROM search_terms", [], |r| r.get(0))
            .unwrap()
    };
    assert!(n(&ix) > 0);
    ix.clear().unwrap();
    assert_eq!(n(&ix), 0, "a cleared index keeps no words of its customers");
}

/// Enough contacts that a word in every conversation is not ranked by
/// bm25 (more than 6,000 match): the tiers.
#[test]
fn a_word_in_most_conversations_ranks_name_then_other_fields_then_the_newest() {
    let mut ix = Index::in_memory().unwrap();
    let mut contacts = Vec::new();
    let mut threads = Vec::new();
    for i in 0..7_000 {
        let uuid = format!("c{i:05}");
        contacts.push(contact(&uuid, &format!("Person {i}"), "+1", 1_000 + i));
        threads.push((uuid, Some(at(1_000 + i)), vec![message("where is my refund")]));
    }
    // An old contact named after the word, and one tagged with it.
    contacts[10].name = "Refund Rita".into();
    contacts[20].tags = vec!["refunds".into()];
    // Stored newest first, as a sync walks them.
    contacts.reverse();
    ix.upsert_contacts(&contacts, at(0)).unwrap();
    ix.store_threads(&threads).unwrap();
    let hits = uuids(ix.search("refund", 5).unwrap());
    assert_eq!(hits, ["c00010", "c00020", "c06999", "c06998", "c06997"]);
    let scores: Vec<f64> = ix.search("refund", 5).unwrap().into_iter().map(|h| h.1).collect();
    assert!(scores.windows(2).all(|w| w[0] < w[1]), "{scores:?}");
    // A rare word is still ranked by bm25, name above message.
    ix.store_messages("c00001", Some(at(1_001)), &[message("ask Rita")])
        .unwrap();
    assert_eq!(uuids(ix.search("rita", 5).unwrap()), ["c00010", "c00001"]);
}

#[test]
fn a_phone_number_typed_from_its_start_finds_that_number_not_its_pieces_elsewhere() {
    let mut ix = sample();
    let mut dee = contact("d", "Dee", "+1 202 555 0199", 40);
    dee.note = Some("room 44, extension 7700, code 900123".into());
    ix.upsert_contacts(&[dee], at(0)).unwrap();
    assert_eq!(uuids(ix.search("+44 7700 900123", 10).unwrap()), ["a"]);
    // From the middle of a number the pieces still find both.
    let mut middle = uuids(ix.search("7700 900", 10).unwrap());
    middle.sort();
    assert_eq!(middle, ["a", "d"]);
}

/// More matches than the answer may hold: it says how many match in all
/// (ranked by tiers or by bm25, or found through a typo), and its hits are
/// those of a plain search.
#[test]
fn a_search_that_hits_its_limit_counts_every_match() {
    let mut ix = Index::in_memory().unwrap();
    let mut contacts = Vec::new();
    let mut threads = Vec::new();
    for i in 0..6_100 {
        let uuid = format!("c{i:05}");
        let mut c = contact(&uuid, &format!("Person {i}"), "+1", 1_000 + i);
        if i % 5 == 0 {
            c.tags = vec!["vip".into()];
        }
        contacts.push(c);
        threads.push((uuid, Some(at(1_000 + i)), vec![message("where is my refund")]));
    }
    ix.upsert_contacts(&contacts, at(0)).unwrap();
    ix.store_threads(&threads).unwrap();

    let common = ix.search_counted("refund", 200).unwrap();
    assert_eq!((common.hits.len(), common.total), (200, Some(6_100)));
    assert_eq!(common.hits, ix.search("refund", 200).unwrap(), "the same hits");
    let rarer = ix.search_counted("vip", 200).unwrap();
    assert_eq!((rarer.hits.len(), rarer.total), (200, Some(1_220)));
    assert_eq!(rarer.hits, ix.search("vip", 200).unwrap(), "the same hits");
    let typo = ix.search_counted("refnud", 200).unwrap();
    assert_eq!((typo.hits.len(), typo.total), (200, Some(6_100)));
    // Every match in the answer: nothing more to count.
    assert_eq!(ix.search_counted("vip", 2_000).unwrap().total, None);
    assert_eq!(ix.search_counted("zzzz", 200).unwrap(), Default::default());
}
