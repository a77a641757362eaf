//! `thoat analyze`: the records (JSON lines and CSV) have every field, malformed lines are
//! reported by number and skipped, `--jobs` keeps input order, and a killed run leaves only
//! complete records. Also checks that the shipped tactics suites parse.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use thoat::tools::analyze::epd::{parse_line, Line};
use thoat::variants::Variant;

/// A JSON value, parsed by the small checker below (strict: the whole text must be one value).
#[derive(Debug, Clone, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(BTreeMap<String, Json>),
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.i < self.s.len() && b" \t\r\n".contains(&self.s[self.i]) {
            self.i += 1;
        }
    }
    fn eat(&mut self, lit: &str) -> Result<(), String> {
        if self.s[self.i..].starts_with(lit.as_bytes()) {
            self.i += lit.len();
            Ok(())
        } else {
            Err(format!("expected {lit} at {}", self.i))
        }
    }
    /// The items of an array or object, from its opening bracket to `close`: `item` reads
    /// one, and a comma or `close` follows each.
    fn items(
        &mut self,
        close: u8,
        what: &str,
        mut item: impl FnMut(&mut Self) -> Result<(), String>,
    ) -> Result<(), String> {
        self.i += 1;
        self.ws();
        if self.s.get(self.i) == Some(&close) {
            self.i += 1;
            return Ok(());
        }
        loop {
            item(self)?;
            self.ws();
            match self.s.get(self.i) {
                Some(b',') => self.i += 1,
                Some(&c) if c == close => {
                    self.i += 1;
                    return Ok(());
                }
                _ => return Err(format!("bad {what} at {}", self.i)),
            }
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        let c = *self.s.get(self.i).ok_or("unexpected end")?;
        let v = match c {
            b'n' => self.eat("null").map(|_| Json::Null)?,
            b't' => self.eat("true").map(|_| Json::Bool(true))?,
            b'f' => self.eat("false").map(|_| Json::Bool(false))?,
            b'"' => Json::Str(self.string()?),
            b'[' => {
                let mut items = Vec::new();
                self.items(b']', "array", |p| {
                    items.push(p.value()?);
                    Ok(())
                })?;
                Json::Arr(items)
            }
            b'{' => {
                let mut map = BTreeMap::new();
                self.items(b'}', "object", |p| {
                    p.ws();
                    let key = p.string()?;
                    p.ws();
                    p.eat(":")?;
                    let v = p.value()?;
                    if map.insert(key.clone(), v).is_some() {
                        return Err(format!("duplicate key {key}"));
                    }
                    Ok(())
                })?;
                Json::Obj(map)
            }
            _ => {
                let start = self.i;
                while self.i < self.s.len() && b"-+.eE0123456789".contains(&self.s[self.i]) {
                    self.i += 1;
                }
                let text =
                    std::str::from_utf8(&self.s[start..self.i]).map_err(|e| e.to_string())?;
                Json::Num(text.parse().map_err(|_| format!("bad number '{text}'"))?)
            }
        };
        Ok(v)
    }
    fn string(&mut self) -> Result<String, String> {
        self.eat("\"")?;
        let mut out = String::new();
        loop {
            let rest = std::str::from_utf8(&self.s[self.i..]).map_err(|e| e.to_string())?;
            let c = rest.chars().next().ok_or("unterminated string")?;
            self.i += c.len_utf8();
            match c {
                '"' => return Ok(out),
                '\\' => {
                    let e = *self.s.get(self.i).ok_or("bad escape")?;
                    self.i += 1;
                    match e {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'u' => {
                            let hex = std::str::from_utf8(&self.s[self.i..self.i + 4])
                                .map_err(|e| e.to_string())?;
                            let code = u32::from_str_radix(hex, 16).map_err(|e| e.to_string())?;
                            out.push(char::from_u32(code).ok_or("bad \\u")?);
                            self.i += 4;
                        }
                        _ => return Err("bad escape".into()),
                    }
                }
                c if (c as u32) < 0x20 => return Err("raw control character in string".into()),
                c => out.push(c),
            }
        }
    }
}

fn parse_json(text: &str) -> Result<Json, String> {
    let mut p = Parser {
        s: text.as_bytes(),
        i: 0,
    };
    let v = p.value()?;
    p.ws();
    if p.i != text.len() {
        return Err(format!("trailing text at {}", p.i));
    }
    Ok(v)
}

/// Checks one JSONL record and returns its fields.
fn check_record(line: &str) -> BTreeMap<String, Json> {
    let Ok(Json::Obj(map)) = parse_json(line) else {
        panic!("not a JSON object: {line}");
    };
    for key in [
        "id", "line", "fen", "bestmove", "score", "pv", "depth", "nodes", "time_ms",
    ] {
        assert!(map.contains_key(key), "no '{key}' in {line}");
    }
    assert!(matches!(map["id"], Json::Str(_) | Json::Null), "{line}");
    assert!(matches!(map["fen"], Json::Str(_)), "{line}");
    let Json::Str(best) = &map["bestmove"] else {
        panic!("bestmove: {line}")
    };
    let Json::Arr(pv) = &map["pv"] else {
        panic!("pv: {line}")
    };
    assert_eq!(pv.first(), Some(&Json::Str(best.clone())), "{line}");
    assert!(pv.iter().all(|m| matches!(m, Json::Str(_))), "{line}");
    let Json::Obj(score) = &map["score"] else {
        panic!("score: {line}")
    };
    assert_eq!(score.len(), 1, "{line}");
    let (kind, value) = score.iter().next().unwrap();
    assert!(kind == "cp" || kind == "mate", "{line}");
    assert!(matches!(value, Json::Num(n) if n.fract() == 0.0), "{line}");
    for key in ["line", "depth", "nodes", "time_ms"] {
        assert!(
            matches!(map[key], Json::Num(n) if n >= 0.0 && n.fract() == 0.0),
            "{line}"
        );
    }
    map
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn analyze(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_thoat"))
        .arg("analyze")
        .args(args)
        .output()
        .expect("run thoat analyze")
}

/// `thoat analyze --input <input>` and `args`.
fn analyze_file(input: &Path, args: &[&str]) -> Output {
    let mut all = vec!["--input", input.to_str().unwrap()];
    all.extend_from_slice(args);
    analyze(&all)
}

const SUITE: &str = "\
# a comment, then a test line, a plain FEN line and an EPD line with a mate in one
r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - bm e2a6; id \"kiwipete \\\"quoted\\\"\";
8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1

6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - bm d1d8; id \"back rank\";
";

#[test]
fn jsonl_records_have_every_field_and_tests_are_judged() {
    let input = temp_file("suite.epd", SUITE);
    let out = analyze_file(&input, &["--depth", "3"]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let records: Vec<_> = stdout.lines().map(check_record).collect();
    assert_eq!(records.len(), 3, "{stdout}");
    assert_eq!(records[0]["id"], Json::Str("kiwipete \"quoted\"".into()));
    assert_eq!(records[0]["line"], Json::Num(2.0));
    assert!(matches!(records[0]["solved"], Json::Bool(_)));
    assert_eq!(records[1]["id"], Json::Null);
    assert!(
        !records[1].contains_key("solved"),
        "plain FEN lines are not tests"
    );
    assert_eq!(
        records[2]["fen"],
        Json::Str("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1".into())
    );
    assert_eq!(records[2]["bestmove"], Json::Str("d1d8".into()));
    let Json::Obj(score) = &records[2]["score"] else {
        panic!()
    };
    assert_eq!(score.get("mate"), Some(&Json::Num(1.0)));
    assert_eq!(records[2]["solved"], Json::Bool(true));
    for r in &records {
        assert_eq!(r["depth"], Json::Num(3.0));
    }
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("3 positions"), "{stderr}");
    let solved = usize::from(records[0]["solved"] == Json::Bool(true)) + 1;
    assert!(stderr.contains(&format!("solved {solved}/2")), "{stderr}");
}

/// Splits one CSV row (RFC 4180 quoting).
fn csv_row(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, quoted) {
            ('"', true) if chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            ('"', _) => quoted = !quoted,
            (',', false) => fields.push(String::new()),
            (c, _) => fields.last_mut().unwrap().push(c),
        }
    }
    assert!(!quoted, "unterminated quote: {line}");
    fields
}

#[test]
fn csv_has_a_header_and_quotes_duck_moves() {
    let input = temp_file(
        "duck.epd",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - id \"start, duck\";\n\
         rnbqkbnr/pppppppp/8/3*4/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1\n",
    );
    let out = analyze_file(
        &input,
        &["--variant", "duck", "--depth", "2", "--format", "csv"],
    );
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<Vec<String>> = stdout.lines().map(csv_row).collect();
    assert_eq!(rows.len(), 3, "{stdout}");
    assert_eq!(
        rows[0],
        ["id", "line", "fen", "bestmove", "score", "pv", "depth", "nodes", "time_ms", "solved"]
    );
    assert_eq!(rows[1][0], "start, duck");
    for row in &rows[1..] {
        assert_eq!(row.len(), 10, "{row:?}");
        // A duck move: piece move, comma, duck square; the first move of the pv.
        let best = &row[3];
        assert!(best.contains(','), "{row:?}");
        assert!(row[5].starts_with(best.as_str()), "{row:?}");
        assert!(
            row[4].starts_with("cp ") || row[4].starts_with("mate "),
            "{row:?}"
        );
        assert_eq!(row[6], "2");
        assert!(row[7].parse::<u64>().unwrap() > 0);
        assert!(row[8].parse::<u64>().is_ok());
        assert_eq!(row[9], "");
    }
}

#[test]
fn malformed_lines_are_reported_by_number_and_skipped() {
    let input = temp_file(
        "bad.epd",
        "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - id \"a\";\n\
         rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQ w - - id \"short rank\";\n\
         rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - bm a1a9; id \"bad move\";\n\
         rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - id \"b\";\n",
    );
    let out = analyze_file(&input, &["--variant", "skak", "--nodes", "2000"]);
    assert!(out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("line 2: bad skak FEN"), "{stderr}");
    assert!(stderr.contains("line 3: bm move"), "{stderr}");
    assert!(
        !stderr.contains("line 1:") && !stderr.contains("line 4:"),
        "{stderr}"
    );
    assert!(stderr.contains("2 malformed lines skipped"), "{stderr}");
    let stdout = String::from_utf8(out.stdout).unwrap();
    let records: Vec<_> = stdout.lines().map(check_record).collect();
    let ids: Vec<&Json> = records.iter().map(|r| &r["id"]).collect();
    assert_eq!(ids, [&Json::Str("a".into()), &Json::Str("b".into())]);
}

#[test]
fn missing_input_and_bad_flags_are_errors_not_panics() {
    let out = analyze(&["--input", "/nonexistent/x.epd", "--depth", "2"]);
    assert!(!out.status.success());
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(stderr.contains("cannot read"), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let input = temp_file("one.fen", "8/8/8/8/8/8/8/K6k w - - 0 1\n");
    let out = analyze_file(&input, &["--depth", "2", "--nodes", "5"]);
    assert!(!out.status.success(), "two limits at once are refused");
    let out = analyze_file(&input, &["--format", "xml"]);
    assert!(!out.status.success());
}

#[test]
fn jobs_keep_input_order_and_give_the_same_results() {
    let text: String = include_str!("../positions/bench/chess.fen")
        .lines()
        .chain(include_str!("../positions/bench/chess.fen").lines())
        .collect::<Vec<_>>()
        .join("\n");
    let input = temp_file("jobs.fen", &text);
    // `--hash` is split among the jobs: give each job the same 8 MiB table, or the index
    // collisions of tables of other sizes change the node counts.
    let run = |jobs: &str| {
        let hash = (8 * jobs.parse::<usize>().unwrap()).to_string();
        let out = analyze_file(
            &input,
            &[
                "--depth",
                "5",
                "--jobs",
                jobs,
                "--threads",
                jobs,
                "--hash",
                &hash,
            ],
        );
        assert!(out.status.success());
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| {
                let r = check_record(l);
                (r["line"].clone(), r["bestmove"].clone(), r["nodes"].clone())
            })
            .collect::<Vec<_>>()
    };
    let one = run("1");
    assert_eq!(one.len(), 12);
    let lines: Vec<f64> = one
        .iter()
        .map(|r| match r.0 {
            Json::Num(n) => n,
            _ => panic!("line"),
        })
        .collect();
    assert!(lines.windows(2).all(|w| w[0] < w[1]), "{lines:?}");
    // One thread per job and a cleared table per position: the same search, in order.
    assert_eq!(run("3"), one);
}

#[test]
fn a_killed_run_leaves_only_complete_records() {
    let fen = "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10";
    let text: String = (0..20).map(|i| format!("{fen} id \"p{i}\";\n")).collect();
    let input = temp_file("kill.epd", &text);
    let output = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kill.jsonl");
    let _ = std::fs::remove_file(&output);
    let mut child = Command::new(env!("CARGO_BIN_EXE_thoat"))
        .args([
            "analyze",
            "--input",
            input.to_str().unwrap(),
            "--movetime",
            "200",
        ])
        .arg("--output")
        .arg(&output)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        let text = std::fs::read_to_string(&output).unwrap_or_default();
        if text.lines().count() >= 1 || start.elapsed() > Duration::from_secs(60) {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(
        child.try_wait().unwrap().is_none(),
        "the run must still be going when it is killed"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    let text = std::fs::read_to_string(&output).unwrap();
    assert!(
        text.ends_with('\n'),
        "the last record is complete: {text:?}"
    );
    let records: Vec<_> = text.lines().map(check_record).collect();
    assert!(
        !records.is_empty() && records.len() < 20,
        "{}",
        records.len()
    );
    for (i, r) in records.iter().enumerate() {
        assert_eq!(r["id"], Json::Str(format!("p{i}")));
    }
}

#[test]
fn shipped_tactics_suites_parse_with_an_id_and_a_best_move() {
    for variant in Variant::ALL {
        let path = format!(
            "{}/positions/tactics/{}.epd",
            env!("CARGO_MANIFEST_DIR"),
            variant.name()
        );
        let text = std::fs::read_to_string(&path).unwrap();
        let mut count = 0;
        thoat::with_game!(variant, G => {
            for (i, line) in text.lines().enumerate() {
                match parse_line::<G>(line, i + 1) {
                    Ok(Line::Skip) => {}
                    Ok(Line::Position(e)) => {
                        assert!(e.id.is_some() && !e.best.is_empty(), "{path}:{}", i + 1);
                        count += 1;
                    }
                    Err(e) => panic!("{path}:{}: {e}", i + 1),
                }
            }
        });
        assert!(count >= 20, "{path}: {count} positions");
    }
}
