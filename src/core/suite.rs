//! The reader of the perft suites `positions/<game>.perft` (compiled in by
//! [`crate::variants::Variant::perft_suite`], read by [`crate::variants::perft_cases`]): for
//! the perft tests, each game's comparison with its reference generator, the fuzzer's seed
//! positions and the benchmarks. A suite is `id <text>`, `epd <FEN>` and `perft <depth> <nodes>`
//! lines, with `#` comments and blank lines.

/// One position of a perft suite: its id, FEN and (depth, nodes) pairs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// The `id` line's text.
    pub id: String,
    /// The `epd` line's FEN.
    pub fen: String,
    /// The `perft` lines, in file order.
    pub counts: Vec<(u32, u64)>,
}

/// Reads a suite. Errors name the line: a `perft` line without depth and count, an `epd` or
/// `perft` line before any `id`, an unknown line, or no position at all.
pub fn parse(text: &str) -> Result<Vec<PerftCase>, String> {
    let mut cases: Vec<PerftCase> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: &str| format!("line {}: {what}", number + 1);
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        if key == "id" {
            cases.push(PerftCase {
                id: rest.to_string(),
                fen: String::new(),
                counts: Vec::new(),
            });
            continue;
        }
        let case = match key {
            "epd" | "perft" => cases
                .last_mut()
                .ok_or_else(|| at(&format!("'{key}' before any 'id'")))?,
            _ => return Err(at(&format!("unknown line '{line}'"))),
        };
        if key == "epd" {
            case.fen = rest.to_string();
            continue;
        }
        let mut parts = rest.split_whitespace();
        let depth = parts.next().and_then(|d| d.parse().ok());
        let nodes = parts.next().and_then(|n| n.parse().ok());
        match (depth, nodes) {
            (Some(depth), Some(nodes)) => case.counts.push((depth, nodes)),
            _ => return Err(at("bad perft line")),
        }
    }
    if cases.is_empty() {
        return Err("no positions".to_string());
    }
    Ok(cases)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_and_errors_name_the_line() {
        let suite = "# c\n\nid a b\nepd 8/8 w\nperft 1 20\n perft 2 400 \nid c\n";
        assert_eq!(
            parse(suite),
            Ok(vec![
                PerftCase {
                    id: "a b".to_string(),
                    fen: "8/8 w".to_string(),
                    counts: vec![(1, 20), (2, 400)],
                },
                PerftCase {
                    id: "c".to_string(),
                    fen: String::new(),
                    counts: vec![],
                },
            ])
        );
        assert_eq!(
            parse("id a\nperft 1\n"),
            Err("line 2: bad perft line".to_string())
        );
        assert_eq!(
            parse("epd x\n"),
            Err("line 1: 'epd' before any 'id'".to_string())
        );
        assert_eq!(
            parse("id a\nfen x\n"),
            Err("line 2: unknown line 'fen x'".to_string())
        );
        assert_eq!(parse("# only\n"), Err("no positions".to_string()));
    }
}
