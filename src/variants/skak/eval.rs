//! What the search needs from skak: a first evaluation (material, centralisation, Fylgdar
//! advance, Jarkhan shelter), capture ordering, and the null move.

use super::{Skak, ADHAL, FYLGDAR, HOFDHING, JARKHAN, KINDS, LANAR, SIDE_KEY_INDEX, ZOBRIST};
use crate::core::{Bits, Color, Game, Move};
use crate::search::SearchGame;

/// Material values by kind index; the Jarkhan's value only orders its capture first.
const VALUES: [i32; KINDS] = [20_000, 900, 500, 330, 100];

/// Distance of a square of the 7x7 board from the centre d4 (0 to 3).
fn centre_distance(square: u8) -> i32 {
    let (file, rank) = ((square % 8) as i32, (square / 8) as i32);
    (file - 3).abs().max((rank - 3).abs())
}

impl Skak {
    fn side_score(&self, color: Color) -> i32 {
        let own = self.colors[color.index()];
        let mut score = 0;
        for kind in [ADHAL, LANAR, HOFDHING, FYLGDAR] {
            for square in (own & self.kinds[kind]).squares() {
                score += VALUES[kind] + 6 * (3 - centre_distance(square));
                if kind == FYLGDAR {
                    let rank = (square / 8) as i32;
                    let advance = if color == Color::White {
                        rank
                    } else {
                        6 - rank
                    };
                    score += 4 * advance;
                }
            }
        }
        // The Jarkhan is captured, not mated: friendly pieces next to it shield it.
        for square in (own & self.kinds[JARKHAN]).squares() {
            let guards = crate::core::attacks8::KING[square as usize] & own;
            score += 8 * guards.count_ones().min(4) as i32;
        }
        score
    }
}

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
        let us = self.side_score(self.side);
        let them = self.side_score(self.side.flip());
        us - them
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let victim = self.piece_at(mv.to()).map_or(0, |(_, kind)| VALUES[kind]);
        let attacker = VALUES[mv.kind() as usize % KINDS].min(1000);
        victim * 8 - attacker / 10
    }

    fn in_check(&self) -> bool {
        false
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
        passed.hash ^= ZOBRIST[SIDE_KEY_INDEX];
        Some(passed)
    }
}
