//! Checks of a game's static exchange evaluation that hold in every game (tests only).

use crate::core::rng::Rng;
use crate::search::SearchGame;

/// Over 24 seeded random games of up to 120 plies: for every tactical move, `see_ge` is
/// monotone over `thresholds` (sorted: true up to some threshold, false after it, true at the
/// first and false at the last), and more than 500 captures were checked.
pub fn assert_see_monotone_in_random_games<G: SearchGame>(seed: u64, thresholds: &[i32]) {
    let mut moves = Vec::new();
    let mut checked = 0;
    for game in 0..24 {
        let mut rng = Rng::new(seed, game);
        let mut pos = G::from_fen(G::START_FEN).unwrap_or_else(|e| panic!("{e}"));
        for _ply in 0..120 {
            pos.generate(&mut moves);
            if moves.is_empty() || pos.ended().is_some() || pos.rule_draw().is_some() {
                break;
            }
            for &mv in moves.iter().filter(|&&m| pos.is_tactical(m)) {
                let results: Vec<bool> = thresholds.iter().map(|&t| pos.see_ge(mv, t)).collect();
                let first_false = results.iter().position(|&r| !r).unwrap_or(results.len());
                assert!(
                    first_false > 0 && results[first_false..].iter().all(|&r| !r),
                    "not monotone: {} {}",
                    pos.fen(),
                    pos.move_text(mv)
                );
                assert!(!results[results.len() - 1]);
                checked += 1;
            }
            let mv = moves[rng.below(moves.len())];
            pos.play(mv);
        }
    }
    assert!(checked > 500, "only {checked} captures checked");
}
