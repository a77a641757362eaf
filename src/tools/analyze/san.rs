//! Standard algebraic notation (SAN) for EPD `bm`/`am` operands, as published test suites
//! write them (`Nxf7+`, `exd5`, `e8=Q`, `O-O`, `R1e2`). A SAN move is matched against the
//! legal moves of the position, reading the pieces from the board of its FEN, so it works for
//! every game whose pieces have letters (the pawn-like piece is `P` in all five).

use crate::core::{split_move_squares, FileRank, Game, Move};

/// The pieces of the FEN board field, by (file, rank) from `a1`: `None` for empty squares.
fn board<G: Game>(position: &G) -> Vec<Vec<Option<char>>> {
    let fen = position.fen();
    let field = fen.split_whitespace().next().unwrap_or("");
    let (width, height) = (G::WIDTH as usize, G::HEIGHT as usize);
    let mut squares = vec![vec![None; height]; width];
    for (row, text) in field.split('/').enumerate() {
        let rank = height.saturating_sub(row + 1);
        let mut file = 0;
        let mut digits = String::new();
        for c in text.chars().chain(std::iter::once('/')) {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            file += digits.parse::<usize>().unwrap_or(0);
            digits.clear();
            if c == '/' {
                break;
            }
            if file < width && rank < height {
                squares[file][rank] = c.is_ascii_alphabetic().then_some(c);
            }
            file += 1;
        }
    }
    squares
}

/// The legal moves that `san` names: usually one; in duck chess the piece move with every
/// duck square. An error when none or two different piece moves match.
pub fn san_moves<G: Game>(position: &G, san: &str) -> Result<Vec<Move>, String> {
    let text = san.trim_end_matches(['+', '#', '!', '?']);
    let squares = board(position);
    let piece_at = |(file, rank): FileRank| -> Option<char> {
        squares
            .get(file as usize)
            .and_then(|f| f.get(rank as usize))
            .copied()
            .flatten()
            .map(|c| c.to_ascii_uppercase())
    };
    let mut moves = Vec::new();
    position.generate(&mut moves);
    let parts = |m: Move| {
        let full = position.move_text(m);
        split_move_squares(&full, G::WIDTH, G::HEIGHT)
            .map(|(from, to, rest)| (from, to, rest.split(',').next().unwrap_or("").to_string()))
    };
    let castle = match text {
        "O-O" | "0-0" => Some(2i8),
        "O-O-O" | "0-0-0" => Some(-2),
        _ => None,
    };
    let matches: Vec<Move> = if let Some(df) = castle {
        moves
            .into_iter()
            .filter(|&m| {
                parts(m).is_some_and(|(from, to, _)| {
                    piece_at(from) == Some('K') && from.1 == to.1 && to.0 as i8 - from.0 as i8 == df
                })
            })
            .collect()
    } else {
        let (body, promotion) = match text.split_once('=') {
            Some((body, p)) => (body, p.chars().next()),
            None => match text.char_indices().last() {
                Some((i, c)) if c.is_ascii_uppercase() && i > 0 => (&text[..i], Some(c)),
                _ => (text, None),
            },
        };
        let (piece, body) = match body.chars().next() {
            Some(c) if c.is_ascii_uppercase() => (c, &body[1..]),
            _ => ('P', body),
        };
        let body: String = body
            .chars()
            .filter(|c| !matches!(c, 'x' | ':' | '-'))
            .collect();
        // The destination: the last letter with the digits after it.
        let Some(split) = body.rfind(|c: char| c.is_ascii_lowercase()) else {
            return Err(format!("'{san}' is neither a move of this game nor SAN"));
        };
        let (hint, dest) = body.split_at(split);
        let dest = crate::core::parse_square(dest, G::WIDTH, G::HEIGHT)
            .ok_or_else(|| format!("'{san}' is neither a move of this game nor SAN"))?;
        let hint_file = hint.chars().find(|c| c.is_ascii_lowercase());
        let hint_rank: Option<u8> = hint
            .trim_start_matches(|c: char| c.is_ascii_lowercase())
            .parse()
            .ok();
        moves
            .into_iter()
            .filter(|&m| {
                parts(m).is_some_and(|(from, to, promo)| {
                    to == dest
                        && piece_at(from) == Some(piece)
                        && hint_file.is_none_or(|f| (b'a' + from.0) as char == f)
                        && hint_rank.is_none_or(|r| from.1 + 1 == r)
                        && match promotion {
                            Some(p) => promo.eq_ignore_ascii_case(&p.to_string()),
                            None => promo.is_empty(),
                        }
                })
            })
            .collect()
    };
    let mut pieces: Vec<String> = matches
        .iter()
        .map(|&m| {
            let full = position.move_text(m);
            full.split(',').next().unwrap_or("").to_string()
        })
        .collect();
    pieces.sort();
    pieces.dedup();
    match pieces.len() {
        0 => Err(format!("'{san}' is no legal move here (as SAN)")),
        1 => Ok(matches),
        _ => Err(format!("'{san}' is ambiguous: {}", pieces.join(", "))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chess, Duck};

    fn one(fen: &str, san: &str) -> String {
        let pos = Chess::from_fen(fen).unwrap();
        let moves = san_moves(&pos, san).unwrap_or_else(|e| panic!("{san}: {e}"));
        assert_eq!(moves.len(), 1);
        pos.move_text(moves[0])
    }

    #[test]
    fn chess_san_of_every_kind() {
        let start = Chess::START_FEN;
        assert_eq!(one(start, "e4"), "e2e4");
        assert_eq!(one(start, "Nf3"), "g1f3");
        let kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
        assert_eq!(one(kiwi, "O-O"), "e1g1");
        assert_eq!(one(kiwi, "O-O-O+"), "e1c1");
        assert_eq!(one(kiwi, "Nxf7"), "e5f7");
        assert_eq!(one(kiwi, "dxe6"), "d5e6");
        assert_eq!(one(kiwi, "Bxa6!"), "e2a6");
        assert_eq!(one(kiwi, "Qxf6"), "f3f6");
        let promo = "8/1P6/8/8/8/8/6k1/4K3 w - - 0 1";
        assert_eq!(one(promo, "b8=Q"), "b7b8q");
        assert_eq!(one(promo, "b8N"), "b7b8n");
        // Two rooks can reach a square: the file or rank hint decides.
        let rooks = "4k3/8/8/8/8/8/4K3/R6R w - - 0 1";
        assert_eq!(one(rooks, "Rad1"), "a1d1");
        let rooks = "4k3/8/8/8/8/R7/8/R3K3 w - - 0 1";
        assert_eq!(one(rooks, "R3a2"), "a3a2");
    }

    #[test]
    fn wrong_and_ambiguous_san_are_errors() {
        let pos = Chess::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1").unwrap();
        assert!(san_moves(&pos, "Rd1").unwrap_err().contains("ambiguous"));
        assert_eq!(san_moves(&pos, "Rhd1").unwrap().len(), 1);
        assert!(san_moves(&pos, "Qd4").is_err());
        assert!(san_moves(&pos, "Z").is_err());
        assert!(san_moves(&pos, "").is_err());
        assert!(san_moves(&pos, "Ra9").is_err());
    }

    #[test]
    fn duck_san_names_the_piece_move_with_every_duck_square() {
        let pos = Duck::from_fen(Duck::START_FEN).unwrap();
        assert_eq!(san_moves(&pos, "Nf3").unwrap().len(), 32);
    }
}
