//! [`AnyGame`]: a game record of whichever game is played, for the code that learns the game
//! at run time (the UCI loop, the fuzzer, the command line). Its variants and its per-game
//! dispatch ([`on_game!`](crate::on_game)) come from the list of games.

use super::terms::{term_contributions, Tunable};
use super::Variant;
use crate::core::game::{parse_move, GameState};
use crate::core::perft::{write_divide, PerftReport};
use crate::core::{Color, Game, Move};
use crate::search::{EvalMode, Settings};
use std::io::Write;
use std::sync::atomic::AtomicBool;

/// Runs `$body` with `$g` bound to the [`GameState`] inside an [`AnyGame`] (by reference
/// when `$any` is one), whichever game it is.
#[macro_export]
macro_rules! on_game {
    ($any:expr, $g:ident => $body:expr) => {
        $crate::for_each_game!(($crate::on_game_arms)($any, $g, $body))
    };
}

/// The `match` of [`on_game!`], one arm per game.
#[doc(hidden)]
#[macro_export]
macro_rules! on_game_arms {
    (($any:expr, $g:ident, $body:expr) $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        match $any {
            $($crate::variants::AnyGame::$Variant($g) => $body,)+
        }
    };
}

/// The enum and its conversions from and to [`Variant`], from the list of games.
macro_rules! define_any_game {
    ({} $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        /// The game being played, whichever it is.
        #[derive(Clone)]
        pub enum AnyGame {
            $(
                #[doc = concat!("A game of [`", stringify!($Type), "`](super::", stringify!($Type), ").")]
                $Variant(GameState<super::$Type>),
            )+
        }

        impl AnyGame {
            /// Builds a game of `variant` from a FEN (`None`: the start position) and a list
            /// of moves.
            pub fn from_setup(
                variant: Variant,
                fen: Option<&str>,
                moves: &[&str],
            ) -> Result<AnyGame, String> {
                Ok(match variant {
                    $(Variant::$Variant => AnyGame::$Variant(build(fen, moves)?),)+
                })
            }

            /// Which game this is.
            pub fn variant(&self) -> Variant {
                match self {
                    $(AnyGame::$Variant(_) => Variant::$Variant,)+
                }
            }
        }
    };
}

crate::for_each_game!((define_any_game) {});

fn build<G: Game>(fen: Option<&str>, moves: &[&str]) -> Result<GameState<G>, String> {
    let fen = fen.unwrap_or(G::START_FEN);
    let position = G::from_fen(fen).map_err(|e| format!("bad FEN '{fen}': {e}"))?;
    let mut game = GameState::new(position);
    for text in moves {
        game.play_text(text)?;
    }
    Ok(game)
}

impl AnyGame {
    /// The start position of `variant`.
    pub fn start(variant: Variant) -> AnyGame {
        // Every start FEN is a constant that the tests parse; failing here is a programming
        // error.
        AnyGame::from_setup(variant, None, &[]).expect("start FEN of every game parses")
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

    /// The static evaluation of the current position by each evaluation, the classical
    /// one term by term, and which one the search uses under `settings` (the `eval`
    /// command). Nothing is evaluated once the game is over.
    pub fn evaluation_text(&self, settings: &Settings) -> String {
        on_game!(self, g => match g.result() {
            Some(r) => format!("The game is over ({}, {}): no evaluation.\n", r.pgn(), r.reason),
            None => evaluation_text(&g.position, settings),
        })
    }

    /// Writes the perft divide of the current position; `Ok(None)`, with nothing written,
    /// if `stop` was set before it finished.
    pub fn perft(
        &self,
        depth: u32,
        threads: usize,
        stop: &AtomicBool,
        out: &mut impl Write,
    ) -> std::io::Result<Option<PerftReport>> {
        on_game!(self, g => write_divide(&g.position, depth, threads, stop, out))
    }

    /// Whether `text` is a legal move here.
    pub fn is_legal(&self, text: &str) -> bool {
        on_game!(self, g => parse_move(&g.position, text).is_ok())
    }

    /// Parses move texts as legal moves of the current position.
    pub fn parse_moves(&self, texts: &[String]) -> Result<Vec<Move>, String> {
        on_game!(self, g => texts.iter().map(|t| parse_move(&g.position, t)).collect())
    }

    /// The texts of every legal move of the current position.
    pub fn legal_move_texts(&self) -> Vec<String> {
        on_game!(self, g => {
            let mut moves = Vec::new();
            g.position.generate(&mut moves);
            moves.iter().map(|&m| g.position.move_text(m)).collect()
        })
    }

    /// Whether the game is over (`GameState::result`).
    pub fn is_over(&self) -> bool {
        on_game!(self, g => g.result().is_some())
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        on_game!(self, g => g.position.side_to_move())
    }
}

/// [`AnyGame::evaluation_text`] of a position whose game is not over: centipawns from White's
/// point of view, as engines print their evaluations.
fn evaluation_text<G: Tunable>(position: &G, settings: &Settings) -> String {
    let white = |score: i32| match position.side_to_move() {
        Color::White => score,
        Color::Black => -score,
    };
    let line = |what: &str, cp: i32| format!("{what:<44} {cp:>+7}\n");
    let mut text = format!("{:<44} {:>7}\n", "term (White's view)", "cp");
    for (term, cp) in term_contributions(position) {
        text.push_str(&line(&term, cp));
    }
    text.push_str(&line(
        "full (classical) evaluation",
        white(position.evaluate()),
    ));
    text.push_str(&line("material", white(position.material())));
    let network = settings.game_network::<G>();
    if let Some(network) = network {
        let from_file = settings
            .network
            .as_deref()
            .is_some_and(|n| std::ptr::eq(n, network));
        let layers = &network.layers;
        let active = network.input_sets(position)[0].count(layers.inputs);
        text.push_str(&line(
            &format!(
                "nnue ({}, {} layout, {} units, bucket {} of {})",
                if from_file { "EvalFile" } else { "built in" },
                layers.layout,
                layers.hidden,
                layers.bucket(active) + 1,
                layers.buckets
            ),
            white(network.evaluate_position(position)),
        ));
    } else {
        text.push_str(&format!("nnue: {} has no network\n", G::NAME));
    }
    let used = match settings.eval {
        EvalMode::Material => "material",
        EvalMode::Random => "none (random moves)",
        EvalMode::Nnue if network.is_some() => "nnue",
        EvalMode::Nnue | EvalMode::Full => "full",
    };
    text.push_str(&format!("The search evaluates with: {used}\n"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_starts_and_knows_its_variant() {
        for v in Variant::ALL {
            let game = AnyGame::start(v);
            assert_eq!(game.variant(), v);
            assert!(!game.is_over());
            let moves = game.legal_move_texts();
            assert!(!moves.is_empty(), "{v}");
            assert!(moves.iter().all(|m| game.is_legal(m)), "{v}");
            let after = AnyGame::from_setup(v, None, &[moves[0].as_str()]).unwrap();
            assert_ne!(after.fen(), game.fen());
            assert_eq!(after.side_to_move(), Color::Black);
        }
    }

    #[test]
    fn a_bad_setup_is_an_error() {
        assert!(AnyGame::from_setup(Variant::Chess, Some("8/8 w"), &[]).is_err());
        assert!(AnyGame::from_setup(Variant::Skak, None, &["e2e4"]).is_err());
    }
}
