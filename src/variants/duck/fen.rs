//! Duck-chess FEN: chess FEN with `*` for the duck. Fields: board, side, castling,
//! en passant, halfmove clock, fullmove number; the later ones may be left off.

use super::*;
use crate::core::fen::{parse_board, parse_piece, write_board, Fields};

/// Parses and validates a FEN (see the module doc of `duck` for what is rejected).
pub(super) fn parse(text: &str) -> Result<Duck, String> {
    let fields = Fields::split(text, "duck", &chesslike::FEN_FIELDS)?;
    let mut pos = Duck {
        pieces: [0; 6],
        colors: [0; 2],
        duck: 0,
        side: fields.side()?,
        castling: 0,
        ep: NO_SQUARE,
        halfmove: fields.counter(4, "halfmove clock", 0)?,
        // Fullmove 0 is accepted, unlike in chess: FENs this game always read still read.
        fullmove: fields.counter(5, "fullmove number", 1)?,
        hash: 0,
    };
    place_pieces(&mut pos, fields.board())?;
    check_kings(&pos)?;
    pos.castling = chesslike::parse_castling(fields.get(2, "-"), &pos.pieces, &pos.colors)?;
    // The duck is in neither colour's squares, so it may stand on the square the pawn
    // skipped or on its start square.
    pos.ep = chesslike::parse_en_passant(fields.get(3, "-"), pos.side, &pos.pieces, &pos.colors)?;
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
        let (color, piece) = parse_piece(&LETTERS, letter)?;
        if piece == PAWN && (rank == 0 || rank == 7) {
            return Err(format!("pawn on {}", crate::core::square_name(file, rank)));
        }
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

/// Writes every field.
pub(super) fn write(pos: &Duck) -> String {
    let board = write_board(8, 8, |file, rank| pos.letter_at(rank * 8 + file));
    let rest = chesslike::fen_fields(pos.side, pos.castling, pos.ep, pos.halfmove, pos.fullmove);
    format!("{board} {rest}")
}
