//! PGN output for games of every variant: the tags users' tools expect (`[Variant]`,
//! `[SetUp]`/`[FEN]` when not the start position, `[Result]`, `[Termination]`) and the move
//! text in the protocol notation of RULES.md (`1. e1e3 a10a8`), so any tool can replay it.

use crate::core::Color;

/// One finished (or unfinished) game, ready to be written as PGN.
#[derive(Clone, Debug, Default)]
pub struct PgnGame {
    /// Extra tags in order (`Event`, `White`, `Black`, `TimeControl`, ...).
    pub tags: Vec<(String, String)>,
    /// The `UCI_Variant` name.
    pub variant: String,
    /// The start FEN, if not the game's start position.
    pub setup_fen: Option<String>,
    /// The side that moved first.
    pub first_to_move: Option<Color>,
    /// The fullmove number of the first move.
    pub first_move_number: u32,
    /// The moves in protocol notation.
    pub moves: Vec<String>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why the game ended (`checkmate`, `princess captured`, `time forfeit`, ...).
    pub termination: Option<String>,
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

impl PgnGame {
    /// The game as PGN text, ending with an empty line.
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            out.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
        }
        out.push_str(&format!("[Variant \"{}\"]\n", escape(&self.variant)));
        if let Some(fen) = &self.setup_fen {
            out.push_str("[SetUp \"1\"]\n");
            out.push_str(&format!("[FEN \"{}\"]\n", escape(fen)));
        }
        out.push_str(&format!("[Result \"{}\"]\n", self.result));
        if let Some(termination) = &self.termination {
            out.push_str(&format!("[Termination \"{}\"]\n", escape(termination)));
        }
        out.push('\n');
        let mut number = self.first_move_number.max(1);
        let mut white_to_move = self.first_to_move != Some(Color::Black);
        let mut line = String::new();
        let push = |token: String, line: &mut String, out: &mut String| {
            if !line.is_empty() && line.len() + token.len() + 1 > 79 {
                out.push_str(line);
                out.push('\n');
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&token);
        };
        for (i, mv) in self.moves.iter().enumerate() {
            if white_to_move {
                push(format!("{number}."), &mut line, &mut out);
            } else if i == 0 {
                push(format!("{number}..."), &mut line, &mut out);
            }
            push(mv.clone(), &mut line, &mut out);
            if !white_to_move {
                number += 1;
            }
            white_to_move = !white_to_move;
        }
        push(self.result.clone(), &mut line, &mut out);
        out.push_str(&line);
        out.push_str("\n\n");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_tags_and_numbered_moves() {
        let game = PgnGame {
            tags: vec![("White".into(), "thoat \"new\"".into())],
            variant: "jetan".into(),
            setup_fen: Some("4kq4/10/10/10/4d5/10/4Q5/10/3P1P4/W3K5 b Qq 0 12".into()),
            first_to_move: Some(Color::Black),
            first_move_number: 12,
            moves: vec!["e6e4".into(), "e4e5".into(), "e10e9".into()],
            result: "1-0".into(),
            termination: Some("princess captured".into()),
        };
        let text = game.to_pgn();
        assert!(
            text.starts_with("[White \"thoat \\\"new\\\"\"]\n[Variant \"jetan\"]\n[SetUp \"1\"]\n")
        );
        assert!(text.contains("[Termination \"princess captured\"]"));
        assert!(
            text.contains("\n\n12... e6e4 13. e4e5 e10e9 1-0\n"),
            "{text}"
        );
    }
}
