//! The `thoat` binary: the UCI loop by default, or a one-shot command.

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;
use std::sync::{Arc, Mutex};
use thoat::uci::{Output, Uci};
use thoat::variants::{AnyGame, Variant};

#[derive(Parser)]
#[command(
    name = "thoat",
    version,
    about = format!("A chess-variant engine over UCI: {}", Variant::names().join(", "))
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaf nodes of the legal move tree, split by root move.
    Perft {
        /// The game.
        #[arg(long, short = 'v', default_value_t)]
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
        /// Lazy SMP threads per search: with more than one, the bench measures the time to
        /// reach each depth, and its node count varies from run to run.
        #[arg(long, short = 't', default_value_t = 1)]
        threads: usize,
    },
    /// Serve a board in the browser for every game (page and JSON API).
    Serve {
        /// The TCP port (0: any free port; the address is printed).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// The address to listen on; 127.0.0.1 keeps the board on this machine.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Also answer requests addressed to this host name (repeatable); IP addresses,
        /// `localhost` and `--host` always are. Other names are refused (DNS rebinding).
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_host: Vec<String>,
    },
    /// Search every position of a FEN list or EPD file and write one record per position
    /// (JSON lines or CSV); EPD `bm`/`am` lines are judged and the solved ones counted.
    Analyze(AnalyzeArgs),
    /// Analyse every position of the games of a PGN file and write them back annotated:
    /// `[%eval]` per move, `?!`/`?`/`??` with the better line, each side's accuracy; optional
    /// summary CSV and one SVG evaluation graph per game.
    Annotate(AnnotateArgs),
    /// Play a match between two UCI engines, refereed by thoat's rules (cutechess-cli
    /// style flags); PGN, W/D/L, Elo and SPRT.
    Match(thoat::tools::matches::cli::MatchArgs),
    /// Make an opening book for `match`: random plies from the start, kept when a short
    /// search finds them balanced.
    Openings(thoat::tools::matches::cli::OpeningsArgs),
    /// Robustness: fuzz FEN, move-text or UCI-line parsing with mutated valid inputs and
    /// check that nothing panics, hangs or corrupts the state (see docs/robustness.md).
    Fuzz(thoat::tools::robust::FuzzArgs),
    /// Robustness: fast node-limited self-play games with every move checked for legality.
    Soak(thoat::tools::robust::SoakArgs),
    /// Robustness: `stop` and `isready` latency during search, and peak memory in a long
    /// analysis, measured on a child engine over its pipes.
    Latency(thoat::tools::robust::LatencyArgs),
    /// Tuning: self-play games in process, writing quiet positions with the game's result
    /// (`<fen> ; <1|0.5|0>` lines) for `tune`.
    Datagen(thoat::tools::tune::DatagenArgs),
    /// NNUE: train a game's network from `datagen --scores` positions (Adam, validation
    /// split, the network file written after every epoch).
    Train(thoat::tools::train::TrainArgs),
    /// Tuning: fit a game's evaluation weights to `datagen` positions (Texel's method) and
    /// write the new `weights.rs`.
    Tune(thoat::tools::tune::TuneArgs),
}

/// How long each position is searched (at most one of the three).
#[derive(clap::Args)]
#[group(id = "limit", multiple = false)]
struct LimitArgs {
    /// Search each position to this depth.
    #[arg(long, short = 'd')]
    depth: Option<i32>,
    /// Search each position this many milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Search each position this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

impl LimitArgs {
    /// The limit given, or `default`.
    fn limit(&self, default: thoat::tools::analyze::Limit) -> thoat::tools::analyze::Limit {
        use thoat::tools::analyze::Limit;
        match (self.depth, self.movetime, self.nodes) {
            (Some(d), _, _) => Limit::Depth(d),
            (_, _, Some(n)) => Limit::Nodes(n),
            (_, Some(ms), _) => Limit::MoveTime(ms),
            (None, None, None) => default,
        }
    }
}

/// The game and the input file of `thoat annotate` and `thoat analyze`.
#[derive(clap::Args)]
struct JobInput {
    /// The game.
    #[arg(long, short = 'v', default_value_t)]
    variant: Variant,
    /// The games (annotate: PGN) or the positions (analyze: one FEN or EPD line each);
    /// `-`: standard input.
    #[arg(long, short = 'i')]
    input: std::path::PathBuf,
}

/// The arguments of `thoat annotate`.
#[derive(clap::Args)]
struct AnnotateArgs {
    /// The game and the PGN file.
    #[command(flatten)]
    job: JobInput,
    /// The search per position (default: --nodes 250000).
    #[command(flatten)]
    limit: LimitArgs,
    /// Hash table MiB of each job (the output does not depend on --jobs).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Games analysed at the same time, one thread each.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// Write the annotated PGN here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<std::path::PathBuf>,
    /// Write one row per game and side (mistakes, blunders, accuracy, average loss) here.
    #[arg(long)]
    summary: Option<std::path::PathBuf>,
    /// Write one evaluation graph per game here (`game-001.svg`, ...).
    #[arg(long)]
    svg: Option<std::path::PathBuf>,
}

/// The arguments of `thoat analyze`.
#[derive(clap::Args)]
struct AnalyzeArgs {
    /// The game and the positions.
    #[command(flatten)]
    job: JobInput,
    #[command(flatten)]
    limit: LimitArgs,
    /// Lines per position (JSON field `multipv`).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    multipv: u16,
    /// Threads in all, split evenly among the jobs.
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
    /// Hash table MiB in all, split evenly among the jobs.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=65536))]
    hash: u32,
    /// Positions searched at the same time.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    jobs: u16,
    /// `jsonl` (one JSON object per line) or `csv`.
    #[arg(long, default_value = "jsonl")]
    format: thoat::tools::analyze::Format,
    /// Write the records here instead of standard output.
    #[arg(long, short = 'o')]
    output: Option<std::path::PathBuf>,
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
            let never = std::sync::atomic::AtomicBool::new(false);
            let report = match game.perft(depth, threads.max(1), &never, &mut out) {
                Ok(Some(report)) => report,
                Ok(None) => unreachable!("a perft that is never stopped finishes"),
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
        Some(Command::Fuzz(args)) => {
            thoat::tools::robust::fuzz_main(&args, &mut thoat::uci::fuzz::Lines::default())
        }
        Some(Command::Soak(args)) => thoat::tools::robust::soak_main(&args),
        Some(Command::Latency(args)) => thoat::tools::robust::latency_main(&args),
        Some(Command::Bench { depth, threads }) => {
            let mut out = std::io::stdout().lock();
            let depth = depth.map(|d| d.clamp(1, 64));
            match thoat::tools::bench::run_threads(depth, threads.clamp(1, 256), &mut out) {
                Ok(_) => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("thoat: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Some(Command::Serve {
            port,
            host,
            allow_host,
        }) => match thoat::tools::serve::run(&host, port, &allow_host) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("thoat: {e}");
                ExitCode::FAILURE
            }
        },
        Some(Command::Analyze(args)) => report(analyze(args)),
        Some(Command::Annotate(args)) => report(annotate(args)),
        Some(Command::Match(args)) => report(args.run()),
        Some(Command::Openings(args)) => report(args.run()),
        Some(Command::Datagen(args)) => report(args.run()),
        Some(Command::Tune(args)) => report(args.run()),
        Some(Command::Train(args)) => report(args.run()),
    }
}

/// The exit code of a one-shot command, with its error on stderr.
fn report(result: Result<(), String>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("thoat: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The bytes of a file, or of standard input for `-`.
fn read_input(path: &std::path::Path) -> Result<Vec<u8>, String> {
    use std::io::Read;
    let mut input = Vec::new();
    if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut input)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut input))
    }
    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(input)
}

/// A new file to write, or standard output when none is named.
fn create_output(path: Option<&std::path::Path>) -> Result<Box<dyn Write>, String> {
    Ok(match path {
        Some(path) => Box::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create {}: {e}", path.display()))?,
        ),
        None => Box::new(std::io::stdout().lock()),
    })
}

/// `thoat annotate`: reads the PGN, opens the outputs and annotates the games.
fn annotate(args: AnnotateArgs) -> Result<(), String> {
    use std::io::IsTerminal;
    use thoat::tools::analyze::Limit;
    use thoat::tools::annotate::{run, Options};
    let bytes = read_input(&args.job.input)?;
    let input = String::from_utf8(bytes)
        .map_err(|e| format!("{}: not UTF-8 text ({e})", args.job.input.display()))?;
    let mut out = create_output(args.output.as_deref())?;
    let mut summary = match &args.summary {
        Some(path) => Some(create_output(Some(path))?),
        None => None,
    };
    let stderr = std::io::stderr();
    let options = Options {
        variant: args.job.variant,
        limit: args.limit.limit(Limit::Nodes(250_000)),
        jobs: args.jobs.into(),
        hash_mb: args.hash as usize,
        progress: stderr.is_terminal(),
        svg_dir: args.svg,
    };
    let summary_out = summary.as_mut().map(|s| s.as_mut() as &mut dyn Write);
    run(&options, &input, &mut out, summary_out, &mut stderr.lock())
        .map(|_| ())
        .map_err(|e| format!("annotate: {e}"))
}

/// `thoat analyze`: reads the input, opens the output and runs the analysis.
fn analyze(args: AnalyzeArgs) -> Result<(), String> {
    use std::io::IsTerminal;
    use thoat::tools::analyze::{run, Limit, Options};
    let limit = args.limit.limit(Limit::MoveTime(1000));
    let input = read_input(&args.job.input)?;
    let mut out = create_output(args.output.as_deref())?;
    let stderr = std::io::stderr();
    let options = Options {
        variant: args.job.variant,
        limit,
        multipv: args.multipv.into(),
        threads: args.threads.into(),
        hash_mb: args.hash as usize,
        jobs: args.jobs.into(),
        format: args.format,
        progress: stderr.is_terminal(),
    };
    run(&options, &input, &mut out, &mut stderr.lock())
        .map(|_| ())
        .map_err(|e| format!("analyze: {e}"))
}
