//! The quantised network that the engine evaluates with, and its file.
//!
//! One hidden layer: `hidden` accumulator values per side, each the bias plus the weights of
//! the active inputs (i16, in units of 1/[`QA`]); an [`Activation`], the clipped ReLU to
//! `0..=QA` or its square; the output is the side to move's activated accumulator and the
//! other side's, times the output weights (i16, in units of 1/[`QB`]), plus the output bias,
//! scaled to centipawns by [`SCALE`]; with output buckets, the piece count picks which output
//! weights and bias ([`output_bucket`]). Integer arithmetic throughout, so every machine
//! computes the same evaluation.
//!
//! File (little-endian): the magic `THOATNN1` (one output, clipped), `THOATNN2` (buckets,
//! clipped), `THOATNN3` (buckets and activation) or `THOATNN4` (buckets, activation and input
//! layout); the game's name (u8 length, bytes); the number of inputs and of hidden units (u32
//! each), from `THOATNN2` on the number of buckets (u32), from `THOATNN3` on the activation
//! (u32: 0 clipped, 1 squared clipped), with `THOATNN4` the input layout
//! ([`InputLayout`]: u32, 0 plain, 1 king-mirrored); a
//! 64-bit FNV-1a hash of everything that follows; the input weights (`inputs x hidden` i16,
//! input by input), the hidden biases (`hidden` i16), the output weights (`buckets x 2 x
//! hidden` i16, bucket by bucket, the side to move's first) and the output biases (`buckets`
//! i32).

use super::features::{
    input_count, layout_input_sets, start_active, InputLayout, InputSet, NnueGame,
};
use super::FileSetting;
use crate::core::Color;

/// The accumulator's quantisation: a float weight `w` is stored as `round(w * QA)`, and the
/// clipped ReLU clips to `0..=QA` (the float network's 0..=1).
pub const QA: i32 = 255;
/// The output weights' quantisation.
pub const QB: i32 = 64;
/// Centipawns per unit of the float network's output: its output is an evaluation in units
/// of 400 cp, and `sigmoid(output)` the side to move's expected score.
pub const SCALE: i32 = 400;
/// Weights of the first layer stay within this many units (training clips them), so that no
/// accumulator of a few dozen active inputs overflows i16.
pub const INPUT_WEIGHT_LIMIT: f32 = 1.98;

/// Output weights of a network with the squared activation stay within this many units
/// (training clips them; a file with larger ones is refused), so that an activated value times a quantised weight,
/// `QA * round(limit * QB)`, fits in i16 (255 x 127).
pub const SQUARED_OUTPUT_WEIGHT_LIMIT: f32 = 1.98;

/// [`SQUARED_OUTPUT_WEIGHT_LIMIT`] quantised: the largest output weight a network with the
/// squared activation may have.
fn squared_weight_limit() -> u16 {
    (SQUARED_OUTPUT_WEIGHT_LIMIT * QB as f32).round() as u16
}

/// The magic of a file with one output ([`Layers::buckets`] 1): the first format, still
/// written for such networks so that their files stay as they were.
const MAGIC_ONE_OUTPUT: &[u8; 8] = b"THOATNN1";
/// The magic of a file with output buckets: the bucket count follows the hidden size.
const MAGIC_BUCKETS: &[u8; 8] = b"THOATNN2";
/// The magic of a file that names its activation after the bucket count: written only for
/// networks whose activation is not [`Activation::Clipped`].
const MAGIC_ACTIVATION: &[u8; 8] = b"THOATNN3";
/// The magic of a file that names its input layout after the activation: written only for
/// networks whose layout is not [`InputLayout::Plain`].
const MAGIC_LAYOUT: &[u8; 8] = b"THOATNN4";
/// The most output buckets a file may have.
pub const MAX_BUCKETS: usize = 16;

/// What the hidden layer does to its values before the output layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x, 0, 1)`.
    #[default]
    Clipped,
    /// `clamp(x, 0, 1)^2`: the same range, a curve where the clipped ReLU has a line
    /// (docs/nnue.md has the match that decides between them).
    SquaredClipped,
}

impl FileSetting for Activation {
    const ALL: &'static [Self] = &[Activation::Clipped, Activation::SquaredClipped];
    const NAMES: &'static [&'static str] = &["crelu", "screlu"];
    const WHAT: &'static str = "activation";

    fn code(self) -> u32 {
        match self {
            Activation::Clipped => 0,
            Activation::SquaredClipped => 1,
        }
    }
}

impl Activation {
    /// The activation of a float value.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        let c = x.clamp(0.0, 1.0);
        match self {
            Activation::Clipped => c,
            Activation::SquaredClipped => c * c,
        }
    }

    /// Its derivative at `x` (0 where the clamp holds).
    #[inline]
    pub fn derivative(self, x: f32) -> f32 {
        if x <= 0.0 || x >= 1.0 {
            return 0.0;
        }
        match self {
            Activation::Clipped => 1.0,
            Activation::SquaredClipped => 2.0 * x,
        }
    }
}

impl std::fmt::Display for Activation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Activation {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        Self::from_name(s)
    }
}

/// The output bucket of a position with `active` active inputs (pieces, and the duck) in one
/// view, in a game whose start position has `start_active`: the piece count cut into
/// `buckets` equal bands, so that each stage of the game has its own output weights.
#[inline]
pub fn output_bucket(active: usize, start_active: usize, buckets: usize) -> usize {
    (active.saturating_sub(1) * buckets / start_active.max(1)).min(buckets - 1)
}

/// The weights of a network with one hidden layer, in any number type: the engine's
/// quantised network and the trainer's float network share this layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layers<W, B> {
    /// Inputs (the game's [`input_count`]).
    pub inputs: usize,
    /// Hidden units per side.
    pub hidden: usize,
    /// Output buckets (1 to [`MAX_BUCKETS`]): sets of output weights, one chosen per
    /// position by its piece count ([`output_bucket`]).
    pub buckets: usize,
    /// Active inputs of one view in the game's start position (its pieces): not stored in
    /// the file but taken from the game, it scales the piece count to the buckets.
    pub start_active: usize,
    /// What the hidden layer does to its values.
    pub activation: Activation,
    /// How the inputs are drawn from the board.
    pub layout: InputLayout,
    /// `inputs x hidden`, input by input.
    pub input_weights: Vec<W>,
    /// `hidden`.
    pub hidden_bias: Vec<W>,
    /// `buckets x 2 x hidden`, bucket by bucket: the side to move's units, then the other
    /// side's.
    pub output_weights: Vec<W>,
    /// One output bias per bucket (quantised: in units of `1 / (QA * QB)`).
    pub output_bias: Vec<B>,
}

impl<W, B> Layers<W, B> {
    /// The weights of input `i`.
    #[inline]
    pub fn column(&self, i: usize) -> &[W] {
        &self.input_weights[i * self.hidden..(i + 1) * self.hidden]
    }

    /// The bucket of a position with `active` active inputs in one view.
    #[inline]
    pub fn bucket(&self, active: usize) -> usize {
        output_bucket(active, self.start_active, self.buckets)
    }

    /// The output weights of bucket `b` (`2 x hidden`) and its bias.
    #[inline]
    pub fn output_of(&self, b: usize) -> (&[W], &B) {
        let width = 2 * self.hidden;
        (
            &self.output_weights[b * width..(b + 1) * width],
            &self.output_bias[b],
        )
    }
}

/// A network for one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Network {
    /// The `UCI_Variant` name of its game.
    pub game: String,
    /// Its weights, quantised.
    pub layers: Layers<i16, i32>,
}

/// The hidden layer's values for one position, from both sides' views (`[white, black]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// `values[view][unit]`.
    pub values: [Vec<i16>; 2],
}

/// 64-bit FNV-1a: a checksum of the weights, so a damaged file is refused.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &b| {
        (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// Reads a file's fields in order, with an error that names what is missing.
struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        if self.bytes.len() < n {
            return Err(format!("the file ends inside the {what}"));
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    fn u32(&mut self, what: &str) -> Result<u32, String> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16s(&mut self, n: usize, what: &str) -> Result<Vec<i16>, String> {
        let bytes = self.take(n * 2, what)?;
        Ok(bytes
            .chunks_exact(2)
            .map(|b| i16::from_le_bytes([b[0], b[1]]))
            .collect())
    }
}

impl Network {
    /// The network as the bytes of its file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        let layers = &self.layers;
        for w in layers
            .input_weights
            .iter()
            .chain(&layers.hidden_bias)
            .chain(&layers.output_weights)
        {
            body.extend_from_slice(&w.to_le_bytes());
        }
        for b in &layers.output_bias {
            body.extend_from_slice(&b.to_le_bytes());
        }
        let magic = match (layers.layout, layers.activation, layers.buckets) {
            (InputLayout::Plain, Activation::Clipped, 1) => MAGIC_ONE_OUTPUT,
            (InputLayout::Plain, Activation::Clipped, _) => MAGIC_BUCKETS,
            (InputLayout::Plain, _, _) => MAGIC_ACTIVATION,
            _ => MAGIC_LAYOUT,
        };
        let mut out = magic.to_vec();
        out.push(self.game.len() as u8);
        out.extend_from_slice(self.game.as_bytes());
        out.extend_from_slice(&(layers.inputs as u32).to_le_bytes());
        out.extend_from_slice(&(layers.hidden as u32).to_le_bytes());
        if magic != MAGIC_ONE_OUTPUT {
            out.extend_from_slice(&(layers.buckets as u32).to_le_bytes());
        }
        if magic == MAGIC_ACTIVATION || magic == MAGIC_LAYOUT {
            out.extend_from_slice(&layers.activation.code().to_le_bytes());
        }
        if magic == MAGIC_LAYOUT {
            out.extend_from_slice(&layers.layout.code().to_le_bytes());
        }
        out.extend_from_slice(&fnv1a(&body).to_le_bytes());
        out.extend_from_slice(&body);
        out
    }

    /// The name of the game a network file is for, from its header.
    pub fn game_of(bytes: &[u8]) -> Result<String, String> {
        Ok(Self::header(bytes)?.0)
    }

    /// The magic and the game's name at the start of a file: the name, the magic, and a
    /// reader of what follows.
    fn header(bytes: &[u8]) -> Result<(String, &'static [u8; 8], Reader<'_>), String> {
        let magic = [
            MAGIC_ONE_OUTPUT,
            MAGIC_BUCKETS,
            MAGIC_ACTIVATION,
            MAGIC_LAYOUT,
        ]
        .into_iter()
        .find(|&m| bytes.starts_with(m))
        .ok_or("not a thoat network file (no THOATNN1 to THOATNN4 magic)")?;
        let mut r = Reader {
            bytes: &bytes[magic.len()..],
        };
        let name_len = r.take(1, "game name")?[0] as usize;
        let game = String::from_utf8_lossy(r.take(name_len, "game name")?).to_string();
        Ok((game, magic, r))
    }

    /// Reads a network file for game `G`: an error, never a panic, for another game, other
    /// sizes, a damaged or truncated file.
    pub fn from_bytes<G: NnueGame>(bytes: &[u8]) -> Result<Network, String> {
        let (game, magic, mut r) = Self::header(bytes)?;
        if game != G::NAME {
            return Err(format!("the network is for {game}, not {}", G::NAME));
        }
        let inputs = r.u32("input count")? as usize;
        let hidden = r.u32("hidden size")? as usize;
        if inputs != input_count::<G>() {
            return Err(format!(
                "the network has {inputs} inputs; {} networks have {}",
                G::NAME,
                input_count::<G>()
            ));
        }
        if hidden == 0 || hidden > 4096 {
            return Err(format!(
                "a hidden layer of {hidden} units is not supported (1 to 4096)"
            ));
        }
        let buckets = if magic == MAGIC_ONE_OUTPUT {
            1
        } else {
            r.u32("bucket count")? as usize
        };
        if !(1..=MAX_BUCKETS).contains(&buckets) {
            return Err(format!(
                "{buckets} output buckets are not supported (1 to {MAX_BUCKETS})"
            ));
        }
        let activation = if magic == MAGIC_ACTIVATION || magic == MAGIC_LAYOUT {
            Activation::read_code(r.u32("activation")?)?
        } else {
            Activation::Clipped
        };
        let layout = if magic == MAGIC_LAYOUT {
            InputLayout::read_code(r.u32("input layout")?)?
        } else {
            InputLayout::Plain
        };
        let hash = u64::from_le_bytes(r.take(8, "checksum")?.try_into().map_err(|_| "checksum")?);
        let expected = (inputs * hidden + hidden + buckets * 2 * hidden) * 2 + 4 * buckets;
        if r.bytes.len() != expected {
            return Err(format!(
                "the weights take {} bytes, not {expected}: the file is damaged",
                r.bytes.len()
            ));
        }
        if fnv1a(r.bytes) != hash {
            return Err("the weights do not match the file's checksum: the file is damaged".into());
        }
        let input_weights = r.i16s(inputs * hidden, "input weights")?;
        let hidden_bias = r.i16s(hidden, "hidden biases")?;
        let output_weights = r.i16s(buckets * 2 * hidden, "output weights")?;
        let limit = squared_weight_limit();
        if activation == Activation::SquaredClipped
            && output_weights.iter().any(|w| w.unsigned_abs() > limit)
        {
            return Err(format!(
                "an output weight is beyond {limit}, which the squared activation's i16 products \
                 cannot hold"
            ));
        }
        let output_bias = (0..buckets)
            .map(|_| r.u32("output bias").map(|b| b as i32))
            .collect::<Result<_, _>>()?;
        Ok(Network {
            game,
            layers: Layers {
                inputs,
                hidden,
                buckets,
                start_active: start_active::<G>(),
                activation,
                layout,
                input_weights,
                hidden_bias,
                output_weights,
                output_bias,
            },
        })
    }

    /// The active inputs of `position` from each side's view (`[white, black]`) in this
    /// network's layout.
    #[inline]
    pub fn input_sets<G: NnueGame>(&self, position: &G) -> [InputSet; 2] {
        layout_input_sets(position, self.layers.layout)
    }

    /// The accumulator of `position`, computed from all its pieces.
    pub fn refresh<G: NnueGame>(&self, position: &G) -> Accumulator {
        self.accumulator_of(&self.input_sets(position))
    }

    /// A new accumulator for the active inputs `sets`.
    fn accumulator_of(&self, sets: &[InputSet; 2]) -> Accumulator {
        let mut acc = Accumulator {
            values: [vec![0; self.layers.hidden], vec![0; self.layers.hidden]],
        };
        self.refresh_into(sets, &mut acc);
        acc
    }

    /// Computes the accumulator of a position whose active inputs are `sets` (its
    /// [`Network::input_sets`]) into `acc` (of this network's size), with no allocation.
    pub fn refresh_into(&self, sets: &[InputSet; 2], acc: &mut Accumulator) {
        for (values, set) in acc.values.iter_mut().zip(sets) {
            values.copy_from_slice(&self.layers.hidden_bias);
            for i in set.iter() {
                self.add(values, i);
            }
        }
    }

    /// Adds input `i`'s weights to one view's values.
    #[inline]
    pub fn add(&self, values: &mut [i16], i: usize) {
        for (v, w) in values.iter_mut().zip(self.layers.column(i)) {
            *v = v.wrapping_add(*w);
        }
    }

    /// Turns one view's values for the inputs `from` into those for the inputs `to`: the
    /// weights of the inputs only in `from` are taken away, those only in `to` added. From a
    /// parent to a child this is the two to four inputs a move changes, with no rule of the
    /// game needed: the sets say what changed.
    pub fn update(&self, values: &mut [i16], from: &InputSet, to: &InputSet) {
        self.changed_columns(from, to, |_, added, removed| {
            self.apply(values, None, added, removed)
        });
    }

    /// Writes into `values` the view `base` (the values for the inputs `from`) turned into
    /// the values for the inputs `to`, in one pass: the copy of the parent's accumulator and
    /// the move's columns together.
    pub fn update_from(&self, values: &mut [i16], base: &[i16], from: &InputSet, to: &InputSet) {
        self.changed_columns(from, to, |first, added, removed| {
            self.apply(values, first.then_some(base), added, removed)
        });
    }

    /// Calls `f(first, added, removed)` with the inputs only in `to` and those only in
    /// `from`, a few at a time (`first` for the first call, also when none changed).
    fn changed_columns(
        &self,
        from: &InputSet,
        to: &InputSet,
        mut f: impl FnMut(bool, &[usize], &[usize]),
    ) {
        /// Columns per pass: a move changes at most six (castling with a duck move).
        const BATCH: usize = 8;
        let (mut added, mut removed) = ([0; BATCH], [0; BATCH]);
        let (mut n_added, mut n_removed, mut first) = (0, 0, true);
        let inputs = self.layers.inputs;
        for (w, (&old, &new)) in from.words(inputs).iter().zip(to.words(inputs)).enumerate() {
            let (mut gone, mut came) = (old & !new, new & !old);
            while gone | came != 0 {
                if gone != 0 {
                    removed[n_removed] = w * 64 + gone.trailing_zeros() as usize;
                    n_removed += 1;
                    gone &= gone - 1;
                }
                if came != 0 {
                    added[n_added] = w * 64 + came.trailing_zeros() as usize;
                    n_added += 1;
                    came &= came - 1;
                }
                if n_added == BATCH || n_removed == BATCH {
                    f(first, &added[..n_added], &removed[..n_removed]);
                    (n_added, n_removed, first) = (0, 0, false);
                }
            }
        }
        if first || n_added + n_removed > 0 {
            f(first, &added[..n_added], &removed[..n_removed]);
        }
    }

    /// `values = base + the added columns - the removed ones` (`base` is `values` itself when
    /// `None`). The changes of one move (a quiet move one column in and one out, a capture
    /// one in and two out, castling or a duck chess move two in and two or three out) take
    /// one pass over the units; anything else a pass per column.
    #[inline]
    fn apply(&self, values: &mut [i16], base: Option<&[i16]>, added: &[usize], removed: &[usize]) {
        let c = |i: usize| self.layers.column(i);
        match (added, removed) {
            (&[a], &[r]) => fused(values, base, [c(a)], [c(r)]),
            (&[a], &[r, s]) => fused(values, base, [c(a)], [c(r), c(s)]),
            (&[a, b], &[r]) => fused(values, base, [c(a), c(b)], [c(r)]),
            (&[a, b], &[r, s]) => fused(values, base, [c(a), c(b)], [c(r), c(s)]),
            (&[a, b], &[r, s, t]) => fused(values, base, [c(a), c(b)], [c(r), c(s), c(t)]),
            _ => self.tiled(values, base, added, removed),
        }
    }

    /// [`Network::apply`] for any number of columns: the units a tile at a time, the tile
    /// kept in registers while each column is added or taken away, so that the values are
    /// read and written once whatever the number of columns.
    fn tiled(&self, values: &mut [i16], base: Option<&[i16]>, added: &[usize], removed: &[usize]) {
        /// Units per tile: four SSE registers, eight of AVX2's half.
        const TILE: usize = 32;
        let hidden = values.len();
        let whole = hidden / TILE * TILE;
        for start in (0..whole).step_by(TILE) {
            let units = start..start + TILE;
            let mut tile = [0i16; TILE];
            tile.copy_from_slice(&base.unwrap_or(values)[units.clone()]);
            for &i in added {
                let column = &self.layers.column(i)[units.clone()];
                tile.iter_mut()
                    .zip(column)
                    .for_each(|(t, &w)| *t = t.wrapping_add(w));
            }
            for &i in removed {
                let column = &self.layers.column(i)[units.clone()];
                tile.iter_mut()
                    .zip(column)
                    .for_each(|(t, &w)| *t = t.wrapping_sub(w));
            }
            values[units].copy_from_slice(&tile);
        }
        for (u, v) in values.iter_mut().enumerate().skip(whole) {
            let start = base.map_or(*v, |base| base[u]);
            let plus = added
                .iter()
                .fold(start, |v, &i| v.wrapping_add(self.layers.column(i)[u]));
            *v = removed
                .iter()
                .fold(plus, |v, &i| v.wrapping_sub(self.layers.column(i)[u]));
        }
    }

    /// The evaluation in centipawns for `side` to move, of a position with `active` active
    /// inputs in one view (which picks the output bucket).
    pub fn evaluate(&self, acc: &Accumulator, side: Color, active: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            #[allow(unsafe_code)]
            // SAFETY: calling a function compiled with `target_feature(enable = "avx2")` is
            // sound exactly when the processor runs AVX2, which the line above checked.
            return unsafe { self.evaluate_avx2(acc, side, active) };
        }
        self.evaluate_portable(acc, side, active)
    }

    /// [`Network::evaluate`] compiled for AVX2: the output layer's products and sums take
    /// eight unit pairs per `vpmaddwd`, where the baseline build (x86-64-v2) takes four,
    /// which halves the time of an evaluation (`cargo bench --bench nnue`, docs/nnue.md).
    /// The same integers either way. The accumulator updates gain nothing from AVX2 (they
    /// wait on memory, not on arithmetic) and have one build.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn evaluate_avx2(&self, acc: &Accumulator, side: Color, active: usize) -> i32 {
        self.evaluate_portable(acc, side, active)
    }

    /// [`Network::evaluate`] for any processor.
    #[inline(always)]
    fn evaluate_portable(&self, acc: &Accumulator, side: Color, active: usize) -> i32 {
        let (us, them) = (&acc.values[side.index()], &acc.values[side.flip().index()]);
        let (weights, &bias) = self.layers.output_of(self.layers.bucket(active));
        let (w_us, w_them) = weights.split_at(self.layers.hidden);
        let sum = match self.layers.activation {
            Activation::Clipped => clipped_dot(us, w_us) + clipped_dot(them, w_them),
            // In units of QA * QA * QB: one QA goes before the bias is added.
            Activation::SquaredClipped => {
                squared_dot(us, w_us).wrapping_add(squared_dot(them, w_them)) / QA
            }
        };
        ((i64::from(sum) + i64::from(bias)) * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }

    /// The evaluation of `position` for its side to move, from a fresh accumulator.
    pub fn evaluate_position<G: NnueGame>(&self, position: &G) -> i32 {
        let sets = self.input_sets(position);
        let active = sets[0].count(self.layers.inputs);
        self.evaluate(&self.accumulator_of(&sets), position.side_to_move(), active)
    }
}

/// `values = base + the columns added - the columns removed` in one pass over the units
/// (`base` is `values` itself when `None`), which the compiler vectorises: the slices are cut
/// to one length first, so that no index needs a bounds check.
#[inline(always)]
fn fused<const A: usize, const R: usize>(
    values: &mut [i16],
    base: Option<&[i16]>,
    added: [&[i16]; A],
    removed: [&[i16]; R],
) {
    let n = values.len();
    let (added, removed) = (added.map(|c| &c[..n]), removed.map(|c| &c[..n]));
    let changed = |start: i16, u: usize| {
        let plus = added.iter().fold(start, |v, c| v.wrapping_add(c[u]));
        removed.iter().fold(plus, |v, c| v.wrapping_sub(c[u]))
    };
    match base {
        Some(base) => {
            for (u, (v, &b)) in values.iter_mut().zip(&base[..n]).enumerate() {
                *v = changed(b, u);
            }
        }
        None => {
            for (u, v) in values.iter_mut().enumerate() {
                *v = changed(*v, u);
            }
        }
    }
}

/// `sum(clamp(v, 0, QA) * w)`: one view's share of the output. The clamp stays in i16, which
/// lets the compiler feed `pmaddwd` straight from it.
#[inline(always)]
fn clipped_dot(values: &[i16], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| i32::from(v.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

/// `sum(c * (c * w))` with `c = clamp(v, 0, QA)`: one view's share of the output with the
/// squared activation. `c * w` is taken in i16, which holds it for every weight a network
/// may have ([`SQUARED_OUTPUT_WEIGHT_LIMIT`]: training clips to it and reading a file checks
/// it), so that the compiler multiplies in i16 and feeds `pmaddwd`. The sum of a network
/// whose units would overflow i32 wraps, the same on every machine.
#[inline(always)]
fn squared_dot(values: &[i16], weights: &[i16]) -> i32 {
    values
        .iter()
        .zip(weights)
        .map(|(&v, &w)| {
            let c = v.clamp(0, QA as i16);
            i32::from(c) * i32::from(c.wrapping_mul(w))
        })
        .fold(0i32, i32::wrapping_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::nnue::features::active_inputs;
    use crate::variants::Skak;

    /// A small network with weights from a fixed formula and `buckets` outputs.
    fn network(buckets: usize) -> Network {
        network_with(buckets, Activation::Clipped, InputLayout::Plain)
    }

    /// [`network`] with the activation `activation` and the input layout `layout`.
    fn network_with(buckets: usize, activation: Activation, layout: InputLayout) -> Network {
        let inputs = input_count::<Skak>();
        let hidden = 8;
        let w = |i: usize, m: usize| ((i * 31 + 7) % m) as i16 - (m / 2) as i16;
        Network {
            game: "skak".into(),
            layers: Layers {
                inputs,
                hidden,
                buckets,
                start_active: start_active::<Skak>(),
                activation,
                layout,
                input_weights: (0..inputs * hidden).map(|i| w(i, 61)).collect(),
                hidden_bias: (0..hidden).map(|i| w(i, 40) + 30).collect(),
                output_weights: (0..buckets * 2 * hidden).map(|i| w(i, 23)).collect(),
                output_bias: (0..buckets).map(|b| 1234 - 500 * b as i32).collect(),
            },
        }
    }

    /// Along random games of every game, an accumulator updated from the position one and
    /// three plies before, in place or written from the old one, equals the one computed
    /// from scratch, in input layout `layout` (a king crossing the board's middle changes
    /// most inputs of its view).
    fn updates_equal_refreshes<G: NnueGame>(seed: u64, layout: InputLayout) {
        use crate::core::rng::Rng;
        let inputs = input_count::<G>();
        let hidden = 16;
        let w = |i: usize| ((i * 7919 + 13) % 211) as i16 - 105;
        let net = Network {
            game: G::NAME.into(),
            layers: Layers {
                inputs,
                hidden,
                buckets: 1,
                start_active: start_active::<G>(),
                activation: Activation::Clipped,
                layout,
                input_weights: (0..inputs * hidden).map(w).collect(),
                hidden_bias: (0..hidden).map(|i| w(i + 5)).collect(),
                output_weights: (0..2 * hidden).map(|i| w(i + 9)).collect(),
                output_bias: vec![0],
            },
        };
        let mut rng = Rng::new(seed, 1);
        for _ in 0..10 {
            let mut history: Vec<(G, Accumulator, [InputSet; 2])> = Vec::new();
            let mut position = G::from_fen(G::START_FEN).unwrap();
            let mut moves = Vec::new();
            for _ in 0..80 {
                let sets = net.input_sets(&position);
                let fresh = net.refresh(&position);
                for back in [1, 3] {
                    if let Some((_, acc, from)) =
                        history.len().checked_sub(back).map(|k| &history[k])
                    {
                        let mut updated = acc.clone();
                        let mut written = net.refresh(&G::from_fen(G::START_FEN).unwrap());
                        for view in 0..2 {
                            net.update(&mut updated.values[view], &from[view], &sets[view]);
                            let base = &acc.values[view];
                            net.update_from(
                                &mut written.values[view],
                                base,
                                &from[view],
                                &sets[view],
                            );
                        }
                        assert_eq!(updated, fresh, "{}: {}", G::NAME, position.fen());
                        assert_eq!(written, fresh, "{}: {}", G::NAME, position.fen());
                    }
                }
                history.push((position.clone(), fresh, sets));
                position.generate(&mut moves);
                if moves.is_empty() {
                    break;
                }
                position.play(moves[rng.below(moves.len())]);
            }
        }
    }

    #[test]
    fn updated_accumulators_equal_refreshed_ones_in_every_game() {
        use crate::variants::{Chaturanga, Chess, Duck, Jetan};
        for layout in [InputLayout::Plain, InputLayout::KingMirrored] {
            updates_equal_refreshes::<Chess>(1, layout);
            updates_equal_refreshes::<Duck>(2, layout);
            updates_equal_refreshes::<Chaturanga>(3, layout);
            updates_equal_refreshes::<Skak>(4, layout);
            updates_equal_refreshes::<Jetan>(5, layout);
        }
    }

    #[test]
    fn a_network_file_reads_back_and_damage_is_an_error() {
        for buckets in [1, 4] {
            for activation in [Activation::Clipped, Activation::SquaredClipped] {
                for layout in [InputLayout::Plain, InputLayout::KingMirrored] {
                    file_reads_back_and_damage_is_an_error(network_with(
                        buckets, activation, layout,
                    ));
                }
            }
        }
        // One output keeps the first format; buckets need the second; the squared
        // activation the third, whatever the buckets.
        assert!(network(1).to_bytes().starts_with(b"THOATNN1"));
        assert!(network(4).to_bytes().starts_with(b"THOATNN2"));
        let squared = network_with(1, Activation::SquaredClipped, InputLayout::Plain).to_bytes();
        assert!(squared.starts_with(b"THOATNN3"));
        // Any layout but the plain one needs the fourth; a code it does not know is refused.
        let mirrored = network_with(1, Activation::Clipped, InputLayout::KingMirrored).to_bytes();
        assert!(mirrored.starts_with(b"THOATNN4"));
        let mut unknown_layout = mirrored.clone();
        let layout_at = 8 + 1 + "skak".len() + 4 + 4 + 4 + 4;
        assert_eq!(unknown_layout[layout_at], 1);
        unknown_layout[layout_at] = 9;
        assert!(Network::from_bytes::<Skak>(&unknown_layout)
            .unwrap_err()
            .contains("input layout 9 is not supported"));
        // An activation code the engine does not know is refused (the checksum covers only
        // the weights, so the header's code is read and judged on its own).
        let mut unknown = squared.clone();
        let code_at = 8 + 1 + "skak".len() + 4 + 4 + 4;
        assert_eq!(unknown[code_at], 1);
        unknown[code_at] = 7;
        assert!(Network::from_bytes::<Skak>(&unknown)
            .unwrap_err()
            .contains("activation 7 is not supported"));
        // So is a squared network whose output weights its products cannot hold.
        let mut too_big = network_with(1, Activation::SquaredClipped, InputLayout::Plain);
        too_big.layers.output_weights[3] = -200;
        assert!(Network::from_bytes::<Skak>(&too_big.to_bytes())
            .unwrap_err()
            .contains("output weight is beyond 127"));
        let too_many = network(MAX_BUCKETS + 1).to_bytes();
        assert!(Network::from_bytes::<Skak>(&too_many)
            .unwrap_err()
            .contains("buckets are not supported"));
    }

    fn file_reads_back_and_damage_is_an_error(net: Network) {
        let bytes = net.to_bytes();
        assert_eq!(Network::from_bytes::<Skak>(&bytes).unwrap(), net);
        assert_eq!(Network::game_of(&bytes).as_deref(), Ok("skak"));
        assert!(Network::game_of(&bytes[..10]).is_err());
        let wrong_game = Network::from_bytes::<crate::variants::Chess>(&bytes).unwrap_err();
        assert!(wrong_game.contains("for skak, not chess"), "{wrong_game}");
        let mut flipped = bytes.clone();
        let last = flipped.len() - 10;
        flipped[last] ^= 1;
        assert!(Network::from_bytes::<Skak>(&flipped)
            .unwrap_err()
            .contains("checksum"));
        for cut in [0, 5, 9, 14, 30, bytes.len() - 1] {
            assert!(
                Network::from_bytes::<Skak>(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        assert!(Network::from_bytes::<Skak>(b"hello world, not a net").is_err());
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(Network::from_bytes::<Skak>(&longer)
            .unwrap_err()
            .contains("damaged"));
    }

    #[test]
    fn output_buckets_cut_the_piece_count_into_equal_bands() {
        let buckets: Vec<usize> = (1..=33).map(|n| output_bucket(n, 32, 8)).collect();
        for (n, &b) in (1..=32).zip(&buckets) {
            assert_eq!(b, (n - 1) / 4, "{n} pieces");
        }
        // More pieces than at the start (the duck) stay in the last bucket.
        assert_eq!(buckets[32], 7);
        assert_eq!(output_bucket(0, 32, 8), 0);
        assert!((1..=40).all(|n| output_bucket(n, 28, 1) == 0));
        assert_eq!(start_active::<Skak>(), 28);
    }

    #[test]
    fn evaluation_is_the_formula_and_symmetric_under_colour_flip() {
        for (buckets, fen) in [
            (1, Skak::START_FEN),
            (3, Skak::START_FEN),
            (3, "3k3/7/7/7/7/7/R2K3 w - - 0 1"),
            (3, "rqbkbqr/ppppppp/7/7/7/7/3K3 w - - 0 1"),
            (3, "5k1/2p4/7/7/7/7/1K2R2 w - - 0 1"),
        ] {
            for activation in [Activation::Clipped, Activation::SquaredClipped] {
                for layout in [InputLayout::Plain, InputLayout::KingMirrored] {
                    evaluation_is_the_formula(buckets, activation, layout, fen);
                }
            }
        }
    }

    fn evaluation_is_the_formula(
        buckets: usize,
        activation: Activation,
        layout: InputLayout,
        fen: &str,
    ) {
        let net = network_with(buckets, activation, layout);
        let position = Skak::from_fen(fen).unwrap();
        let acc = net.refresh(&position);
        // By hand: bias plus the columns of the active inputs, clipped, times the weights.
        let mut inputs = [Vec::new(), Vec::new()];
        active_inputs(&position, layout, &mut inputs);
        let by_hand = |view: usize, unit: usize| -> i32 {
            i32::from(net.layers.hidden_bias[unit])
                + inputs[view]
                    .iter()
                    .map(|&i| {
                        i32::from(net.layers.input_weights[i as usize * net.layers.hidden + unit])
                    })
                    .sum::<i32>()
        };
        // The bucket: the pieces' band of the start position's 28.
        let pieces = inputs[0].len();
        let bucket = ((pieces - 1) * buckets / 28).min(buckets - 1);
        let h = net.layers.hidden;
        let weights = &net.layers.output_weights[bucket * 2 * h..];
        // Clipped: the values in 0..=QA; squared: their squares, in units of QA * QA, brought
        // back to QA before the bias.
        let activated = |v: i32| match activation {
            Activation::Clipped => v.clamp(0, QA),
            Activation::SquaredClipped => v.clamp(0, QA) * v.clamp(0, QA),
        };
        let mut sum = 0;
        for unit in 0..h {
            assert_eq!(i32::from(acc.values[0][unit]), by_hand(0, unit));
            sum += activated(by_hand(0, unit)) * i32::from(weights[unit]);
            sum += activated(by_hand(1, unit)) * i32::from(weights[h + unit]);
        }
        if activation == Activation::SquaredClipped {
            sum /= QA;
        }
        sum += net.layers.output_bias[bucket];
        assert_eq!(
            net.evaluate(&acc, Color::White, pieces),
            (i64::from(sum) * i64::from(SCALE) / i64::from(QA * QB)) as i32,
            "{buckets} buckets, {activation}, {fen}"
        );
        // The flipped position, Black to move, looks the same from the side to move.
        let flipped = position.color_flipped();
        assert_eq!(
            net.evaluate_position(&flipped),
            net.evaluate_position(&position)
        );
    }

    /// The output layer on accumulators of every kind of value (below zero, inside the
    /// clipped range, above it, the i16 extremes) and a hidden size that no vector width
    /// divides: the build in use (AVX2 on a processor that has it) and the portable one both
    /// give the formula, computed here in i64.
    #[test]
    fn output_layer_builds_agree_with_the_formula() {
        use crate::core::rng::Rng;
        let mut rng = Rng::new(12, 0);
        let value = |rng: &mut Rng| -> i16 {
            match rng.below(4) {
                0 => [i16::MIN, i16::MAX, 0, QA as i16, QA as i16 + 1, -1][rng.below(6)],
                1 => rng.below(usize::try_from(QA).unwrap() + 1) as i16,
                _ => rng.next_u64() as i16,
            }
        };
        // The squared activation's weights stay where training leaves them, which keeps
        // `c * w` in i16 and, for these sizes, the sum in i32.
        let limit = squared_weight_limit() as i16;
        for (hidden, activation) in [1, 7, 8, 16, 130]
            .into_iter()
            .flat_map(|h| [Activation::Clipped, Activation::SquaredClipped].map(|a| (h, a)))
        {
            let mut net = network_with(3, activation, InputLayout::Plain);
            net.layers.hidden = hidden;
            net.layers.input_weights = vec![0; net.layers.inputs * hidden];
            net.layers.hidden_bias = vec![0; hidden];
            net.layers.output_weights = (0..3 * 2 * hidden)
                .map(|_| match activation {
                    Activation::Clipped => value(&mut rng),
                    Activation::SquaredClipped => match rng.below(3) {
                        0 => -limit,
                        1 => limit,
                        _ => value(&mut rng).clamp(-limit, limit),
                    },
                })
                .collect();
            for _ in 0..20 {
                let acc = Accumulator {
                    values: [0, 1].map(|_| (0..hidden).map(|_| value(&mut rng)).collect()),
                };
                let active = 1 + rng.below(28);
                let bucket = net.layers.bucket(active);
                let weights = &net.layers.output_weights[bucket * 2 * hidden..];
                let activated = |v: i16| {
                    let c = i64::from(v).clamp(0, i64::from(QA));
                    match activation {
                        Activation::Clipped => c,
                        Activation::SquaredClipped => c * c,
                    }
                };
                let products: i64 = (0..hidden)
                    .map(|u| {
                        activated(acc.values[1][u]) * i64::from(weights[u])
                            + activated(acc.values[0][u]) * i64::from(weights[hidden + u])
                    })
                    .sum::<i64>();
                let sum = match activation {
                    Activation::Clipped => products,
                    Activation::SquaredClipped => products / i64::from(QA),
                } + i64::from(net.layers.output_bias[bucket]);
                let expected = (sum * i64::from(SCALE) / i64::from(QA * QB)) as i32;
                assert_eq!(
                    net.evaluate(&acc, Color::Black, active),
                    expected,
                    "{hidden} {activation}"
                );
                assert_eq!(net.evaluate_portable(&acc, Color::Black, active), expected);
            }
        }
    }
}
