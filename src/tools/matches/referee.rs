//! The referee: plays one game between two engines under thoat's own rules. Every move is
//! checked against the legal moves, every result rule of RULES.md is applied through
//! [`GameState::result`], and a timeout, a crash, a disconnect or an illegal or unparseable
//! move loses the game for the side that made it.

use super::engine::{Engine, EngineFailure};
use super::tc::{Clocks, TimeControl};
use crate::core::game::parse_move;
use crate::core::{Color, Game, GameState, Move};
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
    /// Let each engine think on the opponent's time about the reply it expects (`go ponder`,
    /// then `ponderhit` or `stop`).
    pub ponder: bool,
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
    /// By colour: the moves it pondered on, and how many of them the opponent played.
    pub ponder: [PonderCount; 2],
}

/// How often an engine pondered, and how often on the move the opponent then played.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PonderCount {
    /// Ponder searches started.
    pub tries: u32,
    /// Of those, the ones the opponent's move confirmed (`ponderhit`).
    pub hits: u32,
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
        ponder: [PonderCount::default(); 2],
    };
    let mut engines = engines;
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
    let base = match &start_fen {
        Some(fen) => format!("position fen {fen}"),
        None => "position startpos".to_string(),
    };
    let mut pondering = [None, None];
    play_moves(
        &mut state,
        &mut engines,
        conditions,
        &base,
        &mut played,
        &mut pondering,
    );
    // The game is over: no engine may think on into the next one.
    for (i, expected) in pondering.iter().enumerate() {
        if expected.is_some() && engines[i].stop_pondering().is_err() {
            played.restart[i] = true;
        }
    }
    Ok(played)
}

/// The `position` command of the game after `moves`.
fn position_command(base: &str, moves: &[String]) -> String {
    if moves.is_empty() {
        base.to_string()
    } else {
        format!("{base} moves {}", moves.join(" "))
    }
}

/// Plays the moves of the game until it ends, which `played` then says. `pondering` holds,
/// by colour, the reply an engine is pondering on.
fn play_moves<G: Game>(
    state: &mut GameState<G>,
    engines: &mut [&mut Engine; 2],
    conditions: &Conditions,
    base: &str,
    played: &mut Played,
    pondering: &mut [Option<Move>; 2],
) {
    let mut clocks = Clocks::new(conditions.tc);
    let mut last_move = None;
    loop {
        if let Some(result) = state.result() {
            played.winner = result.winner;
            played.termination = result.reason.to_string();
            return;
        }
        if let Some(max) = conditions.max_moves {
            if played.moves.len() as u64 >= 2 * max as u64 {
                played.termination = "adjudication".to_string();
                played.detail = Some(format!("draw after {max} moves"));
                return;
            }
        }
        let side = state.position.side_to_move();
        let i = side.index();
        let command = position_command(base, &played.moves);
        let allowed = clocks.allowed(i, conditions.grace);
        let engine = &mut *engines[i];
        let lose = |played: &mut Played, termination: &str, detail: String| {
            played.winner = Some(side.flip());
            played.termination = termination.to_string();
            played.detail = Some(detail);
        };
        let reply = match pondering[i].take() {
            // The same move, however the two engines write it.
            Some(expected) if last_move == Some(expected) => {
                played.ponder[i].hits += 1;
                engine.ponderhit(allowed)
            }
            Some(_) => engine
                .stop_pondering()
                .and_then(|()| engine.best_move(&command, &clocks.go_command(i), allowed)),
            None => engine.best_move(&command, &clocks.go_command(i), allowed),
        };
        match reply {
            Err(EngineFailure::Timeout) => {
                let name = engine.spec.name.clone();
                played.restart[i] = !engine.recover();
                lose(
                    played,
                    "time forfeit",
                    format!("{name} gave no move within {} ms", allowed.as_millis()),
                );
                return;
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
                lose(played, termination, detail);
                return;
            }
            Ok(reply) => {
                if reply.used > allowed {
                    let detail = format!(
                        "{} used {} ms of {} ms",
                        engine.spec.name,
                        reply.used.as_millis(),
                        allowed.as_millis()
                    );
                    lose(played, "time forfeit", detail);
                    return;
                }
                match parse_move(&state.position, &reply.mv) {
                    Ok(mv) => {
                        clocks.charge(i, reply.used);
                        state.play(mv);
                        last_move = Some(mv);
                        played.moves.push(reply.mv);
                    }
                    Err(e) => {
                        let detail = format!("{} played '{}': {e}", engine.spec.name, reply.mv);
                        lose(played, "illegal move", detail);
                        return;
                    }
                }
                // Ponder on the expected reply while the opponent thinks, if it is legal
                // and the game goes on.
                let expected = reply
                    .ponder
                    .filter(|_| conditions.ponder && state.result().is_none())
                    .and_then(|text| Some((parse_move(&state.position, &text).ok()?, text)));
                if let Some((expected, text)) = expected {
                    let mut line = played.moves.clone();
                    line.push(text);
                    let go = clocks.go_command(i);
                    if engine.ponder(&position_command(base, &line), &go).is_ok() {
                        played.ponder[i].tries += 1;
                        pondering[i] = Some(expected);
                    }
                }
            }
        }
    }
}
