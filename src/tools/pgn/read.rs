//! Reading PGN as thoat writes it (match runner, browser board) and as other tools do: tag
//! pairs, move numbers (`12.`, `12...`, `12.e4`), comments (`{...}`, `;` to the end of the
//! line), variations (`(...)`, nested), NAGs (`$6`), move suffixes (`!`, `?!`), `%` escape
//! lines and the result. Comments, variations and NAGs are skipped: what is kept is each
//! game's tags and its main line of move texts, still to be read by the game's rules.

/// One game of a PGN file: its tags and the texts of its main-line moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnRecord {
    /// The tag pairs, in order.
    pub tags: Vec<(String, String)>,
    /// The main-line move texts, without numbers or suffixes.
    pub moves: Vec<String>,
    /// The result token that ended the move text (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
    /// The line of the file the game starts on (from 1).
    pub line: usize,
}

impl PgnRecord {
    /// The value of tag `name` (case-sensitive, as PGN is), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The games of a PGN text, in order; a game whose text is malformed is an error that names
/// its line, and reading goes on with the next game.
pub fn read_games(text: &str) -> Vec<Result<PgnRecord, String>> {
    let mut reader = Reader {
        chars: text.chars().peekable(),
        line: 1,
        at_line_start: true,
    };
    let mut games = Vec::new();
    while let Some(game) = reader.game() {
        games.push(game);
    }
    games
}

struct Reader<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    line: usize,
    at_line_start: bool,
}

/// What the move text of a game is made of.
enum Token {
    Tag(String, String),
    Move(String),
    Result(String),
}

impl Reader<'_> {
    fn next_char(&mut self) -> Option<char> {
        let c = self.chars.next()?;
        self.at_line_start = c == '\n';
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.next_char() {
            if c == '\n' {
                break;
            }
        }
    }

    /// Skips white space and `%` escape lines; `None` at the end of the text.
    fn skip_space(&mut self) -> Option<char> {
        loop {
            let c = *self.chars.peek()?;
            if c == '%' && self.at_line_start {
                self.skip_line();
            } else if c.is_whitespace() || c == '\u{feff}' {
                self.next_char();
            } else {
                return Some(c);
            }
        }
    }

    /// The next token, skipping comments, variations, NAGs and move numbers.
    fn token(&mut self) -> Option<Result<Token, String>> {
        loop {
            let c = self.skip_space()?;
            let line = self.line;
            match c {
                '[' => return Some(self.tag()),
                '{' => {
                    self.next_char();
                    if !self.skip_until('}') {
                        return Some(Err(format!("line {line}: comment '{{' never closed")));
                    }
                }
                ';' => self.skip_line(),
                '(' => {
                    if let Err(e) = self.skip_variation() {
                        return Some(Err(e));
                    }
                }
                ')' => {
                    self.next_char();
                    return Some(Err(format!("line {line}: ')' closes no variation")));
                }
                _ => {
                    let word = self.word();
                    if let Some(token) = classify(&word) {
                        return Some(Ok(token));
                    }
                }
            }
        }
    }

    /// Reads up to and including `end`; false at the end of the text.
    fn skip_until(&mut self, end: char) -> bool {
        while let Some(c) = self.next_char() {
            if c == end {
                return true;
            }
        }
        false
    }

    /// Skips the rest of a malformed tag: up to its `]`, but not past the end of its line.
    fn skip_tag_rest(&mut self) {
        while let Some(&c) = self.chars.peek() {
            self.next_char();
            if c == ']' || c == '\n' {
                break;
            }
        }
    }

    /// Skips a variation with everything nested in it, comments included.
    fn skip_variation(&mut self) -> Result<(), String> {
        let line = self.line;
        let mut depth = 0usize;
        while let Some(c) = self.next_char() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Ok(());
                    }
                }
                '{' if !self.skip_until('}') => break,
                ';' => self.skip_line(),
                _ => {}
            }
        }
        Err(format!("line {line}: variation '(' never closed"))
    }

    /// A run of characters up to white space or a PGN delimiter.
    fn word(&mut self) -> String {
        let mut word = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || matches!(c, '[' | ']' | '{' | '}' | '(' | ')' | ';') {
                break;
            }
            word.push(c);
            self.next_char();
        }
        if word.is_empty() {
            // A stray delimiter (`]`, `}`): consume it so reading goes on.
            self.next_char();
        }
        word
    }

    /// A tag pair `[Name "value"]`, with `\"` and `\\` escapes.
    fn tag(&mut self) -> Result<Token, String> {
        let line = self.line;
        self.next_char();
        let mut name = String::new();
        while let Some(&c) = self.chars.peek() {
            if c.is_whitespace() || c == '"' || c == ']' {
                break;
            }
            name.push(c);
            self.next_char();
        }
        self.skip_space();
        let quote = self.next_char();
        if quote != Some('"') || name.is_empty() {
            if quote != Some(']') {
                self.skip_tag_rest();
            }
            return Err(format!("line {line}: a tag is written [Name \"value\"]"));
        }
        let mut value = String::new();
        loop {
            match self.next_char() {
                Some('\\') => match self.next_char() {
                    Some(c) => value.push(c),
                    None => break,
                },
                Some('"') => {
                    self.skip_space();
                    if self.next_char() == Some(']') {
                        return Ok(Token::Tag(name, value));
                    }
                    self.skip_tag_rest();
                    return Err(format!(
                        "line {line}: tag [{name} ...] is not closed by ']'"
                    ));
                }
                Some('\n') | None => break,
                Some(c) => value.push(c),
            }
        }
        Err(format!(
            "line {line}: the value of tag [{name} ...] is not closed by '\"'"
        ))
    }

    /// The next game: its tags, then its move text up to the result or the next tag.
    fn game(&mut self) -> Option<Result<PgnRecord, String>> {
        self.skip_space()?;
        let mut record = PgnRecord {
            line: self.line,
            ..PgnRecord::default()
        };
        let mut error: Option<String> = None;
        loop {
            // A tag after move text starts the next game (one without a result token).
            if self.skip_space() == Some('[') && !record.moves.is_empty() {
                break;
            }
            let Some(token) = self.token() else { break };
            match token {
                Ok(Token::Tag(name, value)) => record.tags.push((name, value)),
                Ok(Token::Move(text)) => record.moves.push(text),
                Ok(Token::Result(result)) => {
                    record.result = Some(result);
                    break;
                }
                Err(e) => {
                    error.get_or_insert(e);
                }
            }
        }
        Some(match error {
            Some(e) => Err(e),
            None => Ok(record),
        })
    }
}

/// A word of move text: a result, a move (number and suffix removed), or nothing to keep.
fn classify(word: &str) -> Option<Token> {
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*") {
        return Some(Token::Result(word.to_string()));
    }
    if word.starts_with('$') {
        return None;
    }
    // `12.`, `12...`, and a number glued to its move: `12.e4`.
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    let text = if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        word
    };
    let text = text.trim_end_matches(['!', '?']);
    (!text.is_empty()).then(|| Token::Move(text.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_moves_and_result_without_comments_variations_and_nags() {
        let text = "% a comment line\n[Event \"x \\\"y\\\"\"]\n[Variant \"chess\"]\n\n\
            1. e4 {best by test} e5?! 2.Nf3 (2. f4 exf4 (2... d5) 3. Nf3) $1 Nc6 ; rest\n\
            3. Bb5 a6 1-0\n\n[Event \"second\"]\n1... e7e5 2. g1f3 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2);
        let first = games[0].as_ref().unwrap();
        assert_eq!(first.tag("Event"), Some("x \"y\""));
        assert_eq!(first.tag("Variant"), Some("chess"));
        assert_eq!(first.moves, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);
        assert_eq!(first.result.as_deref(), Some("1-0"));
        assert_eq!(first.line, 2);
        let second = games[1].as_ref().unwrap();
        assert_eq!(second.moves, ["e7e5", "g1f3"]);
        assert_eq!(second.result.as_deref(), Some("*"));
        assert_eq!(second.line, 8);
    }

    #[test]
    fn games_without_a_result_are_split_at_the_next_tags() {
        let games = read_games("[A \"1\"]\n1. e2e4\n[A \"2\"]\n1. d2d4 d7d5\n");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].as_ref().unwrap().moves, ["e2e4"]);
        assert_eq!(games[1].as_ref().unwrap().moves, ["d2d4", "d7d5"]);
        assert_eq!(games[1].as_ref().unwrap().result, None);
    }

    #[test]
    fn malformed_games_are_errors_that_name_the_line_and_reading_goes_on() {
        let text = "[Event \"broken\n1. e4 *\n\n[Event \"ok\"]\n1. d4 *\n\n\
            [Event \"open\"]\n1. e4 (1. d4 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 3, "{games:?}");
        assert!(
            games[0].as_ref().unwrap_err().contains("line 1"),
            "{games:?}"
        );
        assert_eq!(games[1].as_ref().unwrap().moves, ["d4"]);
        assert!(games[2].as_ref().unwrap_err().contains("never closed"));
        // A tag without a value loses only itself: the moves after it are read.
        let games = read_games("[Event]\n[Site \"x\" junk]\n1. e4 e5 *\n");
        assert!(games[0].as_ref().unwrap_err().contains("[Name \"value\"]"));
        let text = "[Event \"a\"]\n1. e4 e5 *\n[Event]\n\n[Round \"2\"]\n1. d4 *\n";
        let games = read_games(text);
        assert_eq!(games.len(), 2, "{games:?}");
        assert_eq!(games[0].as_ref().unwrap().moves, ["e4", "e5"]);
        assert!(games[1].is_err());
        for junk in [
            "",
            "   \n",
            "]]]",
            "{",
            "(((",
            "[",
            "[\"",
            "1. e4 ) e5",
            "\u{feff}[A \"b\"]",
        ] {
            let _ = read_games(junk);
        }
        assert!(read_games("").is_empty());
    }
}
