//! What a network sees of a position: one input per (piece kind, owner, square), from one
//! side's point of view — the owner is "ours" or "theirs", and for Black the board is mirrored
//! top to bottom (turned half round where the game's start is point-symmetric), so that both
//! sides look up the same weights — plus one input per square for
//! a neutral piece (the duck). Each game tells where its pieces stand
//! ([`NnueGame::for_each_piece`]); the numbering is here, once for all games.
//!
//! An input index is `((owner * kinds + kind) * height + rank) * width + file`, owner 0 for
//! the side whose view it is; the neutral piece's inputs follow all of those.

use crate::core::{Bits, Color, Game};

/// A piece on the board, as a network input sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardPiece {
    /// The game's kind number, below [`NnueGame::NNUE_KINDS`].
    pub kind: usize,
    /// Its owner; `None` for a neutral piece (the duck).
    pub owner: Option<Color>,
    /// File from 0 (the `a` file).
    pub file: u8,
    /// Rank from 0 (rank 1).
    pub rank: u8,
}

/// A game whose positions a network can evaluate.
pub trait NnueGame: Game {
    /// Piece kinds of each side.
    const NNUE_KINDS: usize;
    /// Whether a neutral piece (the duck) can stand on the board.
    const NNUE_NEUTRAL: bool = false;
    /// Whether Black sees the board turned half round rather than mirrored top to bottom:
    /// for a game whose start position is point-symmetric (chaturanga), so that both sides
    /// see the same start.
    const NNUE_HALF_TURN: bool = false;

    /// Calls `f` once for every piece on the board, neutral ones included.
    fn for_each_piece(&self, f: impl FnMut(BoardPiece));
}

/// Calls `f` for every piece of a board held as one set per kind (both colours) and one per
/// colour, squares numbered `rank * row + file` (`row` 8 for the 8x8 layout, which skak's 7x7
/// board uses too; 10 for jetan).
pub fn for_each_piece_in_sets<B: Bits>(
    kinds: &[B],
    colors: &[B; 2],
    row: u8,
    mut f: impl FnMut(BoardPiece),
) {
    for (kind, &set) in kinds.iter().enumerate() {
        for (color, owner) in [(colors[0], Color::White), (colors[1], Color::Black)] {
            for square in (set & color).squares() {
                f(BoardPiece {
                    kind,
                    owner: Some(owner),
                    file: square % row,
                    rank: square / row,
                });
            }
        }
    }
}

/// The number of inputs of game `G`'s networks.
pub const fn input_count<G: NnueGame>() -> usize {
    let squares = G::WIDTH as usize * G::HEIGHT as usize;
    2 * G::NNUE_KINDS * squares + if G::NNUE_NEUTRAL { squares } else { 0 }
}

/// The input index of `piece` from `view`'s side.
#[inline]
pub fn input_index<G: NnueGame>(piece: BoardPiece, view: Color) -> usize {
    let (width, height) = (G::WIDTH as usize, G::HEIGHT as usize);
    let (file, rank) = match view {
        Color::White => (piece.file as usize, piece.rank as usize),
        Color::Black if G::NNUE_HALF_TURN => (
            width - 1 - piece.file as usize,
            height - 1 - piece.rank as usize,
        ),
        Color::Black => (piece.file as usize, height - 1 - piece.rank as usize),
    };
    let square = rank * width + file;
    match piece.owner {
        Some(owner) => {
            let theirs = usize::from(owner != view);
            ((theirs * G::NNUE_KINDS + piece.kind) * height) * width + square
        }
        None => 2 * G::NNUE_KINDS * width * height + square,
    }
}

/// The active inputs of `position` from each side's view (`[white, black]`), sorted.
pub fn active_inputs<G: NnueGame>(position: &G, out: &mut [Vec<u16>; 2]) {
    out[0].clear();
    out[1].clear();
    position.for_each_piece(|piece| {
        out[0].push(input_index::<G>(piece, Color::White) as u16);
        out[1].push(input_index::<G>(piece, Color::Black) as u16);
    });
    out[0].sort_unstable();
    out[1].sort_unstable();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

    /// Every game: the inputs are in range, distinct, one per piece (counted in the start
    /// FEN), and symmetric: the colour-flipped position (`Game::color_flipped`, which is a
    /// half turn in chaturanga) seen from the other side has the same inputs.
    fn check<G: NnueGame>(fens: &[&str]) {
        for fen in fens {
            let position = G::from_fen(fen).unwrap();
            let mut inputs = [Vec::new(), Vec::new()];
            active_inputs(&position, &mut inputs);
            for view in &inputs {
                assert!(view.iter().all(|&i| (i as usize) < input_count::<G>()));
                assert!(
                    view.windows(2).all(|w| w[0] < w[1]),
                    "{fen}: distinct inputs"
                );
            }
            let mut flipped = [Vec::new(), Vec::new()];
            active_inputs(&position.color_flipped(), &mut flipped);
            assert_eq!(
                inputs[0], flipped[1],
                "{fen}: White's view = flipped Black's view"
            );
            assert_eq!(inputs[1], flipped[0], "{fen}");
        }
        let start = G::from_fen(G::START_FEN).unwrap();
        let mut inputs = [Vec::new(), Vec::new()];
        active_inputs(&start, &mut inputs);
        assert_eq!(inputs[0].len(), count_pieces(G::START_FEN), "{}", G::NAME);
    }

    #[test]
    fn inputs_of_every_game_are_distinct_in_range_and_mirrored() {
        assert_eq!(input_count::<Chess>(), 768);
        assert_eq!(input_count::<Chaturanga>(), 768);
        assert_eq!(input_count::<Duck>(), 768 + 64);
        assert_eq!(input_count::<Skak>(), 490);
        assert_eq!(input_count::<Jetan>(), 1600);
        check::<Chess>(&["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"]);
        check::<Duck>(&["rnbqkbnr/pppp1ppp/8/4p3/4P3/5*2/PPPP1PPP/RNBQKBNR w KQkq - 0 2"]);
        check::<Chaturanga>(&["r1bk1bnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBK1B1R w - - 2 3"]);
        check::<Skak>(&[Skak::START_FEN]);
        check::<Jetan>(&[Jetan::START_FEN]);
    }

    fn count_pieces(fen: &str) -> usize {
        fen.split_whitespace()
            .next()
            .unwrap_or("")
            .chars()
            .filter(|c| c.is_ascii_alphabetic() || *c == '*')
            .count()
    }

    #[test]
    fn the_duck_is_one_neutral_input_the_same_from_both_sides_but_mirrored() {
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5*2/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let position = Duck::from_fen(fen).unwrap();
        let mut inputs = [Vec::new(), Vec::new()];
        active_inputs(&position, &mut inputs);
        let neutral = 768;
        // The duck on f3: square 2 * 8 + 5 from White's side, f6 (5 * 8 + 5) from Black's.
        assert!(inputs[0].contains(&(neutral + 21)));
        assert!(inputs[1].contains(&(neutral + 45)));
        assert_eq!(inputs[0].len(), 33);
    }
}
