//! The `thoat` binary: the UCI loop by default, or a one-shot command.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use thoat::uci::{AnyGame, Output, Uci};
use thoat::variants::Variant;

#[derive(Parser)]
#[command(
    name = "thoat",
    version,
    about = "A chess-variant engine: jetan, duck, chaturanga, skak, chess (UCI)"
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree, split by root move.
    Perft {
        /// The game: chess, duck, chaturanga, skak or jetan.
        #[arg(long, short = 'v', default_value = "chess")]
        variant: Variant,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Moves to play first, in the protocol's notation.
        #[arg(long, num_args = 1..)]
        moves: Vec<String>,
        /// Plies to count.
        #[arg(long, short = 'd')]
        depth: u32,
        /// Worker threads that share the root moves.
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
    },
    /// Search the fixed bench positions of every game, one thread; the node count is a
    /// signature of the search. Last line: `<N> nodes <NPS> nps`.
    Bench {
        /// Search every position to this depth instead of each game's default.
        #[arg(long, short = 'd')]
        depth: Option<i32>,
    },
    /// Robustness: fuzz FEN, move-text or UCI-line parsing with mutated valid inputs and
    /// check that nothing panics, hangs or corrupts the state (see README § Robustness).
    Fuzz(thoat::tools::robust::FuzzArgs),
    /// Robustness: fast node-limited self-play games with every move checked for legality.
    Soak(thoat::tools::robust::SoakArgs),
    /// Robustness: `stop` and `isready` latency during search, and peak memory in a long
    /// analysis, measured on a child engine over its pipes.
    Latency(thoat::tools::robust::LatencyArgs),
}

fn main() -> ExitCode {
    env_logger::init();
    thoat::core::attacks8::init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let stdin = std::io::stdin();
            let out: Output = Arc::new(Mutex::new(std::io::stdout()));
            match Uci::new(out).run(stdin.lock()) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("thoat: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Perft {
            variant,
            fen,
            moves,
            depth,
            threads,
        }) => {
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            let game = match AnyGame::from_setup(variant, fen.as_deref(), &moves) {
                Ok(game) => game,
                Err(e) => {
                    eprintln!("thoat: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let mut out = std::io::stdout().lock();
            let report = match game.perft(depth, threads.max(1), &mut out) {
                Ok(report) => report,
                Err(e) => {
                    eprintln!("thoat: {e}");
                    return ExitCode::FAILURE;
                }
            };
            let _ = writeln!(
                out,
                "Time (ms): {}\nNodes/second: {}",
                report.millis,
                report.nps()
            );
            ExitCode::SUCCESS
        }
        Some(Command::Fuzz(args)) => thoat::tools::robust::fuzz_main(&args),
        Some(Command::Soak(args)) => thoat::tools::robust::soak_main(&args),
        Some(Command::Latency(args)) => thoat::tools::robust::latency_main(&args),
        Some(Command::Bench { depth }) => {
            let mut out = std::io::stdout().lock();
            match thoat::tools::bench::run(depth.map(|d| d.clamp(1, 64)), &mut out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("thoat: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}
