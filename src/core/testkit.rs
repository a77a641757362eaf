//! Helpers for the unit tests of the games (`src/variants/*/tests.rs` and the SEE tests): a
//! position from its FEN, move lists as sorted texts, moves played by their text, random
//! games, and the comparison of a game's move generator with its slow reference generator.

use super::game::{parse_move, perft};
use super::rng::Rng;
use super::suite::PerftCase;
use super::{Game, GameResult, GameState, Move};
use crate::variants::perft_cases;
use std::fmt::Debug;

/// The position of `fen`; panics with the FEN and the reason when the game refuses it.
pub fn pos<G: Game>(fen: &str) -> G {
    G::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// The legal moves of `p`, in generation order.
pub fn moves_of<G: Game>(p: &G) -> Vec<Move> {
    let mut moves = Vec::new();
    p.generate(&mut moves);
    moves
}

/// The texts of the legal moves of `p`, sorted.
pub fn texts<G: Game>(p: &G) -> Vec<String> {
    let mut texts: Vec<String> = moves_of(p).into_iter().map(|m| p.move_text(m)).collect();
    texts.sort();
    texts
}

/// `list` as owned strings, sorted: what [`texts`] is compared with.
pub fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// Asserts that the legal moves of `p` are `expected` (in any order), and that the bulk
/// count agrees with the list.
pub fn assert_moves<G: Game>(p: &G, expected: &[&str]) {
    assert_eq!(texts(p), sorted(expected), "{}", p.fen());
    assert_count_agrees(p);
}

/// The texts of the legal moves of `p` from the square named `from`, sorted.
pub fn texts_from<G: Game>(p: &G, from: &str) -> Vec<String> {
    texts(p)
        .into_iter()
        .filter(|t| t.starts_with(from))
        .collect()
}

/// Asserts that the legal moves of `p` from the square named `from` are `expected` (in any
/// order).
pub fn assert_moves_from<G: Game>(p: &G, from: &str, expected: &[&str]) {
    assert_eq!(
        texts_from(p, from),
        sorted(expected),
        "{} from {from}",
        p.fen()
    );
}

/// Asserts that the null move of `fen` gives the turn to the other side and keeps the hash
/// exact.
pub fn assert_null_move_is_exact<G: crate::search::SearchGame>(fen: &str) {
    let position: G = pos(fen);
    let passed = position.null_move().expect("a null move");
    assert_eq!(
        passed.side_to_move(),
        position.side_to_move().flip(),
        "{fen}"
    );
    assert_eq!(passed.hash(), passed.recompute_hash(), "{fen}");
}

/// Asserts that [`crate::search::SearchGame::gives_check`] answers for every legal move of
/// `p` as playing the move does; returns how many of them give check.
pub fn assert_gives_check_is_exact<G: crate::search::SearchGame>(p: &G) -> usize {
    let mut checks = 0;
    for mv in moves_of(p) {
        let mut child = p.clone();
        child.play(mv);
        let expected = child.in_check();
        assert_eq!(
            p.gives_check(mv),
            expected,
            "{} {}",
            p.fen(),
            p.move_text(mv)
        );
        checks += usize::from(expected);
    }
    checks
}

/// The legal move of `p` whose text is `text`; panics with [`parse_move`]'s error if none.
pub fn legal<G: Game>(p: &G, text: &str) -> Move {
    parse_move(p, text).unwrap_or_else(|e| panic!("{e}"))
}

/// Asserts that the side to move in `p` has no legal move (none listed, none counted), that
/// no move before ended the game, and that the game's result is `expected`.
pub fn assert_no_moves_result<G: Game>(p: &G, expected: GameResult) {
    assert_eq!(moves_of(p), Vec::new(), "{}", p.fen());
    assert_eq!(p.count_moves(&mut Vec::new()), 0, "{}", p.fen());
    assert_eq!(p.ended(), None, "{}", p.fen());
    assert_eq!(p.no_moves_result(), expected, "{}", p.fen());
    assert_eq!(
        GameState::new(p.clone()).result(),
        Some(expected),
        "{}",
        p.fen()
    );
}

/// Asserts that `p` with the colours exchanged (and the board mirrored) is `flipped_fen`,
/// and that both have the same perft at every depth up to `depth`.
pub fn assert_color_flip<G: Game>(p: &G, flipped_fen: &str, depth: u32) {
    let f = p.color_flipped();
    assert_eq!(f.fen(), flipped_fen);
    for d in 1..=depth {
        assert_eq!(perft(p, d), perft(&f, d), "{} depth {d}", p.fen());
    }
}

/// Asserts that the game refuses every FEN of `fens`.
pub fn assert_refused<G: Game>(fens: &[&str]) {
    for fen in fens {
        assert!(G::from_fen(fen).is_err(), "accepted: '{fen}'");
    }
}

/// Every count of the game's perft suite as (position, depth, nodes), in file order.
pub fn suite_counts(game: &str) -> Vec<(PerftCase, u32, u64)> {
    let mut out = Vec::new();
    for case in perft_cases(game) {
        for &(depth, nodes) in &case.counts {
            out.push((case.clone(), depth, nodes));
        }
    }
    out
}

/// `p` after the moves `texts`, each one a legal move where it is played.
pub fn after<G: Game>(p: &G, texts: &[&str]) -> G {
    let mut p = p.clone();
    for text in texts {
        let mv = legal(&p, text);
        p.play(mv);
    }
    p
}

/// A FEN field of flags (castling, leap or escape rights): the letter of each flag that is
/// set, in order, or `-` when none is.
pub fn flags_field(flags: &[bool], letters: &str) -> String {
    let field: String = letters
        .chars()
        .zip(flags)
        .filter_map(|(letter, &set)| set.then_some(letter))
        .collect();
    if field.is_empty() {
        "-".to_string()
    } else {
        field
    }
}

/// A random game from `start` of at most `plies` moves: `visit(position, its legal moves)`
/// is called on every position reached, then one of the moves, drawn by `rng.below`, is
/// played. It ends after a position without moves or where `visit` returns false. Returns
/// the number of moves played.
pub fn random_game<G: Game>(
    start: G,
    plies: usize,
    rng: &mut Rng,
    mut visit: impl FnMut(&G, &[Move]) -> bool,
) -> usize {
    let mut p = start;
    let mut moves = Vec::new();
    for played in 0..plies {
        p.generate(&mut moves);
        if !visit(&p, &moves) || moves.is_empty() {
            return played;
        }
        p.play(moves[rng.below(moves.len())]);
    }
    plies
}

/// `games` random games ([`random_game`]) of at most `plies` moves from the start position,
/// game `i` drawn by `Rng::new(seed, i)`.
pub fn random_games_from_start<G: Game>(
    seed: u64,
    games: u64,
    plies: usize,
    mut visit: impl FnMut(&G, &[Move]) -> bool,
) {
    for game in 0..games {
        let mut rng = Rng::new(seed, game);
        random_game(pos::<G>(G::START_FEN), plies, &mut rng, &mut visit);
    }
}

/// Asserts that the fast generator's list and the reference generator's hold the same
/// entries (as many times each, in any order). On a difference it names `fen` and up to five
/// entries only one side has.
pub fn assert_same_moves<T: Ord + Debug>(fen: &str, mut fast: Vec<T>, mut reference: Vec<T>) {
    fast.sort();
    reference.sort();
    if fast != reference {
        let extra: Vec<&T> = fast
            .iter()
            .filter(|m| !reference.contains(m))
            .take(5)
            .collect();
        let missing: Vec<&T> = reference
            .iter()
            .filter(|m| !fast.contains(m))
            .take(5)
            .collect();
        panic!(
            "{fen}: {} moves, the reference {}; extra {extra:?}, missing {missing:?}",
            fast.len(),
            reference.len()
        );
    }
}

/// Asserts that [`Game::count_moves`] counts the moves [`Game::generate`] lists.
pub fn assert_count_agrees<G: Game>(p: &G) {
    assert_eq!(
        p.count_moves(&mut Vec::new()),
        moves_of(p).len() as u64,
        "{}",
        p.fen()
    );
}
