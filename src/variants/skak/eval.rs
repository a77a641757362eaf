//! What the search needs from skak: the evaluation (material, a piece-square table per
//! kind, Jarkhan shelter) as a weighted sum of terms ([`Tunable`]: the weights are in
//! `weights.rs`, fitted by `thoat tune`), capture ordering, and the null move.

use super::weights::WEIGHTS;
use super::{Skak, ADHAL, FYLGDAR, HOFDHING, JARKHAN, KEYS, KINDS, LANAR, SIDE_KEY};
use crate::core::moves::mvv_lva;
use crate::core::{Bits, Color, Game, Move};
use crate::search::SearchGame;
use crate::variants::terms::{side_to_move_score, Terms, Tunable};

/// Material values by kind index for capture ordering and the material-only baseline; the
/// Jarkhan's value only orders its capture first. The evaluation's own material values are
/// the tuned weights.
const VALUES: [i32; KINDS] = [20_000, 900, 500, 330, 100];

/// The first term of each kind's piece-square table (49 terms, rank 7 first, as seen by
/// White), after the four material terms (Adhal, Lanar, Höfdhing, Fylgdar).
const TABLE: [usize; KINDS] = [4 + 4 * 49, 4, 4 + 49, 4 + 2 * 49, 4 + 3 * 49];
/// Friendly pieces next to the Jarkhan (up to 4): it is captured, not mated.
const GUARDS: usize = 4 + 5 * 49;
/// The number of terms.
const TERMS: usize = GUARDS + 1;

/// The table index of `square` (rank * 8 + file) for a piece of `white` or not: the board as
/// White sees it, rank 7 first; Black's pieces are mirrored rank-wise.
#[inline]
fn table_index(white: bool, square: u8) -> usize {
    let (file, rank) = ((square % 8) as usize, (square / 8) as usize);
    let row = if white { 6 - rank } else { rank };
    row * 7 + file
}

impl Skak {
    /// Adds the terms of `color`'s pieces with `sign` (+1 White, -1 Black).
    #[inline(always)]
    fn side_terms<T: Terms>(&self, color: Color, sign: i32, terms: &mut T) {
        let own = self.colors[color.index()];
        let white = color == Color::White;
        for kind in [ADHAL, LANAR, HOFDHING, FYLGDAR] {
            let pieces = own & self.kinds[kind];
            terms.add(kind - 1, sign * pieces.count_ones() as i32);
            for square in pieces.squares() {
                terms.add(TABLE[kind] + table_index(white, square), sign);
            }
        }
        for square in (own & self.kinds[JARKHAN]).squares() {
            terms.add(TABLE[JARKHAN] + table_index(white, square), sign);
            let guards = crate::core::attacks8::KING[square as usize] & own;
            terms.add(GUARDS, sign * guards.count_ones().min(4) as i32);
        }
    }
}

impl Tunable for Skak {
    const TERM_NAMES: &'static [&'static str] = &crate::term_names!(
        board7,
        ["adhal", "lanar", "hofdhing", "fylgdar"],
        ["adhal", "lanar", "hofdhing", "fylgdar", "jarkhan"],
        ["jarkhan_guards"]
    );

    fn weights() -> &'static [i32] {
        &WEIGHTS
    }

    fn add_terms<T: Terms>(&self, terms: &mut T) {
        self.side_terms(Color::White, 1, terms);
        self.side_terms(Color::Black, -1, terms);
    }
}

// The weights, the names and the terms agree in number.
const _: () = assert!(WEIGHTS.len() == TERMS && <Skak as Tunable>::TERM_NAMES.len() == TERMS);
// `moved_piece` names each colour and kind in a slot of its own.
const _: () = assert!(2 * KINDS <= crate::search::PIECE_SLOTS);

impl SearchGame for Skak {
    fn material(&self) -> i32 {
        let side = |c: Color| -> i32 {
            [ADHAL, LANAR, HOFDHING, FYLGDAR]
                .into_iter()
                .map(|k| VALUES[k] * (self.colors[c.index()] & self.kinds[k]).count_ones() as i32)
                .sum()
        };
        side(self.side) - side(self.side.flip())
    }

    fn evaluate(&self) -> i32 {
        side_to_move_score(self, &WEIGHTS)
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let victim = self.piece_at(mv.to()).map_or(0, |(_, kind)| VALUES[kind]);
        mvv_lva(victim, VALUES[mv.kind() as usize % KINDS].min(1000), 0)
    }

    fn see_ge(&self, mv: Move, threshold: i32) -> bool {
        self.see_at_least(mv, threshold)
    }

    fn moved_piece(&self, mv: Move) -> usize {
        // `Move::kind` is the moving piece's kind: `colour * 5 + kind`, below 10.
        self.side.index() * KINDS + (mv.kind() as usize).min(KINDS - 1)
    }

    fn threatened(&self) -> bool {
        self.jarkhan_attacked()
    }

    fn null_move(&self) -> Option<Self> {
        // Passing is unsound only with nothing but Jarkhan and Fylgdar (zugzwang).
        let own = self.colors[self.side.index()];
        if own & (self.kinds[ADHAL] | self.kinds[LANAR] | self.kinds[HOFDHING]) == 0
            || self.ended().is_some()
        {
            return None;
        }
        let mut passed = *self;
        passed.side = self.side.flip();
        passed.hash ^= KEYS.extra(SIDE_KEY);
        Some(passed)
    }
}
