//! One game on the board: the start position, the moves played, and everything the page
//! asks of it, for any of the games. Every rule question goes to the game's own code
//! (`Game::generate`, `GameState::result`, the search); nothing here knows a rule.

use super::analysis::{Analysis, Handle};
use crate::core::fen::parse_board;
use crate::core::game::parse_move;
use crate::core::{split_move_squares, square_name, Color, GameResult, GameState, Move};
use crate::search::{
    score_text, search, search_quietly, Clock, Limits, Reporter, SearchGame, Settings, Shared,
};
use crate::tools::analyze::{Limit, Score};
use crate::tools::annotate::game::{analyse_game, notes, MoveNote, PositionEval};
use crate::tools::annotate::judge::{self, Judgement};
use crate::tools::pgn::PgnGame;
use crate::variants::{Duck, Jetan, Variant};
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most plies one game may hold (a bound on memory per game; far beyond any real game).
pub const MAX_PLIES: usize = 2_000;
/// The longest engine think accepted, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 30_000;
/// The deepest engine search accepted (also bounded by [`MAX_MOVETIME_MS`]).
pub const MAX_DEPTH: i32 = 40;
/// Transposition table per engine reply, in MiB: small, since games are many and replies short.
const ENGINE_HASH_MB: usize = 8;
/// Nodes of the short search that evaluates a position for the graph: tens of milliseconds,
/// and the same evaluation on every run.
pub const EVAL_NODES: u64 = 20_000;
/// A time bound on that search too, so that a slow machine still answers quickly.
const EVAL_MAX_MS: u64 = 500;
/// The table of that search, fresh for each position so that its result does not depend on
/// which positions were evaluated before.
const EVAL_HASH_MB: usize = 1;

/// Nodes per position when the page asks for the game's annotation without a limit: more
/// than a graph point's short search, and still a few seconds for a whole game.
pub const ANNOTATE_NODES: u64 = 50_000;
/// The most time one annotation may take in all (each position gets its share).
pub const MAX_ANNOTATE_MS: u64 = 60_000;
/// The annotator's table, kept from one position of the game to the next.
const ANNOTATE_HASH_MB: usize = 16;

/// What a position of the game is worth: the annotator's record of it (side to move and
/// score, or the result), which gives White's view and expected score, and the depth of
/// the search when it is known.
#[derive(Clone, Debug, PartialEq)]
struct Evaluation {
    position: PositionEval,
    depth: Option<i32>,
}

impl Evaluation {
    /// The search's `score` (internal units) of the side `side` to move, at depth `depth`.
    fn searched(score: i32, side: Color, depth: i32) -> Evaluation {
        Evaluation {
            position: PositionEval {
                side,
                score: Some(score_of(score)),
                result: None,
                pv: Vec::new(),
                played: None,
            },
            depth: Some(depth),
        }
    }

    /// A position where the game is over.
    fn over(result: GameResult, side: Color) -> Evaluation {
        Evaluation {
            position: PositionEval {
                side,
                score: None,
                result: Some(result),
                pv: Vec::new(),
                played: None,
            },
            depth: None,
        }
    }

    fn json(&self) -> Value {
        let white = self.position.white_score();
        let result = self.position.result;
        let text = match (white, result) {
            (Some(white), _) => white_text(white),
            (None, Some(result)) => result.pgn().to_string(),
            (None, None) => "?".to_string(),
        };
        json!({
            "eval": text,
            "score": white.map(score_json),
            "expected": self.position.white_expected(),
            "depth": self.depth,
            "winner": result.and_then(|r| r.winner).map(color_text),
        })
    }
}

/// The annotator's evaluations of a game's positions, to be taken in by
/// [`Session::take_annotation`].
pub struct Annotation {
    /// The moves it analysed (the game may have gone on or back since).
    moves: Vec<String>,
    /// Its evaluation of every position of them, the start first.
    evals: Vec<PositionEval>,
}

/// The annotator's work on a game as it stood, to be run without the game's lock.
pub type AnnotationJob = Box<dyn FnOnce() -> Annotation + Send>;

fn note_json(note: &MoveNote) -> Value {
    json!({
        "judgement": note.judgement.map(Judgement::name),
        "symbol": note.judgement.map(Judgement::symbol),
        "loss": (note.loss * 1000.0).round() / 1000.0,
        "eval": note.white_eval.map(white_text),
        "best": note.best,
    })
}

/// A short search of one position for the graph (or its result, if the game is over there).
fn evaluate_position<G: SearchGame>(game: &GameState<G>) -> Option<Evaluation> {
    let side = game.position.side_to_move();
    if let Some(result) = game.result() {
        return Some(Evaluation::over(result, side));
    }
    let limits = Limits {
        nodes: Some(EVAL_NODES),
        movetime: Some(EVAL_MAX_MS),
        ..Limits::default()
    };
    let shared = Shared::new(EVAL_HASH_MB);
    let outcome = search_quietly(game, &limits, &Settings::default(), &shared);
    (outcome.depth > 0).then(|| Evaluation::searched(outcome.score, side, outcome.depth))
}

/// How hard the engine thinks for one reply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strength {
    /// A fixed time in milliseconds.
    Movetime(u64),
    /// A fixed depth in plies (still stopped after [`MAX_MOVETIME_MS`]).
    Depth(i32),
}

/// What the page can do with a game, whatever game it is.
pub trait Session: Send {
    /// The game's name.
    fn variant(&self) -> Variant;
    /// The game as JSON: board, FEN, moves, result (see the API table of docs/serve.md).
    fn state(&self) -> Value;
    /// The legal moves of the piece on `from` (a square name), or an error for a bad square.
    fn moves_from(&self, from: &str) -> Result<Value, String>;
    /// Whether the game has ended (`GameState::result()` says so).
    fn is_over(&self) -> bool;
    /// Plays a move given in protocol notation; on error nothing changes.
    fn play(&mut self, text: &str) -> Result<(), String>;
    /// Takes back up to `plies` plies; returns how many were taken back.
    fn undo(&mut self, plies: usize) -> usize;
    /// Lets the engine choose and play a move; returns the move, score, depth and PV.
    fn engine(&mut self, strength: Strength) -> Result<Value, String>;
    /// Evaluates the positions not evaluated yet (a short search each, [`EVAL_NODES`]),
    /// oldest first, until `budget` is spent; returns how many are still missing.
    fn evaluate(&mut self, budget: Duration) -> usize;
    /// Starts analysing the current position with `multipv` lines for `movetime_ms`, after
    /// stopping the analysis running, if any; an error once the game is over.
    fn start_analysis(&mut self, multipv: usize, movetime_ms: u64) -> Result<Handle, String>;
    /// Stops the analysis, if any, and forgets it.
    fn stop_analysis(&mut self);
    /// The analysis as it stands: whether it runs, and its lines with scores, White's view
    /// and first move (see docs/serve.md).
    fn analysis(&self) -> Value;
    /// The work of annotating the game as it stands, `limit` per position (and a share of
    /// [`MAX_ANNOTATE_MS`] at most): to be run without the game's lock, its result given to
    /// [`Session::take_annotation`].
    fn annotation_job(&self, limit: Limit) -> AnnotationJob;
    /// Takes in an annotation: the notes (`?!`, `?`, `??`) and evaluations of the moves that
    /// are still played as it saw them; returns how many moves that is.
    fn take_annotation(&mut self, annotation: Annotation) -> usize;
    /// The game as PGN (the same writer as the match runner).
    fn pgn(&self) -> String;
}

/// A game of type `G` on the board.
pub struct Board<G: SearchGame> {
    variant: Variant,
    start: GameState<G>,
    game: GameState<G>,
    moves: Vec<Move>,
    texts: Vec<String>,
    /// Each move played as [`Board::describe`] gave it (the page marks the last one).
    details: Vec<Value>,
    /// The side the person plays, as the page chose it (the page asks the engine for the
    /// other side's moves).
    human: Color,
    /// The evaluation of every position of the game (index: plies played, 0 is the start),
    /// `None` until it is evaluated.
    evals: Vec<Option<Evaluation>>,
    /// The analysis of the current position, if one was started. Whatever changes the
    /// position drops it, which stops its search.
    analysis: Option<Analysis>,
    /// The annotator's note on every move (index: the move's), `None` until annotated.
    notes: Vec<Option<MoveNote>>,
}

impl<G: SearchGame> Board<G> {
    /// A game from `fen` (or the start position) with the person playing `human`.
    pub fn new(variant: Variant, fen: Option<&str>, human: Color) -> Result<Board<G>, String> {
        let fen = fen.map(str::trim).filter(|f| !f.is_empty());
        let position = G::from_fen(fen.unwrap_or(G::START_FEN))
            .map_err(|e| format!("bad FEN for {}: {e}", variant.name()))?;
        let start = GameState::new(position);
        Ok(Board {
            variant,
            game: start.clone(),
            start,
            moves: Vec::new(),
            texts: Vec::new(),
            details: Vec::new(),
            human,
            evals: vec![None],
            analysis: None,
            notes: Vec::new(),
        })
    }

    /// Describes one legal move for the page: its squares, promotion, duck square, escape.
    fn describe(&self, mv: Move) -> Value {
        let text = self.game.position.move_text(mv);
        let (from, to, rest) = split_move_squares(&text, G::WIDTH, G::HEIGHT)
            .map(|(f, t, r)| (square_name(f.0, f.1), square_name(t.0, t.1), r.to_string()))
            .unwrap_or_default();
        // The rest is `[promotion][,<to><duck>]` (RULES.md's notation). The duck square and
        // the escape are read from the move itself, by the game that made it.
        let promotion = rest.split(',').next().unwrap_or_default().to_string();
        let duck = (self.variant == Variant::Duck).then(|| Duck::duck_square(mv));
        let escape = self.variant == Variant::Jetan && Jetan::is_escape(mv);
        json!({
            "text": text,
            "from": from,
            "to": to,
            "promotion": if promotion.is_empty() { Value::Null } else { Value::from(promotion) },
            "duck": duck,
            "escape": escape,
        })
    }

    fn legal(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        self.game.position.generate(&mut moves);
        moves
    }

    fn replay(&mut self, keep: usize) {
        let mut game = self.start.clone();
        for &mv in &self.moves[..keep] {
            game.play(mv);
        }
        self.game = game;
        self.moves.truncate(keep);
        self.texts.truncate(keep);
        self.details.truncate(keep);
        self.evals.truncate(keep + 1);
        self.notes.truncate(keep);
        self.analysis = None;
    }

    /// Plays `mv` (legal) with its evaluation, if known.
    fn push_move(&mut self, mv: Move, text: String, eval: Option<Evaluation>) {
        self.details.push(self.describe(mv));
        self.game.play(mv);
        self.moves.push(mv);
        self.texts.push(text);
        self.evals.push(eval);
        self.notes.push(None);
        self.analysis = None;
    }

    /// Each side's accuracy (0-100) over its annotated moves; `null` before any annotation.
    fn accuracy(&self) -> Value {
        if self.notes.iter().all(Option::is_none) {
            return Value::Null;
        }
        let of = |side: Color| {
            let losses: Vec<f64> = self
                .notes
                .iter()
                .flatten()
                .filter(|n| n.mover == side)
                .map(|n| n.loss)
                .collect();
            (judge::accuracy(&losses) * 10.0).round() / 10.0
        };
        json!({ "w": of(Color::White), "b": of(Color::Black) })
    }
}

fn color_text(color: Color) -> &'static str {
    match color {
        Color::White => "w",
        Color::Black => "b",
    }
}

/// A search score (internal units) as a [`Score`], through the UCI text the search writes
/// (one definition of mate distances).
fn score_of(internal: i32) -> Score {
    let text = score_text(internal);
    text.split_once(' ')
        .and_then(|(kind, value)| Score::from_uci(kind, value))
        .unwrap_or(Score::Cp(0))
}

/// `score`, of the side `side`, from White's point of view.
fn white_view(score: Score, side: Color) -> Score {
    match (side, score) {
        (Color::White, _) => score,
        (Color::Black, Score::Cp(cp)) => Score::Cp(-cp),
        (Color::Black, Score::Mate(moves)) => Score::Mate(-moves),
    }
}

/// A score from White's view as the page shows it: in pawns (`+0.35`) or as a mate in
/// moves (`#3`, `#-2`).
fn white_text(white: Score) -> String {
    match white {
        Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
        Score::Mate(moves) if moves < 0 => format!("#-{}", -moves),
        Score::Mate(moves) => format!("#{moves}"),
    }
}

fn score_json(score: Score) -> Value {
    match score {
        Score::Cp(cp) => json!({ "cp": cp }),
        Score::Mate(moves) => json!({ "mate": moves }),
    }
}

/// The search's score of the side to move as the page shows it (from White's view).
fn eval_text(score: i32, side: Color) -> String {
    white_text(white_view(score_of(score), side))
}

impl<G: SearchGame> Session for Board<G> {
    fn variant(&self) -> Variant {
        self.variant
    }

    fn state(&self) -> Value {
        let fen = self.game.position.fen();
        let board_field = fen.split_whitespace().next().unwrap_or("");
        let pieces: Vec<Value> = parse_board(board_field, G::WIDTH, G::HEIGHT)
            .unwrap_or_default()
            .into_iter()
            .map(|(file, rank, letter)| {
                json!({"square": square_name(file, rank), "piece": letter.to_string()})
            })
            .collect();
        let result = self.game.result().map(|r| {
            json!({
                "winner": r.winner.map(color_text),
                "reason": r.reason,
                "pgn": r.pgn(),
            })
        });
        json!({
            "variant": self.variant.name(),
            "width": G::WIDTH,
            "height": G::HEIGHT,
            "fen": fen,
            "start_fen": self.start.position.fen(),
            "side_to_move": color_text(self.game.position.side_to_move()),
            "human": color_text(self.human),
            "first_to_move": color_text(self.start.position.side_to_move()),
            "first_move_number": crate::tools::pgn::fullmove_number(&self.start.position.fen()),
            "pieces": pieces,
            "moves": self.texts,
            "last_move": self.details.last(),
            "result": result,
            "evals": self.evals.iter().map(|e| e.as_ref().map(Evaluation::json)).collect::<Vec<_>>(),
            "notes": self.notes.iter().map(|n| n.as_ref().map(note_json)).collect::<Vec<_>>(),
            "accuracy": self.accuracy(),
        })
    }

    fn is_over(&self) -> bool {
        self.game.result().is_some()
    }

    fn moves_from(&self, from: &str) -> Result<Value, String> {
        let square = crate::core::parse_square(from, G::WIDTH, G::HEIGHT).ok_or_else(|| {
            format!(
                "bad square '{}' for a {}x{} board",
                from.escape_debug(),
                G::WIDTH,
                G::HEIGHT
            )
        })?;
        let name = square_name(square.0, square.1);
        let moves: Vec<Value> = self
            .legal()
            .into_iter()
            .map(|mv| self.describe(mv))
            .filter(|m| m["from"] == name.as_str())
            .collect();
        Ok(json!({"from": name, "moves": moves}))
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        if let Some(result) = self.game.result() {
            return Err(format!("the game is over ({})", result.reason));
        }
        if self.moves.len() >= MAX_PLIES {
            return Err(format!("a game may hold at most {MAX_PLIES} plies"));
        }
        let mv = parse_move(&self.game.position, text)?;
        self.push_move(mv, text.to_string(), None);
        Ok(())
    }

    fn undo(&mut self, plies: usize) -> usize {
        let taken = plies.min(self.moves.len());
        if taken > 0 {
            self.replay(self.moves.len() - taken);
        }
        taken
    }

    fn engine(&mut self, strength: Strength) -> Result<Value, String> {
        if let Some(result) = self.game.result() {
            return Err(format!("the game is over ({})", result.reason));
        }
        if self.moves.len() >= MAX_PLIES {
            return Err(format!("a game may hold at most {MAX_PLIES} plies"));
        }
        let limits = match strength {
            Strength::Movetime(ms) => Limits {
                movetime: Some(ms.clamp(1, MAX_MOVETIME_MS)),
                ..Limits::default()
            },
            Strength::Depth(depth) => Limits {
                depth: Some(depth.clamp(1, MAX_DEPTH)),
                movetime: Some(MAX_MOVETIME_MS),
                ..Limits::default()
            },
        };
        // The engine thinks alone: an analysis of this position would only share the CPU.
        self.analysis = None;
        let side = self.game.position.side_to_move();
        let clock = Clock::new(&limits, side.index(), 0);
        let shared = Shared::new(ENGINE_HASH_MB);
        let settings = Settings {
            // It plays a person: as in UCI play, it plays on for a win.
            contempt: crate::search::DEFAULT_CONTEMPT,
            ..Settings::default()
        };
        // The search reports `info ... pv <moves>` lines; the last one holds the PV.
        let last_pv: Arc<Mutex<String>> = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&last_pv);
        let reporter: Reporter = Arc::new(move |line: &str| {
            if let Some((_, pv)) = line.split_once(" pv ") {
                *sink.lock().unwrap_or_else(|p| p.into_inner()) = pv.to_string();
            }
        });
        let outcome = search(
            &self.game, &limits, &settings, &clock, &shared, None, &reporter,
        );
        let best = outcome
            .best
            .ok_or_else(|| "the engine found no legal move".to_string())?;
        let described = self.describe(best);
        let text = self.game.position.move_text(best);
        let pv_text = last_pv.lock().unwrap_or_else(|p| p.into_inner()).clone();
        let mut pv: Vec<String> = pv_text.split_whitespace().map(str::to_string).collect();
        if pv.first() != Some(&text) {
            pv = vec![text.clone()];
        }
        // The reply's score is the worth of the position before it and, along its line, of the
        // one after: both positions get it, instead of a shorter search of their own.
        let searched =
            (outcome.depth > 0).then(|| Evaluation::searched(outcome.score, side, outcome.depth));
        if let Some(slot) = self.evals.last_mut() {
            if slot.is_none() {
                *slot = searched.clone();
            }
        }
        let mut after = self.game.clone();
        after.play(best);
        let eval = match after.result() {
            Some(result) => Some(Evaluation::over(result, after.position.side_to_move())),
            None => searched,
        };
        self.push_move(best, text.clone(), eval);
        Ok(json!({
            "move": described,
            "score": crate::search::score_text(outcome.score),
            "eval": eval_text(outcome.score, side),
            "depth": outcome.depth,
            "nodes": outcome.nodes,
            "pv": pv,
        }))
    }

    fn evaluate(&mut self, budget: Duration) -> usize {
        let missing = |evals: &[Option<Evaluation>]| evals.iter().filter(|e| e.is_none()).count();
        if missing(&self.evals) == 0 {
            return 0;
        }
        let started = Instant::now();
        let mut game = self.start.clone();
        for ply in 0..self.evals.len() {
            if self.evals[ply].is_none() && started.elapsed() < budget {
                self.evals[ply] = evaluate_position(&game);
            }
            if let Some(&mv) = self.moves.get(ply) {
                game.play(mv);
            }
        }
        missing(&self.evals)
    }

    fn start_analysis(&mut self, multipv: usize, movetime_ms: u64) -> Result<Handle, String> {
        if let Some(result) = self.game.result() {
            return Err(format!("the game is over ({})", result.reason));
        }
        // One search per game: the old one is stopped and joined before the new one starts.
        self.analysis = None;
        let analysis = Analysis::start(self.game.clone(), multipv, movetime_ms)?;
        let handle = analysis.handle();
        self.analysis = Some(analysis);
        Ok(handle)
    }

    fn stop_analysis(&mut self) {
        self.analysis = None;
    }

    fn analysis(&self) -> Value {
        let Some(analysis) = &self.analysis else {
            return json!({
                "running": false,
                "fen": self.game.position.fen(),
                "multipv": 0,
                "depth": 0,
                "nodes": 0,
                "elapsed_ms": 0,
                "lines": [],
            });
        };
        let progress = analysis.progress();
        let side = self.game.position.side_to_move();
        let lines: Vec<Value> = progress
            .lines
            .iter()
            .enumerate()
            .map(|(i, line)| {
                // The first move, described as legal moves are, for the page's arrow.
                let first = line
                    .pv
                    .first()
                    .and_then(|text| parse_move(&self.game.position, text).ok())
                    .map(|mv| self.describe(mv));
                json!({
                    "multipv": i + 1,
                    "depth": line.depth,
                    "score": score_json(line.score),
                    "eval": white_text(white_view(line.score, side)),
                    "pv": line.pv,
                    "move": first,
                })
            })
            .collect();
        json!({
            "running": progress.running,
            "fen": analysis.fen(),
            "multipv": analysis.multipv(),
            "depth": progress.lines.first().map_or(0, |l| l.depth),
            "nodes": progress.nodes,
            "elapsed_ms": progress.elapsed.as_millis() as u64,
            "lines": lines,
        })
    }

    fn annotation_job(&self, limit: Limit) -> AnnotationJob {
        let mut limits = limit.limits();
        let share = MAX_ANNOTATE_MS / (self.moves.len() as u64 + 1);
        limits.movetime = Some(limits.movetime.unwrap_or(share).min(share).max(1));
        let (start, moves, texts) = (self.start.clone(), self.moves.clone(), self.texts.clone());
        Box::new(move || {
            let shared = Shared::new(ANNOTATE_HASH_MB);
            Annotation {
                evals: analyse_game(&start, &moves, &limits, &shared),
                moves: texts,
            }
        })
    }

    fn take_annotation(&mut self, annotation: Annotation) -> usize {
        // The same moves from the same start are the same positions.
        let same = annotation
            .moves
            .iter()
            .zip(&self.texts)
            .take_while(|(a, b)| a == b)
            .count();
        for (i, note) in notes(&annotation.evals).into_iter().take(same).enumerate() {
            self.notes[i] = Some(note);
        }
        // The graph shows the evaluations the judgements were made from.
        for (i, position) in annotation.evals.into_iter().take(same + 1).enumerate() {
            if position.score.is_some() || position.result.is_some() {
                self.evals[i] = Some(Evaluation {
                    position,
                    depth: None,
                });
            }
        }
        same
    }

    fn pgn(&self) -> String {
        let start_fen = self.start.position.fen();
        let human = if self.human == Color::White {
            ("Human", "thoat")
        } else {
            ("thoat", "Human")
        };
        let result = self.game.result();
        PgnGame {
            tags: vec![
                ("Event".into(), "thoat serve".into()),
                ("White".into(), human.0.into()),
                ("Black".into(), human.1.into()),
            ],
            variant: self.variant.name().into(),
            setup_fen: (start_fen != G::START_FEN).then(|| start_fen.clone()),
            first_to_move: Some(self.start.position.side_to_move()),
            first_move_number: crate::tools::pgn::fullmove_number(&start_fen),
            moves: self.texts.clone(),
            result: result.map_or("*".to_string(), |r| r.pgn().to_string()),
            termination: result.map(|r| r.reason.to_string()),
            ..PgnGame::default()
        }
        .to_pgn()
    }
}

/// A new game of `variant` from `fen` (or the start), the person playing `human`.
pub fn new_session(
    variant: Variant,
    fen: Option<&str>,
    human: Color,
) -> Result<Box<dyn Session>, String> {
    crate::with_game!(variant, G => Ok(Box::new(Board::<G>::new(variant, fen, human)?)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eval_text_is_from_whites_view() {
        assert_eq!(eval_text(35, Color::White), "+0.35");
        assert_eq!(eval_text(35, Color::Black), "-0.35");
        assert_eq!(eval_text(crate::search::MATE - 1, Color::White), "#1");
        assert_eq!(eval_text(crate::search::MATE - 3, Color::Black), "#-2");
    }

    #[test]
    fn duck_moves_split_into_piece_move_and_duck_square() {
        let board = new_session(Variant::Duck, None, Color::White).unwrap();
        let moves = board.moves_from("e2").unwrap();
        let list = moves["moves"].as_array().unwrap();
        // Two pawn moves times 32 empty squares (RULES.md: the square left counts as empty).
        assert_eq!(list.len(), 64);
        assert!(list
            .iter()
            .any(|m| m["text"] == "e2e4,e4d5" && m["to"] == "e4" && m["duck"] == "d5"));
    }

    /// The duck square and the escape come from the move: every duck turn has its duck
    /// square (a promotion too), no other game's move has one, only jetan's escapes are marked.
    #[test]
    fn duck_squares_and_escapes_are_marked_in_their_games_only() {
        let promotion = new_session(
            Variant::Duck,
            Some("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"),
            Color::White,
        )
        .unwrap();
        let list = promotion.moves_from("b7").unwrap()["moves"].clone();
        let list = list.as_array().unwrap();
        assert!(list.iter().all(|m| m["duck"].is_string()));
        assert!(list
            .iter()
            .any(|m| m["text"] == "b7b8q,b8a1" && m["promotion"] == "q" && m["duck"] == "a1"));
        for v in Variant::ALL {
            let described: Vec<Value> = crate::with_game!(v, G => {
                let board = Board::<G>::new(v, None, Color::White).unwrap();
                board.legal().into_iter().map(|m| board.describe(m)).collect()
            });
            let ducks = described.iter().filter(|m| m["duck"].is_string()).count();
            let escapes = described.iter().filter(|m| m["escape"] == true).count();
            let expected = match v {
                Variant::Duck => (described.len(), 0),
                // positions/jetan.perft: 78 first moves, 26 of them escapes.
                Variant::Jetan => (0, 26),
                _ => (0, 0),
            };
            assert_eq!((ducks, escapes), expected, "{v}");
        }
    }

    /// A game that is dropped (the server forgets the least recently used) stops its
    /// analysis and joins its thread, as a move does.
    #[test]
    fn a_dropped_or_moved_game_stops_its_analysis() {
        let mut board = new_session(Variant::Chess, None, Color::White).unwrap();
        let handle = board.start_analysis(1, 60_000).unwrap();
        assert!(handle.is_running());
        board.play("e2e4").unwrap();
        assert!(!handle.is_running(), "a move stops it");
        let handle = board.start_analysis(3, 60_000).unwrap();
        drop(board);
        assert!(!handle.is_running(), "dropping the game stops it");
    }

    #[test]
    fn undo_replays_to_the_same_fen() {
        let mut board = new_session(Variant::Jetan, None, Color::White).unwrap();
        let start = board.state()["fen"].clone();
        board.play("b2b3").unwrap();
        assert_ne!(board.state()["fen"], start);
        assert_eq!(board.undo(5), 1);
        assert_eq!(board.state()["fen"], start);
    }
}
