//! Checks of the games' static exchange evaluations (tests only): what every game's SEE
//! must satisfy, an 8x8 mailbox reference SEE for chess and duck chess, and the exchange
//! played out by the legal moves for chaturanga and skak.

use super::chesslike::{BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK};
use super::swap_list::SwapList;
use crate::core::game::parse_move;
use crate::core::rng::Rng;
use crate::core::testkit::{self, random_games_from_start};
use crate::core::{Game, Move};
use crate::search::{SearchGame, PIECE_SLOTS};

/// Over 24 seeded random games of up to 120 plies: for every tactical move, `see_ge` is
/// monotone over `thresholds` (sorted: true up to some threshold, false after it, true at the
/// first and false at the last), and more than 500 captures were checked.
pub fn assert_see_monotone_in_random_games<G: SearchGame>(seed: u64, thresholds: &[i32]) {
    let mut checked = 0;
    random_games_from_start(seed, 24, 120, |pos: &G, moves| {
        if pos.ended().is_some() || pos.rule_draw().is_some() {
            return false;
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
        true
    });
    assert!(checked > 500, "only {checked} captures checked");
}

/// Asserts `moved_piece` for each (FEN, move text, slot the move must name).
pub fn assert_moved_pieces<G: SearchGame>(cases: &[(&str, &str, usize)]) {
    for &(fen, text, slot) in cases {
        let p: G = testkit::pos(fen);
        let mv = testkit::legal(&p, text);
        assert_eq!(p.moved_piece(mv), slot, "{fen} {text}");
    }
}

/// Asserts that every legal move of `fen` names the slot `slot(move)` as its moved piece, a
/// slot below [`PIECE_SLOTS`].
pub fn assert_every_moved_piece<G: SearchGame>(fen: &str, slot: impl Fn(Move) -> usize) {
    let p: G = testkit::pos(fen);
    for mv in testkit::moves_of(&p) {
        assert_eq!(p.moved_piece(mv), slot(mv), "{fen} {}", p.move_text(mv));
        assert!(p.moved_piece(mv) < PIECE_SLOTS);
    }
}

// ---------------------------------------------------------------- chaturanga and skak

/// Asserts `see_ge(move, threshold) == expected` for the move `text` in `fen`, and the same
/// for the colour-flipped position and the move `twin(mv)` there.
pub fn assert_see_and_flipped<G: SearchGame>(
    fen: &str,
    text: &str,
    threshold: i32,
    expected: bool,
    twin: impl Fn(Move) -> Move,
) {
    let pos: G = testkit::pos(fen);
    let mv = testkit::legal(&pos, text);
    assert_eq!(
        pos.see_ge(mv, threshold),
        expected,
        "{fen} {text} threshold {threshold}"
    );
    let flipped = pos.color_flipped();
    assert_eq!(
        flipped.see_ge(twin(mv), threshold),
        expected,
        "{} (flipped) threshold {threshold}",
        flipped.fen()
    );
}

/// An exchange worked out by hand: a FEN, a move's text, the exchange's exact value, and
/// more thresholds to ask at.
pub type ExactSee = (&'static str, &'static str, i32, &'static [i32]);

/// Asserts each exchange of `table` with [`assert_see_and_flipped`]: `see_ge` is true at
/// the value and false one above it, and at each further threshold true exactly where it is
/// at most the value.
pub fn assert_exact_table_and_flipped<G: SearchGame>(
    table: &[ExactSee],
    twin: impl Fn(Move) -> Move,
) {
    for &(fen, text, value, more) in table {
        assert_see_and_flipped::<G>(fen, text, value, true, &twin);
        assert_see_and_flipped::<G>(fen, text, value + 1, false, &twin);
        for &threshold in more {
            assert_see_and_flipped::<G>(fen, text, threshold, threshold <= value, &twin);
        }
    }
}

/// Thresholds to probe: every 7 from `-fine` to `fine`, every 500 out to the royal piece's
/// value and beyond, and the extremes; sorted.
pub fn thresholds(fine: i32, royal: i32) -> Vec<i32> {
    let mut t: Vec<i32> = (-fine..=fine).step_by(7).collect();
    t.extend((-24_000..=24_000).step_by(500));
    t.extend([i32::MIN, -royal, royal, i32::MAX]);
    t.sort_unstable();
    t
}

/// A game's material, for the exchange played out by the rules.
pub struct Material<G> {
    /// The value of the piece a move moves.
    pub mover: fn(&G, Move) -> i32,
    /// The value of the piece on a square (0 when it is empty).
    pub on: fn(&G, u8) -> i32,
    /// What a move gains by its promotion (0 for none).
    pub promotion: fn(Move) -> i32,
}

impl<G: Game> Material<G> {
    /// The exchange on `to` from `pos` by the rules themselves, for the side to move: it
    /// stops (0) or captures on `to` with its least valuable piece (the lowest square among
    /// equals), by the legal moves of the move generator. `moves` is scratch space.
    pub fn exchange(&self, pos: &G, to: u8, moves: &mut Vec<Move>) -> i32 {
        pos.generate(moves);
        let Some(mv) = moves
            .iter()
            .copied()
            .filter(|m| m.to() == to)
            .min_by_key(|&m| ((self.mover)(pos, m), m.from()))
        else {
            return 0;
        };
        0.max(self.capture(pos, mv, moves))
    }

    /// The value of `mv` followed by [`Material::exchange`] on its square.
    pub fn capture(&self, pos: &G, mv: Move, moves: &mut Vec<Move>) -> i32 {
        let gain = (self.on)(pos, mv.to()) + (self.promotion)(mv);
        let mut child = pos.clone();
        child.play(mv);
        gain - self.exchange(&child, mv.to(), moves)
    }
}

/// Along 40 random games of up to 150 plies from the start (seeded by `seed` and the game's
/// number; a game stops at a rule draw when `stop_at_rule_draw`), compares the SEE of every
/// legal move with [`Material::capture`]: `differs(position, move, value)` is called where
/// the SEE does not make the move worth exactly that value. Returns the number of moves
/// compared.
pub fn compare_with_the_rules<G: SearchGame>(
    seed: u64,
    stop_at_rule_draw: bool,
    material: &Material<G>,
    mut differs: impl FnMut(&G, Move, i32),
) -> usize {
    let mut scratch = Vec::new();
    let mut checked = 0;
    random_games_from_start(seed, 40, 150, |pos: &G, moves| {
        if stop_at_rule_draw && pos.rule_draw().is_some() {
            return false;
        }
        for &mv in moves {
            let value = material.capture(pos, mv, &mut scratch);
            checked += 1;
            let exact = pos.see_ge(mv, value) && !pos.see_ge(mv, value + 1);
            if !exact {
                differs(pos, mv, value);
            }
        }
        true
    });
    checked
}

// ---------------------------------------------------------------- chess and duck chess

/// An 8x8 board for the reference SEE: (colour, kind) per square (index rank * 8 + file),
/// kinds pawn 0 to king 5. A piece of a third colour (the duck) only blocks.
pub type Mailbox = [Option<(usize, usize)>; 64];

/// A piece of a third colour on the reference board: it only blocks (the duck).
const BLOCKER: Option<(usize, usize)> = Some((2, 6));

/// An independent reference SEE of a chess-like move: `board` is the position, `us` the
/// side to move, `mv` a legal move that is not castling (worth 0, which the caller knows).
/// `en_passant` and `promotion` say what the move is; `blocker` is where it puts a blocker
/// (duck chess's duck, which the board does not hold before the move). The capture of a
/// king ends it at once; the rest is [`mailbox_exchange`].
pub fn reference_see(
    mut board: Mailbox,
    us: usize,
    mv: Move,
    en_passant: bool,
    promotion: Option<usize>,
    blocker: Option<usize>,
    values: &[i32; 6],
) -> i32 {
    let (from, to) = (mv.from() as usize, mv.to() as usize);
    let mut mover = board[from].map_or(PAWN, |(_, kind)| kind);
    let mut gain = board[to].map_or(0, |(_, kind)| values[kind]);
    if en_passant {
        gain = values[PAWN];
        board[to ^ 8] = None;
    }
    if let Some(new) = promotion {
        mover = new;
        gain += values[new] - values[PAWN];
    }
    if board[to].is_some_and(|(_, kind)| kind == KING) {
        return gain;
    }
    board[from] = None;
    board[to] = Some((us, mover));
    if let Some(square) = blocker {
        board[square] = BLOCKER;
    }
    mailbox_exchange(&mut board, to, us ^ 1, gain, values)
}

/// The exchange on `to` of an independent reference SEE, once the first move is made on
/// `board` (its piece on `to`, `first_gain` what it won): `side` and the other side take
/// turns capturing with their least valuable attacker (the lowest square among equals),
/// found by walking rays; a pawn capturing on the last rank becomes a queen; the capture of
/// a king ends it; the classic list of gains resolved backwards, either side may stop.
/// Returns the value for the side that made the first move.
pub fn mailbox_exchange(
    board: &mut Mailbox,
    to: usize,
    mut side: usize,
    first_gain: i32,
    values: &[i32; 6],
) -> i32 {
    let mut swaps = SwapList::<40>::new(first_gain);
    while let Some(sq) = least_valuable_attacker(board, to, side) {
        let (_, kind) = board[sq].unwrap_or((side, PAWN));
        let last_rank = to / 8 == 0 || to / 8 == 7;
        let promoted = if kind == PAWN && last_rank {
            QUEEN
        } else {
            kind
        };
        let (_, on_square) = board[to].unwrap_or((side, PAWN));
        swaps.capture(values[on_square] + values[promoted] - values[kind]);
        if on_square == KING {
            break;
        }
        board[sq] = None;
        board[to] = Some((side, promoted));
        side ^= 1;
    }
    swaps.value()
}

fn least_valuable_attacker(board: &Mailbox, to: usize, side: usize) -> Option<usize> {
    (0..64)
        .filter(|&sq| sq != to)
        .filter_map(|sq| match board[sq] {
            Some((color, kind)) if color == side && attacks(board, sq, kind, to) => {
                Some((kind, sq))
            }
            _ => None,
        })
        .min()
        .map(|(_, sq)| sq)
}

/// Whether the piece of `kind` on `sq` attacks `to` on `board` (any piece blocks a ray).
fn attacks(board: &Mailbox, sq: usize, kind: usize, to: usize) -> bool {
    let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
    let (tf, tr) = ((to % 8) as i32, (to / 8) as i32);
    let (df, dr) = (tf - f, tr - r);
    let clear = || {
        let (sf, sr) = (df.signum(), dr.signum());
        let (mut cf, mut cr) = (f + sf, r + sr);
        while (cf, cr) != (tf, tr) {
            if board[(cr * 8 + cf) as usize].is_some() {
                return false;
            }
            cf += sf;
            cr += sr;
        }
        true
    };
    let diagonal = df.abs() == dr.abs() && df != 0;
    let straight = (df == 0) != (dr == 0);
    match kind {
        PAWN => {
            let forward = if board[sq].is_some_and(|(c, _)| c == 0) {
                1
            } else {
                -1
            };
            df.abs() == 1 && dr == forward
        }
        KNIGHT => (df.abs(), dr.abs()) == (1, 2) || (df.abs(), dr.abs()) == (2, 1),
        BISHOP => diagonal && clear(),
        ROOK => straight && clear(),
        QUEEN => (diagonal || straight) && clear(),
        _ => df.abs().max(dr.abs()) == 1,
    }
}

/// Exchanges worked out by hand: a FEN, a move's text, and `see_ge`'s answer at some
/// thresholds, as (threshold, expected) pairs.
pub type SeeCases = (&'static str, &'static str, &'static [(i32, bool)]);

/// Asserts each case of `table`: `see_ge(move, threshold) == expected`, and that the
/// `reference` SEE (where the game has one) agrees.
pub fn assert_see_table<G: SearchGame>(table: &[SeeCases], reference: Option<fn(&G, Move) -> i32>) {
    for &(fen, text, cases) in table {
        let p: G = testkit::pos(fen);
        let mv = parse_move(&p, text).unwrap_or_else(|e| panic!("{e}"));
        for &(threshold, expected) in cases {
            assert_eq!(
                p.see_ge(mv, threshold),
                expected,
                "{fen} {text} threshold {threshold}"
            );
            if let Some(reference) = reference {
                assert_eq!(
                    reference(&p, mv) >= threshold,
                    expected,
                    "reference: {fen} {text} threshold {threshold}"
                );
            }
        }
    }
}

/// The random-game check of a chess-like SEE (chess, duck chess): its game's facts.
pub struct ChessLikeSee<G> {
    /// Where the games start (in turn).
    pub starts: &'static [&'static str],
    /// The games, and the most plies of each.
    pub games: usize,
    pub plies: usize,
    /// Every quiet move whose index in the move list is a multiple of this is checked.
    pub quiet_every: usize,
    /// The step of the monotonicity check from -1000 to 1000.
    pub step: usize,
    /// Piece values by kind, pawn to king.
    pub values: [i32; 6],
    /// The piece kind a move moves (6: none).
    pub kind: fn(&G, Move) -> usize,
    /// The value of what a move captures.
    pub victim: fn(&G, Move) -> i32,
    /// The kind a move promotes to, if it promotes.
    pub promotion: fn(Move) -> Option<usize>,
    /// The reference SEE: the value of the exchange a move starts.
    pub reference: fn(&G, Move) -> i32,
}

impl<G: SearchGame> ChessLikeSee<G> {
    /// Along the random games (captures chosen two times in three), for every move checked:
    /// the moved piece, `see_ge` agreeing with the reference at and around its value, the
    /// answers monotone in the threshold; for tactical moves, nothing more than the victim
    /// and the promotion can be won, not more than the victim without a promotion, and the
    /// victim less the mover is always reached where an immediate recapture is all that
    /// threatens (no king moved, no last rank). Returns the number of tactical moves checked.
    pub fn check(&self, mut rng: Rng) -> usize {
        const LAST_RANKS: u64 = 0xff | 0xff << 56;
        let values = &self.values;
        let mut moves = Vec::new();
        let mut checked = 0;
        for game in 0..self.games {
            let mut p: G = testkit::pos(self.starts[game % self.starts.len()]);
            for _ in 0..self.plies {
                p.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                for (i, &mv) in moves.iter().enumerate() {
                    let tactical = p.is_tactical(mv);
                    if !tactical && i % self.quiet_every != 0 {
                        continue;
                    }
                    let kind = (self.kind)(&p, mv);
                    assert_eq!(p.moved_piece(mv), p.side_to_move().index() * 6 + kind);
                    assert!(p.moved_piece(mv) < PIECE_SLOTS);
                    let exact = (self.reference)(&p, mv);
                    let text = p.move_text(mv);
                    for t in [exact - 1, exact, exact + 1, -1, 0, 1] {
                        assert_eq!(p.see_ge(mv, t), exact >= t, "{} {text} {t}", p.fen());
                    }
                    let mut previous = true;
                    for t in (-1000..=1000).step_by(self.step) {
                        let now = p.see_ge(mv, t);
                        assert!(previous || !now, "not monotone: {} {text} {t}", p.fen());
                        previous = now;
                    }
                    if !tactical {
                        continue;
                    }
                    checked += 1;
                    let to_bit = 1u64 << mv.to();
                    let victim = (self.victim)(&p, mv);
                    let promotion = (self.promotion)(mv);
                    let promotion_gain = promotion.map_or(0, |k| values[k] - values[PAWN]);
                    assert!(
                        !p.see_ge(mv, victim + promotion_gain + 1),
                        "{} {text}",
                        p.fen()
                    );
                    if promotion.is_none() {
                        assert!(!p.see_ge(mv, victim + 1), "{} {text}", p.fen());
                    }
                    // Taken back at once and stopping is always possible (no king moved,
                    // no pawn promotes on the square by taking back).
                    if kind != KING && to_bit & LAST_RANKS == 0 {
                        assert!(p.see_ge(mv, victim - values[kind]), "{} {text}", p.fen());
                    }
                }
                // Captures more often than not, so that games stay sharp.
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.is_tactical(m))
                    .collect();
                let mv = if !captures.is_empty() && rng.below(3) > 0 {
                    *rng.pick(&captures)
                } else {
                    *rng.pick(&moves)
                };
                p.play(mv);
            }
        }
        checked
    }
}
