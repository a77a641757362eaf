//! `thoat train`: trains a game's network from `thoat datagen --scores` positions and writes
//! it as a network file ([`crate::nnue::network`]) after every epoch, so an interrupted run
//! leaves the last finished epoch's network. Malformed lines are counted and the first few
//! named; they never stop the run.

use crate::nnue::data::{add_mirror_images, read_samples};
use crate::nnue::features::{input_count, start_active, InputLayout, NnueGame};
use crate::nnue::network::{Activation, Network, MAX_BUCKETS};
use crate::nnue::train::{initial_network, split, train_further, Config, FloatNetwork};
use crate::variants::Variant;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

/// Malformed lines named on the error stream before the rest are only counted.
const ERRORS_SHOWN: usize = 5;

/// The arguments of `thoat train`.
#[derive(clap::Args, Clone, Debug)]
pub struct TrainArgs {
    /// The game.
    #[arg(long, short = 'v', default_value_t)]
    pub variant: Variant,
    /// Positions: `<fen> ; <score> ; <result>` lines (`thoat datagen --scores`).
    #[arg(long, short = 'i')]
    pub input: PathBuf,
    /// Write the network here (default `nets/<game>.nnue`), after every epoch.
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
    /// Hidden units per side.
    #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub hidden: u32,
    /// Output buckets: sets of output weights, one chosen by the number of pieces on the
    /// board (in equal bands up to the start position's count). 1: one output.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_BUCKETS as i64))]
    pub buckets: u32,
    /// The hidden layer's activation: `crelu` (clamp to 0..1) or `screlu` (its square).
    #[arg(long, default_value_t = Activation::Clipped)]
    pub activation: Activation,
    /// How the inputs are drawn from the board: `plain`, or `king-mirrored` (each side's
    /// view mirrored left to right when its king stands on the left half of the board).
    #[arg(long, default_value_t = InputLayout::Plain)]
    pub layout: InputLayout,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub epochs: u32,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 4096, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub batch: u32,
    /// Adam's step size (cut by 10 for the last quarter of the epochs).
    #[arg(long, default_value_t = 0.001)]
    pub lr: f32,
    /// Weight of the search's score in the target; the rest is the game's result.
    #[arg(long, default_value_t = Config::default().lambda)]
    pub lambda: f32,
    /// Share of the positions kept apart for validation, in blocks of consecutive positions
    /// (whole games of `datagen`'s output).
    #[arg(long, default_value_t = 0.05)]
    pub validation: f64,
    /// Seed of the initial weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Learn from the mirror image (left to right) of every training position whose game
    /// and rights allow it (`NnueGame::mirror_symmetric`: chess and duck chess without
    /// castling rights, skak, jetan), as a second position with the same score and result.
    /// Not with `--layout king-mirrored`, where a mirror image has the position's inputs.
    #[arg(long)]
    pub mirror: bool,
    /// Start from this network file's weights instead of random ones (fine-tuning on new
    /// data, usually with a smaller `--lr`). Its game must be `--variant`'s, and `--hidden`,
    /// `--buckets`, `--activation` and `--layout` must be its own.
    #[arg(long)]
    pub init: Option<PathBuf>,
    /// Threads (default: all cores).
    #[arg(long, short = 't', value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
}

impl TrainArgs {
    /// Reads the positions, trains and writes the network; progress goes to stderr.
    pub fn run(&self) -> Result<(), String> {
        if !(0.0..=1.0).contains(&self.lambda) || !(0.0..1.0).contains(&self.validation) {
            return Err("--lambda must be in 0..=1 and --validation in 0..1".to_string());
        }
        if !(self.lr > 0.0 && self.lr < 1.0) {
            return Err("--lr must be between 0 and 1".to_string());
        }
        if self.mirror && self.layout == InputLayout::KingMirrored {
            return Err(
                "--mirror adds nothing with --layout king-mirrored: a mirror image has the \
                 position's own inputs"
                    .to_string(),
            );
        }
        let text = std::fs::read_to_string(&self.input)
            .map_err(|e| format!("cannot read {}: {e}", self.input.display()))?;
        let output = self
            .output
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("nets/{}.nnue", self.variant.name())));
        let mut builder = rayon::ThreadPoolBuilder::new();
        if let Some(threads) = self.threads {
            builder = builder.num_threads(threads.into());
        }
        let pool = builder
            .build()
            .map_err(|e| format!("cannot start the threads: {e}"))?;
        pool.install(|| crate::with_game!(self.variant, G => self.train_game::<G>(&text, &output)))
    }

    /// The network of `--init`, as floats, when it is given and fits `config`.
    fn initial_network<G: NnueGame>(
        &self,
        config: &Config,
    ) -> Result<Option<FloatNetwork>, String> {
        let Some(path) = &self.init else {
            return Ok(None);
        };
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let network = Network::from_bytes::<G>(&bytes)
            .map_err(|e| format!("--init {}: {e}", path.display()))?;
        let l = &network.layers;
        if (l.hidden, l.buckets, l.activation, l.layout)
            != (
                config.hidden,
                config.buckets,
                config.activation,
                config.layout,
            )
        {
            return Err(format!(
                "--init {} has {} hidden units, {} output buckets, {} and the {} layout: give \
                 --hidden {} --buckets {} --activation {} --layout {}",
                path.display(),
                l.hidden,
                l.buckets,
                l.activation,
                l.layout,
                l.hidden,
                l.buckets,
                l.activation,
                l.layout
            ));
        }
        Ok(Some(FloatNetwork::from_quantised(&network)))
    }

    fn train_game<G: NnueGame>(&self, text: &str, output: &std::path::Path) -> Result<(), String> {
        let start = Instant::now();
        let mut log = std::io::stderr().lock();
        let (samples, errors) = read_samples::<G>(text, self.layout);
        for e in errors.iter().take(ERRORS_SHOWN) {
            let _ = writeln!(log, "{e}; skipped");
        }
        if errors.len() > ERRORS_SHOWN {
            let _ = writeln!(log, "... {} malformed lines in all", errors.len());
        }
        let config = Config {
            hidden: self.hidden as usize,
            buckets: self.buckets as usize,
            activation: self.activation,
            layout: self.layout,
            epochs: self.epochs as usize,
            batch: self.batch as usize,
            learning_rate: self.lr,
            lambda: self.lambda,
            validation: self.validation,
            seed: self.seed,
        };
        let initial = self.initial_network::<G>(&config)?;
        let (mut train_set, validation) = split(samples, &config);
        let mirrored = if self.mirror {
            add_mirror_images::<G>(&mut train_set)
        } else {
            0
        };
        if train_set.is_empty() {
            return Err(format!(
                "no positions to train on in {}",
                self.input.display()
            ));
        }
        let _ = writeln!(
            log,
            "train {}: {} positions ({mirrored} of them mirror images), {} for validation, \
             {} inputs ({} layout) x {} hidden ({}) x {} buckets, {} ms to read",
            G::NAME,
            train_set.len(),
            validation.len(),
            input_count::<G>(),
            config.layout,
            config.hidden,
            config.activation,
            config.buckets,
            start.elapsed().as_millis()
        );
        if let Some(dir) = output.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        let mut saved: Result<(), String> = Ok(());
        let net = initial
            .unwrap_or_else(|| initial_network(input_count::<G>(), start_active::<G>(), &config));
        train_further(net, train_set, &validation, &config, &mut |epoch, net| {
            let _ = writeln!(
                log,
                "epoch {:>3}: train loss {:.6}, validation loss {:.6}, {:.1} s",
                epoch.number,
                epoch.train_loss,
                epoch.validation_loss,
                start.elapsed().as_secs_f64()
            );
            if saved.is_ok() {
                saved = std::fs::write(output, net.quantise(G::NAME).to_bytes())
                    .map_err(|e| format!("cannot write {}: {e}", output.display()));
            }
        });
        saved?;
        let _ = writeln!(log, "train {}: wrote {}", G::NAME, output.display());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(layout: InputLayout, mirror: bool) -> TrainArgs {
        TrainArgs {
            variant: Variant::default(),
            input: PathBuf::from("/nonexistent/positions.txt"),
            output: None,
            hidden: 8,
            buckets: 1,
            activation: Activation::Clipped,
            layout,
            epochs: 1,
            batch: 16,
            lr: 0.001,
            lambda: 1.0,
            validation: 0.05,
            seed: 1,
            mirror,
            init: None,
            threads: Some(1),
        }
    }

    /// `--mirror` with the king-mirrored layout is refused before anything is read; each
    /// alone gets as far as reading the (missing) input.
    #[test]
    fn mirror_images_with_the_king_mirrored_layout_are_refused() {
        let both = args(InputLayout::KingMirrored, true).run().unwrap_err();
        assert!(both.contains("--mirror adds nothing"), "{both}");
        for (layout, mirror) in [
            (InputLayout::KingMirrored, false),
            (InputLayout::Plain, true),
        ] {
            let e = args(layout, mirror).run().unwrap_err();
            assert!(e.contains("cannot read"), "{e}");
        }
    }
}
