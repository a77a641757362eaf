//! Training a network from [`Sample`]s: the float network of [`super::network`]'s layout,
//! mean squared error between `sigmoid(output)` and a target that blends the search's score
//! with the game's result (`lambda * sigmoid(score / 400) + (1 - lambda) * result`), Adam,
//! mini-batches whose gradients are computed in parallel (rayon) and summed in a fixed order
//! (so a run is reproducible for a given seed and thread count), a learning rate cut by 10 for
//! the last quarter of the epochs, and a validation split that is never trained on.

use super::data::Sample;
use super::features::InputLayout;
use super::network::{
    Activation, Layers, Network, INPUT_WEIGHT_LIMIT, MAX_BUCKETS, QA, QB, SCALE,
    SQUARED_OUTPUT_WEIGHT_LIMIT,
};
use crate::core::rng::Rng;
use rayon::prelude::*;

/// How to train.
#[derive(Clone, Debug)]
pub struct Config {
    /// Hidden units per side.
    pub hidden: usize,
    /// Output buckets by piece count (1: one output).
    pub buckets: usize,
    /// The hidden layer's activation.
    pub activation: Activation,
    /// How the samples' inputs were drawn from the board (they must have been read in it).
    pub layout: InputLayout,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size.
    pub learning_rate: f32,
    /// Weight of the search's score in the target (the rest is the result).
    pub lambda: f32,
    /// Share of the positions kept apart for validation.
    pub validation: f64,
    /// Seed of the initial weights and the order of the positions.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            hidden: 128,
            buckets: 1,
            activation: Activation::Clipped,
            layout: InputLayout::Plain,
            epochs: 10,
            batch: 4096,
            learning_rate: 0.001,
            // The score alone: networks that learnt a share of the game's result played
            // worse in skak and chess (docs/nnue.md).
            lambda: 1.0,
            validation: 0.05,
            seed: 1,
        }
    }
}

/// The losses after one epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    /// Its number, from 1.
    pub number: usize,
    /// Mean loss on the training positions (during the epoch).
    pub train_loss: f64,
    /// Mean loss on the validation positions (after the epoch).
    pub validation_loss: f64,
}

/// The network in floats, as it is trained.
pub type FloatNetwork = Layers<f32, f32>;

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A uniform float in `-limit..limit` from the generator.
fn uniform(rng: &mut Rng, limit: f32) -> f32 {
    let unit = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
    (unit * 2.0 - 1.0) * limit
}

impl Layers<f32, f32> {
    /// Random initial weights (seeded), one output.
    pub fn new(inputs: usize, hidden: usize, seed: u64) -> FloatNetwork {
        Self::with_buckets(inputs, hidden, 1, 1, seed)
    }

    /// Random initial weights (seeded), `buckets` outputs by piece count in a game whose
    /// start position has `start_active` pieces. Every bucket starts with the same weights.
    pub fn with_buckets(
        inputs: usize,
        hidden: usize,
        buckets: usize,
        start_active: usize,
        seed: u64,
    ) -> FloatNetwork {
        let mut rng = Rng::new(seed, 0x4e4e_5545);
        let limit1 = 1.0 / (inputs as f32).sqrt();
        let limit2 = 1.0 / (2.0 * hidden as f32).sqrt();
        let input_weights = (0..inputs * hidden)
            .map(|_| uniform(&mut rng, limit1))
            .collect();
        let output: Vec<f32> = (0..2 * hidden).map(|_| uniform(&mut rng, limit2)).collect();
        FloatNetwork {
            inputs,
            hidden,
            buckets,
            start_active,
            activation: Activation::Clipped,
            layout: InputLayout::Plain,
            input_weights,
            hidden_bias: vec![0.0; hidden],
            output_weights: output.repeat(buckets),
            output_bias: vec![0.0; buckets],
        }
    }

    /// The hidden values of one view before clipping.
    fn accumulate(&self, inputs: &[u16], out: &mut [f32]) {
        out.copy_from_slice(&self.hidden_bias);
        for &i in inputs {
            for (o, w) in out.iter_mut().zip(self.column(i as usize)) {
                *o += w;
            }
        }
    }

    /// The output (in units of 400 cp) for a sample's side to move.
    pub fn output(&self, sample: &Sample) -> f32 {
        let mut acc = vec![0.0; 2 * self.hidden];
        let (us, them) = acc.split_at_mut(self.hidden);
        self.accumulate(&sample.inputs[0], us);
        self.accumulate(&sample.inputs[1], them);
        self.output_from(&acc, self.bucket(sample.inputs[0].len()))
    }

    /// The output of bucket `b` from both views' hidden values (before the activation).
    fn output_from(&self, acc: &[f32], b: usize) -> f32 {
        let (weights, bias) = self.output_of(b);
        acc.iter()
            .zip(weights)
            .map(|(&a, w)| self.activation.apply(a) * w)
            .sum::<f32>()
            + bias
    }

    /// The network in the engine's integers.
    pub fn quantise(&self, game: &str) -> Network {
        let q = |w: f32, scale: i32| (w * scale as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network {
            game: game.to_string(),
            layers: Layers {
                inputs: self.inputs,
                hidden: self.hidden,
                buckets: self.buckets,
                start_active: self.start_active,
                activation: self.activation,
                layout: self.layout,
                input_weights: self.input_weights.iter().map(|&w| q(w, QA)).collect(),
                hidden_bias: self.hidden_bias.iter().map(|&w| q(w, QA)).collect(),
                output_weights: self.output_weights.iter().map(|&w| q(w, QB)).collect(),
                output_bias: self
                    .output_bias
                    .iter()
                    .map(|&b| (b * (QA * QB) as f32).round() as i32)
                    .collect(),
            },
        }
    }

    /// The float network that [`quantise`](Self::quantise) would turn into `net`: the
    /// starting point of a network trained further (`thoat train --init`).
    pub fn from_quantised(net: &Network) -> FloatNetwork {
        let l = &net.layers;
        let scaled =
            |w: &[i16], scale: i32| w.iter().map(|&w| f32::from(w) / scale as f32).collect();
        FloatNetwork {
            inputs: l.inputs,
            hidden: l.hidden,
            buckets: l.buckets,
            start_active: l.start_active,
            activation: l.activation,
            layout: l.layout,
            input_weights: scaled(&l.input_weights, QA),
            hidden_bias: scaled(&l.hidden_bias, QA),
            output_weights: scaled(&l.output_weights, QB),
            output_bias: l
                .output_bias
                .iter()
                .map(|&b| b as f32 / (QA * QB) as f32)
                .collect(),
        }
    }

    fn parameters(&self) -> usize {
        self.input_weights.len()
            + self.hidden_bias.len()
            + self.output_weights.len()
            + self.output_bias.len()
    }
}

/// What a sample should score: the blend of its search score and its result.
fn target(sample: &Sample, lambda: f32) -> f32 {
    lambda * sigmoid(sample.score as f32 / SCALE as f32) + (1.0 - lambda) * sample.result
}

/// The mean loss of `net` on `samples`.
pub fn loss(net: &FloatNetwork, samples: &[Sample], lambda: f32) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let total: f64 = samples
        .par_iter()
        .map(|s| {
            let d = sigmoid(net.output(s)) - target(s, lambda);
            f64::from(d * d)
        })
        .sum();
    total / samples.len() as f64
}

/// The gradient of the summed loss over `samples`, in the order of [`FloatNetwork`]'s
/// fields flattened (w1, b1, w2, b2); and the summed loss.
fn gradient(net: &FloatNetwork, samples: &[Sample], lambda: f32) -> (Vec<f32>, f64) {
    let h = net.hidden;
    let mut grad = vec![0.0f32; net.parameters()];
    let (g_w1, rest) = grad.split_at_mut(net.input_weights.len());
    let (g_b1, rest) = rest.split_at_mut(h);
    let (g_w2, g_b2) = rest.split_at_mut(net.output_weights.len());
    let mut acc = vec![0.0f32; 2 * h];
    let mut loss = 0.0f64;
    for sample in samples {
        let (us, them) = acc.split_at_mut(h);
        net.accumulate(&sample.inputs[0], us);
        net.accumulate(&sample.inputs[1], them);
        let bucket = net.bucket(sample.inputs[0].len());
        let out = net.output_from(&acc, bucket);
        let w2 = bucket * 2 * h;
        let p = sigmoid(out);
        let d = p - target(sample, lambda);
        loss += f64::from(d * d);
        let d_out = 2.0 * d * p * (1.0 - p);
        g_b2[bucket] += d_out;
        for (view, inputs) in sample.inputs.iter().enumerate() {
            for unit in 0..h {
                let a = acc[view * h + unit];
                g_w2[w2 + view * h + unit] += d_out * net.activation.apply(a);
                let slope = net.activation.derivative(a);
                if slope != 0.0 {
                    let d_a = d_out * slope * net.output_weights[w2 + view * h + unit];
                    g_b1[unit] += d_a;
                    for &i in inputs {
                        g_w1[i as usize * h + unit] += d_a;
                    }
                }
            }
        }
    }
    (grad, loss)
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, params: &mut [&mut [f32]], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let mut k = 0;
        for block in params.iter_mut() {
            for p in block.iter_mut() {
                let g = grad[k];
                self.m[k] = B1 * self.m[k] + (1.0 - B1) * g;
                self.v[k] = B2 * self.v[k] + (1.0 - B2) * g * g;
                *p -= lr * (self.m[k] / c1) / ((self.v[k] / c2).sqrt() + EPS);
                k += 1;
            }
        }
    }
}

/// Positions in one block of the validation split: datagen writes each game's positions
/// together, and a block holds about forty chess games, so nearly every game is kept whole on
/// one side of the split.
const SPLIT_BLOCK: usize = 4096;

/// Splits the samples into training and validation positions by blocks of consecutive
/// positions (chosen by the seed), so that validation measures games the network never saw:
/// positions of one game are alike, and a split by position let the validation loss fall while
/// the network played worse (docs/nnue.md, session 24). Small sets use blocks of a twentieth.
pub fn split(samples: Vec<Sample>, config: &Config) -> (Vec<Sample>, Vec<Sample>) {
    let keep = ((samples.len() as f64 * config.validation).round() as usize).min(samples.len());
    let block = (samples.len() / 20).clamp(1, SPLIT_BLOCK);
    let blocks = samples.len().div_ceil(block);
    let mut order: Vec<usize> = (0..blocks).collect();
    Rng::new(config.seed, 0x5350_4c49).shuffle(&mut order);
    // The first blocks of the shuffled order go to validation, the last of them cut to size.
    let mut in_validation = vec![0usize; blocks];
    let mut wanted = keep;
    for &b in &order {
        if wanted == 0 {
            break;
        }
        let size = block.min(samples.len() - b * block);
        in_validation[b] = size.min(wanted);
        wanted -= in_validation[b];
    }
    let mut train = Vec::with_capacity(samples.len() - keep);
    let mut validation = Vec::with_capacity(keep);
    for (i, sample) in samples.into_iter().enumerate() {
        if i % block < in_validation[i / block] {
            validation.push(sample);
        } else {
            train.push(sample);
        }
    }
    (train, validation)
}

/// Trains a network of `inputs` inputs on `train`, reporting each epoch (with its validation
/// loss on `validation`) to `report`, which may save a checkpoint. `start_active` is the
/// game's [`start_active`](crate::nnue::features::start_active), which scales the buckets.
pub fn train(
    inputs: usize,
    start_active: usize,
    train: Vec<Sample>,
    validation: &[Sample],
    config: &Config,
    report: &mut dyn FnMut(&Epoch, &FloatNetwork),
) -> FloatNetwork {
    let net = initial_network(inputs, start_active, config);
    train_further(net, train, validation, config, report)
}

/// The random network (seeded) that [`train`] starts from: `config`'s sizes and activation.
pub fn initial_network(inputs: usize, start_active: usize, config: &Config) -> FloatNetwork {
    let mut net = FloatNetwork::with_buckets(
        inputs,
        config.hidden.max(1),
        config.buckets.clamp(1, MAX_BUCKETS),
        start_active,
        config.seed,
    );
    net.activation = config.activation;
    net.layout = config.layout;
    net
}

/// Trains `net` further on `train`, as [`train`] does from random weights; `config`'s layer
/// sizes and activation are `net`'s own. The optimiser starts afresh.
pub fn train_further(
    mut net: FloatNetwork,
    mut train: Vec<Sample>,
    validation: &[Sample],
    config: &Config,
    report: &mut dyn FnMut(&Epoch, &FloatNetwork),
) -> FloatNetwork {
    let mut adam = Adam {
        m: vec![0.0; net.parameters()],
        v: vec![0.0; net.parameters()],
        t: 0,
    };
    let mut rng = Rng::new(config.seed, 0x5348_5546);
    let batch = config.batch.max(1);
    // Each batch is cut into this many pieces whose gradients are summed in order.
    let pieces = rayon::current_num_threads().max(1);
    for number in 1..=config.epochs {
        rng.shuffle(&mut train);
        let lr = if number * 4 > config.epochs * 3 {
            config.learning_rate / 10.0
        } else {
            config.learning_rate
        };
        let mut train_loss = 0.0;
        for chunk in train.chunks(batch) {
            let piece = chunk.len().div_ceil(pieces);
            let parts: Vec<(Vec<f32>, f64)> = chunk
                .par_chunks(piece)
                .map(|part| gradient(&net, part, config.lambda))
                .collect();
            let mut grad = vec![0.0f32; net.parameters()];
            for (g, l) in &parts {
                train_loss += l;
                for (total, x) in grad.iter_mut().zip(g) {
                    *total += x / chunk.len() as f32;
                }
            }
            adam.step(
                &mut [
                    &mut net.input_weights,
                    &mut net.hidden_bias,
                    &mut net.output_weights,
                    &mut net.output_bias,
                ],
                &grad,
                lr,
            );
            for w in &mut net.input_weights {
                *w = w.clamp(-INPUT_WEIGHT_LIMIT, INPUT_WEIGHT_LIMIT);
            }
            if net.activation == Activation::SquaredClipped {
                for w in &mut net.output_weights {
                    *w = w.clamp(-SQUARED_OUTPUT_WEIGHT_LIMIT, SQUARED_OUTPUT_WEIGHT_LIMIT);
                }
            }
        }
        let epoch = Epoch {
            number,
            train_loss: train_loss / train.len().max(1) as f64,
            validation_loss: loss(&net, validation, config.lambda),
        };
        report(&epoch, &net);
    }
    net
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::data::read_samples;
    use crate::nnue::features::input_count;
    use crate::variants::Skak;

    /// Skak positions whose score is the material balance: something a network can learn.
    fn data() -> Vec<Sample> {
        let fens = [
            "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
            "rqbkbqr/ppppppp/7/7/7/PPPPPPP/1QBKBQR w - - 0 1",
            "1qbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
            "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKB1R w - - 0 1",
            "rqbkb1r/ppppppp/7/7/7/PPPPPPP/RQBKBQR w - - 0 1",
            "rqbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - 0 1",
            "rqbkbqr/ppppppp/7/7/7/PPPPPPP/1QBKBQR b - - 0 1",
            "1qbkbqr/ppppppp/7/7/7/PPPPPPP/RQBKBQR b - - 0 1",
        ];
        let scores = [0, -300, 300, -500, 500, 0, -300, 300];
        let mut text = String::new();
        for _ in 0..16 {
            for (fen, score) in fens.iter().zip(scores) {
                let result = match score {
                    s if s > 0 => "1",
                    0 => "0.5",
                    _ => "0",
                };
                text.push_str(&format!("{fen} ; {score} ; {result}\n"));
            }
        }
        let (samples, errors) = read_samples::<Skak>(&text, InputLayout::Plain);
        assert!(errors.is_empty(), "{errors:?}");
        samples
    }

    #[test]
    fn the_gradient_is_the_derivative_of_the_loss() {
        let inputs = input_count::<Skak>();
        gradient_is_the_derivative(FloatNetwork::new(inputs, 4, 3));
        // Three buckets: the positions near the start use the last one's weights.
        let bucketed = FloatNetwork::with_buckets(inputs, 4, 3, 28, 3);
        gradient_is_the_derivative(bucketed.clone());
        let squared = FloatNetwork {
            activation: Activation::SquaredClipped,
            ..bucketed
        };
        gradient_is_the_derivative(squared);
    }

    fn gradient_is_the_derivative(net: FloatNetwork) {
        let samples = data();
        let (grad, _) = gradient(&net, &samples[..8], 0.5);
        // Finite differences on a few weights of each block.
        let summed = |n: &FloatNetwork| loss(n, &samples[..8], 0.5) * 8.0;
        let h = 1e-3;
        let active = samples[1].inputs[0][0] as usize;
        let last_bucket = net.input_weights.len() + 4 + (net.buckets - 1) * 8;
        for k in [
            active * 4 + 1,
            net.input_weights.len() + 2,
            last_bucket + 1,
            last_bucket + 4 + 3,
            net.parameters() - 1,
        ] {
            let numeric =
                (summed(&nudged(&net, k, h)) - summed(&nudged(&net, k, -h))) / (2.0 * f64::from(h));
            assert!(
                (numeric - f64::from(grad[k])).abs() < 1e-3 + 0.05 * numeric.abs(),
                "parameter {k}: numeric {numeric}, analytic {}",
                grad[k]
            );
        }
    }

    /// `net` with its `k`-th parameter (w1, b1, w2, b2 flattened) moved by `delta`.
    fn nudged(net: &FloatNetwork, k: usize, delta: f32) -> FloatNetwork {
        let mut n = net.clone();
        let (w1, b1, w2) = (
            n.input_weights.len(),
            n.hidden_bias.len(),
            n.output_weights.len(),
        );
        match k {
            k if k < w1 => n.input_weights[k] += delta,
            k if k < w1 + b1 => n.hidden_bias[k - w1] += delta,
            k if k < w1 + b1 + w2 => n.output_weights[k - w1 - b1] += delta,
            k => n.output_bias[k - w1 - b1 - w2] += delta,
        }
        n
    }

    /// The split keeps the asked share apart, in runs of consecutive positions (whole
    /// games), loses none, and depends on the seed.
    #[test]
    fn the_validation_split_takes_whole_blocks() {
        let samples: Vec<Sample> = (0..1000)
            .map(|i| Sample {
                inputs: [vec![], vec![]],
                score: i,
                result: 0.5,
                mirrorable: false,
            })
            .collect();
        let config = Config {
            validation: 0.2,
            ..Config::default()
        };
        let (train_set, validation) = split(samples.clone(), &config);
        assert_eq!(validation.len(), 200);
        assert_eq!(train_set.len(), 800);
        let mut all: Vec<i32> = train_set
            .iter()
            .chain(&validation)
            .map(|s| s.score)
            .collect();
        all.sort_unstable();
        assert_eq!(all, (0..1000).collect::<Vec<_>>());
        // Blocks of 50: four whole blocks, each a run of consecutive positions.
        let scores: Vec<i32> = validation.iter().map(|s| s.score).collect();
        for run in scores.chunks(50) {
            assert_eq!(run[0] % 50, 0, "{scores:?}");
            assert!(run.windows(2).all(|w| w[1] == w[0] + 1), "{scores:?}");
        }
        let other = Config { seed: 2, ..config };
        let (_, validation2) = split(samples, &other);
        assert_ne!(validation, validation2);
    }

    #[test]
    fn a_network_trained_further_starts_from_its_weights() {
        let config = Config {
            hidden: 16,
            buckets: 2,
            epochs: 20,
            batch: 16,
            learning_rate: 0.01,
            validation: 0.25,
            ..Config::default()
        };
        let (train_set, validation) = split(data(), &config);
        let inputs = input_count::<Skak>();
        let net = train(
            inputs,
            28,
            train_set.clone(),
            &validation,
            &config,
            &mut |_, _| {},
        );
        // The file's integers come back as the floats that quantise to them.
        let quantised = net.quantise("skak");
        let restored = FloatNetwork::from_quantised(&quantised);
        assert_eq!(restored.quantise("skak"), quantised);
        let fresh = loss(
            &FloatNetwork::new(inputs, 16, 7),
            &validation,
            config.lambda,
        );
        let trained = loss(&restored, &validation, config.lambda);
        assert!(trained < fresh / 4.0, "trained {trained}, fresh {fresh}");
        // One small step further keeps what was learnt.
        let further = Config {
            epochs: 1,
            learning_rate: 0.0005,
            ..config
        };
        let mut first = f64::MAX;
        let net = train_further(restored, train_set, &validation, &further, &mut |e, _| {
            first = e.validation_loss
        });
        assert!(first < trained * 1.5, "{trained} -> {first}");
        assert_eq!((net.hidden, net.buckets), (16, 2));
    }

    /// A network trained on king-mirrored samples keeps the layout, and the engine's
    /// evaluation of a position (its own inputs, [`Network::evaluate_position`]) is the float
    /// network's output on that position's sample, also where a king stands on the left.
    #[test]
    fn a_king_mirrored_network_evaluates_positions_as_it_learnt_their_samples() {
        use crate::core::Game;
        use crate::nnue::data::parse_sample;
        let lines = [
            "rqbkbqr/ppppppp/7/7/7/PPPPPPP/1QBKBQR w - - 0 1 ; -300 ; 0",
            "5k1/2p4/7/7/7/7/1K2R2 w - - 0 1 ; 500 ; 1",
            "1k5/2p2r1/7/7/7/7/5KR b - - 0 1 ; 0 ; 0.5",
            "r2k2r/ppp1ppp/7/7/7/PPPP1PP/RK4R b - - 0 1 ; 100 ; 1",
        ];
        let layout = InputLayout::KingMirrored;
        let samples: Vec<Sample> = lines
            .iter()
            .map(|l| parse_sample::<Skak>(l, layout).unwrap())
            .collect();
        let config = Config {
            hidden: 8,
            layout,
            epochs: 5,
            batch: 2,
            learning_rate: 0.01,
            validation: 0.0,
            ..Config::default()
        };
        let inputs = input_count::<Skak>();
        let net = train(inputs, 28, samples.clone(), &[], &config, &mut |_, _| {});
        assert_eq!(net.layout, layout);
        let quantised = net.quantise("skak");
        assert_eq!(quantised.layers.layout, layout);
        // The same weights read in the plain layout see other inputs where a king is on the
        // left, so the check below can tell the layouts apart.
        let mut plain = quantised.clone();
        plain.layers.layout = InputLayout::Plain;
        let position = |line: &str| Skak::from_fen(line.split(';').next().unwrap()).unwrap();
        assert!(lines
            .iter()
            .any(|l| plain.evaluate_position(&position(l))
                != quantised.evaluate_position(&position(l))));
        for (line, sample) in lines.iter().zip(&samples) {
            let fen = line.split(';').next().unwrap();
            let position = Skak::from_fen(fen).unwrap();
            let float_cp = net.output(sample) * SCALE as f32;
            let engine_cp = quantised.evaluate_position(&position);
            assert!(
                (float_cp - engine_cp as f32).abs() < 12.0,
                "{fen}: float {float_cp} cp, engine {engine_cp} cp"
            );
        }
    }

    #[test]
    fn training_lowers_the_validation_loss_and_the_quantised_net_agrees() {
        for buckets in [1, 3] {
            training_lowers_the_validation_loss(buckets, Activation::Clipped);
        }
        training_lowers_the_validation_loss(1, Activation::SquaredClipped);
    }

    fn training_lowers_the_validation_loss(buckets: usize, activation: Activation) {
        let config = Config {
            hidden: 16,
            buckets,
            activation,
            epochs: 30,
            batch: 16,
            learning_rate: 0.01,
            validation: 0.25,
            ..Config::default()
        };
        let (train_set, validation) = split(data(), &config);
        assert_eq!(validation.len(), 32);
        let inputs = input_count::<Skak>();
        let before = loss(
            &FloatNetwork::new(inputs, 16, config.seed),
            &validation,
            config.lambda,
        );
        let mut epochs = Vec::new();
        let net = train(inputs, 28, train_set, &validation, &config, &mut |e, _| {
            epochs.push(*e)
        });
        assert_eq!(epochs.len(), 30);
        let after = epochs.last().unwrap().validation_loss;
        assert!(after < before / 4.0, "validation loss {before} -> {after}");
        assert_eq!(net.activation, activation);
        // The quantised network evaluates within a few centipawns of the float one.
        let quantised = net.quantise("skak");
        for sample in &validation {
            let float_cp = net.output(sample) * SCALE as f32;
            let position_cp = {
                let mut acc = crate::nnue::network::Accumulator {
                    values: [
                        quantised.layers.hidden_bias.clone(),
                        quantised.layers.hidden_bias.clone(),
                    ],
                };
                for (view, inputs) in sample.inputs.iter().enumerate() {
                    for &i in inputs {
                        quantised.add(&mut acc.values[view], i as usize);
                    }
                }
                quantised.evaluate(&acc, crate::core::Color::White, sample.inputs[0].len())
            };
            assert!(
                (float_cp - position_cp as f32).abs() < 12.0,
                "float {float_cp} cp, quantised {position_cp} cp"
            );
        }
    }
}
