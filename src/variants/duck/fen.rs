//! Duck-chess FEN: chess FEN with `*` for the duck. Fields: board, side, castling,
//! en passant, halfmove clock, fullmove number; the later ones may be left off.

use super::*;
use crate::core::fen::{parse_board, parse_counter, write_board};
use crate::core::parse_square;

/// Parses and validates a FEN (see the module doc of `duck` for what is rejected).
pub(super) fn parse(text: &str) -> Result<Duck, String> {
    let fields: Vec<&str> = text.split_whitespace().collect();
    if fields.len() < 2 {
        return Err("a FEN needs at least the board and the side to move".to_string());
    }
    if fields.len() > 6 {
        return Err(format!(
            "duck FEN has at most 6 fields, not {}",
            fields.len()
        ));
    }
    let field = |i: usize, default: &'static str| fields.get(i).copied().unwrap_or(default);
    let mut pos = Duck {
        pieces: [0; 6],
        colors: [0; 2],
        duck: 0,
        side: Color::from_fen_field(fields[1])?,
        castling: 0,
        ep: NO_SQUARE,
        halfmove: parse_counter(field(4, "0"), "halfmove clock")?,
        fullmove: parse_counter(field(5, "1"), "fullmove number")?,
        hash: 0,
    };
    place_pieces(&mut pos, fields[0])?;
    check_kings(&pos)?;
    pos.castling = parse_castling(&pos, field(2, "-"))?;
    pos.ep = parse_en_passant(&pos, field(3, "-"))?;
    pos.hash = pos.recompute_hash();
    Ok(pos)
}

fn place_pieces(pos: &mut Duck, board: &str) -> Result<(), String> {
    for (file, rank, letter) in parse_board(board, 8, 8)? {
        let sq = rank * 8 + file;
        if letter == '*' {
            if pos.duck != 0 {
                return Err("more than one duck on the board".to_string());
            }
            pos.duck = bit(sq);
            continue;
        }
        let piece = PIECE_LETTERS
            .iter()
            .position(|&l| l == letter.to_ascii_uppercase())
            .ok_or_else(|| format!("unknown piece letter '{}'", letter.escape_debug()))?;
        if piece == PAWN && (rank == 0 || rank == 7) {
            return Err(format!("pawn on {}", crate::core::square_name(file, rank)));
        }
        let color = if letter.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        pos.pieces[piece] |= bit(sq);
        pos.colors[color.index()] |= bit(sq);
    }
    Ok(())
}

/// Each side has one king, except that the side to move may have lost its king to the
/// last move: then the duck is on the board (that move placed it) and the other king is
/// there.
fn check_kings(pos: &Duck) -> Result<(), String> {
    for color in [Color::White, Color::Black] {
        let kings = (pos.pieces[KING] & pos.colors[color.index()]).count_ones();
        let name = if color == Color::White {
            "white"
        } else {
            "black"
        };
        if kings > 1 {
            return Err(format!("more than one {name} king"));
        }
        let captured_by_last_move = color == pos.side && pos.duck != 0;
        if kings == 0 && !captured_by_last_move {
            return Err(format!("no {name} king"));
        }
    }
    Ok(())
}

/// `-` or some of `KQkq` (each once); every right needs its king and rook at home.
fn parse_castling(pos: &Duck, field: &str) -> Result<u8, String> {
    if field == "-" {
        return Ok(0);
    }
    let mut rights = 0;
    for c in field.chars() {
        let (right, color, king, rook) = match c {
            'K' => (WHITE_SHORT, Color::White, E1, H1),
            'Q' => (WHITE_LONG, Color::White, E1, A1),
            'k' => (BLACK_SHORT, Color::Black, E8, H8),
            'q' => (BLACK_LONG, Color::Black, E8, A8),
            _ => return Err(format!("bad castling field '{}'", field.escape_debug())),
        };
        if rights & right != 0 {
            return Err(format!("castling right '{c}' given twice"));
        }
        let own = pos.colors[color.index()];
        if pos.pieces[KING] & own & bit(king) == 0 || pos.pieces[ROOK] & own & bit(rook) == 0 {
            return Err(format!(
                "castling right '{c}' without its king and rook on their start squares"
            ));
        }
        rights |= right;
    }
    Ok(rights)
}

/// `-` or the square a pawn of the side not to move skipped with a double step on the last
/// move: on the third rank from that side, the pawn in front of it, no piece on it or on the
/// pawn's start square (the duck may stand on either).
fn parse_en_passant(pos: &Duck, field: &str) -> Result<u8, String> {
    if field == "-" {
        return Ok(NO_SQUARE);
    }
    let (file, rank) =
        parse_square(field, 8, 8).ok_or_else(|| format!("bad en-passant square '{field}'"))?;
    let sq = rank * 8 + file;
    let wrong = || format!("en-passant square {field} does not follow a double step");
    let (ep_rank, pawn_sq, start_sq) = match pos.side {
        Color::White => (5, sq.wrapping_sub(8), sq.wrapping_add(8)),
        Color::Black => (2, sq.wrapping_add(8), sq.wrapping_sub(8)),
    };
    if rank != ep_rank {
        return Err(wrong());
    }
    let them = pos.side.flip();
    let occupied = pos.colors[0] | pos.colors[1];
    let pawn_there = pos.pieces[PAWN] & pos.colors[them.index()] & bit(pawn_sq) != 0;
    if !pawn_there || occupied & (bit(sq) | bit(start_sq)) != 0 {
        return Err(wrong());
    }
    Ok(sq)
}

/// Writes every field.
pub(super) fn write(pos: &Duck) -> String {
    let board = write_board(8, 8, |file, rank| pos.letter_at(rank * 8 + file));
    let mut castling: String = [
        (WHITE_SHORT, 'K'),
        (WHITE_LONG, 'Q'),
        (BLACK_SHORT, 'k'),
        (BLACK_LONG, 'q'),
    ]
    .iter()
    .filter(|(right, _)| pos.castling & right != 0)
    .map(|&(_, c)| c)
    .collect();
    if castling.is_empty() {
        castling.push('-');
    }
    let ep = if pos.ep == NO_SQUARE {
        "-".to_string()
    } else {
        crate::core::square_name(pos.ep % 8, pos.ep / 8)
    };
    format!(
        "{board} {} {castling} {ep} {} {}",
        pos.side.letter(),
        pos.halfmove,
        pos.fullmove
    )
}
