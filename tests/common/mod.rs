//! Shared test helpers: the perft suite reader and an engine driver.
#![allow(dead_code)]

pub mod engine;

/// One position of a perft suite: its id, FEN and (depth, nodes) pairs.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
}

/// Reads `positions/<variant>.perft`: `id <text>`, `epd <FEN>`, `perft <depth> <nodes>`
/// lines, `#` comments and blank lines.
pub fn read_suite(variant: &str) -> Vec<PerftCase> {
    let path = format!("{}/positions/{variant}.perft", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut cases: Vec<PerftCase> = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                fen: String::new(),
                counts: vec![],
            }),
            "epd" => cases.last_mut().expect("epd after id").fen = rest.to_string(),
            "perft" => {
                let mut parts = rest.split_whitespace();
                let depth = parts.next().and_then(|d| d.parse().ok());
                let nodes = parts.next().and_then(|n| n.parse().ok());
                match (depth, nodes) {
                    (Some(d), Some(n)) => cases
                        .last_mut()
                        .expect("perft after id")
                        .counts
                        .push((d, n)),
                    _ => panic!("{path}:{}: bad perft line", number + 1),
                }
            }
            _ => panic!("{path}:{}: unknown line '{line}'", number + 1),
        }
    }
    assert!(!cases.is_empty(), "{path} has no positions");
    cases
}
