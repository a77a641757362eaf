//! Robustness tools (issue 6): a property-based fuzzer of every input parser ([`fuzz`]),
//! a self-play soak with a legality check of every move ([`soak`]), and latency and memory
//! measurements of the running engine ([`latency`]). Each is a one-shot subcommand; short
//! deterministic runs of the first two are part of `cargo test`.

pub mod fuzz;
pub mod latency;
pub mod soak;

use crate::variants::Variant;
use std::process::ExitCode;

/// `thoat fuzz` arguments.
#[derive(clap::Args, Debug)]
pub struct FuzzArgs {
    /// What to fuzz: fen, move or uci.
    #[arg(long, short = 't', value_enum)]
    pub target: fuzz::Target,
    /// Inputs to try (UCI: lines).
    #[arg(long, short = 'n', default_value_t = 100_000)]
    pub iterations: u64,
    /// Seed of the run; input `i` depends only on the seed and `i`.
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
    /// First input index (to reproduce a failure: `--start I --iterations 1`).
    #[arg(long, default_value_t = 0)]
    pub start: u64,
}

/// `thoat soak` arguments.
#[derive(clap::Args, Debug)]
pub struct SoakArgs {
    /// The game; every game when absent.
    #[arg(long, short = 'v')]
    pub variant: Option<Variant>,
    /// Games per variant.
    #[arg(long, short = 'g', default_value_t = 100)]
    pub games: u64,
    /// Node limit of every move's search.
    #[arg(long, default_value_t = 200)]
    pub nodes: u64,
    /// Seed of the random opening plies.
    #[arg(long, short = 's', default_value_t = 1)]
    pub seed: u64,
    /// Plies after which a game is stopped and counted as unfinished.
    #[arg(long, default_value_t = 500)]
    pub max_plies: usize,
}

/// `thoat latency` arguments.
#[derive(clap::Args, Debug)]
pub struct LatencyArgs {
    /// The game; every game when absent.
    #[arg(long, short = 'v')]
    pub variant: Option<Variant>,
    /// `stop` and `isready` samples per game.
    #[arg(long, default_value_t = 200)]
    pub samples: usize,
    /// `Hash` of the child engine in MiB.
    #[arg(long, default_value_t = 16)]
    pub hash: usize,
    /// `Threads` of the child engine.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Then run one `go infinite` analysis this long (seconds) and report peak memory.
    #[arg(long, default_value_t = 0)]
    pub analysis_secs: u64,
}

fn exit_code(result: std::io::Result<bool>) -> ExitCode {
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("thoat: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Runs `thoat fuzz`; fails if any property failed. The UCI-line inputs are handed in by
/// the caller (`uci::fuzz::Lines`): no tool knows the UCI loop.
pub fn fuzz_main(args: &FuzzArgs, uci_lines: &mut dyn fuzz::Inputs) -> ExitCode {
    let (mut fens, mut moves) = (fuzz::OneAtATime::fens(), fuzz::OneAtATime::move_texts());
    let inputs: &mut dyn fuzz::Inputs = match args.target {
        fuzz::Target::Fen => &mut fens,
        fuzz::Target::Move => &mut moves,
        fuzz::Target::Uci => uci_lines,
    };
    let mut out = std::io::stdout().lock();
    exit_code(
        fuzz::run(inputs, args.iterations, args.seed, args.start, &mut out)
            .map(|r| r.failures.is_empty()),
    )
}

/// Runs `thoat soak`; fails on any crash, illegal move, time loss or missing move.
pub fn soak_main(args: &SoakArgs) -> ExitCode {
    let variants = args.variant.map_or(Variant::ALL.to_vec(), |v| vec![v]);
    let mut out = std::io::stdout().lock();
    let mut ok = true;
    for v in variants {
        let config = soak::SoakConfig {
            games: args.games,
            nodes: args.nodes,
            seed: args.seed,
            max_plies: args.max_plies,
        };
        match soak::run(v, &config, &mut out) {
            Ok(report) => ok &= report.failures.is_empty(),
            Err(e) => return exit_code(Err(e)),
        }
    }
    exit_code(Ok(ok))
}

/// Runs `thoat latency`.
pub fn latency_main(args: &LatencyArgs) -> ExitCode {
    let variants = args.variant.map_or(Variant::ALL.to_vec(), |v| vec![v]);
    let mut out = std::io::stdout().lock();
    exit_code(latency::run(&variants, args, &mut out))
}
