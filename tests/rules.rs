//! Independent checks of every game's rules, through the `Game` trait only:
//! FEN round trip, colour-flip symmetry of perft, incremental hash equals recomputed hash,
//! move text round trip, random games played to their end, and move parsing against a
//! reading of every legal move's text.

use std::collections::HashMap;
use thoat::core::game::{parse_move, perft, GameState};
use thoat::core::rng::Rng;
use thoat::core::{split_move_squares, square_name, Game, Move};
use thoat::variants::perft_cases;

/// The largest perft (by the suite's own count) used for the colour-flip comparison.
const FLIP_NODE_LIMIT: u64 = 2_000_000;

fn fen_round_trip<G: Game>() {
    for case in perft_cases(G::NAME) {
        let pos = G::from_fen(&case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        let fen = pos.fen();
        let again = G::from_fen(&fen).unwrap_or_else(|e| panic!("{}: reparse {fen}: {e}", case.id));
        assert_eq!(again.fen(), fen, "{}", case.id);
        assert_eq!(again.hash(), pos.hash(), "{}", case.id);
    }
    let start = G::from_fen(G::START_FEN).expect("start FEN parses");
    assert_eq!(start.fen(), G::START_FEN);
}

fn color_flip_symmetry<G: Game>() {
    for case in perft_cases(G::NAME) {
        let pos = G::from_fen(&case.fen).unwrap();
        let flipped = pos.color_flipped();
        assert_ne!(flipped.side_to_move(), pos.side_to_move());
        let back = flipped.color_flipped();
        assert_eq!(back.fen(), pos.fen(), "{}: flip twice", case.id);
        let reparsed = G::from_fen(&flipped.fen()).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        for &(depth, expected) in case.counts.iter().filter(|c| c.1 <= FLIP_NODE_LIMIT) {
            assert_eq!(
                perft(&reparsed, depth),
                expected,
                "{} flipped, depth {depth}",
                case.id
            );
        }
    }
}

/// The FENs of the game's perft suite and its start position.
fn suite_and_start_fens<G: Game>() -> Vec<String> {
    let mut fens: Vec<String> = perft_cases(G::NAME).into_iter().map(|c| c.fen).collect();
    fens.push(G::START_FEN.to_string());
    fens
}

/// Plays random games from every suite position and the start, checking the hash and the
/// move text at every step; returns the number of plies played.
fn random_games<G: Game>(games_per_position: usize, max_plies: usize) -> usize {
    let mut rng = Rng::from_state(0x7E57_u64 ^ G::NAME.len() as u64);
    let fens = suite_and_start_fens::<G>();
    let mut plies = 0;
    let mut moves = Vec::new();
    for fen in &fens {
        for _ in 0..games_per_position {
            let mut game = GameState::new(G::from_fen(fen).unwrap());
            for _ in 0..max_plies {
                if game.result().is_some() {
                    break;
                }
                game.position.generate(&mut moves);
                assert!(
                    !moves.is_empty(),
                    "result() said the game goes on: {}",
                    game.position.fen()
                );
                let mv: Move = moves[rng.below(moves.len())];
                let text = game.position.move_text(mv);
                assert_eq!(
                    parse_move(&game.position, &text),
                    Ok(mv),
                    "move text {text} in {}",
                    game.position.fen()
                );
                game.play(mv);
                plies += 1;
                let pos = &game.position;
                assert_eq!(
                    pos.hash(),
                    pos.recompute_hash(),
                    "incremental hash after {text}: {}",
                    pos.fen()
                );
                let reparsed =
                    G::from_fen(&pos.fen()).unwrap_or_else(|e| panic!("{}: {e}", pos.fen()));
                assert_eq!(reparsed.fen(), pos.fen());
                assert_eq!(
                    reparsed.hash(),
                    pos.hash(),
                    "hash after FEN round trip: {}",
                    pos.fen()
                );
            }
        }
    }
    plies
}

/// What `parse_move` answers, found the slow way: a malformed text is refused as before,
/// anything else is looked up among the texts of all legal moves (the first in generation
/// order wins).
fn parse_by_every_text<G: Game>(
    pos: &G,
    first_with_text: &HashMap<String, Move>,
    text: &str,
) -> Result<Move, String> {
    if text.len() > 16 || split_move_squares(text, G::WIDTH, G::HEIGHT).is_none() {
        return Err(format!("malformed move '{}'", text.escape_debug()));
    }
    first_with_text
        .get(text)
        .copied()
        .ok_or_else(|| format!("illegal move '{text}' in {}", pos.fen()))
}

/// Texts near a legal move's `text`: its from square, its to square or its last square
/// (the duck's in duck chess) replaced by every square, its rest dropped or replaced by a
/// letter, a letter added. Most are illegal; a few are other legal moves.
fn near_texts<G: Game>(text: &str) -> Vec<String> {
    let Some((from, to, rest)) = split_move_squares(text, G::WIDTH, G::HEIGHT) else {
        return Vec::new();
    };
    let name = |(file, rank): (u8, u8)| square_name(file, rank);
    let (from, to) = (name(from), name(to));
    let mut out = vec![format!("{text}q"), format!("{from}{to}")];
    for letter in ["q", "r", "b", "n", "k", "x"] {
        out.push(format!("{from}{to}{letter}"));
    }
    for file in 0..G::WIDTH {
        for rank in 0..G::HEIGHT {
            let square = square_name(file, rank);
            out.push(format!("{square}{to}{rest}"));
            out.push(format!("{from}{square}{rest}"));
            if let Some((head, _)) = rest.rsplit_once(',') {
                out.push(format!("{from}{to}{head},{to}{square}"));
            }
        }
    }
    out
}

/// `parse_move` gives the same answer (the same move, or the same error text) as reading
/// the text of every legal move, for every legal move's text and for texts near some of
/// them, in the suite positions and along short random games from them. Returns the number
/// of texts compared.
fn parse_move_equals_reading_every_text<G: Game>() -> usize {
    let mut rng = Rng::new(0x7A27, G::NAME.len() as u64);
    let fens = suite_and_start_fens::<G>();
    let mut moves = Vec::new();
    let mut compared = 0;
    for fen in &fens {
        let mut pos = G::from_fen(fen).unwrap();
        for _ in 0..4 {
            pos.generate(&mut moves);
            let mut first_with_text = HashMap::new();
            for &mv in &moves {
                first_with_text.entry(pos.move_text(mv)).or_insert(mv);
            }
            let mut texts: Vec<String> = first_with_text.keys().cloned().collect();
            for _ in 0..2.min(moves.len()) {
                let mv = *rng.pick(&moves);
                texts.extend(near_texts::<G>(&pos.move_text(mv)));
            }
            for text in &texts {
                assert_eq!(
                    parse_move(&pos, text),
                    parse_by_every_text(&pos, &first_with_text, text),
                    "{text} in {}",
                    pos.fen()
                );
            }
            compared += texts.len();
            if moves.is_empty() {
                break;
            }
            pos.play(*rng.pick(&moves));
        }
    }
    compared
}

/// The same tests for every game of the list, in a module named after it (`chess::...`).
macro_rules! game_tests {
    ({} $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        $(
            mod $module {
                use super::*;
                type G = thoat::variants::$Type;

                #[test]
                fn fen_round_trip() {
                    super::fen_round_trip::<G>();
                }

                #[test]
                fn color_flip_symmetry() {
                    super::color_flip_symmetry::<G>();
                }

                #[test]
                fn random_games_keep_hash_and_move_text() {
                    let plies = super::random_games::<G>(20, 200);
                    assert!(plies > 1000, "only {plies} plies played");
                }

                #[test]
                fn parse_move_equals_reading_every_text() {
                    let compared = super::parse_move_equals_reading_every_text::<G>();
                    assert!(compared > 5000, "only {compared} texts compared");
                }

                #[test]
                fn garbage_moves_are_rejected() {
                    let pos = G::from_fen(G::START_FEN).unwrap();
                    for text in [
                        "", "e2", "zz", "a0a1", "a1a1", "e2e4x", "k11k12", "e2e4,", "ä1ä2", "1e2e",
                    ] {
                        assert!(parse_move(&pos, text).is_err(), "{text} accepted");
                    }
                }
            }
        )+
    };
}

thoat::for_each_game!((game_tests) {});
