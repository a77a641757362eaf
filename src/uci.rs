//! The UCI protocol loop. Commands are matched on their tokens; every malformed or illegal
//! input is answered with one `info string error: ...` line and leaves the state unchanged.

use crate::core::game::{parse_move, GameState};
use crate::core::Game;
use crate::tools::perft::{run_divide, PerftReport};
use crate::variants::Variant;
use std::io::{BufRead, Write};

/// The largest `Threads` value accepted.
pub const MAX_THREADS: usize = 256;
/// The deepest `go perft` accepted (deeper would run for years in any game).
pub const MAX_PERFT_DEPTH: u32 = 12;

/// The game being played, whichever of the five it is.
#[derive(Clone)]
pub enum AnyGame {
    /// Standard chess.
    Chess(GameState<crate::variants::Chess>),
    /// Duck chess.
    Duck(GameState<crate::variants::Duck>),
    /// Chaturanga.
    Chaturanga(GameState<crate::variants::Chaturanga>),
    /// Skak.
    Skak(GameState<crate::variants::Skak>),
    /// Jetan.
    Jetan(GameState<crate::variants::Jetan>),
}

/// Runs `$body` with `$g` bound to the `GameState` inside an [`AnyGame`].
macro_rules! on_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            AnyGame::Chess($g) => $body,
            AnyGame::Duck($g) => $body,
            AnyGame::Chaturanga($g) => $body,
            AnyGame::Skak($g) => $body,
            AnyGame::Jetan($g) => $body,
        }
    };
}

impl AnyGame {
    /// Builds a game of `variant` from a FEN (`None`: the start position) and a list of moves.
    pub fn from_setup(
        variant: Variant,
        fen: Option<&str>,
        moves: &[&str],
    ) -> Result<AnyGame, String> {
        fn build<G: Game>(fen: Option<&str>, moves: &[&str]) -> Result<GameState<G>, String> {
            let fen = fen.unwrap_or(G::START_FEN);
            let position = G::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
            let mut game = GameState::new(position);
            for text in moves {
                game.play_text(text)?;
            }
            Ok(game)
        }
        Ok(match variant {
            Variant::Chess => AnyGame::Chess(build(fen, moves)?),
            Variant::Duck => AnyGame::Duck(build(fen, moves)?),
            Variant::Chaturanga => AnyGame::Chaturanga(build(fen, moves)?),
            Variant::Skak => AnyGame::Skak(build(fen, moves)?),
            Variant::Jetan => AnyGame::Jetan(build(fen, moves)?),
        })
    }

    /// The FEN of the current position.
    pub fn fen(&self) -> String {
        on_game!(self, g => g.position.fen())
    }

    /// Board, FEN, hash and game state as text (the `d` command).
    pub fn describe(&self) -> String {
        on_game!(self, g => {
            let mut text = g.position.board_text();
            text.push_str(&format!("Fen: {}\n", g.position.fen()));
            text.push_str(&format!("Key: {:016X}\n", g.position.hash()));
            match g.result() {
                Some(r) => text.push_str(&format!("Result: {} ({})\n", r.pgn(), r.reason)),
                None => text.push_str("Result: *\n"),
            }
            text
        })
    }

    /// Perft divide of the current position.
    pub fn perft(
        &self,
        depth: u32,
        threads: usize,
        out: &mut impl Write,
    ) -> std::io::Result<PerftReport> {
        on_game!(self, g => run_divide(&g.position, depth, threads, out))
    }

    /// Checks that `text` is a legal move here (used by tests and the referee).
    pub fn is_legal(&self, text: &str) -> bool {
        on_game!(self, g => parse_move(&g.position, text).is_ok())
    }
}

/// The protocol state: the chosen game, the position and the options.
pub struct Uci {
    variant: Variant,
    game: AnyGame,
    threads: usize,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// A fresh session: chess, start position, one thread.
    pub fn new() -> Uci {
        let variant = Variant::Chess;
        Uci {
            variant,
            game: start_position(variant),
            threads: 1,
        }
    }

    /// The current game.
    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// Reads commands from `input` until `quit` or end of input.
    pub fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> std::io::Result<()> {
        for line in input.lines() {
            let line = match line {
                Ok(line) => line,
                Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                    writeln!(out, "info string error: input is not valid UTF-8")?;
                    continue;
                }
                Err(e) => return Err(e),
            };
            if !self.handle(&line, out)? {
                break;
            }
            out.flush()?;
        }
        Ok(())
    }

    /// Handles one command line. Returns `false` after `quit`.
    pub fn handle(&mut self, line: &str, out: &mut impl Write) -> std::io::Result<bool> {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let result = match tokens.as_slice() {
            [] => Ok(()),
            ["quit", ..] => return Ok(false),
            ["uci", ..] => self.cmd_uci(out),
            ["isready", ..] => writeln!(out, "readyok").map_err(io_error),
            ["ucinewgame", ..] => {
                self.game = start_position(self.variant);
                Ok(())
            }
            ["setoption", rest @ ..] => self.cmd_setoption(rest),
            ["position", rest @ ..] => self.cmd_position(rest),
            ["go", "perft", depth] => self.cmd_perft(depth, out),
            ["go", "perft", ..] => Err("usage: go perft <depth>".to_string()),
            ["go", ..] => Err("only 'go perft <depth>' is supported so far".to_string()),
            ["d", ..] => write!(out, "{}", self.game.describe()).map_err(io_error),
            [cmd, ..] => Err(format!("unknown command '{}'", cmd.escape_debug())),
        };
        if let Err(message) = result {
            writeln!(out, "info string error: {message}")?;
        }
        Ok(true)
    }

    fn cmd_uci(&self, out: &mut impl Write) -> Result<(), String> {
        let variants: Vec<String> = crate::variants::NAMES
            .iter()
            .map(|n| format!("var {n}"))
            .collect();
        let text = format!(
            "id name thoat {}\nid author the thoat authors\n\
             option name UCI_Variant type combo default chess {}\n\
             option name Threads type spin default 1 min 1 max {MAX_THREADS}\nuciok",
            env!("CARGO_PKG_VERSION"),
            variants.join(" ")
        );
        writeln!(out, "{text}").map_err(io_error)
    }

    fn cmd_setoption(&mut self, tokens: &[&str]) -> Result<(), String> {
        let (name, value) = parse_setoption(tokens)?;
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let variant = Variant::from_name(&value)?;
                self.variant = variant;
                self.game = start_position(variant);
                Ok(())
            }
            "threads" => {
                let threads = value
                    .parse::<usize>()
                    .ok()
                    .filter(|t| (1..=MAX_THREADS).contains(t))
                    .ok_or_else(|| format!("Threads must be 1 to {MAX_THREADS}, not '{value}'"))?;
                self.threads = threads;
                Ok(())
            }
            _ => Err(format!("unknown option '{name}'")),
        }
    }

    fn cmd_position(&mut self, tokens: &[&str]) -> Result<(), String> {
        let moves_at = tokens.iter().position(|&t| t == "moves");
        let (setup, moves) = match moves_at {
            Some(i) => (&tokens[..i], &tokens[i + 1..]),
            None => (tokens, &[][..]),
        };
        let fen = match setup {
            ["startpos"] => None,
            ["fen", fields @ ..] if !fields.is_empty() => Some(fields.join(" ")),
            _ => return Err("usage: position startpos|fen <fen> [moves <move>...]".to_string()),
        };
        self.game = AnyGame::from_setup(self.variant, fen.as_deref(), moves)?;
        Ok(())
    }

    fn cmd_perft(&self, depth: &str, out: &mut impl Write) -> Result<(), String> {
        let depth = depth
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=MAX_PERFT_DEPTH).contains(d))
            .ok_or_else(|| format!("perft depth must be 1 to {MAX_PERFT_DEPTH}, not '{depth}'"))?;
        let report = self
            .game
            .perft(depth, self.threads, out)
            .map_err(io_error)?;
        writeln!(
            out,
            "info string perft time {} ms nps {}",
            report.millis,
            report.nps()
        )
        .map_err(io_error)
    }
}

/// Splits `name <name...> value <value...>` (names may contain spaces: `Move Overhead`).
fn parse_setoption(tokens: &[&str]) -> Result<(String, String), String> {
    let usage = || "usage: setoption name <name> [value <value>]".to_string();
    let ["name", rest @ ..] = tokens else {
        return Err(usage());
    };
    let value_at = rest.iter().position(|&t| t == "value");
    let (name, value) = match value_at {
        Some(i) => (&rest[..i], rest[i + 1..].join(" ")),
        None => (rest, String::new()),
    };
    if name.is_empty() {
        return Err(usage());
    }
    Ok((name.join(" "), value))
}

fn start_position(variant: Variant) -> AnyGame {
    // Every start FEN is a constant that the tests parse; failing here is a programming error.
    AnyGame::from_setup(variant, None, &[]).expect("start FEN of every game parses")
}

fn io_error(e: std::io::Error) -> String {
    format!("output failed: {e}")
}
