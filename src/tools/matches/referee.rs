//! The referee: plays one game between two engines under thoat's own rules. Every move is
//! checked against the legal moves, every result rule of RULES.md is applied through
//! [`GameState::result`], and a timeout, a crash, a disconnect or an illegal or unparseable
//! move loses the game for the side that made it.

use super::engine::{Engine, EngineFailure};
use super::tc::{Clocks, TimeControl};
use crate::core::game::parse_move;
use crate::core::{Color, Game, GameState};
use crate::tools::pgn::fullmove_number;
use std::time::Duration;

/// The fixed conditions of a game.
#[derive(Clone, Debug)]
pub struct Conditions {
    /// The time control.
    pub tc: TimeControl,
    /// Extra time allowed beyond the clock before a time forfeit.
    pub grace: Duration,
    /// Adjudicate a draw after this many full moves (both sides), if set.
    pub max_moves: Option<u32>,
}

/// A finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// The start FEN, `None` for the game's start position.
    pub setup_fen: Option<String>,
    /// The side that moved first and the fullmove number of its move.
    pub first: (Color, u32),
    /// The moves in protocol notation.
    pub moves: Vec<String>,
    /// The winner, `None` for a draw.
    pub winner: Option<Color>,
    /// Why it ended (the PGN `Termination`).
    pub termination: String,
    /// A detail for the log (the illegal move and position, the crash, ...).
    pub detail: Option<String>,
    /// By colour: whether that engine must be restarted before its next game.
    pub restart: [bool; 2],
}

impl Played {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub fn result_text(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// Plays one game from `setup_fen` (or the start position), `engines[0]` with White.
/// Errors only when the FEN is not a position of this game.
pub fn play<G: Game>(
    setup_fen: Option<&str>,
    engines: [&mut Engine; 2],
    conditions: &Conditions,
) -> Result<Played, String> {
    let position =
        G::from_fen(setup_fen.unwrap_or(G::START_FEN)).map_err(|e| format!("opening: {e}"))?;
    let start_fen = setup_fen.map(|_| position.fen());
    let mut state = GameState::new(position);
    let mut played = Played {
        setup_fen: start_fen.clone(),
        first: (
            state.position.side_to_move(),
            fullmove_number(&state.position.fen()),
        ),
        moves: Vec::new(),
        winner: None,
        termination: String::new(),
        detail: None,
        restart: [false; 2],
    };
    let [white, black] = engines;
    let mut engines = [white, black];
    for (i, engine) in engines.iter_mut().enumerate() {
        if engine.new_game().is_err() {
            let side = if i == 0 { Color::White } else { Color::Black };
            played.winner = Some(side.flip());
            played.termination = "stalled connection".to_string();
            played.detail = Some(format!("{} did not answer ucinewgame", engine.spec.name));
            played.restart[i] = true;
            return Ok(played);
        }
    }
    let mut clocks = Clocks::new(conditions.tc);
    let base = match &start_fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    loop {
        if let Some(result) = state.result() {
            played.winner = result.winner;
            played.termination = result.reason.to_string();
            return Ok(played);
        }
        if let Some(max) = conditions.max_moves {
            if played.moves.len() as u64 >= 2 * max as u64 {
                played.termination = "adjudication".to_string();
                played.detail = Some(format!("draw after {max} moves"));
                return Ok(played);
            }
        }
        let side = state.position.side_to_move();
        let i = side.index();
        let mut command = base.clone();
        if !played.moves.is_empty() {
            command.push_str(" moves ");
            command.push_str(&played.moves.join(" "));
        }
        let allowed = clocks.allowed(i, conditions.grace);
        let engine = &mut engines[i];
        let lose = |played: &mut Played, termination: &str, detail: String| {
            played.winner = Some(side.flip());
            played.termination = termination.to_string();
            played.detail = Some(detail);
        };
        match engine.best_move(&command, &clocks.go_command(i), allowed) {
            Err(EngineFailure::Timeout) => {
                let name = engine.spec.name.clone();
                played.restart[i] = !engine.recover();
                lose(
                    &mut played,
                    "time forfeit",
                    format!("{name} gave no move within {} ms", allowed.as_millis()),
                );
                return Ok(played);
            }
            Err(EngineFailure::Disconnected) => {
                let crashed = engine.has_exited(Duration::from_millis(500));
                played.restart[i] = true;
                let (termination, what) = if crashed {
                    ("engine crashed", "exited")
                } else {
                    ("disconnected", "closed its output")
                };
                let detail = format!("{} {what} while thinking", engine.spec.name);
                lose(&mut played, termination, detail);
                return Ok(played);
            }
            Ok((text, used)) => {
                if used > allowed {
                    lose(
                        &mut played,
                        "time forfeit",
                        format!(
                            "{} used {} ms of {} ms",
                            engine.spec.name,
                            used.as_millis(),
                            allowed.as_millis()
                        ),
                    );
                    return Ok(played);
                }
                match parse_move(&state.position, &text) {
                    Ok(mv) => {
                        clocks.charge(i, used);
                        state.play(mv);
                        played.moves.push(text);
                    }
                    Err(e) => {
                        let detail = format!("{} played '{text}': {e}", engine.spec.name);
                        lose(&mut played, "illegal move", detail);
                        return Ok(played);
                    }
                }
            }
        }
    }
}
