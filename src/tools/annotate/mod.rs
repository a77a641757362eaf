//! `annotate`: analyses every position of every game of a PGN file and writes the games back
//! with an evaluation per move (`{ [%eval 0.35] }`, as lichess writes it, from White's view in
//! pawns; `#3` / `#-3` for mates), `?!`/`?`/`??` on the moves that lost expected score, the
//! engine's line as a variation at each of them, and each side's accuracy as tags
//! (`WhiteAccuracy`, `BlackAccuracy`); optionally one summary row per game and side, and one
//! evaluation graph per game as SVG. The scale and the formulas are in [`judge`].
//!
//! Games are analysed in parallel (`jobs`), each job with its own hash table of the same
//! size, cleared at the start of every game, so the output does not depend on `jobs` (with
//! a depth or node limit; a time limit depends on the machine anyway). A game that cannot be read
//! (malformed PGN, another game's `[Variant]`, a bad `[FEN]`, an illegal move) is named with
//! its number, line and ply on the error stream and skipped.

pub mod game;
pub mod judge;
pub mod svg;

use crate::core::{game::parse_move, Color, Game, GameState, Move};
use crate::search::{SearchGame, Shared};
use crate::tools::analyze::{progress_bar, san::san_moves, Limit, Score};
use crate::tools::pgn::read::{read_games, PgnRecord};
use crate::tools::pgn::{fullmove_number, MoveComment, PgnGame};
use crate::variants::Variant;
use game::{analyse_game_with, notes, MoveNote, PositionEval};
use judge::{accuracy, Judgement};
use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// Plies of the engine's line written as a variation at a judged move.
const VARIATION_PLIES: usize = 8;

/// The header of the `--summary` CSV.
pub const SUMMARY_HEADER: &str =
    "game,side,player,moves,inaccuracies,mistakes,blunders,accuracy,average_cp_loss";

/// Everything `annotate` needs to know.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game.
    pub variant: Variant,
    /// The search limit per position.
    pub limit: Limit,
    /// Games analysed at the same time (one thread each).
    pub jobs: usize,
    /// Hash in MiB of each job's table: every game is analysed with a table of this size,
    /// so the output is the same with any number of jobs.
    pub hash_mb: usize,
    /// Draw a progress bar on the error stream.
    pub progress: bool,
    /// Where to write one SVG graph per game (`game-001.svg`, ...), if anywhere.
    pub svg_dir: Option<PathBuf>,
}

/// The figures of one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games annotated.
    pub games: usize,
    /// Games skipped (unreadable).
    pub skipped: usize,
    /// Positions searched or judged.
    pub positions: usize,
    /// Wall time in milliseconds.
    pub millis: u64,
}

/// A game read and checked against the rules, ready to analyse.
struct Prepared<G: Game> {
    /// Its number in the file, from 1.
    number: usize,
    record: PgnRecord,
    start: GameState<G>,
    moves: Vec<Move>,
}

/// Annotates the games of `input`: the PGN goes to `out`, the summary rows (if asked) to
/// `summary`, diagnostics, the progress bar and the totals to `err`.
pub fn run(
    options: &Options,
    input: &str,
    out: &mut dyn Write,
    summary: Option<&mut dyn Write>,
    err: &mut dyn Write,
) -> io::Result<Summary> {
    crate::with_game!(options.variant, G => run_game::<G>(options, input, out, summary, err))
}

fn run_game<G: SearchGame>(
    options: &Options,
    input: &str,
    out: &mut dyn Write,
    mut summary_out: Option<&mut dyn Write>,
    err: &mut dyn Write,
) -> io::Result<Summary> {
    let start = Instant::now();
    let mut totals = Summary::default();
    let mut games: Vec<Prepared<G>> = Vec::new();
    for (index, read) in read_games(input).into_iter().enumerate() {
        let number = index + 1;
        match read.and_then(|record| prepare::<G>(number, record)) {
            Ok(game) => games.push(game),
            Err(e) => {
                totals.skipped += 1;
                writeln!(err, "game {number}: {e}; skipped")?;
            }
        }
    }
    if let Some(dir) = &options.svg_dir {
        std::fs::create_dir_all(dir)?;
    }
    if let Some(s) = summary_out.as_mut() {
        writeln!(s, "{SUMMARY_HEADER}")?;
    }
    let total_positions: usize = games.iter().map(|g| g.moves.len() + 1).sum();
    let jobs = options.jobs.clamp(1, games.len().max(1));
    let hash_mb = options.hash_mb.max(1);
    let limits = options.limit.limits();
    if options.progress && total_positions > 0 {
        progress_bar(err, 0, total_positions, start)?;
    }
    /// What a job tells the writer: one more position done, or a game finished.
    enum Message {
        Position,
        Game(usize, Vec<PositionEval>),
    }
    let next = AtomicUsize::new(0);
    let (sender, receiver) = mpsc::channel::<Message>();
    let result = std::thread::scope(|scope| -> io::Result<()> {
        for _ in 0..jobs {
            let sender = sender.clone();
            let (games, next, limits) = (&games, &next, &limits);
            scope.spawn(move || {
                let shared = Shared::new(hash_mb);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(game) = games.get(i) else { break };
                    let mut tick = || {
                        let _ = sender.send(Message::Position);
                    };
                    let evals =
                        analyse_game_with(&game.start, &game.moves, limits, &shared, &mut tick);
                    // The receiver is gone only when writing failed: stop taking work.
                    if sender.send(Message::Game(i, evals)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        // Games finish in any order; each is written once all earlier ones are. A failed
        // write drops the receiver, and the jobs stop.
        let mut pending = BTreeMap::new();
        let mut written = 0;
        let mut positions = 0;
        for message in receiver {
            match message {
                Message::Position => {
                    positions += 1;
                    if options.progress {
                        progress_bar(err, positions, total_positions, start)?;
                    }
                }
                Message::Game(i, evals) => {
                    pending.insert(i, evals);
                }
            }
            while let Some(evals) = pending.remove(&written) {
                let game = &games[written];
                let annotated = Annotated::new(game, evals);
                out.write_all(annotated.pgn(options).as_bytes())?;
                out.flush()?;
                if let Some(s) = summary_out.as_mut() {
                    s.write_all(annotated.summary_rows().as_bytes())?;
                    s.flush()?;
                }
                if let Some(dir) = &options.svg_dir {
                    let path = dir.join(format!("game-{:03}.svg", game.number));
                    std::fs::write(&path, annotated.svg())?;
                }
                written += 1;
                totals.games += 1;
                totals.positions += annotated.evals.len();
            }
        }
        Ok(())
    });
    if options.progress && total_positions > 0 {
        writeln!(err)?;
    }
    result?;
    totals.millis = start.elapsed().as_millis() as u64;
    write!(err, "annotate {}: {} games", G::NAME, totals.games)?;
    if totals.skipped > 0 {
        write!(err, " ({} skipped)", totals.skipped)?;
    }
    writeln!(
        err,
        ", {} positions ({}), {} ms",
        totals.positions,
        options.limit.text(),
        totals.millis
    )?;
    Ok(totals)
}

/// Whether a `[Variant]` tag names this game (chess also goes by lichess's names).
fn variant_matches<G: Game>(tag: &str) -> bool {
    let tag = tag.trim();
    tag.eq_ignore_ascii_case(G::NAME)
        || (G::NAME == "chess"
            && ["standard", "from position", "normal"]
                .iter()
                .any(|name| tag.eq_ignore_ascii_case(name)))
}

/// Checks a game read from PGN against the rules: its variant, its start, every move.
fn prepare<G: Game>(number: usize, record: PgnRecord) -> Result<Prepared<G>, String> {
    let line = record.line;
    if let Some(variant) = record.tag("Variant") {
        if !variant_matches::<G>(variant) {
            return Err(format!(
                "line {line}: [Variant \"{variant}\"] is not {}",
                G::NAME
            ));
        }
    }
    let position = match record.tag("FEN") {
        Some(fen) => G::from_fen(fen).map_err(|e| format!("line {line}: [FEN]: {e}"))?,
        None => G::from_fen(G::START_FEN).map_err(|e| format!("start position: {e}"))?,
    };
    let start = GameState::new(position);
    let mut game = start.clone();
    let mut moves = Vec::with_capacity(record.moves.len());
    for (i, text) in record.moves.iter().enumerate() {
        let ply = i + 1;
        if let Some(result) = game.result() {
            return Err(format!(
                "line {line}, ply {ply} ('{text}'): the game is already over ({})",
                result.reason
            ));
        }
        let mv = read_move(&game.position, text)
            .map_err(|e| format!("line {line}, ply {ply} ('{text}'): {e}"))?;
        game.play(mv);
        moves.push(mv);
    }
    Ok(Prepared {
        number,
        record,
        start,
        moves,
    })
}

/// A move in the notation of RULES.md, or in SAN where it names one move.
fn read_move<G: Game>(position: &G, text: &str) -> Result<Move, String> {
    let protocol = match parse_move(position, text) {
        Ok(mv) => return Ok(mv),
        Err(e) => e,
    };
    match san_moves(position, text) {
        Ok(moves) if moves.len() == 1 => Ok(moves[0]),
        // Duck chess SAN names the piece move, not the duck's square.
        Ok(_) => Err("the move does not say where the duck goes".to_string()),
        Err(_) => Err(protocol),
    }
}

/// A game with its evaluations and the notes on its moves.
struct Annotated<'a, G: Game> {
    game: &'a Prepared<G>,
    evals: Vec<PositionEval>,
    notes: Vec<MoveNote>,
    /// The moves as the PGN writes them, in the notation of RULES.md.
    texts: Vec<String>,
    /// Each move with its number, for tooltips: `12... e7e5`.
    labels: Vec<String>,
}

impl<'a, G: Game> Annotated<'a, G> {
    fn new(game: &'a Prepared<G>, evals: Vec<PositionEval>) -> Self {
        let notes = notes(&evals);
        let texts: Vec<String> = evals.iter().filter_map(|e| e.played.clone()).collect();
        let first = fullmove_number(&game.start.position.fen());
        let labels = evals
            .iter()
            .take(texts.len())
            .enumerate()
            .map(|(k, eval)| {
                // Count full moves from the first mover: the number grows after Black moves.
                let first_black = u32::from(evals[0].side == Color::Black);
                let number = first + (k as u32 + first_black) / 2;
                let dots = if eval.side == Color::White {
                    "."
                } else {
                    "..."
                };
                format!("{number}{dots} {}", texts[k])
            })
            .collect();
        Annotated {
            game,
            evals,
            notes,
            texts,
            labels,
        }
    }

    /// The losses of one side's moves.
    fn losses(&self, side: Color) -> Vec<f64> {
        self.notes
            .iter()
            .filter(|n| n.mover == side)
            .map(|n| n.loss)
            .collect()
    }

    fn pgn(&self, options: &Options) -> String {
        let record = &self.game.record;
        let written_by_pgn = [
            "Variant",
            "SetUp",
            "FEN",
            "Result",
            "Termination",
            "Annotator",
        ];
        let mut tags: Vec<(String, String)> = record
            .tags
            .iter()
            .filter(|(name, _)| {
                !written_by_pgn.contains(&name.as_str())
                    && !matches!(name.as_str(), "WhiteAccuracy" | "BlackAccuracy")
            })
            .cloned()
            .collect();
        tags.push((
            "Annotator".into(),
            format!(
                "thoat {} ({})",
                env!("CARGO_PKG_VERSION"),
                options.limit.text()
            ),
        ));
        for (name, side) in [
            ("WhiteAccuracy", Color::White),
            ("BlackAccuracy", Color::Black),
        ] {
            tags.push((name.into(), format!("{:.1}", accuracy(&self.losses(side)))));
        }
        let start_fen = self.game.start.position.fen();
        let final_result = self.evals.last().and_then(|e| e.result);
        let result = record
            .result
            .clone()
            .or_else(|| final_result.map(|r| r.pgn().to_string()))
            .unwrap_or_else(|| "*".to_string());
        let termination = record
            .tag("Termination")
            .map(str::to_string)
            .or_else(|| final_result.map(|r| r.reason.to_string()));
        let comments = self
            .notes
            .iter()
            .map(|note| MoveComment {
                suffix: note.judgement.map(Judgement::symbol),
                comment: move_comment(note),
                variation: note.best.iter().take(VARIATION_PLIES).cloned().collect(),
            })
            .collect();
        PgnGame {
            tags,
            variant: G::NAME.to_string(),
            setup_fen: (record.tag("FEN").is_some() || start_fen != G::START_FEN)
                .then_some(start_fen.clone()),
            first_to_move: Some(self.game.start.position.side_to_move()),
            first_move_number: fullmove_number(&start_fen),
            moves: self.texts.clone(),
            comments,
            result,
            termination,
        }
        .to_pgn()
    }

    fn summary_rows(&self) -> String {
        let mut rows = String::new();
        for (side, tag) in [(Color::White, "White"), (Color::Black, "Black")] {
            let own: Vec<&MoveNote> = self.notes.iter().filter(|n| n.mover == side).collect();
            let count = |j: Judgement| own.iter().filter(|n| n.judgement == Some(j)).count();
            let cp_loss = if own.is_empty() {
                0.0
            } else {
                own.iter().map(|n| f64::from(n.cp_loss)).sum::<f64>() / own.len() as f64
            };
            let player = self.game.record.tag(tag).unwrap_or("?");
            rows.push_str(&format!(
                "{},{},{},{},{},{},{},{:.1},{:.1}\n",
                self.game.number,
                tag.to_ascii_lowercase(),
                csv_field(player),
                own.len(),
                count(Judgement::Inaccuracy),
                count(Judgement::Mistake),
                count(Judgement::Blunder),
                accuracy(&self.losses(side)),
                cp_loss
            ));
        }
        rows
    }

    fn svg(&self) -> String {
        let tag = |name| self.game.record.tag(name).unwrap_or("?");
        let result = self.game.record.result.as_deref().unwrap_or("*");
        let title = format!(
            "Game {} ({}): {} - {}, {result}",
            self.game.number,
            G::NAME,
            tag("White"),
            tag("Black")
        );
        let first_move = fullmove_number(&self.game.start.position.fen());
        svg::graph(&title, &self.evals, &self.notes, &self.labels, first_move)
    }
}

/// A score from White's view as `%eval` writes it: pawns with two decimals, or `#n`.
pub fn eval_text(score: Score) -> String {
    match score {
        Score::Cp(cp) => format!("{:.2}", f64::from(cp) / 100.0),
        Score::Mate(n) => format!("#{n}"),
    }
}

/// The comment after a move: its evaluation, and at a judged move what it was and the best
/// move (`[%eval -1.37] Blunder; best c4b4`); `None` for nothing to say.
fn move_comment(note: &MoveNote) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(score) = note.white_eval {
        parts.push(format!("[%eval {}]", eval_text(score)));
    }
    if let Some(judgement) = note.judgement {
        let mut text = capitalised(judgement.name());
        if let Some(best) = note.best.first() {
            text.push_str(&format!("; best {best}"));
        }
        parts.push(text);
    }
    (!parts.is_empty()).then(|| parts.join(" "))
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_ascii_uppercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::{Chess, Duck};

    #[test]
    fn eval_text_is_pawns_or_mate() {
        assert_eq!(eval_text(Score::Cp(35)), "0.35");
        assert_eq!(eval_text(Score::Cp(-120)), "-1.20");
        assert_eq!(eval_text(Score::Mate(3)), "#3");
        assert_eq!(eval_text(Score::Mate(-2)), "#-2");
    }

    #[test]
    fn moves_are_read_in_protocol_notation_or_san() {
        let start = Chess::from_fen(Chess::START_FEN).unwrap();
        let record = |moves: &[&str]| PgnRecord {
            moves: moves.iter().map(|m| m.to_string()).collect(),
            line: 3,
            ..PgnRecord::default()
        };
        let game = prepare::<Chess>(1, record(&["e4", "e7e5", "Nf3", "b8c6"])).unwrap();
        assert_eq!(game.moves.len(), 4);
        assert_eq!(start.move_text(game.moves[0]), "e2e4");
        let err = prepare::<Chess>(2, record(&["e4", "e5", "Ke3"]))
            .err()
            .unwrap();
        assert!(err.contains("line 3, ply 3 ('Ke3')"), "{err}");
        let over = record(&["f3", "e5", "g4", "Qh4", "a3"]);
        assert!(prepare::<Chess>(3, over)
            .err()
            .unwrap()
            .contains("already over"));
        let duck = prepare::<Duck>(4, record(&["Nf3"])).err().unwrap();
        assert!(duck.contains("duck"), "{duck}");
        let mut wrong = record(&["e4"]);
        wrong.tags.push(("Variant".into(), "jetan".into()));
        assert!(prepare::<Chess>(5, wrong)
            .err()
            .unwrap()
            .contains("is not chess"));
        let mut fen = record(&[]);
        fen.tags.push(("FEN".into(), "8/8/8 w".into()));
        assert!(prepare::<Chess>(6, fen).err().unwrap().contains("[FEN]"));
        let mut standard = record(&["d4"]);
        standard.tags.push(("Variant".into(), "Standard".into()));
        assert!(prepare::<Chess>(7, standard).is_ok());
    }

    #[test]
    fn csv_fields_with_commas_are_quoted() {
        assert_eq!(csv_field("thoat"), "thoat");
        assert_eq!(csv_field("a, \"b\""), "\"a, \"\"b\"\"\"");
    }
}
