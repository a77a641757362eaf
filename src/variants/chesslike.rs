//! What chess and duck chess share, so that each is written once: the six piece types and
//! their letters, the pawns' ranks, castling (rights, paths, the rook's move), en passant,
//! and the FEN fields of castling, en passant and the clocks.
//!
//! Both games keep 8x8 bitboards, square = rank * 8 + file: `pieces` by type (both colours)
//! and `colors` by colour index, which is what the functions here take. Their rules differ
//! only where the duck does (check, castling through attacks, the duck blocking); that stays
//! in each game.

use crate::core::attacks8::{self, PAWN_ATTACKS};
use crate::core::fen::piece_letter;
use crate::core::{parse_square, square_name, Color};

/// Piece types: the index into `pieces`, and a promotion's piece.
pub const PAWN: usize = 0;
pub const KNIGHT: usize = 1;
pub const BISHOP: usize = 2;
pub const ROOK: usize = 3;
pub const QUEEN: usize = 4;
pub const KING: usize = 5;

/// FEN letters of the piece types (White's; Black's are lowercase).
pub const LETTERS: [char; 6] = ['P', 'N', 'B', 'R', 'Q', 'K'];

/// The pieces a pawn promotes to, in the order the move generators write them.
pub const PROMOTIONS: [usize; 4] = [QUEEN, ROOK, BISHOP, KNIGHT];

pub const RANK_1: u64 = 0xff;
pub const RANK_8: u64 = RANK_1 << 56;
pub const FILE_A: u64 = 0x0101_0101_0101_0101;
pub const FILE_H: u64 = FILE_A << 7;

/// A pawn's step forward, by colour index.
pub const FORWARD: [i8; 2] = [8, -8];
/// Destinations of a single push that may push again, by colour index: rank 3 for White,
/// rank 6 for Black.
pub const DOUBLE_PUSH_RANK: [u64; 2] = [RANK_1 << 16, RANK_1 << 40];
/// The last rank, where pawns promote, by colour index.
pub const PROMOTION_RANK: [u64; 2] = [RANK_8, RANK_1];

/// Castling right bits; Black's are White's shifted left by 2.
pub const WHITE_KING_SIDE: u8 = 1;
pub const WHITE_QUEEN_SIDE: u8 = 2;
pub const BLACK_KING_SIDE: u8 = 4;
pub const BLACK_QUEEN_SIDE: u8 = 8;

/// `CASTLING_KEEP[sq]`: the rights that survive a move from or to `sq` (moving or capturing
/// a king or rook on its start square ends the rights it carries).
pub const CASTLING_KEEP: [u8; 64] = {
    let mut keep = [15u8; 64];
    keep[0] = 15 & !WHITE_QUEEN_SIDE;
    keep[4] = 15 & !(WHITE_KING_SIDE | WHITE_QUEEN_SIDE);
    keep[7] = 15 & !WHITE_KING_SIDE;
    keep[56] = 15 & !BLACK_QUEEN_SIDE;
    keep[60] = 15 & !(BLACK_KING_SIDE | BLACK_QUEEN_SIDE);
    keep[63] = 15 & !BLACK_KING_SIDE;
    keep
};

/// The squares a knight, bishop, rook or queen (`kind`) on `sq` attacks through
/// `occupied`: what the evaluations count as its mobility.
#[inline(always)]
pub fn piece_reach(kind: usize, sq: u8, occupied: u64) -> u64 {
    match kind {
        KNIGHT => attacks8::KNIGHT[sq as usize],
        BISHOP => attacks8::bishop(sq, occupied),
        ROOK => attacks8::rook(sq, occupied),
        _ => attacks8::queen(sq, occupied),
    }
}

/// Castling for one side and wing: the squares that must be empty, the squares the king
/// crosses or reaches (in chess they must not be attacked), and the king's destination.
pub struct CastlePath {
    pub empty: u64,
    pub safe: u64,
    pub king_to: u8,
}

/// `CASTLE_PATHS[colour][wing]`, wing 0 = king side, 1 = queen side: the wing's right is
/// `WHITE_KING_SIDE << (2 * colour + wing)`.
pub const CASTLE_PATHS: [[CastlePath; 2]; 2] = [
    [
        CastlePath {
            empty: 0x60,
            safe: 0x60,
            king_to: 6,
        },
        CastlePath {
            empty: 0x0e,
            safe: 0x0c,
            king_to: 2,
        },
    ],
    [
        CastlePath {
            empty: 0x60 << 56,
            safe: 0x60 << 56,
            king_to: 62,
        },
        CastlePath {
            empty: 0x0e << 56,
            safe: 0x0c << 56,
            king_to: 58,
        },
    ],
];

/// The rook's move, from and to, when the king castles to `king_to`: to g1 or g8 the rook
/// comes from h to f, to c1 or c8 from a to d.
#[inline(always)]
pub const fn castle_rook(king_to: u8) -> (u8, u8) {
    if king_to & 7 == 6 {
        (king_to + 1, king_to - 1)
    } else {
        (king_to - 2, king_to + 1)
    }
}

/// The castling rights with the colours exchanged (for `Game::color_flipped`).
pub const fn flip_castling(rights: u8) -> u8 {
    (rights & 3) << 2 | rights >> 2
}

/// No en-passant square.
pub const NO_SQUARE: u8 = 64;

/// The en-passant square with the board mirrored top to bottom (for `Game::color_flipped`).
pub const fn flip_en_passant(ep: u8) -> u8 {
    if ep == NO_SQUARE {
        NO_SQUARE
    } else {
        ep ^ 56
    }
}

/// The square of the pawn an en-passant capture on `ep` removes: the one that just made the
/// double push, one rank nearer its own side (ranks 3 and 4, 6 and 5 differ in bit 3).
#[inline(always)]
pub const fn en_passant_victim(ep: u8) -> u8 {
    ep ^ 8
}

/// The pawns of colour index `us` placed to capture on `ep`, legal or not.
#[inline(always)]
pub fn en_passant_capturers(pieces: &[u64; 6], colors: &[u64; 2], us: usize, ep: u8) -> u64 {
    PAWN_ATTACKS[us ^ 1][ep as usize & 63] & pieces[PAWN] & colors[us]
}

/// A move's protocol text: the two squares, and for a promotion the new piece's lowercase
/// letter (`e2e4`, `e7e8q`).
pub fn move_text(from: u8, to: u8, promotion: Option<usize>) -> String {
    let mut text = square_name(from % 8, from / 8) + &square_name(to % 8, to / 8);
    if let Some(piece) = promotion {
        text.push(piece_letter(&LETTERS, Color::Black, piece));
    }
    text
}

/// The names of the FEN fields, for [`crate::core::fen::Fields::split`].
pub const FEN_FIELDS: [&str; 6] = [
    "board",
    "side",
    "castling",
    "en passant",
    "halfmove clock",
    "fullmove number",
];

/// Parses the castling field: `-` or some of `KQkq`, in any order, each once; each right
/// needs its king and rook on their start squares.
pub fn parse_castling(field: &str, pieces: &[u64; 6], colors: &[u64; 2]) -> Result<u8, String> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in field.chars() {
        let (right, color, king, rook) = match c {
            'K' => (WHITE_KING_SIDE, 0, 4, 7),
            'Q' => (WHITE_QUEEN_SIDE, 0, 4, 0),
            'k' => (BLACK_KING_SIDE, 1, 60, 63),
            'q' => (BLACK_QUEEN_SIDE, 1, 60, 56),
            _ => {
                return Err(format!(
                    "bad castling field '{}': only KQkq or -",
                    field.escape_debug()
                ))
            }
        };
        if rights & right != 0 {
            return Err(format!("castling right '{c}' given twice"));
        }
        let own = colors[color];
        if pieces[KING] & own & 1 << king == 0 || pieces[ROOK] & own & 1 << rook == 0 {
            return Err(format!(
                "castling right '{c}' without its king and rook on their start squares"
            ));
        }
        rights |= right;
    }
    Ok(rights)
}

/// Parses the en-passant field: `-` or the square that a pawn of the side not to move
/// skipped with a double push on the last move. It is on rank 6 with White to move, rank 3
/// with Black to move, the pawn stands in front of it, and no piece is on it or on the
/// pawn's start square.
pub fn parse_en_passant(
    field: &str,
    side: Color,
    pieces: &[u64; 6],
    colors: &[u64; 2],
) -> Result<u8, String> {
    if field == "-" {
        return Ok(NO_SQUARE);
    }
    let (file, rank) = parse_square(field, 8, 8)
        .ok_or_else(|| format!("bad en-passant square '{}'", field.escape_debug()))?;
    let sq = rank * 8 + file;
    let ep_rank = match side {
        Color::White => 5,
        Color::Black => 2,
    };
    if rank != ep_rank {
        return Err(format!(
            "en-passant square {field} is not on rank {} with {side:?} to move",
            ep_rank + 1
        ));
    }
    // The pawn's start square: the other side of `sq` from the pawn.
    let start = match side {
        Color::White => sq + 8,
        Color::Black => sq - 8,
    };
    let pawns = pieces[PAWN] & colors[side.flip().index()];
    let occupied = colors[0] | colors[1];
    if pawns & 1 << en_passant_victim(sq) == 0 || occupied & (1 << sq | 1 << start) != 0 {
        return Err(format!(
            "en-passant square {field} does not follow a pawn's double push"
        ));
    }
    Ok(sq)
}

/// The FEN after the board: side, castling, en passant, halfmove clock, fullmove number.
pub fn fen_fields(side: Color, castling: u8, ep: u8, halfmove: u32, fullmove: u32) -> String {
    let mut rights: String = "KQkq"
        .chars()
        .enumerate()
        .filter(|&(bit, _)| castling & (1 << bit) != 0)
        .map(|(_, c)| c)
        .collect();
    if rights.is_empty() {
        rights.push('-');
    }
    let ep = if ep == NO_SQUARE {
        "-".to_string()
    } else {
        square_name(ep % 8, ep / 8)
    };
    format!("{} {rights} {ep} {halfmove} {fullmove}", side.letter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn castling_tables_agree() {
        for (color, paths) in CASTLE_PATHS.iter().enumerate() {
            let king = [4u8, 60][color];
            for (wing, path) in paths.iter().enumerate() {
                let right = WHITE_KING_SIDE << (2 * color + wing);
                let (rook_from, rook_to) = castle_rook(path.king_to);
                // Moving the king or this rook ends the right; the rook lands beside the king.
                assert_eq!(CASTLING_KEEP[king as usize] & right, 0);
                assert_eq!(CASTLING_KEEP[rook_from as usize] & right, 0);
                assert_eq!(rook_to.abs_diff(path.king_to), 1);
                assert_eq!(path.empty & path.safe, path.safe);
                assert_eq!(flip_castling(flip_castling(right)), right);
            }
        }
        assert_eq!(flip_castling(WHITE_KING_SIDE), BLACK_KING_SIDE);
    }

    #[test]
    fn move_texts() {
        assert_eq!(move_text(12, 28, None), "e2e4");
        assert_eq!(move_text(52, 60, Some(QUEEN)), "e7e8q");
        assert_eq!(move_text(49, 56, Some(KNIGHT)), "b7a8n");
    }

    #[test]
    fn fen_fields_read_back() {
        let start =
            crate::core::fen::parse_board("rnbqkbnr/pppp1ppp/8/8/4pP2/8/PPPPP1PP/RNBQKBNR", 8, 8)
                .unwrap();
        let (mut pieces, mut colors) = ([0u64; 6], [0u64; 2]);
        for (file, rank, c) in start {
            let (color, kind) = crate::core::fen::parse_piece(&LETTERS, c).unwrap();
            pieces[kind] |= 1 << (rank * 8 + file);
            colors[color.index()] |= 1 << (rank * 8 + file);
        }
        let rights = parse_castling("Kkq", &pieces, &colors).unwrap();
        let ep = parse_en_passant("f3", Color::Black, &pieces, &colors).unwrap();
        assert_eq!(fen_fields(Color::Black, rights, ep, 0, 3), "b Kkq f3 0 3");
        assert!(parse_castling("KK", &pieces, &colors).is_err());
        assert!(parse_en_passant("e3", Color::Black, &pieces, &colors).is_err());
        assert!(parse_en_passant("f6", Color::Black, &pieces, &colors).is_err());
    }
}
