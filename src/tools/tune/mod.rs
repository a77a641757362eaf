//! Tuning the evaluations: `thoat datagen` makes positions labelled with game results from
//! self-play ([`datagen`]), `thoat tune` fits a game's weights to them ([`fit`]) and writes
//! the game's new `weights.rs`.

pub mod datagen;
pub mod fit;

use crate::variants::Variant;
use std::io::Write;
use std::path::PathBuf;

/// The arguments of `thoat datagen`.
#[derive(clap::Args, Debug)]
pub struct DatagenArgs {
    /// The game.
    #[arg(long, short = 'v', default_value_t)]
    pub variant: Variant,
    /// Games to play.
    #[arg(long, short = 'g', default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub games: u32,
    /// Nodes per move.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub nodes: u64,
    /// The openings (FEN or EPD lines); default `positions/openings/<game>.epd`.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Seed of the book order and the random plies.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games played at the same time (one search thread each).
    #[arg(long, short = 't', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,
    /// Uniformly random plies after the opening: 0 to this many, from the seed.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(0..=40))]
    pub random_plies: u32,
    /// Searched plies at the start of each game whose positions are not kept.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=400))]
    pub skip_plies: u32,
    /// Plies after which a game is adjudicated a draw.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub max_plies: u32,
    /// Also write each position's search score (centipawns for White):
    /// `<fen> ; <score> ; <result>`, the lines `thoat train` reads.
    #[arg(long)]
    pub scores: bool,
    /// Write the positions here.
    #[arg(long, short = 'o')]
    pub output: PathBuf,
}

impl DatagenArgs {
    /// Plays the games and writes the positions; a summary goes to stderr.
    pub fn run(&self) -> Result<(), String> {
        let book_path = self.openings.clone().unwrap_or_else(|| {
            PathBuf::from(format!("positions/openings/{}.epd", self.variant.name()))
        });
        let book = datagen::read_book(self.variant, &book_path)?;
        let recipe = datagen::Recipe {
            games: self.games as usize,
            nodes: self.nodes,
            seed: self.seed,
            random_plies: self.random_plies,
            skip_plies: self.skip_plies,
            max_plies: self.max_plies,
            threads: self.threads.into(),
            scores: self.scores,
        };
        let file = std::fs::File::create(&self.output)
            .map_err(|e| format!("cannot create {}: {e}", self.output.display()))?;
        let mut out = std::io::BufWriter::new(file);
        datagen::run(
            self.variant,
            &book,
            &recipe,
            &mut out,
            &mut std::io::stderr().lock(),
        )?;
        out.flush()
            .map_err(|e| format!("cannot write {}: {e}", self.output.display()))
    }
}

/// The arguments of `thoat tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// The game.
    #[arg(long, short = 'v', default_value_t)]
    pub variant: Variant,
    /// The positions: `<fen> ; <result for White>` lines, as `thoat datagen` writes them.
    #[arg(long, short = 'i')]
    pub input: PathBuf,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    pub epochs: u32,
    /// Adam's step size in centipawns.
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Terms present in fewer positions than this keep their value.
    #[arg(long, default_value_t = 100)]
    pub min_presence: usize,
    /// Positions of other games (same form) on which to report the error before and after,
    /// to see over-fitting; they are not fitted.
    #[arg(long)]
    pub validation: Option<PathBuf>,
    /// Ridge penalty toward the start weights, per 10000 per centipawn squared (0: none;
    /// without it the tables over-fit, docs/tuning.md).
    #[arg(long, default_value_t = 0.003)]
    pub l2: f64,
    /// Fit only these terms (comma-separated names, or prefixes ending in `*`: `pawn,rook_*`);
    /// the others keep their value.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// Use this scale K instead of fitting it.
    #[arg(long)]
    pub k: Option<f64>,
    /// Write the new `weights.rs` here (default: standard output).
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

impl TuneArgs {
    /// Fits the weights and writes the new `weights.rs`; progress and figures go to stderr.
    pub fn run(&self) -> Result<(), String> {
        if !(self.rate > 0.0 && self.rate <= 1000.0) {
            return Err("--rate must be above 0 and at most 1000".to_string());
        }
        if !(0.0..=1e6).contains(&self.l2) {
            return Err("--l2 must be from 0 to 1000000".to_string());
        }
        if let Some(k) = self.k {
            if !(k > 0.0 && k <= 100.0) {
                return Err("--k must be above 0 and at most 100".to_string());
            }
        }
        let text = std::fs::read_to_string(&self.input)
            .map_err(|e| format!("cannot read {}: {e}", self.input.display()))?;
        let validation = match &self.validation {
            Some(path) => Some(
                std::fs::read_to_string(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?,
            ),
            None => None,
        };
        let validation = validation.as_deref();
        let options = fit::Options {
            epochs: self.epochs as usize,
            rate: self.rate,
            min_presence: self.min_presence,
            k: self.k,
            l2: self.l2,
            only: self.only.clone(),
        };
        let command = format!(
            "thoat tune --variant {} --input {} --epochs {} --rate {} --min-presence {} --l2 {}",
            self.variant.name(),
            self.input.display(),
            self.epochs,
            self.rate,
            self.min_presence,
            self.l2
        ) + &if self.only.is_empty() {
            String::new()
        } else {
            format!(" --only {}", self.only.join(","))
        };
        let log = &mut std::io::stderr().lock();
        let file = crate::with_game!(self.variant, G => {
            fit::tune::<G>(&text, validation, &options, &command, log)
        })?;
        match &self.output {
            Some(path) => std::fs::write(path, file)
                .map_err(|e| format!("cannot write {}: {e}", path.display())),
            None => std::io::stdout()
                .write_all(file.as_bytes())
                .map_err(|e| format!("cannot write: {e}")),
        }
    }
}
