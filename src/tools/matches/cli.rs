//! The command-line flags of `thoat match` and `thoat openings` (cutechess-cli style) and
//! their entry points.

use super::engine::EngineSpec;
use super::openings::{generate, parse_openings, Recipe};
use super::referee::Conditions;
use super::stats::Sprt;
use super::tc::TimeControl;
use super::{run, MatchConfig, DEFAULT_GRACE};
use crate::variants::Variant;
use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

/// The words of each `--engine` flag, one list per flag. (clap's derive cannot yet collect
/// values per occurrence, so this small part is written by hand.)
#[derive(Clone, Debug, Default)]
pub struct EngineFlags(pub Vec<Vec<String>>);

impl clap::FromArgMatches for EngineFlags {
    fn from_arg_matches(matches: &clap::ArgMatches) -> Result<Self, clap::Error> {
        let groups = matches
            .get_occurrences::<String>("engine")
            .map(|occurrences| occurrences.map(|words| words.cloned().collect()).collect())
            .unwrap_or_default();
        Ok(EngineFlags(groups))
    }

    fn update_from_arg_matches(&mut self, matches: &clap::ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(matches)?;
        Ok(())
    }
}

impl clap::Args for EngineFlags {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            clap::Arg::new("engine")
                .long("engine")
                .num_args(1..)
                .action(clap::ArgAction::Append)
                .required(true)
                .value_name("KEY=VALUE")
                .help(
                    "An engine: cmd=PROGRAM [name=NAME] [arg=ARG]... [option.NAME=VALUE]...; \
                     give it twice. The first engine's score and Elo are reported.",
                ),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

/// `thoat match` flags.
#[derive(clap::Args, Debug)]
pub struct MatchArgs {
    /// The game.
    #[arg(long, short = 'v', default_value_t)]
    pub variant: Variant,
    /// The `--engine` flags, each with its words.
    #[command(flatten)]
    pub engine: EngineFlags,
    /// Games to play (rounded up to pairs when openings are used, so each is played with
    /// both colours).
    #[arg(long, default_value_t = 2)]
    pub games: usize,
    /// Time control: `moves/seconds+inc`, `seconds+inc`, `movetime=MS`, `depth=D`, `nodes=N`.
    #[arg(long, default_value = "10+0.1")]
    pub tc: String,
    /// Milliseconds an engine may exceed its clock before it loses on time.
    #[arg(long, default_value_t = DEFAULT_GRACE.as_millis() as u64)]
    pub timemargin: u64,
    /// Games played at the same time (each with its own two engine processes).
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// Start positions, one FEN or EPD per line (`#` lines are comments), each played twice
    /// with the colours swapped.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Append the games to this PGN file.
    #[arg(long)]
    pub pgn: Option<PathBuf>,
    /// Sequential test: `elo0=E0 elo1=E1 alpha=A beta=B`; the match stops when it decides.
    #[arg(long, num_args = 4)]
    pub sprt: Option<Vec<String>>,
    /// Adjudicate a draw after this many moves by each side.
    #[arg(long)]
    pub maxmoves: Option<u32>,
    /// Let the engines ponder (think on the opponent's time): sets their `Ponder` option and
    /// plays `go ponder` / `ponderhit` as a GUI does. Each game then keeps two cores busy.
    #[arg(long)]
    pub ponder: bool,
    /// The PGN `Event` tag.
    #[arg(long, default_value = "thoat match")]
    pub event: String,
}

impl MatchArgs {
    /// The match these flags describe.
    pub fn config(&self) -> Result<MatchConfig, String> {
        let [first, second] = self.engine.0.as_slice() else {
            return Err(format!(
                "give exactly two --engine flags, not {}",
                self.engine.0.len()
            ));
        };
        let mut engines = [EngineSpec::parse(first)?, EngineSpec::parse(second)?];
        if self.ponder {
            // As a GUI does, unless the engine's own flags set it.
            for spec in &mut engines {
                if !spec
                    .options
                    .iter()
                    .any(|(n, _)| n.eq_ignore_ascii_case("Ponder"))
                {
                    spec.options
                        .push(("Ponder".to_string(), "true".to_string()));
                }
            }
        }
        let tc = TimeControl::parse(&self.tc)?;
        let openings = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                parse_openings(self.variant, &text)?
            }
            None => Vec::new(),
        };
        let sprt = self.sprt.as_deref().map(Sprt::parse).transpose()?;
        if self.games == 0 {
            return Err("--games must be at least 1".to_string());
        }
        let games = if openings.is_empty() {
            self.games
        } else {
            self.games.div_ceil(2) * 2
        };
        Ok(MatchConfig {
            variant: self.variant,
            engines,
            games,
            conditions: Conditions {
                tc,
                grace: Duration::from_millis(self.timemargin.min(60_000)),
                max_moves: self.maxmoves.filter(|&m| m > 0),
                ponder: self.ponder,
            },
            concurrency: self.concurrency.clamp(1, 64),
            openings,
            pgn: self.pgn.clone(),
            sprt,
            event: self.event.clone(),
        })
    }

    /// Runs the match; the summary goes to stdout, errors to stderr.
    pub fn run(&self) -> Result<(), String> {
        let config = self.config()?;
        if let Some(warning) = config.repeats_openings() {
            eprintln!("warning: {warning}");
        }
        let mut out = std::io::stdout().lock();
        run(config, &mut out).map(|_| ())
    }
}

/// `thoat openings` flags.
#[derive(clap::Args, Debug)]
pub struct OpeningsArgs {
    /// The game.
    #[arg(long, short = 'v', default_value_t)]
    pub variant: Variant,
    /// Positions to make (200: a 400-game match then plays each once with each colour).
    #[arg(long, default_value_t = 200)]
    pub count: usize,
    /// Seed of the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Fewest random plies from the start position.
    #[arg(long, default_value_t = 4)]
    pub min_plies: u32,
    /// Most random plies from the start position.
    #[arg(long, default_value_t = 8)]
    pub max_plies: u32,
    /// Keep positions whose search score is within this many centipawns of 0.
    #[arg(long, default_value_t = 60)]
    pub margin: i32,
    /// Nodes of the scoring search.
    #[arg(long, default_value_t = 20_000)]
    pub nodes: u64,
    /// Reject positions where a capture of a king, Jarkhan, Chief or Princess (or the
    /// countdown) can end the game within this many plies (0 to 3).
    #[arg(long, default_value_t = 1)]
    pub safe_plies: u32,
}

impl OpeningsArgs {
    /// Makes the book and writes it to stdout, with the method and the command as `#` lines.
    pub fn run(&self) -> Result<(), String> {
        if self.min_plies > self.max_plies || self.max_plies > 400 {
            return Err("need --min-plies <= --max-plies <= 400".to_string());
        }
        let recipe = Recipe {
            count: self.count.min(100_000),
            seed: self.seed,
            min_plies: self.min_plies,
            max_plies: self.max_plies,
            margin: self.margin.max(0),
            nodes: self.nodes.clamp(1, 100_000_000),
            safe_plies: self.safe_plies.min(3),
        };
        let book = crate::with_game!(self.variant, G => generate::<G>(&recipe));
        let mut out = std::io::stdout().lock();
        let text = format!(
            "# {} openings for `thoat match`, made by:\n\
             #   thoat openings --variant {} --count {} --seed {} --min-plies {} --max-plies {} --margin {} --nodes {}{}\n\
             # Method: from the start position, {}..={} uniformly random legal plies (SplitMix64,\n\
             # seeded); kept when new, not over, the game cannot end by a capture within {} ply(s),\n\
             # and a {}-node single-thread search scores it within +-{} cp. One FEN per line,\n\
             # its search score after the `;` (an EPD operation).\n",
            book.len(),
            self.variant.name(),
            recipe.count,
            recipe.seed,
            recipe.min_plies,
            recipe.max_plies,
            recipe.margin,
            recipe.nodes,
            if recipe.safe_plies == 1 {
                String::new()
            } else {
                format!(" --safe-plies {}", recipe.safe_plies)
            },
            recipe.min_plies,
            recipe.max_plies,
            recipe.safe_plies,
            recipe.nodes,
            recipe.margin,
        );
        let mut body = String::new();
        for (fen, score) in &book {
            body.push_str(&format!("{fen} ; score {score}\n"));
        }
        out.write_all(text.as_bytes())
            .and_then(|_| out.write_all(body.as_bytes()))
            .map_err(|e| format!("output failed: {e}"))?;
        if book.len() < recipe.count {
            return Err(format!(
                "found only {} of {} positions; widen --margin or change the plies",
                book.len(),
                recipe.count
            ));
        }
        Ok(())
    }
}
