//! Static exchange evaluation for jetan: what a move wins in material once both sides have
//! made the captures on its destination square that pay, least valuable capturer first.
//!
//! What the exchange assumes:
//! - Piece values are the evaluation's material values ([`VALUES`]: Panthan 100, Thoat 320,
//!   Warrior and Padwar 260, Flier 400, Dwar 420, Chief 900). The capturer order is by value:
//!   Panthan, Warrior, Padwar, Thoat, Flier, Dwar, then the Chief; between two pieces of one
//!   kind the one on the lower square goes first.
//! - The capturers of a square are the pieces whose paths reach it with the occupancy of
//!   that moment. Each capturer leaves its square when it captures, and the capturers are
//!   found again from the reduced occupancy before every capture, so a path that ran
//!   through its square is open from then on. They are found backwards from the target
//!   square with the move tables themselves: every jetan path walked backwards is a path of
//!   the same piece (the step sets are symmetric, a Thoat's orthogonal-diagonal path reverses
//!   into a diagonal-orthogonal one, and the intermediate squares are the same), so a
//!   piece's reach from the target square, masked with where such pieces stand, is the set
//!   that reaches the target. A Panthan steps forward, so the other colour's Panthan table
//!   gives the squares a Panthan captures from.
//! - Either side may stop capturing whenever it likes (the answer is a negamax over the
//!   sequence of least valuable capturers).
//! - Captures that end the game: a move that captures the Princess (a win) or a Chief (a win
//!   for a Chief, a draw for any other piece) answers true for every threshold: the search
//!   knows its result exactly one ply later, so it must never be pruned and belongs with the
//!   good captures. Within the sequence the royal pieces never step into a capture that ends
//!   the game: the Princess never captures (she moves only to empty squares) and a Chief
//!   recaptures only as the last capturer, when no enemy piece could take him afterwards
//!   (his capture would be a draw or a loss), as a king does in chess.
//! - A Chief that makes the move itself and can be taken on the square: by the enemy Chief
//!   the game is lost, so the answer is false for every threshold; by a lesser piece only
//!   (a draw), the enemy takes him and the exchange ends there, the Chief counted at his
//!   material value 900, which the evaluation already gives him as "a lot, but less than a
//!   won game". The enemy may also leave him, so the value is the victim's less 900. (What
//!   a draw is really worth depends on who is ahead, which the exchange does not look at:
//!   it prices the Chief as the material count does, so that a Chief wandering into the
//!   reach of lesser pieces is a losing move for the pruning, as the evaluation sees it.)
//! - The Princess's moves, the escape included, never capture and end only on squares the
//!   enemy does not attack (move generation guarantees it), so they win exactly 0.
//! - Quiet moves capture nothing (victim 0); the answer then says whether the piece is safe
//!   on its square: the exchange the enemy can start there costs nothing.
//! - Not modelled: the countdown draw, threats elsewhere on the board (such as a capturer
//!   leaving its Princess attacked), and that a capture may not be the best use of a tempo.

use super::eval::VALUES;
use super::tables::{bit, tables, tree_reach, Piece, Tables, TREE_PIECES};
use super::Jetan;
use crate::core::{Color, Move};
use crate::variants::swap_list::SwapList;

/// The capturers in the order the exchange uses them: least valuable first (by
/// [`VALUES`]), the Chief last. The Princess never captures.
const CAPTURER_ORDER: [Piece; 7] = [
    Piece::Panthan,
    Piece::Warrior,
    Piece::Padwar,
    Piece::Thoat,
    Piece::Flier,
    Piece::Dwar,
    Piece::Chief,
];

/// Room for the longest exchange: every piece on the board capturing once (40 at most at
/// the start, and pieces are never added), plus the first move.
const MAX_EXCHANGE: usize = 48;

#[inline(always)]
fn value(piece: Piece) -> i32 {
    VALUES[piece as usize]
}

impl Jetan {
    /// The pieces of both colours (not the Princesses, which never capture) that can
    /// capture on `sq` with the occupied squares `occ`: only pieces standing in `occ` count.
    fn attackers_to(&self, t: &Tables, sq: u8, occ: u128) -> u128 {
        let s = sq as usize;
        let kinds = &self.by_kind;
        let panthans = kinds[Piece::Panthan as usize];
        // A White Panthan captures on `sq` from the squares a Black Panthan steps to from
        // `sq`, and the other way round.
        let mut attackers =
            t.panthan[Color::Black.index()][s] & panthans & self.by_color[Color::White.index()];
        attackers |=
            t.panthan[Color::White.index()][s] & panthans & self.by_color[Color::Black.index()];
        // The Flier jumps: its reach does not depend on the occupancy, and is symmetric.
        attackers |= t.flier[s] & kinds[Piece::Flier as usize];
        // Every piece reaches at most three squares in each direction.
        let near = t.near3[s] & occ;
        for (slot, piece) in TREE_PIECES.into_iter().enumerate() {
            let candidates = kinds[piece as usize] & near;
            if candidates != 0 {
                attackers |= tree_reach(t, slot, sq, occ) & candidates;
            }
        }
        attackers & occ
    }

    /// The least valuable of `attackers` (a set of squares holding pieces): its square and
    /// kind.
    #[inline(always)]
    fn least_valuable(&self, attackers: u128) -> Option<(u8, Piece)> {
        if attackers == 0 {
            return None;
        }
        CAPTURER_ORDER.into_iter().find_map(|piece| {
            let these = attackers & self.by_kind[piece as usize];
            (these != 0).then(|| (these.trailing_zeros() as u8, piece))
        })
    }

    /// [`crate::search::SearchGame::see_ge`] for jetan: whether `mv` (legal here) and the
    /// exchange on its destination win at least `threshold` centipawns for the side to move,
    /// under the assumptions in the module documentation.
    pub(super) fn see_at_least(&self, mv: Move, threshold: i32) -> bool {
        let (from, to) = (mv.from(), mv.to());
        let Some((_, mover)) = self.piece_at(from) else {
            // Not a move of this position: answer as for a quiet move.
            return threshold <= 0;
        };
        let victim = match self.piece_at(to).map(|(_, p)| p) {
            // The game ends with this capture: never pruned.
            Some(Piece::Princess | Piece::Chief) => return true,
            Some(piece) => value(piece),
            None => 0,
        };
        if mover == Piece::Princess {
            // A quiet move to a square the enemy does not attack (the escape too).
            return 0 >= threshold;
        }
        // The enemy may leave the piece: the exchange wins no more than the victim.
        if victim < threshold {
            return false;
        }
        // We may stop after the enemy's first recapture: no less than the victim less the
        // mover (not for the Chief, whose capture by the enemy Chief loses the game).
        if mover != Piece::Chief && victim - value(mover) >= threshold {
            return true;
        }
        match self.exchange(from, to, mover, victim) {
            Some(gain) => gain >= threshold,
            None => false,
        }
    }

    /// The material the side to move wins by moving `mover` from `from` to `to` (capturing a
    /// piece worth `victim`, 0 if none) and the exchange that follows; `None` if it moves
    /// the Chief where the enemy Chief takes him (the game is lost).
    fn exchange(&self, from: u8, to: u8, mover: Piece, victim: i32) -> Option<i32> {
        let t = tables();
        let mut occ = (self.occupied() ^ bit(from)) | bit(to);
        let us = self.side;
        let them = us.flip();

        if mover == Piece::Chief {
            let enemies = self.attackers_to(t, to, occ) & self.by_color[them.index()];
            if enemies & self.by_kind[Piece::Chief as usize] != 0 {
                return None;
            }
            // A lesser piece takes him (a draw, counted as his value) and the game ends; or
            // the enemy leaves him.
            return Some(if enemies != 0 {
                victim - value(Piece::Chief)
            } else {
                victim
            });
        }

        let mut swaps = SwapList::<MAX_EXCHANGE>::new(victim);
        let mut on_square = mover;
        let mut side = them;
        while !swaps.is_full() {
            let attackers = self.attackers_to(t, to, occ) & self.by_color[side.index()];
            let Some((sq, piece)) = self.least_valuable(attackers) else {
                break;
            };
            let vacated = occ ^ bit(sq);
            if piece == Piece::Chief {
                // He captures only if no enemy piece could take him afterwards.
                let enemies =
                    self.attackers_to(t, to, vacated) & self.by_color[side.flip().index()];
                if enemies != 0 {
                    break;
                }
                swaps.capture(value(on_square));
                break;
            }
            swaps.capture(value(on_square));
            on_square = piece;
            occ = vacated;
            side = side.flip();
        }
        // Each side captures only when that is better than stopping.
        Some(swaps.value())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::rng::Rng;
    use crate::core::Game;
    use crate::search::SearchGame;
    use crate::variants::see_checks::{self, SeeCases};

    fn pos(fen: &str) -> Jetan {
        Jetan::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    const UNDEFENDED: &str = "q8k/10/10/10/10/4d5/4P5/10/10/Q8K w - 0 1";
    const DEFENDED: &str = "q8k/10/10/10/3p6/4p5/10/10/4D5/Q8K w - 0 1";
    const EQUAL: &str = "q8k/10/10/10/5p4/4t5/10/3T6/10/Q8K w - 0 1";
    const BLACK_STOPS: &str = "q8k/10/10/5t4/10/4t5/3PP5/10/10/Q8K w - 0 1";
    const XRAY_OWN: &str = "q8k/10/10/10/5p4/4w5/4T5/4W5/10/Q8K w - 0 1";
    const XRAY_ENEMY: &str = "q8k/10/10/10/10/2Wpw5/10/3T6/10/Q8K w - 0 1";
    const FLIER: &str = "q8k/10/10/10/6p3/5d4/4p5/3P6/2F7/Q8K w - 0 1";
    const QUIET_ATTACKED: &str = "q8k/10/10/10/5p4/10/10/10/4D5/Q8K w - 0 1";
    const QUIET_DEFENDED: &str = "q8k/10/10/10/5t4/10/10/3PP5/10/Q8K w - 0 1";
    const QUIET_UNDEFENDED: &str = "q8k/10/10/10/5t4/10/10/4P5/10/Q8K w - 0 1";
    const BLACK_TO_MOVE: &str = "q8k/10/10/4t5/10/3W6/4P5/10/10/Q8K b - 0 1";
    /// Black's Princess on e5 (her Chief on j10), defended by the Panthans d6 and f6.
    const PRINCESS: &str = "9k/10/10/10/3p1p4/4q5/4P5/10/10/Q8K w - 0 1";
    /// Black's Chief on e5.
    const CHIEF_BY_PANTHAN: &str = "q9/10/10/10/10/4k5/4P5/10/10/Q8K w - 0 1";
    /// White's Chief on e2, Black's on e5.
    const CHIEF_BY_CHIEF: &str = "q9/10/10/10/10/4k5/10/10/4K5/Q9 w - 0 1";
    /// White's Chief on e2.
    const CHIEF_TAKES_DEFENDED: &str = "q8k/10/10/2a7/10/4p5/10/10/4K5/Q9 w - 0 1";
    /// White's Chief on e2, Black's on e8.
    const CHIEF_INTO_CHIEF: &str = "q9/10/4k5/10/10/4p5/10/10/4K5/Q9 w - 0 1";
    /// White's Chief on e2.
    const CHIEF_LAST: &str = "q8k/10/10/10/5p4/4w5/10/3T6/4K5/Q9 w - 0 1";
    /// White's Chief on e2.
    const CHIEF_STAYS_OUT: &str = "q8k/10/10/10/3p1p4/4w5/10/3T6/4K5/Q9 w - 0 1";
    /// White may still escape.
    const ESCAPE: &str = "q8k/10/10/10/10/10/10/10/10/Q8K w Q 0 1";

    /// Hand-checked exchanges: FEN, move, (threshold, expected answer). Unless said otherwise
    /// White's Princess is on a1 and Chief on j1, Black's Princess on a10 and Chief on j10,
    /// out of reach of the squares fought over. Values: Panthan 100, Warrior and Padwar 260,
    /// Thoat 320, Flier 400, Dwar 420, Chief 900. A move is usually asked at its exact value
    /// (true) and one above (false).
    #[rustfmt::skip]
    const SUITE: &[SeeCases] = &[
        // 1. An undefended piece: Panthan e4 takes the Dwar e5 (forward); nothing of Black's
        //    reaches e5: +420.
        (UNDEFENDED, "e4e5", &[(420, true), (421, false)]),
        // 2. A defended piece taken by a more valuable one: Dwar e2 takes the Panthan e5 (via
        //    e3, e4), the Panthan d6 retakes (diagonally forward for Black): 100 - 420 = -320.
        (DEFENDED, "e2e5", &[(0, false), (-320, true), (-319, false)]),
        // 3. An equal trade: Thoat d3 takes the Thoat e5, the Panthan f6 retakes:
        //    320 - 320 = 0.
        (EQUAL, "d3e5", &[(0, true), (1, false)]),
        // 4. Black stops: Panthan e4 takes the Thoat e5; if the Thoat f7 retook, the Panthan
        //    d4 would take it (100 lost for 320), so Black leaves it: +320
        //    (swap list 320, 100 - 320 = -220, 320 + 220 = 540; back: min(-220, -540) = -540,
        //    min(320, 540) = 320).
        (BLACK_STOPS, "e4e5", &[(320, true), (321, false)]),
        // 5. A recapture opened by our own capturer: Thoat e4 takes the Warrior e5 (+260),
        //    the Panthan f6 retakes (-320), and only now the Warrior e3 reaches e5 through
        //    the vacated e4 and takes the Panthan (+100): 260 - 320 + 100 = 40 (both stops
        //    are worse for the side that would stop). Without the opened path: -60.
        (XRAY_OWN, "e4e5", &[(0, true), (40, true), (41, false)]),
        // 6. A recapture opened by the enemy's capturer: Thoat d3 takes the Warrior e5, the
        //    Panthan d5 retakes sideways and so unblocks the Warrior c5's path c5-d5-e5, which
        //    takes it: 260 - 320 + 100 = 40.
        (XRAY_ENEMY, "d3e5", &[(40, true), (41, false)]),
        // 7. The Flier jumps: Flier c2 takes the Dwar f5 over the Panthans d3 (White) and
        //    e4 (Black); the Panthan g6 retakes: 420 - 400 = 20.
        (FLIER, "c2f5", &[(20, true), (21, false)]),
        // 8. A quiet move onto an attacked square: Dwar e2-e5, the Panthan f6 takes it:
        //    -420. The same Dwar to e3 is safe: 0.
        (QUIET_ATTACKED, "e2e5", &[(0, false), (-420, true), (-419, false)]),
        (QUIET_ATTACKED, "e2e3", &[(0, true), (1, false)]),
        // 9. A quiet move onto an attacked but defended square: Panthan e3-e4; if the Thoat
        //    f6 takes it (+100 for Black) the Panthan d3 takes the Thoat (+320), so Black
        //    does not: 0. Without the Panthan d3 the move loses it: -100.
        (QUIET_DEFENDED, "e3e4", &[(0, true), (1, false)]),
        (QUIET_UNDEFENDED, "e3e4", &[(0, false), (-100, true), (-99, false)]),
        // 10. Black to move: Thoat e7 takes the Warrior d5, the Panthan e4 retakes
        //     (diagonally forward for White): 260 - 320 = -60.
        (BLACK_TO_MOVE, "e7d5", &[(-60, true), (-59, false)]),
        // 11. Capturing the Princess (Black's, on e5, defended twice) wins the game: true
        //     at any threshold.
        (PRINCESS, "e4e5", &[(i32::MAX, true), (0, true)]),
        // 12. Capturing the Chief ends the game: by a Panthan (a draw), by the Chief (a
        //     win): never pruned, true at any threshold.
        (CHIEF_BY_PANTHAN, "e4e5", &[(i32::MAX, true)]),
        (CHIEF_BY_CHIEF, "e2e5", &[(i32::MAX, true)]),
        // 13. The Chief e2 takes a Panthan e5 defended by the Padwar c7 (c7-d6-e5): the
        //     Padwar takes him (a draw, counted as his 900): 100 - 900 = -800.
        (CHIEF_TAKES_DEFENDED, "e2e5", &[(0, false), (-800, true), (-799, false)]),
        // 14. The Chief e2 takes a Panthan e5 that the enemy Chief e8 reaches (e7, e6): the
        //     game is lost, false at any threshold.
        (CHIEF_INTO_CHIEF, "e2e5", &[(0, false), (i32::MIN, false)]),
        // 15. The Chief as the last recapturer: Thoat d3 takes the Warrior e5 (+260), the
        //     Panthan f6 retakes (-320), the Chief e2 retakes (+100) and nothing of Black's
        //     can take him: 260 - 320 + 100 = 40.
        (CHIEF_LAST, "d3e5", &[(40, true), (41, false)]),
        // 16. The same with a second Black Panthan on d6: it retakes first (the lower
        //     square), and the Chief stays out because the Panthan f6 could then take him
        //     (a draw): 260 - 320 = -60.
        (CHIEF_STAYS_OUT, "d3e5", &[(-60, true), (-59, false)]),
        // 17. The Princess's escape (a1 to e8, out of her normal reach) is a quiet move to
        //     an unattacked square: 0. So is her normal move a1-b2.
        (ESCAPE, "a1e8", &[(0, true), (1, false)]),
        (ESCAPE, "a1b2", &[(0, true)]),
    ];

    #[test]
    fn hand_checked_suite() {
        see_checks::assert_see_table::<Jetan>(SUITE, None);
    }

    /// Positions of seeded random games from the start, captures preferred (half the
    /// time when there is one) so that exchanges come up; games stop before a capture of a
    /// Chief or Princess and once either side is down to eight pieces (far from the
    /// countdown, which the exchange does not model).
    fn random_positions(games: u64, plies: usize) -> Vec<Jetan> {
        let mut out = Vec::new();
        let mut moves = Vec::new();
        for game in 0..games {
            let mut rng = Rng::new(0x5EE_0001, game);
            let mut p = pos(Jetan::START_FEN);
            for _ in 0..plies {
                p.generate(&mut moves);
                let royal = |m: &Move| {
                    matches!(
                        p.piece_at(m.to()),
                        Some((_, Piece::Chief | Piece::Princess))
                    )
                };
                moves.retain(|m| !royal(m));
                if moves.is_empty() {
                    break;
                }
                let captures: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| p.is_tactical(m))
                    .collect();
                let m = if !captures.is_empty() && rng.one_in(2) {
                    *rng.pick(&captures)
                } else {
                    *rng.pick(&moves)
                };
                p.play(m);
                if p.by_color.iter().any(|c| c.count_ones() <= 8) {
                    break;
                }
                out.push(p.clone());
            }
        }
        out
    }

    /// Crowded random positions: each Chief and Princess anywhere, then 16 to 27 other
    /// pieces of random colour and kind packed into the central 6x6 squares (c3 to h8), so
    /// that many squares are fought over by several pieces with blocked paths.
    fn crowded_positions(count: u64) -> Vec<Jetan> {
        const OTHERS: &[u8] = b"PTWADF";
        let mut out = Vec::new();
        for index in 0..count {
            let mut rng = Rng::new(0xC20_0D3D, index);
            let mut board = [b'.'; 100];
            let mut place = |letter: u8, squares: &[u8], rng: &mut Rng| loop {
                let sq = *rng.pick(squares) as usize;
                if board[sq] == b'.' {
                    board[sq] = letter;
                    return;
                }
            };
            let all: Vec<u8> = (0..100).collect();
            let centre: Vec<u8> = (0..100u8)
                .filter(|s| (2..8).contains(&(s % 10)) && (2..8).contains(&(s / 10)))
                .collect();
            for royal in *b"KQkq" {
                place(royal, &all, &mut rng);
            }
            for _ in 0..16 + rng.below(12) {
                let letter = *rng.pick(OTHERS);
                let letter = if rng.one_in(2) {
                    letter.to_ascii_lowercase()
                } else {
                    letter
                };
                place(letter, &centre, &mut rng);
            }
            let ranks: Vec<String> = (0..10)
                .rev()
                .map(|rank| {
                    let mut text = String::new();
                    let mut empty = 0;
                    for file in 0..10 {
                        match board[rank * 10 + file] {
                            b'.' => empty += 1,
                            letter => {
                                if empty > 0 {
                                    text += &empty.to_string();
                                    empty = 0;
                                }
                                text.push(letter as char);
                            }
                        }
                    }
                    if empty > 0 {
                        text += &empty.to_string();
                    }
                    text
                })
                .collect();
            let side = if rng.one_in(2) { "w" } else { "b" };
            out.push(pos(&format!("{} {side} Qq 0 1", ranks.join("/"))));
        }
        out
    }

    /// Both kinds of test positions: from random play, and crowded.
    fn test_positions() -> Vec<Jetan> {
        let mut positions = random_positions(30, 160);
        positions.extend(crowded_positions(300));
        positions
    }

    /// The exchange played out on real positions with the move generator: the side to move
    /// captures on `to` (where `on_square` stands) with its least valuable capturer (the
    /// lowest square first among equals), or stops; a Chief captures only if the enemy then
    /// has no capture on `to`. Returns what the side to move wins, at least 0.
    fn slow_rest(p: &Jetan, to: u8, on_square: Piece) -> i32 {
        let mut moves = Vec::new();
        p.generate(&mut moves);
        let order = |piece: Piece| CAPTURER_ORDER.iter().position(|&k| k == piece);
        let best = moves
            .iter()
            .filter(|m| m.to() == to)
            .filter_map(|&m| {
                let (_, piece) = p.piece_at(m.from())?;
                Some((order(piece)?, m.from(), piece, m))
            })
            .min_by_key(|&(rank, from, _, _)| (rank, from));
        let Some((_, _, piece, m)) = best else {
            return 0;
        };
        let mut next = p.clone();
        next.play(m);
        if piece == Piece::Chief {
            return if captures_on(&next, to) {
                0
            } else {
                value(on_square)
            };
        }
        (value(on_square) - slow_rest(&next, to, piece)).max(0)
    }

    fn captures_on(p: &Jetan, to: u8) -> bool {
        let mut moves = Vec::new();
        p.generate(&mut moves);
        moves.iter().any(|m| m.to() == to)
    }

    /// What the slow exchange gives for `mv`: `Err(true)` for a game-ending capture (always
    /// good), `Err(false)` for a Chief move the enemy Chief answers by taking him.
    fn slow_see(p: &Jetan, mv: Move) -> Result<i32, bool> {
        let (_, mover) = p.piece_at(mv.from()).ok_or(false)?;
        let victim = match p.piece_at(mv.to()) {
            Some((_, Piece::Chief | Piece::Princess)) => return Err(true),
            Some((_, piece)) => value(piece),
            None => 0,
        };
        if mover == Piece::Princess {
            return Ok(0);
        }
        let mut next = p.clone();
        next.play(mv);
        if mover == Piece::Chief {
            let mut moves = Vec::new();
            next.generate(&mut moves);
            let takers: Vec<Piece> = moves
                .iter()
                .filter(|m| m.to() == mv.to())
                .filter_map(|m| next.piece_at(m.from()).map(|(_, k)| k))
                .collect();
            return if takers.contains(&Piece::Chief) {
                Err(false)
            } else if takers.is_empty() {
                Ok(victim)
            } else {
                Ok(victim - value(Piece::Chief))
            };
        }
        Ok(victim - slow_rest(&next, mv.to(), mover))
    }

    /// The capturers `attackers_to` finds are exactly the pieces (but the Princess) with a
    /// legal move to the square, for every square not holding a piece of the side to move.
    #[test]
    fn attackers_agree_with_move_generation() {
        let t = tables();
        let mut moves = Vec::new();
        let mut checked = 0;
        for p in test_positions() {
            p.generate(&mut moves);
            let own = p.by_color[p.side.index()];
            let princess = p.by_kind[Piece::Princess as usize];
            for sq in (0..100u8).filter(|&s| own & bit(s) == 0) {
                let expected = moves
                    .iter()
                    .filter(|m| m.to() == sq && princess & bit(m.from()) == 0)
                    .fold(0u128, |acc, m| acc | bit(m.from()));
                let got = p.attackers_to(t, sq, p.occupied()) & own;
                assert_eq!(got, expected, "{} square {sq}", p.fen());
                checked += 1;
            }
        }
        assert!(checked > 100_000, "only {checked} squares");
    }

    /// The bitboard exchange equals the exchange played out with the move generator, for
    /// every legal move of the random positions.
    #[test]
    fn exchange_agrees_with_played_out_exchange() {
        let mut moves = Vec::new();
        let (mut captures, mut deep) = (0, 0);
        for p in test_positions() {
            p.generate(&mut moves);
            for &m in &moves {
                let text = p.move_text(m);
                match slow_see(&p, m) {
                    Err(good) => {
                        assert_eq!(p.see_ge(m, i32::MAX), good, "{} {text}", p.fen());
                        assert_eq!(p.see_ge(m, i32::MIN), good, "{} {text}", p.fen());
                    }
                    Ok(v) => {
                        assert!(p.see_ge(m, v), "{} {text} at {v}", p.fen());
                        assert!(!p.see_ge(m, v + 1), "{} {text} at {}", p.fen(), v + 1);
                        if p.is_tactical(m) {
                            captures += 1;
                            let victim = p.piece_at(m.to()).map_or(0, |(_, k)| value(k));
                            let mover = p.piece_at(m.from()).map_or(0, |(_, k)| value(k));
                            deep += i32::from(v != victim && v != victim - mover);
                        }
                    }
                }
            }
        }
        // Many captures, and some whose exchange goes beyond the first recapture.
        assert!(captures > 2_000, "only {captures} captures");
        assert!(deep > 300, "only {deep} longer exchanges");
    }

    /// `see_ge` is monotone in the threshold: true at some threshold, true at every lower
    /// one; checked for every legal capture of the random positions over a spread of
    /// thresholds.
    #[test]
    fn see_ge_is_monotone_in_the_threshold() {
        let thresholds: Vec<i32> = [i32::MIN, -100_000, -20_000]
            .into_iter()
            .chain((-1_000..=1_000).step_by(20))
            .chain([20_000, 100_000, i32::MAX])
            .collect();
        let mut moves = Vec::new();
        let mut checked = 0;
        for p in test_positions() {
            p.generate(&mut moves);
            for &m in moves.iter().filter(|&&m| p.is_tactical(m)) {
                let answers: Vec<bool> = thresholds.iter().map(|&t| p.see_ge(m, t)).collect();
                // Once false, false for every higher threshold.
                if let Some(first_false) = answers.iter().position(|&a| !a) {
                    assert!(
                        answers[first_false..].iter().all(|&a| !a),
                        "{} {}: {answers:?}",
                        p.fen(),
                        p.move_text(m)
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 2_000, "only {checked} captures");
    }

    #[test]
    fn moved_piece_is_distinct_by_colour_and_kind() {
        // White to move in the first position, Black in the second.
        see_checks::assert_moved_pieces::<Jetan>(&[
            (UNDEFENDED, "e4e5", Piece::Panthan as usize),
            (UNDEFENDED, "a1b2", Piece::Princess as usize),
            (UNDEFENDED, "j1i1", Piece::Chief as usize),
            (BLACK_TO_MOVE, "e7d5", 8 + Piece::Thoat as usize),
            (BLACK_TO_MOVE, "j10i10", 8 + Piece::Chief as usize),
            (ESCAPE, "a1e8", Piece::Princess as usize),
        ]);
        let mut seen = [false; crate::search::PIECE_SLOTS];
        let mut moves = Vec::new();
        for p in random_positions(10, 200) {
            p.generate(&mut moves);
            for &m in &moves {
                let slot = p.moved_piece(m);
                let (color, piece) = p.piece_at(m.from()).expect("a legal move's piece");
                assert_eq!(slot, color.index() * 8 + piece as usize);
                seen[slot] = true;
            }
        }
        assert!(seen.iter().all(|&s| s), "{seen:?}");
    }
}
