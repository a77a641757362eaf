//! What the search needs from jetan: a first evaluation (material, Panthan advance, the
//! Princess's safety and her escape in hand, the Chief's activity), capture ordering and
//! the null move.

use super::tables::Piece;
use super::{Jetan, SIDE_KEY};
use crate::core::{Bits, Color, Move};
use crate::search::SearchGame;

/// Material by kind (Panthan, Thoat, Warrior, Padwar, Dwar, Flier, Chief, Princess), roughly
/// by the squares each reaches. Losing the Chief to any piece but the Chief only draws, so it
/// is worth a lot but less than a won game; the Princess is the game itself.
const VALUES: [i32; 8] = [100, 320, 260, 260, 420, 400, 900, 20_000];

/// Chebyshev distance between two squares of the 10x10 board.
fn distance(a: u8, b: u8) -> i32 {
    let (af, ar) = ((a % 10) as i32, (a / 10) as i32);
    let (bf, br) = ((b % 10) as i32, (b / 10) as i32);
    (af - bf).abs().max((ar - br).abs())
}

impl Jetan {
    fn side_score(&self, color: Color) -> i32 {
        let own = self.by_color[color.index()];
        let enemy = self.by_color[color.flip().index()];
        let mut score = 0;
        for piece in Piece::ALL {
            if piece == Piece::Princess {
                continue;
            }
            for sq in (self.by_kind[piece as usize] & own).squares() {
                score += VALUES[piece as usize];
                let rank = (sq / 10) as i32;
                let advance = if color == Color::White {
                    rank
                } else {
                    9 - rank
                };
                let centre = 9 - ((sq % 10) as i32 * 2 - 9).abs().max((rank * 2 - 9).abs());
                score += match piece {
                    Piece::Panthan => 6 * advance,
                    Piece::Chief => 2 * centre,
                    _ => 3 * centre,
                };
            }
        }
        // The Princess: enemies within three steps are her danger; the escape is her insurance.
        for princess in (self.by_kind[Piece::Princess as usize] & own).squares() {
            let near = enemy
                .squares()
                .filter(|&e| distance(e, princess) <= 3)
                .count() as i32;
            score -= 30 * near;
            if self.escape & (1 << color.index()) != 0 {
                score += 40;
            }
        }
        score
    }
}

impl SearchGame for Jetan {
    fn material(&self) -> i32 {
        let side = |c: Color| -> i32 {
            Piece::ALL
                .into_iter()
                .filter(|&p| p != Piece::Princess)
                .map(|p| {
                    VALUES[p as usize]
                        * (self.by_kind[p as usize] & self.by_color[c.index()]).count_ones() as i32
                })
                .sum()
        };
        side(self.side) - side(self.side.flip())
    }

    fn evaluate(&self) -> i32 {
        self.side_score(self.side) - self.side_score(self.side.flip())
    }

    fn tactical_order(&self, mv: Move) -> i32 {
        let value = |sq: u8| self.piece_at(sq).map_or(0, |(_, p)| VALUES[p as usize]);
        value(mv.to()) * 8 - value(mv.from()).min(1000) / 10
    }

    fn in_check(&self) -> bool {
        false
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
        passed.side = self.side.flip();
        passed.hash ^= SIDE_KEY;
        Some(passed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;

    #[test]
    fn start_is_balanced_and_null_move_hash_is_exact() {
        let start = Jetan::from_fen(Jetan::START_FEN).unwrap();
        assert_eq!(start.evaluate(), 0);
        let passed = start.null_move().unwrap();
        assert_eq!(passed.hash(), passed.recompute_hash());
    }

    #[test]
    fn distance_is_chebyshev() {
        assert_eq!(distance(0, 99), 9);
        assert_eq!(distance(44, 47), 3);
        assert_eq!(distance(44, 77), 3);
    }
}
