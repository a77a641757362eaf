//! One analysis result and its text as a JSON line or a CSV row. JSON is written by hand:
//! the records are flat and small, and escaping strings correctly is all it takes.

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Moves to mate (negative: being mated).
    Mate(i32),
}

impl Score {
    /// Parses the UCI form `cp <n>` / `mate <n>` (as [`crate::search::score_text`] writes it).
    pub fn from_uci(kind: &str, value: &str) -> Option<Score> {
        let n = value.parse().ok()?;
        match kind {
            "cp" => Some(Score::Cp(n)),
            "mate" => Some(Score::Mate(n)),
            _ => None,
        }
    }

    fn json(self) -> String {
        match self {
            Score::Cp(n) => format!("{{\"cp\":{n}}}"),
            Score::Mate(n) => format!("{{\"mate\":{n}}}"),
        }
    }

    fn text(self) -> String {
        match self {
            Score::Cp(n) => format!("cp {n}"),
            Score::Mate(n) => format!("mate {n}"),
        }
    }
}

/// One line of the search (MultiPV line `k` when more than one is asked for).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PvLine {
    /// Its score.
    pub score: Score,
    /// Its moves, in the game's notation.
    pub pv: Vec<String>,
    /// The depth it was completed at.
    pub depth: i32,
}

/// The result for one position.
#[derive(Clone, Debug, Default)]
pub struct Record {
    /// The `id` operation, if any.
    pub id: Option<String>,
    /// The input line number.
    pub line: usize,
    /// The position's full FEN as the engine prints it.
    pub fen: String,
    /// The move found; `None` when the game is already over.
    pub bestmove: Option<String>,
    /// The score; `None` when no iteration completed or the game is over.
    pub score: Option<Score>,
    /// The principal variation, starting with the best move.
    pub pv: Vec<String>,
    /// The last depth completed.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Wall time of the search.
    pub time_ms: u64,
    /// For test lines (`bm`/`am`): whether the best move solves it.
    pub solved: Option<bool>,
    /// All lines when MultiPV > 1 (else empty).
    pub multipv: Vec<PvLine>,
}

/// Output formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header.
    Csv,
}

impl std::str::FromStr for Format {
    type Err = String;
    fn from_str(s: &str) -> Result<Format, String> {
        match s.to_ascii_lowercase().as_str() {
            "jsonl" | "json" => Ok(Format::Jsonl),
            "csv" => Ok(Format::Csv),
            _ => Err(format!(
                "unknown format '{}' (jsonl or csv)",
                s.escape_debug()
            )),
        }
    }
}

/// The CSV header (the CSV carries the first line only; `multipv` is JSON-only).
pub const CSV_HEADER: &str = "id,line,fen,bestmove,score,pv,depth,nodes,time_ms,solved";

/// `s` as a JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_moves(moves: &[String]) -> String {
    let items: Vec<String> = moves.iter().map(|m| json_string(m)).collect();
    format!("[{}]", items.join(","))
}

/// A CSV field, quoted when it holds a comma, quote, line break or edge space (RFC 4180).
pub fn csv_field(s: &str) -> String {
    let needs = s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ');
    if needs {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Record {
    /// The record as one JSON object, without a line break.
    pub fn to_json(&self) -> String {
        let mut fields = vec![
            format!(
                "\"id\":{}",
                self.id.as_deref().map_or("null".to_string(), json_string)
            ),
            format!("\"line\":{}", self.line),
            format!("\"fen\":{}", json_string(&self.fen)),
            format!(
                "\"bestmove\":{}",
                self.bestmove
                    .as_deref()
                    .map_or("null".to_string(), json_string)
            ),
            format!(
                "\"score\":{}",
                self.score.map_or("null".to_string(), Score::json)
            ),
            format!("\"pv\":{}", json_moves(&self.pv)),
            format!("\"depth\":{}", self.depth),
            format!("\"nodes\":{}", self.nodes),
            format!("\"time_ms\":{}", self.time_ms),
        ];
        if let Some(solved) = self.solved {
            fields.push(format!("\"solved\":{solved}"));
        }
        if !self.multipv.is_empty() {
            let lines: Vec<String> = self
                .multipv
                .iter()
                .map(|l| {
                    format!(
                        "{{\"score\":{},\"pv\":{},\"depth\":{}}}",
                        l.score.json(),
                        json_moves(&l.pv),
                        l.depth
                    )
                })
                .collect();
            fields.push(format!("\"multipv\":[{}]", lines.join(",")));
        }
        format!("{{{}}}", fields.join(","))
    }

    /// The record as one CSV row (columns of [`CSV_HEADER`]), without a line break.
    pub fn to_csv(&self) -> String {
        [
            csv_field(self.id.as_deref().unwrap_or("")),
            self.line.to_string(),
            csv_field(&self.fen),
            csv_field(self.bestmove.as_deref().unwrap_or("")),
            self.score.map_or(String::new(), Score::text),
            csv_field(&self.pv.join(" ")),
            self.depth.to_string(),
            self.nodes.to_string(),
            self.time_ms.to_string(),
            self.solved.map_or(String::new(), |s| s.to_string()),
        ]
        .join(",")
    }

    /// The record in `format`, ending with a line break.
    pub fn text(&self, format: Format) -> String {
        let mut s = match format {
            Format::Jsonl => self.to_json(),
            Format::Csv => self.to_csv(),
        };
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_quotes_backslashes_and_controls() {
        assert_eq!(
            json_string("a\"b\\c\nd\u{1}é"),
            "\"a\\\"b\\\\c\\nd\\u0001é\""
        );
    }

    #[test]
    fn csv_fields_quote_commas_and_quotes() {
        assert_eq!(csv_field("e2e4,e4d5"), "\"e2e4,e4d5\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("plain"), "plain");
    }

    #[test]
    fn record_text_has_every_field() {
        let r = Record {
            id: Some("x".into()),
            line: 3,
            fen: "f".into(),
            bestmove: Some("e2e4".into()),
            score: Some(Score::Mate(-2)),
            pv: vec!["e2e4".into(), "e7e5".into()],
            depth: 5,
            nodes: 10,
            time_ms: 1,
            solved: Some(true),
            multipv: vec![],
        };
        assert_eq!(
            r.to_json(),
            "{\"id\":\"x\",\"line\":3,\"fen\":\"f\",\"bestmove\":\"e2e4\",\"score\":{\"mate\":-2},\
             \"pv\":[\"e2e4\",\"e7e5\"],\"depth\":5,\"nodes\":10,\"time_ms\":1,\"solved\":true}"
        );
        assert_eq!(r.to_csv(), "x,3,f,e2e4,mate -2,e2e4 e7e5,5,10,1,true");
    }
}
