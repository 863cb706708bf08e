use super::*;

#[test]
fn a_manual_clock_moves_only_when_advanced_and_clones_share_it() {
    let c = Clock::manual();
    let t0 = c.now_ms();
    std::thread::sleep(Duration::from_millis(5));
    assert_eq!(c.now_ms(), t0);
    let shared = c.clone();
    shared.advance(Duration::from_millis(2500));
    assert_eq!(c.now_ms(), t0 + 2500);
}

#[test]
fn the_system_clock_ignores_advance() {
    let c = Clock::system();
    let t0 = c.now_ms();
    c.advance(Duration::from_secs(3600));
    assert!(c.now_ms() - t0 < 3_600_000);
}
