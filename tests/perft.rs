//! Every perft position of `positions/<variant>.perft`, every depth, for every game.

use thoat::core::game::perft;
use thoat::core::Game;
use thoat::variants::perft_cases;

fn check_suite<G: Game>() {
    let mut failures = Vec::new();
    for case in perft_cases(G::NAME) {
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

/// One test per game of the list (`perft_suite::chess`, ...), so that they run side by
/// side and a failure names its game.
macro_rules! suite_tests {
    ({} $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        $(
            #[test]
            fn $module() {
                super::check_suite::<thoat::variants::$Type>();
            }
        )+
    };
}

mod perft_suite {
    thoat::for_each_game!((suite_tests) {});
}
