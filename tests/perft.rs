//! Every perft position of `positions/<variant>.perft`, every depth, for every game.

use thoat::core::game::perft;
use thoat::core::{suite, Game};
use thoat::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

fn check_suite<G: Game>() {
    let mut failures = Vec::new();
    for case in suite::cases(G::NAME) {
        let pos = G::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in &case.counts {
            let got = perft(&pos, depth);
            if got != expected {
                failures.push(format!(
                    "{} depth {depth}: expected {expected}, got {got}",
                    case.id
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} perft mismatches:\n{}",
        G::NAME,
        failures.join("\n")
    );
}

#[test]
fn chess_perft_suite() {
    check_suite::<Chess>();
}

#[test]
fn duck_perft_suite() {
    check_suite::<Duck>();
}

#[test]
fn chaturanga_perft_suite() {
    check_suite::<Chaturanga>();
}

#[test]
fn skak_perft_suite() {
    check_suite::<Skak>();
}

#[test]
fn jetan_perft_suite() {
    check_suite::<Jetan>();
}
