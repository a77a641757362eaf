//! Reading analysis input: one position per line, as a FEN of the game or an EPD record
//! (the position followed by operations such as `bm e2e4; id "x";`).
//!
//! Each game has its own FEN fields (RULES.md), so the split between position and operations
//! is not a fixed field count: the position is the longest prefix of whitespace-separated
//! fields (at most 6) that the game's `from_fen` accepts — every game fills omitted trailing
//! fields with neutral defaults — and the rest must be well-formed EPD operations.

use crate::core::game::parse_move;
use crate::core::{Game, Move};

/// The most FEN fields any game has (chess: board side castling ep halfmove fullmove).
const MAX_FEN_FIELDS: usize = 6;

/// One EPD operation: an opcode and its operands (quoted strings unquoted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operation {
    /// The opcode, e.g. `bm`.
    pub opcode: String,
    /// The operands in order.
    pub operands: Vec<String>,
}

/// One position to analyse.
#[derive(Clone, Debug)]
pub struct Entry<G> {
    /// The line number in the input, from 1.
    pub line: usize,
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// The position.
    pub position: G,
    /// `bm`: the best moves (empty when absent).
    pub best: Vec<Move>,
    /// `am`: the moves to avoid (empty when absent).
    pub avoid: Vec<Move>,
}

impl<G> Entry<G> {
    /// Whether this line is a test (has `bm` or `am`), so that a result can be judged.
    pub fn is_test(&self) -> bool {
        !self.best.is_empty() || !self.avoid.is_empty()
    }

    /// Whether `mv` solves the test: one of the `bm` moves (if any) and none of the `am`.
    pub fn solved_by(&self, mv: Option<Move>) -> bool {
        match mv {
            None => false,
            Some(mv) => {
                (self.best.is_empty() || self.best.contains(&mv)) && !self.avoid.contains(&mv)
            }
        }
    }
}

/// What one input line holds.
#[derive(Debug)]
pub enum Line<G> {
    /// Blank or a `#` comment.
    Skip,
    /// A position to analyse.
    Position(Box<Entry<G>>),
}

/// Parses one input line (`number` counts from 1). Errors are one sentence, without the
/// line number (the caller adds it).
pub fn parse_line<G: Game>(text: &str, number: usize) -> Result<Line<G>, String> {
    let text = text.trim();
    if text.is_empty() || text.starts_with('#') {
        return Ok(Line::Skip);
    }
    let (position, rest) = split_position::<G>(text)?;
    let operations = parse_operations(rest)?;
    let mut entry = Entry {
        line: number,
        id: None,
        position,
        best: Vec::new(),
        avoid: Vec::new(),
    };
    for op in operations {
        match op.opcode.as_str() {
            "id" => entry.id = op.operands.first().cloned(),
            "bm" | "am" => {
                if op.operands.is_empty() {
                    return Err(format!("'{}' without a move", op.opcode));
                }
                let mut moves = Vec::new();
                for text in &op.operands {
                    moves.extend(epd_moves(&entry.position, text).map_err(|e| {
                        format!(
                            "{} move: {e} (moves are in the game's notation, e.g. e2e4)",
                            op.opcode
                        )
                    })?);
                }
                if op.opcode == "bm" {
                    entry.best.extend(moves);
                } else {
                    entry.avoid.extend(moves);
                }
            }
            // Other operations (c0, acd, hmvc, ...) are allowed and ignored.
            _ => {}
        }
    }
    Ok(Line::Position(Box::new(entry)))
}

/// The legal moves an EPD move operand names: the move in the game's notation; in duck
/// chess, a piece move without its duck square (`d1h5`), which names that piece move with
/// every duck square (where the duck goes does not matter for a king capture, say); or SAN
/// (`Nxf7+`), as published test suites write it.
fn epd_moves<G: Game>(position: &G, text: &str) -> Result<Vec<Move>, String> {
    match parse_move(position, text) {
        Ok(mv) => Ok(vec![mv]),
        Err(e) => {
            let mut moves = Vec::new();
            position.generate(&mut moves);
            moves.retain(|&m| {
                let full = position.move_text(m);
                full.split_once(',').is_some_and(|(piece, _)| piece == text)
            });
            if !moves.is_empty() {
                return Ok(moves);
            }
            // A text of the game's own move form that is not legal keeps that error.
            if crate::core::split_move_squares(text, G::WIDTH, G::HEIGHT).is_some() {
                return Err(e);
            }
            super::san::san_moves(position, text)
        }
    }
}

/// Splits a line into the game's position and the text of the operations after it.
fn split_position<G: Game>(text: &str) -> Result<(G, &str), String> {
    // Byte offsets where each whitespace-separated field ends.
    let mut ends = Vec::new();
    let mut in_field = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if in_field {
                ends.push(i);
            }
            in_field = false;
        } else {
            in_field = true;
        }
        if ends.len() == MAX_FEN_FIELDS {
            break;
        }
    }
    if in_field && ends.len() < MAX_FEN_FIELDS {
        ends.push(text.len());
    }
    let mut longest_error = None;
    for &end in ends.iter().rev() {
        match G::from_fen(&text[..end]) {
            Ok(position) => {
                let rest = &text[end..];
                return match parse_operations(rest) {
                    Ok(_) => Ok((position, rest)),
                    // Operations that do not even start with an opcode: a longer prefix was
                    // meant to be the FEN (a broken castling field, say), and its error says
                    // what is wrong.
                    Err(e) if !rest.split_whitespace().next().is_some_and(is_opcode) => {
                        Err(longest_error.unwrap_or(e))
                    }
                    Err(e) => Err(e),
                };
            }
            Err(e) => {
                if longest_error.is_none() {
                    longest_error = Some(format!("bad {} FEN: {e}", G::NAME));
                }
                // The board and side alone must parse; their error is the precise one.
                if ends.len() >= 2 && end == ends[1] {
                    return Err(format!("bad {} FEN: {e}", G::NAME));
                }
            }
        }
    }
    Err(longest_error.unwrap_or_else(|| "no FEN".to_string()))
}

/// Whether `word` is an EPD opcode: a lowercase letter, then up to 14 letters, digits or `_`.
fn is_opcode(word: &str) -> bool {
    let word = word.strip_suffix(';').unwrap_or(word);
    word.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && word.len() <= 15
}

/// Parses EPD operations: `opcode operand ... ;`, the last `;` optional. Opcodes start with
/// a lowercase letter and hold letters, digits and `_`; operands are words or `"..."`
/// strings (which may contain spaces, `;`, and `\"` for a quote).
pub fn parse_operations(text: &str) -> Result<Vec<Operation>, String> {
    let mut ops = Vec::new();
    let mut chars = text.trim().chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        if chars.peek().is_none() {
            return Ok(ops);
        }
        let opcode = word(&mut chars);
        if !is_opcode(&opcode) {
            return Err(format!("'{}' is not an EPD opcode", opcode.escape_debug()));
        }
        let mut operands = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace()) {
                chars.next();
            }
            match chars.peek() {
                None => break,
                Some(';') => {
                    chars.next();
                    break;
                }
                Some('"') => {
                    chars.next();
                    let mut s = String::new();
                    let mut closed = false;
                    // `\"` and `\\` inside a string stand for `"` and `\` (as in PGN).
                    while let Some(c) = chars.next() {
                        match c {
                            '"' => {
                                closed = true;
                                break;
                            }
                            '\\' if matches!(chars.peek(), Some('"' | '\\')) => {
                                s.extend(chars.next());
                            }
                            c => s.push(c),
                        }
                    }
                    if !closed {
                        return Err(format!("unterminated string in '{opcode}'"));
                    }
                    operands.push(s);
                }
                Some(_) => operands.push(word(&mut chars)),
            }
        }
        ops.push(Operation { opcode, operands });
    }
}

/// The characters up to the next white space or `;` (neither taken): an opcode or an
/// operand that is not a string.
fn word(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    let mut word = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == ';' {
            break;
        }
        word.push(c);
        chars.next();
    }
    word
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chess, Jetan, Skak};

    fn entry<G: Game>(text: &str) -> Entry<G> {
        match parse_line::<G>(text, 1) {
            Ok(Line::Position(e)) => *e,
            Ok(Line::Skip) => panic!("skipped: {text}"),
            Err(e) => panic!("{text}: {e}"),
        }
    }

    #[test]
    fn four_field_epd_with_operations() {
        let e = entry::<Chess>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e2e4 d2d4; am g1h3; id \"start; x\";",
        );
        assert_eq!(e.id.as_deref(), Some("start; x"));
        assert_eq!(e.best.len(), 2);
        assert_eq!(e.avoid.len(), 1);
        assert!(e.position.fen().ends_with("KQkq - 0 1"));
    }

    #[test]
    fn full_fen_of_each_game_and_plain_fen_lines() {
        let e = entry::<Jetan>(&format!("{} bm e2e3; id \"j\"", Jetan::START_FEN));
        assert_eq!(e.position.fen(), Jetan::START_FEN);
        assert_eq!(e.id.as_deref(), Some("j"));
        let e = entry::<Skak>(Skak::START_FEN);
        assert!(!e.is_test());
        let e = entry::<Chess>("8/8/8/8/8/8/8/K6k b");
        assert_eq!(e.position.fen(), "8/8/8/8/8/8/8/K6k b - - 0 1");
    }

    #[test]
    fn errors_name_the_real_problem() {
        let bad = |t: &str| match parse_line::<Chess>(t, 1) {
            Err(e) => e,
            Ok(_) => panic!("accepted: {t}"),
        };
        assert!(bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq -").contains("FEN"));
        assert!(
            bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQxq - bm e2e4;").contains("FEN")
        );
        assert!(
            bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e2e5;")
                .contains("illegal")
        );
        assert!(bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - bm;").contains("bm"));
        assert!(bad("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - id \"x").contains("string"));
        assert!(bad("hello").contains("FEN"));
    }

    #[test]
    fn duck_piece_moves_stand_for_every_duck_square() {
        let e = entry::<crate::variants::Duck>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e2e4; am g1h3,h3g5;",
        );
        // e2e4 with the duck on any of the 32 empty squares (e2 now empty, e4 taken).
        assert_eq!(e.best.len(), 32);
        assert_eq!(e.avoid.len(), 1);
        assert!(parse_line::<crate::variants::Duck>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e2e5;",
            1
        )
        .is_err());
    }

    #[test]
    fn odd_lines_give_errors_not_panics() {
        let odd = [
            "w",
            "8/8/8/8/8/8/8/K6k w - - bm",
            "8/8/8/8/8/8/8/K6k w - - bm \u{e9}4; id \"\u{e9}\\\";",
            "8/8/8/8/8/8/8/K6k w - - bm =Q; am O-O-O-O;",
            "8/8/8/8/8/8/8/K6k w - - bm Kxa9 K1 x 0-0; ;;",
            "8/8/8/8/8/8/8/K6k w - - ; bm a1a2",
            "\u{0}\u{1} \u{7f}",
            "10/10/10/10/10/10/10/10/10/10 w Qq 0 1 bm a10a11;",
        ];
        for line in odd {
            let _ = parse_line::<Chess>(line, 1);
            let _ = parse_line::<Jetan>(line, 1);
            let _ = parse_line::<Skak>(line, 1);
            let _ = parse_line::<crate::variants::Duck>(line, 1);
            let _ = parse_line::<crate::variants::Chaturanga>(line, 1);
        }
        assert!(parse_line::<Chess>(odd[1], 1).is_err());
        assert!(parse_line::<Chess>(odd[4], 1).is_err());
    }

    #[test]
    fn comments_and_blank_lines_are_skipped() {
        assert!(matches!(parse_line::<Chess>("  ", 1), Ok(Line::Skip)));
        assert!(matches!(parse_line::<Chess>("# x", 1), Ok(Line::Skip)));
    }

    #[test]
    fn solved_needs_a_bm_move_and_no_am_move() {
        let e = entry::<Chess>(
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - bm e2e4; am d2d4;",
        );
        assert!(e.solved_by(e.best.first().copied()));
        assert!(!e.solved_by(e.avoid.first().copied()));
        assert!(!e.solved_by(None));
    }
}
