//! What a network sees of a position: one input per (piece kind, owner, square), from one
//! side's point of view — the owner is "ours" or "theirs", and for Black the board is mirrored
//! top to bottom (turned half round where the game's start is point-symmetric), so that both
//! sides look up the same weights — plus one input per square for
//! a neutral piece (the duck). Each game tells where its pieces stand
//! ([`NnueGame::for_each_piece`]); the numbering is here, once for all games.
//!
//! An input index is `((owner * kinds + kind) * height + rank) * width + file`, owner 0 for
//! the side whose view it is; the neutral piece's inputs follow all of those.

use super::FileSetting;
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
    /// The kind of each side's king (king, Jarkhan or Chief): with the
    /// [`InputLayout::KingMirrored`] layout, its file says whether a view is mirrored.
    const NNUE_KING: usize;

    /// Calls `f` once for every piece on the board, neutral ones included.
    fn for_each_piece(&self, f: impl FnMut(BoardPiece));

    /// The active inputs of each view (`[white, black]`): [`input_sets_of_pieces`]. A game on
    /// an 8x8 board held in `u64` sets overrides this with [`input_sets_of_boards`], which is
    /// the same sets without visiting a piece.
    #[inline]
    fn input_sets(&self) -> [InputSet; 2] {
        input_sets_of_pieces(self)
    }

    /// Whether this position is worth the same as its mirror image left to right: the
    /// game's rules are the same on both wings and no right of the position (castling)
    /// tells them apart. The trainer may then learn from the mirror image too
    /// (`thoat train --mirror`).
    fn mirror_symmetric(&self) -> bool {
        false
    }
}

/// Input `i` of the position mirrored left to right (file `f` becomes `width - 1 - f`): every
/// block of the numbering starts on a multiple of the board's width, so only the file part
/// of the index changes.
#[inline]
pub fn mirrored_input<G: NnueGame>(i: usize) -> usize {
    let width = G::WIDTH as usize;
    let file = i % width;
    i - file + (width - 1 - file)
}

/// The active inputs of each view (`[white, black]`), piece by piece
/// ([`NnueGame::for_each_piece`]).
#[inline]
pub fn input_sets_of_pieces<G: NnueGame>(position: &G) -> [InputSet; 2] {
    let mut sets = [InputSet::EMPTY; 2];
    position.for_each_piece(|piece| {
        sets[0].insert(input_index::<G>(piece, Color::White));
        sets[1].insert(input_index::<G>(piece, Color::Black));
    });
    sets
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

/// The input sets of a game `G` on an 8x8 board held as one `u64` per kind (both colours),
/// one per colour and the neutral piece's (0 if none), squares `rank * 8 + file`. With 64
/// squares, each (owner, kind) of the numbering is one word of the set and the word is the
/// board itself: White's view is the boards as they are, Black's the boards mirrored top to
/// bottom (`swap_bytes`) or turned half round (`reverse_bits`). The evaluation asks for
/// these sets at every node; this way they cost a few dozen instructions.
#[inline]
pub fn input_sets_of_boards<G: NnueGame>(
    kinds: &[u64],
    colors: &[u64; 2],
    neutral: u64,
) -> [InputSet; 2] {
    const { assert!(G::WIDTH == 8 && G::HEIGHT == 8) };
    debug_assert_eq!(kinds.len(), G::NNUE_KINDS);
    let black_view = |board: u64| {
        if G::NNUE_HALF_TURN {
            board.reverse_bits()
        } else {
            board.swap_bytes()
        }
    };
    let n = G::NNUE_KINDS;
    let mut sets = [InputSet::EMPTY; 2];
    for (kind, &board) in kinds.iter().enumerate() {
        let [white, black] = [board & colors[0], board & colors[1]];
        sets[0].words[kind] = white;
        sets[0].words[n + kind] = black;
        sets[1].words[kind] = black_view(black);
        sets[1].words[n + kind] = black_view(white);
    }
    if G::NNUE_NEUTRAL {
        sets[0].words[2 * n] = neutral;
        sets[1].words[2 * n] = black_view(neutral);
    }
    sets
}

/// How a network's inputs are drawn from the board, beyond the pieces' squares (the file's
/// `THOATNN4` header names it; older files are [`InputLayout::Plain`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputLayout {
    /// Every piece on its square, as each side sees it.
    #[default]
    Plain,
    /// The same, but a view whose own king stands on the left half of the board (files `a`
    /// to `d` on 8 files; a middle file counts as the right) sees the board mirrored left to
    /// right: each view always sees its king on the right half. A position and its mirror
    /// image then have the same inputs, and a network's weights need not learn each
    /// king-side pattern twice (Stockfish's "horizontal mirroring").
    KingMirrored,
}

impl FileSetting for InputLayout {
    const ALL: &'static [Self] = &[InputLayout::Plain, InputLayout::KingMirrored];
    const NAMES: &'static [&'static str] = &["plain", "king-mirrored"];
    const WHAT: &'static str = "input layout";

    fn code(self) -> u32 {
        match self {
            InputLayout::Plain => 0,
            InputLayout::KingMirrored => 1,
        }
    }
}

impl std::fmt::Display for InputLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for InputLayout {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::from_name(s)
    }
}

/// The active inputs of `position` in `layout`, from each side's view (`[white, black]`):
/// [`active_input_sets`], with each view mirrored left to right where the layout says.
#[inline]
pub fn layout_input_sets<G: NnueGame>(position: &G, layout: InputLayout) -> [InputSet; 2] {
    let mut sets = active_input_sets(position);
    if layout == InputLayout::KingMirrored {
        for set in &mut sets {
            if king_on_left::<G>(set) {
                *set = mirrored_set::<G>(set);
            }
        }
    }
    sets
}

/// Whether the view `set`'s own king stands on the left half of the board (none: no).
#[inline]
fn king_on_left<G: NnueGame>(set: &InputSet) -> bool {
    let (width, squares) = (G::WIDTH as usize, G::WIDTH as usize * G::HEIGHT as usize);
    let king = G::NNUE_KING * squares;
    let found = if squares == 64 {
        // The 8x8 layout: the own king's inputs are one whole word.
        let word = set.words[G::NNUE_KING];
        (word != 0).then(|| king + word.trailing_zeros() as usize)
    } else {
        set.iter().find(|&i| (king..king + squares).contains(&i))
    };
    found.is_some_and(|i| i % width < width / 2)
}

/// The set of the board mirrored left to right ([`mirrored_input`] for every input).
#[inline]
fn mirrored_set<G: NnueGame>(set: &InputSet) -> InputSet {
    if G::WIDTH == 8 && G::HEIGHT == 8 {
        // Every block of 64 inputs is one word and each byte a rank, bit 0 the `a` file:
        // reversing the bits mirrors both ways, swapping the bytes back puts the ranks back.
        let mut mirrored = *set;
        for word in &mut mirrored.words {
            *word = word.reverse_bits().swap_bytes();
        }
        mirrored
    } else {
        let mut mirrored = InputSet::EMPTY;
        for i in set.iter() {
            mirrored.insert(mirrored_input::<G>(i));
        }
        mirrored
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

/// Words of an [`InputSet`]: room for jetan's 1600 inputs, the most of any game.
pub const INPUT_SET_WORDS: usize = 25;

/// The active inputs of one view as a bit set (bit `i % 64` of word `i / 64` for input `i`).
/// Two sets compared word by word say what a move changed, with no sorting and no rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputSet {
    words: [u64; INPUT_SET_WORDS],
}

impl InputSet {
    /// No input active.
    pub const EMPTY: InputSet = InputSet {
        words: [0; INPUT_SET_WORDS],
    };

    /// Marks input `i` active.
    #[inline]
    pub fn insert(&mut self, i: usize) {
        self.words[i / 64] |= 1 << (i % 64);
    }

    /// The words that hold inputs below `inputs`.
    #[inline]
    pub fn words(&self, inputs: usize) -> &[u64] {
        &self.words[..inputs.div_ceil(64)]
    }

    /// How many of the inputs below `inputs` are in one set and not the other: the columns
    /// an accumulator update from one to the other adds or takes away.
    #[inline]
    pub fn distance(&self, other: &InputSet, inputs: usize) -> u32 {
        self.words(inputs)
            .iter()
            .zip(other.words(inputs))
            .map(|(a, b)| (a ^ b).count_ones())
            .sum()
    }

    /// How many of the inputs below `inputs` are active.
    #[inline]
    pub fn count(&self, inputs: usize) -> usize {
        self.words(inputs)
            .iter()
            .map(|w| w.count_ones() as usize)
            .sum()
    }

    /// The active inputs, ascending.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.words.iter().enumerate().flat_map(|(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let i = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    i
                })
            })
        })
    }
}

/// The active inputs of `position` from each side's view (`[white, black]`).
#[inline]
pub fn active_input_sets<G: NnueGame>(position: &G) -> [InputSet; 2] {
    const { assert!(input_count::<G>() <= 64 * INPUT_SET_WORDS) };
    position.input_sets()
}

/// Active inputs of one view in `G`'s start position (its pieces): the piece count that
/// output buckets are scaled to.
pub fn start_active<G: NnueGame>() -> usize {
    G::from_fen(G::START_FEN).map_or(1, |start| {
        active_input_sets(&start)[0].count(input_count::<G>())
    })
}

/// The active inputs of `position` in `layout` from each side's view (`[white, black]`),
/// ascending.
pub fn active_inputs<G: NnueGame>(position: &G, layout: InputLayout, out: &mut [Vec<u16>; 2]) {
    for (list, set) in out.iter_mut().zip(layout_input_sets(position, layout)) {
        list.clear();
        list.extend(set.iter().map(|i| i as u16));
    }
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
            active_inputs(&position, InputLayout::Plain, &mut inputs);
            for view in &inputs {
                assert!(view.iter().all(|&i| (i as usize) < input_count::<G>()));
                assert!(
                    view.windows(2).all(|w| w[0] < w[1]),
                    "{fen}: distinct inputs"
                );
            }
            let mut flipped = [Vec::new(), Vec::new()];
            active_inputs(&position.color_flipped(), InputLayout::Plain, &mut flipped);
            assert_eq!(
                inputs[0], flipped[1],
                "{fen}: White's view = flipped Black's view"
            );
            assert_eq!(inputs[1], flipped[0], "{fen}");
        }
        let start = G::from_fen(G::START_FEN).unwrap();
        let mut inputs = [Vec::new(), Vec::new()];
        active_inputs(&start, InputLayout::Plain, &mut inputs);
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

    /// The sets differ by exactly the inputs a move changes: two for a quiet move, three for
    /// a capture, four for castling (from each side's view), and list their inputs ascending.
    #[test]
    fn input_sets_differ_by_the_inputs_a_move_changes() {
        use crate::core::game::parse_move;
        let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        let position = Chess::from_fen(fen).unwrap();
        let before = active_input_sets(&position);
        for (text, changed) in [("a2a3", 2), ("e5f7", 3), ("e1g1", 4)] {
            let mut child = position.clone();
            child.play(parse_move(&position, text).unwrap());
            let after = active_input_sets(&child);
            for view in 0..2 {
                assert_eq!(before[view].distance(&after[view], 768), changed, "{text}");
            }
        }
        let listed: Vec<usize> = before[0].iter().collect();
        assert_eq!(listed.len(), 32);
        assert!(listed.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(before[0].distance(&InputSet::EMPTY, 768), 32);
    }

    /// The sets of an 8x8 game's boards are those its pieces give, one by one, along
    /// random games.
    fn board_sets_equal_piece_sets<G: NnueGame>(seed: u64) {
        crate::core::testkit::random_games_from_start::<G>(seed, 20, 120, |position, _| {
            let by_piece = input_sets_of_pieces(position);
            assert_eq!(position.input_sets(), by_piece, "{}", position.fen());
            true
        });
    }

    #[test]
    fn the_sets_of_boards_are_the_sets_of_their_pieces() {
        board_sets_equal_piece_sets::<Chess>(1);
        board_sets_equal_piece_sets::<Duck>(2);
        board_sets_equal_piece_sets::<Chaturanga>(3);
    }

    #[test]
    fn the_duck_is_one_neutral_input_the_same_from_both_sides_but_mirrored() {
        let fen = "rnbqkbnr/pppp1ppp/8/4p3/4P3/5*2/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
        let position = Duck::from_fen(fen).unwrap();
        let mut inputs = [Vec::new(), Vec::new()];
        active_inputs(&position, InputLayout::Plain, &mut inputs);
        let neutral = 768;
        // The duck on f3: square 2 * 8 + 5 from White's side, f6 (5 * 8 + 5) from Black's.
        assert!(inputs[0].contains(&(neutral + 21)));
        assert!(inputs[1].contains(&(neutral + 45)));
        assert_eq!(inputs[0].len(), 33);
    }

    /// King-mirrored views: a view is the plain one when its king stands on the right half,
    /// else the plain one mirrored input by input ([`mirrored_input`], which the 8x8 words'
    /// bit trick must equal); either way the view's king ends on the right half; and the
    /// colour-flipped position's views are the same, exchanged.
    fn king_mirrored_views<G: NnueGame>(seed: u64) {
        let (width, squares) = (G::WIDTH as usize, G::WIDTH as usize * G::HEIGHT as usize);
        let mut mirrored_views = 0;
        crate::core::testkit::random_games_from_start::<G>(seed, 10, 120, |position, _| {
            let plain = active_input_sets(position);
            let sets = layout_input_sets(position, InputLayout::KingMirrored);
            for (plain, set) in plain.iter().zip(&sets) {
                let mut by_input = InputSet::EMPTY;
                for i in plain.iter() {
                    by_input.insert(mirrored_input::<G>(i));
                }
                let expected = if king_on_left::<G>(plain) {
                    mirrored_views += 1;
                    by_input
                } else {
                    *plain
                };
                assert_eq!(*set, expected, "{}", position.fen());
                let king = G::NNUE_KING * squares;
                if let Some(i) = set.iter().find(|&i| (king..king + squares).contains(&i)) {
                    assert!(i % width >= width / 2, "{}", position.fen());
                }
            }
            let flipped = layout_input_sets(&position.color_flipped(), InputLayout::KingMirrored);
            assert_eq!([sets[1], sets[0]], flipped, "{}", position.fen());
            true
        });
        assert!(mirrored_views > 0, "{}: no king ever went left", G::NAME);
    }

    #[test]
    fn king_mirrored_views_see_their_king_on_the_right_in_every_game() {
        king_mirrored_views::<Chess>(11);
        king_mirrored_views::<Duck>(12);
        king_mirrored_views::<Chaturanga>(13);
        king_mirrored_views::<Skak>(14);
        king_mirrored_views::<Jetan>(15);
    }

    /// Both kings on the left: the king-mirrored inputs are the plain inputs of the
    /// position drawn mirrored by hand.
    #[test]
    fn king_mirrored_inputs_of_kings_on_the_left_are_the_mirror_images() {
        let sets = |fen: &str, layout| layout_input_sets(&Chess::from_fen(fen).unwrap(), layout);
        let left = "2k5/1p6/8/8/8/8/1P6/2K4R w - - 0 1";
        let right = "5k2/6p1/8/8/8/8/6P1/R4K2 w - - 0 1";
        assert_eq!(
            sets(left, InputLayout::KingMirrored),
            sets(right, InputLayout::Plain)
        );
        assert_eq!(
            sets(right, InputLayout::KingMirrored),
            sets(right, InputLayout::Plain)
        );
        assert_ne!(
            sets(left, InputLayout::Plain),
            sets(right, InputLayout::Plain)
        );
    }

    #[test]
    fn file_settings_read_back_by_name_and_code() {
        for layout in [InputLayout::Plain, InputLayout::KingMirrored] {
            assert_eq!(layout.to_string().parse::<InputLayout>(), Ok(layout));
            assert_eq!(InputLayout::from_code(layout.code()), Some(layout));
        }
        assert_eq!(
            "mirrored".parse::<InputLayout>(),
            Err("unknown input layout \"mirrored\" (plain or king-mirrored)".to_string())
        );
        assert_eq!(InputLayout::from_code(2), None);
        assert_eq!(
            InputLayout::read_code(2),
            Err("input layout 2 is not supported (0 or 1)".to_string())
        );
        use crate::nnue::network::Activation;
        for activation in [Activation::Clipped, Activation::SquaredClipped] {
            assert_eq!(activation.to_string().parse::<Activation>(), Ok(activation));
            assert_eq!(Activation::from_code(activation.code()), Some(activation));
        }
        assert_eq!(
            "screlu".parse::<Activation>(),
            Ok(Activation::SquaredClipped)
        );
        assert_eq!(
            "relu".parse::<Activation>(),
            Err("unknown activation \"relu\" (crelu or screlu)".to_string())
        );
    }
}
