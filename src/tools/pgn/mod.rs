//! PGN output for games of every variant: the tags users' tools expect (`[Variant]`,
//! `[SetUp]`/`[FEN]` when not the start position, `[Result]`, `[Termination]`) and the move
//! text in the protocol notation of RULES.md (`1. e1e3 a10a8`), so any tool can replay it;
//! and reading PGN back ([`read`]).

pub mod read;

use crate::core::Color;

/// What an annotator adds to one move: a suffix, a comment after it and a variation (the
/// line that should have been played instead).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveComment {
    /// `?!`, `?`, `??` (written right after the move).
    pub suffix: Option<&'static str>,
    /// Text of a `{ ... }` comment after the move.
    pub comment: Option<String>,
    /// Moves of a variation that replaces this move (empty for none).
    pub variation: Vec<String>,
}

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
    /// Annotations of the moves, by index into `moves` (shorter or empty: none).
    pub comments: Vec<MoveComment>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub result: String,
    /// Why the game ended (`checkmate`, `princess captured`, `time forfeit`, ...).
    pub termination: Option<String>,
}

/// The fullmove number of a FEN: its last number field, 1 when there is none.
pub fn fullmove_number(fen: &str) -> u32 {
    fen.split_whitespace()
        .last()
        .and_then(|f| f.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(1)
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
            let note = self.comments.get(i);
            if white_to_move {
                push(format!("{number}."), &mut line, &mut out);
            } else if i == 0 || note.is_some_and(|n| n.comment.is_some()) || self.after_variation(i)
            {
                push(format!("{number}..."), &mut line, &mut out);
            }
            push(
                format!("{mv}{}", note.and_then(|n| n.suffix).unwrap_or("")),
                &mut line,
                &mut out,
            );
            if let Some(note) = note {
                if let Some(comment) = &note.comment {
                    // `}` would end the comment early.
                    push(
                        format!("{{ {} }}", comment.replace('}', ")")),
                        &mut line,
                        &mut out,
                    );
                }
                for (k, alternative) in note.variation.iter().enumerate() {
                    let mut token = String::new();
                    if k == 0 {
                        token.push('(');
                        token.push_str(&format!(
                            "{number}{} ",
                            if white_to_move { "." } else { "..." }
                        ));
                    } else if (k % 2 == 0) == white_to_move {
                        token.push_str(&format!(
                            "{}. ",
                            number + (k as u32 + u32::from(!white_to_move)) / 2
                        ));
                    }
                    token.push_str(alternative);
                    if k + 1 == note.variation.len() {
                        token.push(')');
                    }
                    push(token, &mut line, &mut out);
                }
            }
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

    /// Whether move `i` follows a variation (and so needs its number again).
    fn after_variation(&self, i: usize) -> bool {
        i > 0
            && self
                .comments
                .get(i - 1)
                .is_some_and(|n| !n.variation.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fullmove_number_from_fen() {
        assert_eq!(fullmove_number("8/8/8/8/8/8/8/K6k w - - 0 17"), 17);
        assert_eq!(fullmove_number("wadfqkfdaw/10 w Qq 0 3"), 3);
        assert_eq!(fullmove_number("x w - -"), 1);
    }

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
            ..PgnGame::default()
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

    #[test]
    fn writes_suffixes_comments_and_variations_with_move_numbers() {
        let game = PgnGame {
            variant: "chess".into(),
            moves: ["e2e4", "f7f6", "d2d4", "g7g5"].map(String::from).to_vec(),
            comments: vec![
                MoveComment {
                    comment: Some("[%eval 0.3]".into()),
                    ..MoveComment::default()
                },
                MoveComment {
                    suffix: Some("?!"),
                    comment: Some("[%eval 0.9]".into()),
                    variation: ["e7e5", "g1f3", "b8c6"].map(String::from).to_vec(),
                },
                MoveComment::default(),
                MoveComment {
                    suffix: Some("??"),
                    variation: vec!["d7d5".into()],
                    ..MoveComment::default()
                },
            ],
            result: "*".into(),
            ..PgnGame::default()
        };
        let text = game.to_pgn();
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat.contains(
                "1. e2e4 { [%eval 0.3] } 1... f7f6?! { [%eval 0.9] } (1... e7e5 2. g1f3 b8c6) \
                 2. d2d4 g7g5?? (2... d7d5) *"
            ),
            "{flat}"
        );
        // What is written reads back: the main line, without comments and variations.
        let games = read::read_games(&text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].as_ref().unwrap().moves, game.moves);
    }
}
