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

macro_rules! suite_tests {
    ($($name:ident: $G:ty),* $(,)?) => {$(
        #[test]
        fn $name() {
            check_suite::<$G>();
        }
    )*};
}

suite_tests!(
    chess_perft_suite: Chess,
    duck_perft_suite: Duck,
    chaturanga_perft_suite: Chaturanga,
    skak_perft_suite: Skak,
    jetan_perft_suite: Jetan,
);
