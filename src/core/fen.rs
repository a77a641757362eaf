//! FEN board text, shared by every game: ranks from the top down separated by `/`, runs of
//! empty squares as decimal numbers of one or two digits (`10`). The letters are the game's.
//! Also the FEN's fields ([`Fields`]) and the counters every game writes.

use super::Color;

/// One occupied square of a parsed board: file and rank from 0, and the FEN letter.
pub type Placed = (u8, u8, char);

/// Parses the board field of a FEN for a board `width` x `height`. Returns every non-empty
/// square with its letter; the caller checks that the letters belong to the game.
pub fn parse_board(text: &str, width: u8, height: u8) -> Result<Vec<Placed>, String> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != height as usize {
        return Err(format!(
            "board has {} ranks, this game needs {height}",
            rows.len()
        ));
    }
    let mut placed = Vec::new();
    for (row_index, row) in rows.iter().enumerate() {
        let rank = height - 1 - row_index as u8;
        let mut file: u32 = 0;
        let bytes = row.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_digit() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let digits = &row[start..i];
                let run: u32 = digits
                    .parse()
                    .map_err(|_| format!("bad empty-square count '{digits}'"))?;
                if run == 0 || digits.starts_with('0') {
                    return Err(format!("bad empty-square count '{digits}'"));
                }
                file += run;
            } else {
                if !c.is_ascii() {
                    return Err(format!("unknown character in board rank {}", rank + 1));
                }
                if file < width as u32 {
                    placed.push((file as u8, rank, c as char));
                }
                file += 1;
                i += 1;
            }
            if file > width as u32 {
                return Err(format!("rank {} has more than {width} squares", rank + 1));
            }
        }
        if file != width as u32 {
            return Err(format!(
                "rank {} has {file} squares, this game needs {width}",
                rank + 1
            ));
        }
    }
    Ok(placed)
}

/// Writes the board field of a FEN; `letter(file, rank)` gives the letter on a square.
pub fn write_board(width: u8, height: u8, letter: impl Fn(u8, u8) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..height).rev() {
        let mut empty = 0;
        for file in 0..width {
            match letter(file, rank) {
                Some(c) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Draws the board as text, top rank first, with coordinates (`d` command).
pub fn draw_board(width: u8, height: u8, letter: impl Fn(u8, u8) -> Option<char>) -> String {
    let mut out = String::new();
    for rank in (0..height).rev() {
        out.push_str(&format!("{:>2} ", rank + 1));
        for file in 0..width {
            out.push(' ');
            out.push(letter(file, rank).unwrap_or('.'));
        }
        out.push('\n');
    }
    out.push_str("   ");
    for file in 0..width {
        out.push(' ');
        out.push((b'a' + file) as char);
    }
    out.push('\n');
    out
}

/// The colour and piece type of a FEN letter: the type is the index of the letter in
/// `letters` (White's letters, uppercase, by type); a lowercase letter is Black's piece.
pub fn parse_piece(letters: &[char], letter: char) -> Result<(Color, usize), String> {
    let kind = letters
        .iter()
        .position(|&l| l == letter.to_ascii_uppercase())
        .ok_or_else(|| format!("unknown piece letter '{}'", letter.escape_debug()))?;
    let color = if letter.is_ascii_lowercase() {
        Color::Black
    } else {
        Color::White
    };
    Ok((color, kind))
}

/// The FEN letter of a piece of `color` and type `kind`: `letters[kind]` (see
/// [`parse_piece`]), lowercase for Black.
#[inline]
pub fn piece_letter(letters: &[char], color: Color, kind: usize) -> char {
    match color {
        Color::White => letters[kind],
        Color::Black => letters[kind].to_ascii_lowercase(),
    }
}

/// The fields of a FEN, split at white space. Every game needs the first two, the board and
/// the side to move; the later ones may be left off, and the game says what they default to.
pub struct Fields<'a>(Vec<&'a str>);

impl<'a> Fields<'a> {
    /// Splits `fen` for the game `game`, whose fields are named by `names` (board and side
    /// first): at least two fields and at most `names.len()`.
    pub fn split(fen: &'a str, game: &str, names: &[&str]) -> Result<Fields<'a>, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.len() < 2 {
            return Err(format!(
                "a {game} FEN needs at least the board and the side to move"
            ));
        }
        if fields.len() > names.len() {
            return Err(format!(
                "a {game} FEN has at most {} fields ({}), not {}",
                names.len(),
                names.join(", "),
                fields.len()
            ));
        }
        Ok(Fields(fields))
    }

    /// The board field.
    pub fn board(&self) -> &'a str {
        self.0[0]
    }

    /// The side-to-move field, parsed.
    pub fn side(&self) -> Result<Color, String> {
        Color::from_fen_field(self.0[1])
    }

    /// Field number `index` (0 is the board), or `default` when the FEN ends before it.
    pub fn get(&self, index: usize, default: &'static str) -> &'a str {
        self.0.get(index).copied().unwrap_or(default)
    }

    /// Field number `index` as a counter named `what` ([`parse_counter`]), or `default` when
    /// the FEN ends before it.
    pub fn counter(&self, index: usize, what: &str, default: u32) -> Result<u32, String> {
        match self.0.get(index) {
            Some(field) => parse_counter(field, what),
            None => Ok(default),
        }
    }

    /// Field number `index` as the fullmove number: 1 when the FEN ends before it, and never
    /// 0, since a game's first move is move 1.
    pub fn fullmove(&self, index: usize) -> Result<u32, String> {
        let fullmove = self.counter(index, "fullmove number", 1)?;
        if fullmove == 0 {
            return Err("the fullmove number starts at 1".to_string());
        }
        Ok(fullmove)
    }
}

/// Parses a non-negative counter field (halfmove clock, countdown, fullmove number).
pub fn parse_counter(field: &str, what: &str) -> Result<u32, String> {
    // Any value of a `u32`: every game's clocks count with `saturating_add`, so whatever a
    // position writes (`d`, `fen()`) reads back.
    if field.is_empty() || field.len() > 10 || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!(
            "{what} must be a non-negative number, not '{field}'"
        ));
    }
    field
        .parse()
        .map_err(|_| format!("{what} must be a non-negative number, not '{field}'"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_two_digit_runs() {
        let placed = parse_board("10/4k5", 10, 2).unwrap();
        assert_eq!(placed, vec![(4, 0, 'k')]);
        assert!(parse_board("11/10", 10, 2).is_err());
        assert!(parse_board("9/10", 10, 2).is_err());
        assert!(parse_board("10", 10, 2).is_err());
        assert!(parse_board("05/10", 5, 2).is_err());
    }

    #[test]
    fn write_board_round_trips() {
        let text = "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW";
        let placed = parse_board(text, 10, 10).unwrap();
        let written = write_board(10, 10, |f, r| {
            placed.iter().find(|p| p.0 == f && p.1 == r).map(|p| p.2)
        });
        assert_eq!(written, text);
    }
}
