//! What the search needs from jetan: the evaluation as a weighted sum of terms
//! ([`Tunable`]; weights in `weights.rs`), capture ordering and the null move.
//!
//! The terms, each White's count minus Black's:
//! - material of every kind but the Chief and Princess (losing either ends the game);
//! - placement: closeness to the centre per kind, the Panthans' advance;
//! - mobility: the real destinations of every piece but the Panthans and the Princess (paths
//!   blocked as in move generation), own pieces excluded;
//! - the Princess: her escape still in hand, enemy pieces but the Chief within three
//!   squares, the squares she can flee to (empty, in her reach, not attacked), trapped (no
//!   flight and no escape), attacked where she stands;
//! - the Chief: enemy pieces other than the Chief that can capture him now, or on an empty
//!   board within two moves. Such a capture draws at once, which is all the side that is
//!   behind wants; so these terms come twice, once alone and once multiplied by the material
//!   lead of the Chief's side (in pawns, 0 to [`LEAD_CAP`]): exposure costs the side that is
//!   ahead in proportion to what it would throw away;
//! - the Chiefs' closeness (7 minus their distance, at least 0) times the lead: the enemy
//!   Chief near ours threatens to capture him (a loss) or to force a lesser piece of ours to
//!   capture him (a draw), which costs only the side that is ahead;
//! - the Chief invading: the ranks he stands inside the enemy half, among the enemy's
//!   lesser pieces, any of which may take him for a draw (in self-play against material
//!   only, most drawing captures of the full side's Chief were made there);
//! - the move (tempo).

use super::tables::{bit, tables, tree_reach, Piece, Tables, SQUARES, TREE_PIECES};
use super::weights::WEIGHTS;
use super::Jetan;
use crate::core::moves::mvv_lva;
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;
use crate::variants::terms::{side_to_move_score, Terms, Tunable};
use std::sync::OnceLock;

/// Material by kind (Panthan, Thoat, Warrior, Padwar, Dwar, Flier, Chief, Princess) for the
/// material-only baseline, the capture order and the material lead that scales the Chief's
/// exposure. Losing the Chief to any piece but the Chief only draws, so it is worth a lot
/// but less than a won game; the Princess is the game itself.
pub(super) const VALUES: [i32; 8] = [100, 320, 260, 260, 420, 400, 900, 20_000];

/// The material lead (in pawns) beyond which the Chief's exposure costs no more.
pub const LEAD_CAP: i32 = 8;

/// The names of the terms, in weight order.
pub const TERM_NAMES: [&str; 33] = [
    "material_panthan",
    "material_thoat",
    "material_warrior",
    "material_padwar",
    "material_dwar",
    "material_flier",
    "centre_thoat",
    "centre_warrior",
    "centre_padwar",
    "centre_dwar",
    "centre_flier",
    "centre_chief",
    "centre_princess",
    "panthan_advance",
    "panthan_far",
    "mobility_thoat",
    "mobility_warrior",
    "mobility_padwar",
    "mobility_dwar",
    "mobility_flier",
    "mobility_chief",
    "princess_escape",
    "princess_near_enemies",
    "princess_flee",
    "princess_trapped",
    "princess_attacked",
    "chief_attackers",
    "chief_attackers_x_lead",
    "chief_threats",
    "chief_threats_x_lead",
    "chiefs_near_x_lead",
    "tempo",
    "chief_invading",
];

/// Term indices.
const MATERIAL: usize = 0; // + kind, Panthan to Flier
const CENTRE: usize = 6; // + kind - 1, Thoat to Princess
const PANTHAN_ADVANCE: usize = 13;
const PANTHAN_FAR: usize = 14;
const MOBILITY: usize = 15; // + kind - 1, Thoat to Chief
const PRINCESS_ESCAPE: usize = 21;
const PRINCESS_NEAR: usize = 22;
const PRINCESS_FLEE: usize = 23;
const PRINCESS_TRAPPED: usize = 24;
const PRINCESS_ATTACKED: usize = 25;
const CHIEF_ATTACKERS: usize = 26;
const CHIEF_ATTACKERS_LEAD: usize = 27;
const CHIEF_THREATS: usize = 28;
const CHIEF_THREATS_LEAD: usize = 29;
const CHIEFS_NEAR_LEAD: usize = 30;
const TEMPO: usize = 31;
const CHIEF_INVADING: usize = 32;

/// Tables for the evaluation only: where each piece reaches on an empty board in one move
/// and in two moves, by slot (Panthan of White, Thoat, Warrior, Padwar, Dwar, Flier, Chief,
/// Panthan of Black), and the centre ring of every square.
struct EvalTables {
    reach2: [[u128; SQUARES]; 8],
    /// 0 on the edge to 4 on the four central squares.
    centre: [i32; SQUARES],
}

/// The slot of a piece in [`EvalTables`] (not the Princess).
fn slot(piece: Piece, color: Color) -> usize {
    match (piece, color) {
        (Piece::Panthan, Color::Black) => 7,
        _ => piece as usize,
    }
}

/// Empty-board destinations of a piece of slot `s` (see [`EvalTables`]) from `sq`.
fn reach1(t: &Tables, s: usize, sq: u8) -> u128 {
    match s {
        0 => t.panthan[0][sq as usize],
        7 => t.panthan[1][sq as usize],
        5 => t.flier[sq as usize],
        _ => {
            let piece = Piece::ALL[s];
            let tree = TREE_PIECES.iter().position(|&p| p == piece).unwrap_or(0);
            tree_reach(t, tree, sq, 0)
        }
    }
}

fn eval_tables() -> &'static EvalTables {
    static TABLES: OnceLock<EvalTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let t = tables();
        let mut e = EvalTables {
            reach2: [[0; SQUARES]; 8],
            centre: [0; SQUARES],
        };
        for sq in 0..SQUARES as u8 {
            let (file, rank) = ((sq % 10) as i32, (sq / 10) as i32);
            // |2f - 9| is 1 for the central files and 9 for the edge.
            e.centre[sq as usize] = (9 - (file * 2 - 9).abs().max((rank * 2 - 9).abs())) / 2;
            for (s, row) in e.reach2.iter_mut().enumerate() {
                let first = reach1(t, s, sq);
                row[sq as usize] = first
                    .squares()
                    .fold(first, |acc, next| acc | reach1(t, s, next));
            }
        }
        e
    })
}

/// Chebyshev distance between two squares of the 10x10 board.
fn distance(a: u8, b: u8) -> i32 {
    let (af, ar) = ((a % 10) as i32, (a / 10) as i32);
    let (bf, br) = ((b % 10) as i32, (b / 10) as i32);
    (af - bf).abs().max((ar - br).abs())
}

/// What one side's pieces do: computed for both sides before any term is added.
#[derive(Default)]
struct SideInfo {
    /// Every square its pieces but the Princess reach (own pieces included).
    attacks: u128,
    /// Its pieces other than the Chief (and Princess) that can capture the enemy Chief now.
    chief_attackers: i32,
    /// ... and those that reach the enemy Chief's square within two moves on an empty board.
    chief_threats: i32,
}

impl Jetan {
    /// Adds the terms of `color`'s pieces with `sign` (+1 White, -1 Black) and returns what
    /// its pieces attack.
    fn side_terms<T: Terms>(&self, color: Color, sign: i32, terms: &mut T) -> SideInfo {
        let t = tables();
        let e = eval_tables();
        let own = self.by_color[color.index()];
        let occ = self.occupied();
        let enemy_chief = self.by_kind[Piece::Chief as usize] & self.by_color[color.flip().index()];
        let mut info = SideInfo::default();
        let kind = |piece: Piece| self.by_kind[piece as usize] & own;

        let panthans = kind(Piece::Panthan);
        let (mut advance, mut far) = (0, 0);
        for sq in panthans.squares() {
            let rank = (sq / 10) as i32;
            let steps = if color == Color::White {
                rank - 1
            } else {
                8 - rank
            };
            advance += steps;
            far += i32::from(steps >= 4);
            let hits = t.panthan[color.index()][sq as usize];
            info.attacks |= hits;
            info.chief_attackers += i32::from(hits & enemy_chief != 0);
            info.chief_threats +=
                i32::from(e.reach2[slot(Piece::Panthan, color)][sq as usize] & enemy_chief != 0);
        }
        terms.add(MATERIAL, sign * panthans.count_ones() as i32);
        terms.add(PANTHAN_ADVANCE, sign * advance);
        terms.add(PANTHAN_FAR, sign * far);

        // Every kind from the Thoat to the Chief (the Panthans are above, the Princess below).
        for &piece in &Piece::ALL[Piece::Thoat as usize..=Piece::Chief as usize] {
            let squares = kind(piece);
            let p = piece as usize;
            let tree = TREE_PIECES.iter().position(|&k| k == piece);
            let (mut centre, mut mobility) = (0, 0);
            for sq in squares.squares() {
                let hits = match tree {
                    Some(tree) => tree_reach(t, tree, sq, occ),
                    None => t.flier[sq as usize],
                };
                info.attacks |= hits;
                mobility += (hits & !own).count_ones() as i32;
                centre += e.centre[sq as usize];
                if piece == Piece::Chief {
                    // Ranks into the enemy half: among the enemy's lesser pieces, any of
                    // which may take him for a draw.
                    let rank = (sq / 10) as i32;
                    let advance = if color == Color::White {
                        rank
                    } else {
                        9 - rank
                    };
                    terms.add(CHIEF_INVADING, sign * (advance - 4).max(0));
                }
                if piece != Piece::Chief {
                    info.chief_attackers += i32::from(hits & enemy_chief != 0);
                    info.chief_threats +=
                        i32::from(e.reach2[slot(piece, color)][sq as usize] & enemy_chief != 0);
                }
            }
            if piece != Piece::Chief {
                terms.add(MATERIAL + p, sign * squares.count_ones() as i32);
            }
            terms.add(CENTRE + p - 1, sign * centre);
            terms.add(MOBILITY + p - 1, sign * mobility);
        }
        let princess = kind(Piece::Princess);
        let centre: i32 = princess.squares().map(|sq| e.centre[sq as usize]).sum();
        terms.add(CENTRE + Piece::Princess as usize - 1, sign * centre);
        info
    }

    /// The Princess's and the Chief's terms of `color`, given what both sides attack.
    fn royal_terms<T: Terms>(
        &self,
        color: Color,
        sign: i32,
        enemy: &SideInfo,
        lead: i32,
        terms: &mut T,
    ) {
        let t = tables();
        let own = self.by_color[color.index()];
        let them = self.by_color[color.flip().index()];
        // Neither the enemy's Princess (she cannot capture) nor its Chief: counting him
        // paid for sending the Chief at the enemy Princess, deep among lesser pieces that may
        // take him for a draw. A Chief that attacks her still counts in `princess_attacked`.
        let enemy_royals =
            (self.by_kind[Piece::Princess as usize] | self.by_kind[Piece::Chief as usize]) & them;
        let occ = self.occupied();
        let has_escape = self.escape & (1 << color.index()) != 0;
        for q in (self.by_kind[Piece::Princess as usize] & own).squares() {
            let near = (t.near3[q as usize] & them & !enemy_royals).count_ones() as i32;
            let flee = (t.princess[q as usize] & !occ & !enemy.attacks).count_ones() as i32;
            terms.add(PRINCESS_NEAR, sign * near);
            terms.add(PRINCESS_FLEE, sign * flee);
            terms.add(PRINCESS_ESCAPE, sign * i32::from(has_escape));
            terms.add(PRINCESS_TRAPPED, sign * i32::from(flee == 0 && !has_escape));
            terms.add(
                PRINCESS_ATTACKED,
                sign * i32::from(enemy.attacks & bit(q) != 0),
            );
        }
        let lead = lead.clamp(0, LEAD_CAP);
        terms.add(CHIEF_ATTACKERS, sign * enemy.chief_attackers);
        terms.add(CHIEF_ATTACKERS_LEAD, sign * enemy.chief_attackers * lead);
        terms.add(CHIEF_THREATS, sign * enemy.chief_threats);
        terms.add(CHIEF_THREATS_LEAD, sign * enemy.chief_threats * lead);
    }

    /// Material by [`VALUES`] of `color`, without the Princess.
    fn material_of(&self, color: Color) -> i32 {
        let own = self.by_color[color.index()];
        Piece::ALL[..7]
            .iter()
            .map(|&p| VALUES[p as usize] * (self.by_kind[p as usize] & own).count_ones() as i32)
            .sum()
    }
}

impl Tunable for Jetan {
    const TERM_NAMES: &'static [&'static str] = &TERM_NAMES;
    /// Material stays as set by hand: in self-play most games are drawn by a Chief capture
    /// whatever the material, and fitting the results shrank the piece values to a third
    /// or less (Thoat 320 to 80), which lost in matches (docs/matches.md).
    const FIXED: &'static [usize] = &[0, 1, 2, 3, 4, 5];

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn add_terms<T: Terms>(&self, terms: &mut T) {
        let white = self.side_terms(Color::White, 1, terms);
        let black = self.side_terms(Color::Black, -1, terms);
        // White's lead in whole pawns: it scales White's Chief exposure, its negative Black's.
        let lead = (self.material_of(Color::White) - self.material_of(Color::Black)) / 100;
        self.royal_terms(Color::White, 1, &black, lead, terms);
        self.royal_terms(Color::Black, -1, &white, -lead, terms);
        let chiefs = self.by_kind[Piece::Chief as usize];
        if chiefs.count_ones() == 2 {
            let (a, b) = (
                chiefs.trailing_zeros() as u8,
                127 - chiefs.leading_zeros() as u8,
            );
            let near = (7 - distance(a, b)).max(0);
            terms.add(CHIEFS_NEAR_LEAD, near * lead.clamp(-LEAD_CAP, LEAD_CAP));
        }
        terms.add(TEMPO, if self.side == Color::White { 1 } else { -1 });
    }
}

impl SearchGame for Jetan {
    fn material(&self) -> i32 {
        let us = self.material_of(self.side);
        us - self.material_of(self.side.flip())
    }

    fn evaluate(&self) -> i32 {
        side_to_move_score(self, &WEIGHTS)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let value = |sq: u8| self.piece_at(sq).map_or(0, |(_, p)| VALUES[p as usize]);
        mvv_lva(value(mv.to()), value(mv.from()).min(1000), 0)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see_at_least(mv, threshold)
    }

    fn moved_piece(&self, mv: Move) -> usize {
        // The move's kind says normal or escape, not the piece: look it up.
        let side = self.side.index();
        self.piece_at(mv.from()).map_or(side * 8, |(color, piece)| {
            color.index() * 8 + piece as usize
        })
    }

    fn threatened(&self) -> bool {
        self.royal_threatened()
    }

    fn null_move(&self) -> Option<Self> {
        // Passing is unsound with few pieces (zugzwang, the countdown) or after the end.
        let own = self.by_color[self.side.index()];
        if own.count_ones() < 5 || self.status.is_some() {
            return None;
        }
        let mut passed = self.clone();
        passed.pass_turn();
        Some(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    fn pos(fen: &str) -> Jetan {
        Jetan::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
    }

    #[test]
    fn start_is_balanced_and_null_move_hash_is_exact() {
        let start = pos(Jetan::START_FEN);
        // Only the tempo differs between the sides at the start.
        assert_eq!(start.evaluate(), WEIGHTS[TEMPO]);
        crate::core::testkit::assert_null_move_is_exact::<Jetan>(Jetan::START_FEN);
    }

    #[test]
    fn names_and_weights_agree() {
        assert_eq!(TERM_NAMES.len(), WEIGHTS.len());
        assert_eq!(TERM_NAMES[TEMPO], "tempo");
        assert_eq!(TERM_NAMES[CHIEF_THREATS_LEAD], "chief_threats_x_lead");
        assert_eq!(TERM_NAMES[MOBILITY], "mobility_thoat");
        assert_eq!(TERM_NAMES[CENTRE + 6], "centre_princess");
        assert_eq!(TERM_NAMES[CHIEF_INVADING], "chief_invading");
    }

    #[test]
    fn a_chief_in_the_enemy_half_is_invading() {
        // White's Chief on e8 is three ranks into Black's half; Black's on e6 is in its
        // own half.
        let p = pos("q9/10/4K5/10/4k5/10/10/10/10/9Q w - 0 1");
        assert_eq!(p.features().0[CHIEF_INVADING], 3);
        // Black's Chief on e2 is four ranks into White's half.
        let p = pos("q9/10/10/10/10/10/10/10/4k5/9Q w - 0 1");
        assert_eq!(p.features().0[CHIEF_INVADING], -4);
    }

    /// The evaluation as played equals the tuner's model (features times weights), signed
    /// for the side to move, and is the negative of the colour-flipped position's: on
    /// every position of random games.
    #[test]
    fn evaluate_equals_white_score_on_random_games() {
        let checked = crate::variants::terms::check_white_score::<Jetan>(40);
        assert!(checked > 1000, "{checked}");
    }

    #[test]
    fn distance_is_chebyshev() {
        assert_eq!(distance(0, 99), 9);
        assert_eq!(distance(44, 47), 3);
        assert_eq!(distance(44, 77), 3);
    }

    #[test]
    fn two_move_reach_of_a_panthan() {
        // From e2 (square 14): e3 d3 f3 d2 f2, then from those; back to e2 as well.
        let reach = eval_tables().reach2[slot(Piece::Panthan, Color::White)][14];
        assert_eq!(reach.count_ones(), 15);
        for sq in [14, 22, 26, 32, 36, 12, 16] {
            assert_ne!(reach & bit(sq), 0, "{sq}");
        }
        assert_eq!(reach & bit(44), 0);
    }

    #[test]
    fn princess_flight_and_neighbours() {
        // A Black Warrior on b4 takes b4 and attacks d4, b2, a3 and c3 of the fifteen squares
        // around White's Princess in the a1 corner; Black's Princess has all fifteen.
        let p = pos("q8k/10/10/10/10/10/1w8/10/10/Q8K w - 0 1");
        let f = p.features().0;
        assert_eq!(f[PRINCESS_FLEE], 10 - 15);
        assert_eq!(f[PRINCESS_NEAR], 1);
        assert_eq!(f[PRINCESS_ATTACKED], 0);
        assert_eq!(f[PRINCESS_TRAPPED], 0);
        assert_eq!(f[PRINCESS_ESCAPE], 0);
    }

    #[test]
    fn centre_rings() {
        let e = eval_tables();
        assert_eq!(e.centre[0], 0);
        assert_eq!(e.centre[44], 4);
        assert_eq!(e.centre[55], 4);
        assert_eq!(e.centre[33], 3);
        assert_eq!(e.centre[91], 0);
    }

    #[test]
    fn exposed_chief_costs_the_side_ahead_more() {
        // White's Chief e1 is attacked by Black's Thoat on d3 (d2, then e1 diagonally).
        // White's far piece is a Dwar (one pawn ahead: 4.2 against the Thoat's 3.2) or a
        // Thoat (even): the exposure alone counts the same, the product only when ahead.
        let ahead = pos("4k5/4q5/10/10/10/D9/10/3t6/10/4KQ4 b - 0 1");
        let even = pos("4k5/4q5/10/10/10/T9/10/3t6/10/4KQ4 b - 0 1");
        for p in [&ahead, &even] {
            // Counted against White (its weight is negative).
            assert_eq!(p.features().0[CHIEF_ATTACKERS], 1, "{}", p.fen());
        }
        assert_eq!(ahead.features().0[CHIEF_ATTACKERS_LEAD], 1);
        assert_eq!(even.features().0[CHIEF_ATTACKERS_LEAD], 0);
    }
}
