//! One search thread: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search with quiescence. Selectivity, in the manner of modern engines:
//! - node pruning by the static evaluation (razoring, reverse futility, null move, probcut),
//!   never in check or where the game says the side to move is threatened;
//! - internal iterative reduction where the table has no move;
//! - singular extensions (double and negative ones, multi-cut) and check extensions;
//! - move-loop pruning (late moves, futility, history, static exchange) that depends on
//!   whether the static evaluation is `improving`;
//! - late-move reductions from a precomputed table, adjusted by history, PV and cut nodes,
//!   `improving` and a capture as the table move;
//! - quiescence with the table, static-exchange pruning of losing captures and delta pruning.
//!
//! Every margin is in centipawns of the game's own evaluation.

use super::history::{self, piece_to, ThreadData};
use super::picker::{Class, MovePicker, QuietContext};
use super::tt::{score_from_tt, score_to_tt, Bound, Entry, NO_EVAL};
use super::{
    result_score, score_text, Clock, EvalMode, Limits, Outcome, Reporter, SearchGame, Settings,
    Shared, INFINITE, MATE, MATE_BOUND, MAX_PLY,
};
use crate::core::{GameResult, GameState, Move};
use std::sync::atomic::Ordering;
use std::sync::OnceLock;

/// How often (in nodes) a thread publishes its node count and checks the clock; more often
/// near a node limit ([`check_interval`]).
const CHECK_INTERVAL: u64 = 1024;
/// Nodes at least this deep put off moves another thread is searching (ABDADA): below it
/// the bookkeeping costs more than the duplicated work it saves.
const DEFER_DEPTH: i32 = 3;
/// The static evaluation of a node in check (none).
const NO_STATIC_EVAL: i32 = -INFINITE;

/// The network's accumulator of the last position evaluated at one ply: a start for the
/// next positions' updates.
struct CachedAccumulator {
    /// Whether the entry holds anything yet.
    valid: bool,
    /// Its active inputs from each side's view.
    inputs: [crate::nnue::features::InputSet; 2],
    accumulator: crate::nnue::network::Accumulator,
}

impl CachedAccumulator {
    fn new(hidden: usize) -> Self {
        CachedAccumulator {
            valid: false,
            inputs: [crate::nnue::features::InputSet::EMPTY; 2],
            accumulator: crate::nnue::network::Accumulator {
                values: [vec![0; hidden], vec![0; hidden]],
            },
        }
    }
}

/// The search stack: what a node leaves for its descendants.
#[derive(Clone, Copy)]
struct Frame {
    /// The static evaluation (`NO_STATIC_EVAL` in check).
    static_eval: i32,
    /// The (piece, to) pair of the move being searched from this node (`None`: a null move).
    piece_to: Option<usize>,
    /// The move a singular-extension search leaves out.
    excluded: Move,
    /// Double extensions on the path to this node.
    double_extensions: i32,
}

impl Default for Frame {
    fn default() -> Self {
        Frame {
            static_eval: NO_STATIC_EVAL,
            piece_to: None,
            excluded: Move::NONE,
            double_extensions: 0,
        }
    }
}

/// `LMR[depth][moves]`: the late-move reduction before adjustments.
fn lmr_table() -> &'static [[i32; 64]; 64] {
    static TABLE: OnceLock<[[i32; 64]; 64]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[0; 64]; 64];
        for (depth, row) in table.iter_mut().enumerate().skip(1) {
            for (moves, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.75 + (depth as f64).ln() * (moves as f64).ln() / 2.25) as i32;
            }
        }
        table
    })
}

#[inline]
fn base_reduction(depth: i32, moves: usize) -> i32 {
    lmr_table()[depth.clamp(0, 63) as usize][moves.min(63)]
}

pub(super) struct Worker<'a, G: SearchGame> {
    root: &'a GameState<G>,
    limits: &'a Limits,
    settings: &'a Settings,
    /// With `Evaluation nnue`: the settings' network when it is one of this game's (checked
    /// once here, so that its inputs fit the game's), else the game's built-in one.
    network: Option<&'a crate::nnue::network::Network>,
    /// Per ply: the accumulator of the last position evaluated there with the network.
    accumulators: Vec<CachedAccumulator>,
    clock: &'a Clock,
    shared: &'a Shared,
    data: &'a mut ThreadData,
    id: usize,
    nodes: u64,
    unpublished: u64,
    /// Nodes counted between two publications of the count.
    check_interval: u64,
    seldepth: usize,
    /// Hashes of the game so far and of the current search path, for repetitions.
    path: Vec<u64>,
    stack: Vec<Frame>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    bad: Vec<Vec<Move>>,
    /// Per ply: the quiet moves and the captures searched so far, with their (piece, to).
    quiets: Vec<Vec<(Move, usize)>>,
    captures: Vec<Vec<(Move, usize)>>,
    pv: Vec<Vec<Move>>,
    /// Root moves already chosen as the best of an earlier MultiPV line at this depth.
    excluded: Vec<Move>,
    /// Nodes spent on each root move in the iteration in progress.
    root_nodes: Vec<(Move, u64)>,
    /// Transposition-table look-ups and hits of this thread (the `bench` hit rate).
    tt_probes: u64,
    tt_hits: u64,
    /// The depth of the iteration in progress.
    depth: i32,
    /// Whether threads share completed depths (Lazy SMP with one line).
    sharing: bool,
    /// Set when another thread completed the depth in progress: the iteration unwinds.
    abandoned: bool,
}

/// Nodes a thread counts before it next publishes its count: [`CHECK_INTERVAL`], or its share
/// of what is left of a node limit, so that `go nodes N` stops at `N` nodes with one thread
/// (not at the next multiple of the interval: `go nodes 1500` searched 2048 nodes).
fn check_interval(limit: Option<u64>, total: u64, threads: usize) -> u64 {
    match limit {
        Some(n) => (n.saturating_sub(total) / threads.max(1) as u64).clamp(1, CHECK_INTERVAL),
        None => CHECK_INTERVAL,
    }
}

impl<'a, G: SearchGame> Worker<'a, G> {
    pub(super) fn new(
        root: &'a GameState<G>,
        limits: &'a Limits,
        settings: &'a Settings,
        clock: &'a Clock,
        shared: &'a Shared,
        id: usize,
        data: &'a mut ThreadData,
    ) -> Self {
        let mut path = root.history.clone();
        path.push(root.position.hash());
        let plies = MAX_PLY + 2;
        let network = settings.network_of::<G>();
        let accumulators = match network {
            Some(n) => (0..plies + 2)
                .map(|_| CachedAccumulator::new(n.layers.hidden))
                .collect(),
            None => Vec::new(),
        };
        Worker {
            root,
            limits,
            settings,
            network,
            accumulators,
            clock,
            shared,
            data,
            id,
            nodes: 0,
            unpublished: 0,
            check_interval: check_interval(limits.nodes, 0, settings.threads),
            seldepth: 0,
            path,
            stack: vec![Frame::default(); plies + 2],
            moves: (0..plies).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..plies).map(|_| Vec::with_capacity(256)).collect(),
            bad: (0..plies).map(|_| Vec::with_capacity(32)).collect(),
            quiets: (0..plies).map(|_| Vec::with_capacity(64)).collect(),
            captures: (0..plies).map(|_| Vec::with_capacity(32)).collect(),
            pv: (0..plies).map(|_| Vec::with_capacity(32)).collect(),
            excluded: Vec::new(),
            root_nodes: Vec::new(),
            tt_probes: 0,
            tt_hits: 0,
            depth: 0,
            sharing: false,
            abandoned: false,
        }
    }

    /// A draw's score for the side to move `ply` plies from the root: minus the contempt
    /// for the root's side (even plies), plus it for its opponent.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.settings.contempt
        } else {
            self.settings.contempt
        }
    }

    /// The score of a finished game for the side to move of `pos`, with the contempt on
    /// draws.
    #[inline]
    fn game_over_score(&self, result: GameResult, pos: &G, ply: usize) -> i32 {
        match result.winner {
            None => self.draw_score(ply),
            Some(_) => result_score(result, pos.side_to_move(), ply),
        }
    }

    /// The static evaluation the settings ask for, of `pos` at `ply`.
    #[inline]
    fn evaluate(&mut self, pos: &G, ply: usize) -> i32 {
        match (self.settings.eval, self.network) {
            (EvalMode::Material, _) => pos.material(),
            (EvalMode::Nnue, Some(network)) => self.evaluate_network(network, pos, ply),
            _ => pos.evaluate(),
        }
    }

    /// The network's evaluation of `pos` at `ply`. Its accumulator is updated from the
    /// nearest accumulator kept at the plies around (the parent's, an older ancestor's, or
    /// that of a sibling or cousin evaluated last at this ply or below), by the inputs that
    /// differ, or computed afresh when more differ than the position has pieces; either way
    /// it is kept for the next positions.
    fn evaluate_network(
        &mut self,
        network: &crate::nnue::network::Network,
        pos: &G,
        ply: usize,
    ) -> i32 {
        /// Plies either side whose accumulators are looked at. The nearest positions in the
        /// tree sit there; a miss costs one refresh.
        const NEAR_PLIES: usize = 6;
        /// A move changes at most this many inputs of the two views (castling changes four
        /// of each, and the duck's move two more): a parent that close is taken without
        /// looking further.
        const ONE_MOVE: u32 = 2 * 6;
        if ply >= self.accumulators.len() {
            return network.evaluate_position(pos);
        }
        let inputs = network.input_sets(pos);
        let n = network.layers.inputs;
        let distance = |entry: &CachedAccumulator| {
            entry.valid.then(|| {
                entry.inputs[0].distance(&inputs[0], n) + entry.inputs[1].distance(&inputs[1], n)
            })
        };
        let nearest_of = |plies: &mut dyn Iterator<Item = usize>| {
            plies
                .filter_map(|i| distance(&self.accumulators[i]).map(|d| (i, d)))
                .min_by_key(|&(_, d)| d)
        };
        // The parent, else the position last evaluated at this ply (a sibling or cousin) or
        // the grandparent when one of them is within two moves, else the nearest of all. The
        // accumulator is the same from any of them: the order only saves looking at all.
        let nearest = nearest_of(&mut ply.checked_sub(1).into_iter())
            .filter(|&(_, d)| d <= ONE_MOVE)
            .or_else(|| {
                nearest_of(&mut std::iter::once(ply).chain(ply.checked_sub(2)))
                    .filter(|&(_, d)| d <= 2 * ONE_MOVE)
            })
            .or_else(|| {
                let near = ply.saturating_sub(NEAR_PLIES)
                    ..(ply + NEAR_PLIES + 1).min(self.accumulators.len());
                nearest_of(&mut near.into_iter())
            });
        // Pieces on the board (and the duck): they pick the output bucket.
        let active = inputs[0].count(n);
        // A refresh adds one column per piece and view.
        let refresh_cost = active as u32 * 2;
        match nearest.filter(|&(_, d)| d < refresh_cost) {
            Some((from, _)) if from == ply => {
                let slot = &mut self.accumulators[ply];
                for (values, (old, new)) in slot
                    .accumulator
                    .values
                    .iter_mut()
                    .zip(slot.inputs.iter().zip(&inputs))
                {
                    network.update(values, old, new);
                }
            }
            Some((from, _)) => {
                let (source, slot) = if from < ply {
                    let (low, high) = self.accumulators.split_at_mut(ply);
                    (&low[from], &mut high[0])
                } else {
                    let (low, high) = self.accumulators.split_at_mut(from);
                    (&high[0], &mut low[ply])
                };
                let views = slot
                    .accumulator
                    .values
                    .iter_mut()
                    .zip(&source.accumulator.values);
                for ((values, old), (old_set, new_set)) in
                    views.zip(source.inputs.iter().zip(&inputs))
                {
                    network.update_from(values, old, old_set, new_set);
                }
            }
            None => network.refresh_into(&inputs, &mut self.accumulators[ply].accumulator),
        }
        let slot = &mut self.accumulators[ply];
        // Tests run with debug assertions: every search of theirs checks the updates.
        debug_assert_eq!(slot.accumulator, network.refresh(pos), "{}", pos.fen());
        slot.inputs = inputs;
        slot.valid = true;
        network.evaluate(&slot.accumulator, pos.side_to_move(), active)
    }

    /// The static evaluation, from the table entry where it holds one.
    #[inline]
    fn static_eval(&mut self, pos: &G, entry: Option<Entry>, ply: usize) -> i32 {
        match entry {
            Some(e) if e.eval != NO_EVAL => e.eval,
            _ => self.evaluate(pos, ply),
        }
    }

    /// Looks `key` up in the table, counting the look-up.
    #[inline]
    fn probe(&mut self, key: u64) -> Option<Entry> {
        let entry = self.shared.tt.probe(key);
        self.tt_probes += 1;
        self.tt_hits += u64::from(entry.is_some());
        entry
    }

    /// Stores a node's result at `ply`: the score relative to the root's distance for mates,
    /// the static evaluation in the table's form.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn store(
        &self,
        ply: usize,
        key: u64,
        mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let score = score_to_tt(score, ply as i32);
        self.shared
            .tt
            .store(key, mv, score, tt_eval(eval), depth, bound);
    }

    /// Whether the search, or this thread's iteration, must unwind.
    fn stopped(&self) -> bool {
        self.abandoned || self.shared.stop.load(Ordering::Relaxed)
    }

    /// Adds the nodes counted since the last call to the shared count; returns the total.
    fn publish_nodes(&mut self) -> u64 {
        let total = self
            .shared
            .nodes
            .fetch_add(self.unpublished, Ordering::Relaxed)
            + self.unpublished;
        self.unpublished = 0;
        total
    }

    /// Counts a node; every `check_interval` nodes publishes the count and (main thread)
    /// checks the clock and the node limit.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unpublished += 1;
        if self.unpublished >= self.check_interval {
            let total = self.publish_nodes();
            self.check_interval = check_interval(self.limits.nodes, total, self.settings.threads);
            let over_nodes = self.limits.nodes.is_some_and(|n| total >= n);
            if self.id == 0 && (over_nodes || self.clock.hard_expired()) {
                self.shared.stop.store(true, Ordering::Relaxed);
            }
            if self.sharing && self.shared.deepest.depth.load(Ordering::Relaxed) >= self.depth {
                self.abandoned = true;
            }
        }
    }

    /// Iterative deepening. The main thread (`report` given) prints `info` lines and
    /// decides when to stop; helpers search the same tree at staggered depths.
    pub(super) fn iterate(&mut self, report: Option<&Reporter>) -> Outcome {
        let root = &self.root.position;
        let mut legal = Vec::new();
        root.generate(&mut legal);
        if !self.limits.searchmoves.is_empty() {
            legal.retain(|m| self.limits.searchmoves.contains(m));
        }
        let mut outcome = Outcome::default();
        if legal.is_empty() || root.ended().is_some() {
            return outcome;
        }
        outcome.best = Some(legal[0]);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 1)
            .min(
                self.limits
                    .mate
                    .map_or(MAX_PLY as i32 - 1, |m| 2 * m as i32 - 1),
            )
            .clamp(1, MAX_PLY as i32 - 1);
        let lines = self.settings.multipv.clamp(1, legal.len());
        // Threads share completed depths only for a single line: MultiPV lines are searched
        // one after another and each thread needs all of them.
        self.sharing = lines == 1 && self.settings.threads > 1;
        let deepest = &self.shared.deepest;
        let mut previous = vec![0i32; lines];
        let mut time = TimeScale::default();
        let mut depth = 1 + (self.id % 2) as i32;
        while depth <= max_depth {
            if self.sharing {
                if self.id == 0 {
                    deepest.main_depth.store(depth, Ordering::Relaxed);
                } else if self.id % 2 == 1
                    && depth < max_depth
                    && deepest.main_depth.load(Ordering::Relaxed) == depth
                {
                    depth += 1; // odd helpers run one depth ahead of the main thread
                }
            }
            self.depth = depth;
            self.excluded.clear();
            self.root_nodes.clear();
            let iteration_start = self.nodes;
            let mut line_results: Vec<(i32, Vec<Move>)> = Vec::new();
            for line in 0..lines {
                self.seldepth = 0;
                let score = self.aspiration(depth, previous[line]);
                // An interrupted iteration is used only if no earlier one completed; its
                // principal variation then holds the best root move fully searched so far.
                if (self.stopped() && outcome.depth > 0) || self.abandoned {
                    break;
                }
                let pv = self.pv[0].clone();
                let Some(&best) = pv.first() else { break };
                previous[line] = score;
                self.excluded.push(best);
                line_results.push((score, pv));
                if let Some(report) = report {
                    self.report_line(report, depth, line + 1, score, &line_results[line].1);
                }
                if self.stopped() {
                    break;
                }
            }
            if self.abandoned {
                // Another thread completed this depth first: take its line and go deeper.
                self.abandoned = false;
                let (done, score, pv) = deepest.get();
                if !pv.is_empty() {
                    if let Some(report) = report {
                        self.seldepth = 0;
                        self.report_line(report, done, 1, score, &pv);
                    }
                    outcome.take_line(done, score, &pv);
                    previous[0] = score;
                }
                depth = done.max(depth);
            } else if let Some((score, pv)) = line_results.first() {
                let share = self.best_move_share(pv[0], self.nodes - iteration_start);
                time.update(depth, pv[0], *score, share);
                outcome.take_line(depth, *score, pv);
                if self.sharing && !self.stopped() {
                    deepest.publish(depth, *score, pv);
                }
            }
            if self.stopped() {
                break;
            }
            if self.id == 0 {
                let mate_found = self
                    .limits
                    .mate
                    .is_some_and(|m| outcome.score >= MATE - 2 * m as i32);
                if self.clock.soft_expired_scaled(time.scale()) || mate_found {
                    break;
                }
            }
            depth += 1;
        }
        if self.sharing && self.id == 0 {
            // The deepest line of any thread answers (a helper may have finished a depth
            // the main thread was stopped in).
            let (done, score, pv) = deepest.get();
            if done > outcome.depth {
                outcome.take_line(done, score, &pv);
            }
        }
        outcome.nodes = self.publish_nodes();
        outcome.tt_probes = self.tt_probes;
        outcome.tt_hits = self.tt_hits;
        if outcome.ponder.is_none() {
            outcome.ponder = outcome.best.and_then(|b| self.ponder_from_tt(b));
        }
        outcome
    }

    /// The share of the iteration's nodes that went to `best`.
    fn best_move_share(&self, best: Move, iteration_nodes: u64) -> f64 {
        let best_nodes = self
            .root_nodes
            .iter()
            .find(|(m, _)| *m == best)
            .map_or(0, |(_, n)| *n);
        best_nodes as f64 / iteration_nodes.max(1) as f64
    }

    fn ponder_from_tt(&self, best: Move) -> Option<Move> {
        let mut child = self.root.position.clone();
        child.play(best);
        let entry = self.shared.tt.probe(child.hash())?;
        let mut moves = Vec::new();
        child.generate(&mut moves);
        moves.contains(&entry.mv).then_some(entry.mv)
    }

    fn report_line(&self, report: &Reporter, depth: i32, line: usize, score: i32, pv: &[Move]) {
        let elapsed = self.clock.elapsed();
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + self.unpublished;
        let millis = elapsed.as_millis().max(1);
        let nps = nodes as u128 * 1000 / millis;
        let mut pos = self.root.position.clone();
        let mut text = Vec::with_capacity(pv.len());
        for &mv in pv {
            text.push(pos.move_text(mv));
            pos.play(mv);
        }
        report(&format!(
            "info depth {depth} seldepth {} multipv {line} score {} nodes {nodes} nps {nps} hashfull {} time {} pv {}",
            self.seldepth.max(depth as usize),
            score_text(score),
            self.shared.tt.hashfull(),
            elapsed.as_millis(),
            text.join(" ")
        ));
    }

    /// A root search in a window around the previous score, widened on failure.
    fn aspiration(&mut self, depth: i32, previous: i32) -> i32 {
        let root = self.root.position.clone();
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.negamax(&root, depth, alpha, beta, 0, true, false);
            if self.stopped() {
                return score;
            }
            // A full window cannot be widened: return (no root move searched gives
            // -INFINITE; widening again would loop for ever).
            if alpha <= -INFINITE && beta >= INFINITE {
                return score;
            }
            if score <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITE);
            } else if score >= beta {
                beta = (score + delta).min(INFINITE);
            } else {
                return score;
            }
            delta = (delta * 2).min(INFINITE);
            if delta > 1000 {
                alpha = -INFINITE;
                beta = INFINITE;
            }
        }
    }

    /// Whether the position on top of the path occurred before (twofold counts as a draw
    /// inside the search).
    fn repeated(&self) -> bool {
        let Some((&last, earlier)) = self.path.split_last() else {
            return false;
        };
        earlier.iter().rev().skip(1).step_by(2).any(|&h| h == last)
    }

    fn set_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        line.extend_from_slice(&tail[0]);
    }

    /// The (piece, to) pairs of the moves one and two plies before `ply`.
    #[inline]
    fn previous_moves(&self, ply: usize) -> [Option<usize>; 2] {
        let back = |n: usize| {
            if ply >= n {
                self.stack[ply - n].piece_to
            } else {
                None
            }
        };
        [back(1), back(2)]
    }

    /// Searches `child` (the position after the move from `ply`) with the path kept.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn search_child(
        &mut self,
        child: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
        cut_node: bool,
    ) -> i32 {
        -self.negamax(child, depth, -beta, -alpha, ply + 1, is_pv, cut_node)
    }

    /// A null-window search of `child` (the position after the move from `ply`) just below
    /// `beta`: whether the move reaches `beta`.
    #[inline]
    fn scout_child(&mut self, child: &G, depth: i32, beta: i32, ply: usize, cut_node: bool) -> i32 {
        self.search_child(child, depth, beta - 1, beta, ply, false, cut_node)
    }

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
        cut_node: bool,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(pos, alpha, beta, ply, is_pv);
        }
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let root = ply == 0;
        if !root {
            // Mate distance pruning: no line from here beats a win already found nearer.
            let alpha_md = alpha.max(-(MATE - ply as i32));
            let beta_md = beta.min(MATE - ply as i32 - 1);
            if alpha_md >= beta_md {
                return alpha_md;
            }
        }
        let excluded_move = self.stack[ply].excluded;
        let singular_search = excluded_move != Move::NONE;

        let key = pos.hash();
        let entry = if singular_search {
            None
        } else {
            self.probe(key)
        };
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        let tt_score = entry.map_or(-INFINITE, |e| score_from_tt(e.score, ply as i32));
        if let Some(e) = entry {
            if !is_pv
                && e.depth >= depth
                && bound_allows(e.bound, tt_score, alpha, beta)
                && !self.repeated()
            {
                return tt_score;
            }
        }

        if !root && (self.repeated() || pos.rule_draw().is_some()) {
            // No legal move decides before a draw by rule or repetition (RULES.md's order).
            let mut moves = std::mem::take(&mut self.moves[ply]);
            pos.search_moves(&mut moves);
            let score = if moves.is_empty() {
                self.game_over_score(pos.no_moves_result(), pos, ply)
            } else {
                self.draw_score(ply)
            };
            self.moves[ply] = moves;
            return score;
        }

        let in_check = pos.in_check();
        // A side in check, or with its Princess (jetan) or Jarkhan (skak) en prise, may
        // have only the move or two that save it: no pruning by the static evaluation.
        let threatened = !in_check && pos.threatened();
        let (raw_eval, eval) = if in_check {
            (NO_STATIC_EVAL, NO_STATIC_EVAL)
        } else {
            let raw = if singular_search {
                self.stack[ply].static_eval
            } else {
                self.static_eval(pos, entry, ply)
            };
            // The table's score is a better estimate than the static one where its bound
            // points the right way.
            let better = entry.is_some_and(|e| {
                tt_score.abs() < MATE_BOUND
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => tt_score > raw,
                        Bound::Upper => tt_score < raw,
                    }
            });
            (raw, if better { tt_score } else { raw })
        };
        self.stack[ply].static_eval = raw_eval;
        let improving = !in_check
            && match ply {
                0 | 1 => true,
                _ if self.stack[ply - 2].static_eval != NO_STATIC_EVAL => {
                    raw_eval > self.stack[ply - 2].static_eval
                }
                _ => ply >= 4 && raw_eval > self.stack[ply - 4].static_eval,
            };
        if !root {
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
        }
        self.data.killers[ply + 1] = [Move::NONE; 2];

        let prunable = !is_pv && !root && !in_check && !threatened && !singular_search;
        // Node pruning comes before the moves are generated (in duck chess their selection is
        // half the time of a node): a node it cuts off is scored without them, so a position
        // with no legal move that it cuts off (a stalemate not in check) is scored by its
        // evaluation, as in every engine that prunes before generating.
        if prunable {
            if let Some(score) =
                self.prune_node(pos, depth, alpha, beta, ply, cut_node, eval, improving)
            {
                return score;
            }
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        if root && !self.limits.searchmoves.is_empty() {
            // `searchmoves` may name legal moves outside the game's search selection (duck
            // squares that duck chess does not try): search exactly those.
            pos.generate(&mut moves);
            moves.retain(|m| self.limits.searchmoves.contains(m));
        } else {
            pos.search_moves(&mut moves);
        }
        if moves.is_empty() {
            self.moves[ply] = moves;
            return self.game_over_score(pos.no_moves_result(), pos, ply);
        }
        if prunable {
            if let Some(score) = self.probcut(pos, &moves, depth, beta, ply, cut_node, entry) {
                self.moves[ply] = moves;
                return score;
            }
        }
        // Internal iterative reduction: without a table move this node was never searched
        // (or its entry was lost); a shallower search finds a move to order by first.
        if tt_move == Move::NONE && depth >= 4 && (is_pv || cut_node) {
            depth -= 1;
        }

        let previous = self.previous_moves(ply);
        let side = pos.side_to_move().index();
        let context = QuietContext {
            side,
            previous,
            killers: self.data.killers[ply],
            counter: self.data.counter_move(previous[0]),
        };
        let scores = std::mem::take(&mut self.scores[ply]);
        let bad = std::mem::take(&mut self.bad[ply]);
        let mut picker = MovePicker::new(moves, scores, bad, tt_move);
        let tt_capture = tt_move != Move::NONE && pos.is_tactical(tt_move);
        let mut quiets = std::mem::take(&mut self.quiets[ply]);
        let mut captures = std::mem::take(&mut self.captures[ply]);
        quiets.clear();
        captures.clear();

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut move_count = 0usize;
        // Moves another thread is searching right now, put off to the end (ABDADA).
        let mut deferred: Vec<(Move, Class)> = Vec::new();
        let defer = self.settings.threads > 1 && depth >= DEFER_DEPTH;
        let mut next_deferred = 0;
        let may_prune = !root && !in_check && !threatened;
        loop {
            let (mv, class) = if let Some((mv, class)) = picker.next(pos, self.data, &context) {
                if defer && searched > 0 && self.shared.busy.is_busy(key, mv) {
                    deferred.push((mv, class));
                    continue;
                }
                (mv, class)
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            if mv == excluded_move {
                continue;
            }
            if root
                && (self.excluded.contains(&mv)
                    || (!self.limits.searchmoves.is_empty()
                        && !self.limits.searchmoves.contains(&mv)))
            {
                continue;
            }
            move_count += 1;
            let tactical = match class {
                Class::GoodTactical | Class::BadTactical => true,
                Class::TtMove => tt_capture,
                Class::Refutation | Class::Quiet => false,
            };
            let current = piece_to(pos.moved_piece(mv), mv);
            let history = if tactical {
                self.data.capture_score(current)
            } else {
                self.data.main_score(side, mv)
                    + self.data.continuation_score(previous[0], current)
                    + self.data.continuation_score(previous[1], current)
            };
            let reduction = base_reduction(depth, move_count);

            // Pruning of moves that cannot be expected to raise alpha; a move that gives
            // check is exempt.
            let gives_check = pos.gives_check(mv);
            if may_prune && best_score > -MATE_BOUND && !gives_check {
                let lmr_depth = (depth - 1 - reduction).max(0);
                if !tactical {
                    let late = move_count > late_move_limit::<G>(depth, improving);
                    if late && depth <= 8 {
                        picker.skip_quiets = true;
                        picker.quiet_checks_after_skip = G::LATE_QUIET_CHECKS;
                        continue;
                    }
                    if lmr_depth < 4 && history < -3500 * depth {
                        continue;
                    }
                    if lmr_depth < 8
                        && eval + margin::<G>(FUTILITY_BASE + FUTILITY_PER_DEPTH * lmr_depth)
                            <= alpha
                    {
                        continue;
                    }
                    if lmr_depth < 8 && !pos.see_ge(mv, -25 * lmr_depth * lmr_depth) {
                        continue;
                    }
                } else if class == Class::BadTactical && depth <= 7 && !pos.see_ge(mv, -110 * depth)
                {
                    continue;
                }
            }

            let mut child = pos.clone();
            child.play(mv);
            debug_assert_eq!(gives_check, child.in_check(), "gives_check of {mv:?}");

            // Extensions: the table move when it is singular (every other move fails well
            // below its score), a check otherwise.
            let mut extension = 0;
            if !root
                && mv == tt_move
                && !singular_search
                && depth >= 7
                && ply < 2 * self.depth as usize
            {
                if let Some(e) = entry {
                    if e.depth >= depth - 3
                        && e.bound != Bound::Upper
                        && tt_score.abs() < MATE_BOUND
                    {
                        let singular_beta = tt_score - 2 * depth;
                        self.stack[ply].excluded = mv;
                        let score = self.negamax(
                            pos,
                            (depth - 1) / 2,
                            singular_beta - 1,
                            singular_beta,
                            ply,
                            false,
                            cut_node,
                        );
                        self.stack[ply].excluded = Move::NONE;
                        if self.stopped() {
                            return self.unwind(ply, picker, quiets, captures);
                        }
                        if score < singular_beta {
                            extension = 1;
                            if !is_pv
                                && score < singular_beta - 20
                                && self.stack[ply].double_extensions < 6
                            {
                                extension = 2;
                            }
                        } else if singular_beta >= beta {
                            // Multi-cut: more than one move beats beta.
                            self.unwind(ply, picker, quiets, captures);
                            return singular_beta;
                        } else if tt_score >= beta || cut_node {
                            extension = -1;
                        }
                    }
                }
            }
            if extension == 0 && gives_check && ply < MAX_PLY / 2 {
                extension = 1;
            }
            self.stack[ply + 1].double_extensions =
                self.stack[ply].double_extensions + i32::from(extension >= 2);
            let new_depth = depth - 1 + extension;

            self.stack[ply].piece_to = Some(current);
            self.path.push(child.hash());
            if defer {
                self.shared.busy.enter(key, mv);
            }
            let nodes_before = self.nodes;
            let mut score = -INFINITE;
            let full_window_first = is_pv && move_count == 1;
            if !full_window_first {
                let reducible = depth >= 2
                    && move_count > 1 + usize::from(is_pv)
                    && (!tactical || class == Class::BadTactical);
                if reducible {
                    let mut r = reduction;
                    r -= i32::from(is_pv);
                    r += i32::from(cut_node);
                    r += i32::from(!improving);
                    r += i32::from(tt_capture && !tactical);
                    r -= i32::from(class == Class::Refutation);
                    r -= i32::from(gives_check);
                    r -= history / 8192;
                    let reduced = (new_depth - r.max(0)).clamp(1, new_depth.max(1));
                    score = self.scout_child(&child, reduced, alpha + 1, ply, true);
                    if score > alpha && reduced < new_depth {
                        score = self.scout_child(&child, new_depth, alpha + 1, ply, !cut_node);
                    }
                } else {
                    score = self.scout_child(&child, new_depth, alpha + 1, ply, !cut_node);
                }
            }
            if is_pv && (full_window_first || (score > alpha && score < beta)) {
                score = self.search_child(&child, new_depth, alpha, beta, ply, true, false);
            }
            if defer {
                self.shared.busy.leave(key, mv);
            }
            self.path.pop();
            if root {
                let spent = self.nodes - nodes_before;
                match self.root_nodes.iter_mut().find(|(m, _)| *m == mv) {
                    Some(entry) => entry.1 += spent,
                    None => self.root_nodes.push((mv, spent)),
                }
            }
            searched += 1;
            if self.stopped() {
                return self.unwind(ply, picker, quiets, captures);
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        self.reward(
                            side, mv, tactical, current, &quiets, &captures, depth, ply, previous,
                        );
                        break;
                    }
                    alpha = score;
                }
            }
            if tactical {
                captures.push((mv, current));
            } else {
                quiets.push((mv, current));
            }
        }
        self.unwind(ply, picker, quiets, captures);
        if searched == 0 {
            // Every move was excluded (MultiPV, singular search) or pruned.
            return alpha;
        }
        let bound = bound_of(best_score, original_alpha, beta);
        if bound == Bound::Lower && !is_pv {
            best_score = toward_beta(best_score, beta, depth);
        }
        if !singular_search && (self.excluded.is_empty() || !root) {
            self.store(ply, key, best_move, best_score, raw_eval, depth, bound);
        }
        best_score
    }

    /// Gives a node's buffers back and answers 0 (for a stopped search).
    fn unwind(
        &mut self,
        ply: usize,
        picker: MovePicker,
        quiets: Vec<(Move, usize)>,
        captures: Vec<(Move, usize)>,
    ) -> i32 {
        let (moves, scores, bad) = picker.into_buffers();
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        self.bad[ply] = bad;
        self.quiets[ply] = quiets;
        self.captures[ply] = captures;
        0
    }

    /// Razoring, reverse futility and the null move: a score to return at once, or `None`
    /// to search the node.
    #[allow(clippy::too_many_arguments)]
    fn prune_node(
        &mut self,
        pos: &G,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
        eval: i32,
        improving: bool,
    ) -> Option<i32> {
        if eval.abs() >= MATE_BOUND {
            return None;
        }
        // Razoring: far below alpha near the leaves, only a capture can help.
        if depth <= 3 && eval + margin::<G>(RAZOR_BASE + RAZOR_PER_DEPTH * depth) < alpha {
            let score = self.quiescence(pos, alpha, alpha + 1, ply, false);
            if self.stopped() {
                return Some(0);
            }
            if score <= alpha {
                return Some(score);
            }
        }
        // Reverse futility: far above beta at low depth, assume it holds.
        if depth <= 8
            && eval - margin::<G>(REVERSE_FUTILITY_PER_DEPTH * (depth - i32::from(improving)))
                >= beta
            && beta > -MATE_BOUND
        {
            return Some(eval);
        }
        // Null move: if passing still fails high, a real move will too.
        let after_null = ply >= 1 && self.stack[ply - 1].piece_to.is_none();
        if depth >= 3 && eval >= beta && !after_null {
            if let Some(child) = pos.null_move() {
                let reduction = 3
                    + depth / 3
                    + ((eval - beta) / margin::<G>(NULL_MOVE_EVAL_STEP).max(1)).min(3);
                self.stack[ply].piece_to = None;
                self.path.push(child.hash());
                let score = self.scout_child(&child, depth - 1 - reduction, beta, ply, !cut_node);
                self.path.pop();
                if self.stopped() {
                    return Some(0);
                }
                if score >= beta {
                    return Some(if score >= MATE_BOUND { beta } else { score });
                }
            }
        }
        None
    }

    /// ProbCut: a capture that beats beta by a margin in a quiescence and a shallow search
    /// will beat beta at full depth too.
    #[allow(clippy::too_many_arguments)]
    fn probcut(
        &mut self,
        pos: &G,
        moves: &[Move],
        depth: i32,
        beta: i32,
        ply: usize,
        cut_node: bool,
        entry: Option<Entry>,
    ) -> Option<i32> {
        let probcut_beta = beta + margin::<G>(PROBCUT_MARGIN);
        if depth < 5 || beta.abs() >= MATE_BOUND {
            return None;
        }
        if let Some(e) = entry {
            // The table already says a search of about this depth stays below.
            let score = score_from_tt(e.score, ply as i32);
            if e.depth >= depth - 3 && score < probcut_beta && e.bound != Bound::Lower {
                return None;
            }
        }
        let eval = self.stack[ply].static_eval;
        for &mv in moves {
            if !pos.is_tactical(mv) || !pos.see_ge(mv, probcut_beta - eval) {
                continue;
            }
            let mut child = pos.clone();
            child.play(mv);
            self.stack[ply].piece_to = Some(piece_to(pos.moved_piece(mv), mv));
            self.path.push(child.hash());
            let mut score =
                -self.quiescence(&child, -probcut_beta, -probcut_beta + 1, ply + 1, false);
            if score >= probcut_beta {
                score = self.scout_child(&child, depth - 4, probcut_beta, ply, !cut_node);
            }
            self.path.pop();
            if self.stopped() {
                return Some(0);
            }
            if score >= probcut_beta {
                self.store(ply, pos.hash(), mv, score, eval, depth - 3, Bound::Lower);
                return Some(score);
            }
        }
        None
    }

    /// The histories after a beta cut-off by `best`: it gains, the moves of its kind tried
    /// before it lose, and a quiet one becomes this ply's killer and the counter move.
    #[allow(clippy::too_many_arguments)]
    fn reward(
        &mut self,
        side: usize,
        best: Move,
        tactical: bool,
        current: usize,
        quiets: &[(Move, usize)],
        captures: &[(Move, usize)],
        depth: i32,
        ply: usize,
        previous: [Option<usize>; 2],
    ) {
        let bonus = history::bonus(depth);
        if tactical {
            self.data.update_capture(current, bonus);
        } else {
            self.data.record_refutation(ply, previous[0], best);
            self.data
                .update_quiet(side, best, current, &previous, bonus);
            for &(quiet, quiet_current) in quiets {
                self.data
                    .update_quiet(side, quiet, quiet_current, &previous, -bonus);
            }
        }
        for &(_, capture_current) in captures {
            self.data.update_capture(capture_current, -bonus);
        }
    }

    /// The bookkeeping every node starts with: count it, clear its PV, and return at once
    /// when the search is stopped (0) or the game is already over (its score).
    #[inline]
    fn enter_node(&mut self, pos: &G, ply: usize) -> Option<i32> {
        self.pv[ply].clear();
        self.count_node();
        if self.stopped() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        pos.ended()
            .map(|result| self.game_over_score(result, pos, ply))
    }

    fn quiescence(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize, is_pv: bool) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let in_check = pos.in_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos, ply) };
        }
        let key = pos.hash();
        let entry = self.probe(key);
        let tt_score = entry.map_or(-INFINITE, |e| score_from_tt(e.score, ply as i32));
        if let Some(e) = entry {
            if !is_pv && bound_allows(e.bound, tt_score, alpha, beta) {
                return tt_score;
            }
        }
        let original_alpha = alpha;
        let mut best = -INFINITE;
        let mut raw_eval = NO_STATIC_EVAL;
        let mut stand_pat = NO_STATIC_EVAL;
        if !in_check {
            raw_eval = self.static_eval(pos, entry, ply);
            stand_pat = raw_eval;
            if let Some(e) = entry {
                if tt_score.abs() < MATE_BOUND
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => tt_score > raw_eval,
                        Bound::Upper => tt_score < raw_eval,
                    }
                {
                    stand_pat = tt_score;
                }
            }
            best = stand_pat;
            if best >= beta {
                if entry.is_none() {
                    self.store(ply, key, Move::NONE, best, raw_eval, 0, Bound::Lower);
                }
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        if !pos.quiescence_moves(&mut moves) {
            self.moves[ply] = moves;
            return self.game_over_score(pos.no_moves_result(), pos, ply);
        }
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        scores.extend(moves.iter().map(|&m| {
            if m == tt_move {
                i32::MAX
            } else {
                pos.tactical_order(m)
            }
        }));
        let mut best_move = Move::NONE;
        for index in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, index);
            if !in_check && best > -MATE_BOUND {
                // Losing captures, and captures that cannot bring the score near alpha
                // even when their exchange wins, are not searched.
                let threshold = (alpha - stand_pat - margin::<G>(QUIESCENCE_DELTA)).max(0);
                if !pos.see_ge(mv, threshold) {
                    continue;
                }
            }
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, is_pv);
            if self.stopped() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if self.stopped() {
            return 0;
        }
        // Only a PV node's window can prove an exact score.
        let bound = bound_of(best, if is_pv { original_alpha } else { beta - 1 }, beta);
        self.store(ply, key, best_move, best, raw_eval, 0, bound);
        best
    }
}

// The margins of pruning by the static evaluation, in centipawns, before each game's
// `SearchGame::MARGIN_PERCENT` scales them (`margin`).

/// Razoring: a node at `depth` <= 3 whose evaluation is this far below alpha is left to
/// quiescence.
const RAZOR_BASE: i32 = 250;
const RAZOR_PER_DEPTH: i32 = 200;
/// Reverse futility: a node at `depth` <= 8 this far above beta per ply (one ply less when
/// `improving`) is cut.
const REVERSE_FUTILITY_PER_DEPTH: i32 = 80;
/// The null move reduces one ply more per this much of the evaluation above beta (at most
/// three).
const NULL_MOVE_EVAL_STEP: i32 = 200;
/// ProbCut: a capture must beat beta by this much in a shallow search.
const PROBCUT_MARGIN: i32 = 200;
/// Futility pruning of a quiet move: skipped when the evaluation plus this, per ply of the
/// reduced depth, stays at or below alpha.
const FUTILITY_BASE: i32 = 110;
const FUTILITY_PER_DEPTH: i32 = 110;
/// The margin by which quiescence expects a capture to exceed its exchange value
/// (positional gain) before it is worth searching when the side is below alpha.
const QUIESCENCE_DELTA: i32 = 200;

/// A pruning margin scaled by the game's `MARGIN_PERCENT`.
#[inline]
fn margin<G: SearchGame>(centipawns: i32) -> i32 {
    centipawns * G::MARGIN_PERCENT / 100
}

/// Whether a table score with `bound` decides a node with the window (alpha, beta).
#[inline]
fn bound_allows(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

/// What a search of the window (`alpha`, `beta`) that returned `score` proves.
fn bound_of(score: i32, alpha: i32, beta: i32) -> Bound {
    if score >= beta {
        Bound::Lower
    } else if score > alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The static evaluation as the table stores it.
#[inline]
fn tt_eval(eval: i32) -> i32 {
    if eval == NO_STATIC_EVAL {
        NO_EVAL
    } else {
        eval
    }
}

/// The score a cut node at `depth` returns for its cut-off `score` (at least `beta`): moved
/// toward `beta`, the more the shallower the search, since a shallow search's margin over
/// beta is the least reliable (Stockfish's fail-high blend). Still at least `beta`, so it is
/// the same cut-off and a sound lower bound; mate scores are kept exact.
#[inline]
fn toward_beta(score: i32, beta: i32, depth: i32) -> i32 {
    if score.abs() >= MATE_BOUND || beta.abs() >= MATE_BOUND {
        return score;
    }
    let depth = depth.max(1);
    (score * depth + beta) / (depth + 1)
}

/// Quiet moves searched at `depth` before the rest are pruned, scaled by the game's
/// `LATE_MOVE_PERCENT`.
#[inline]
fn late_move_limit<G: SearchGame>(depth: i32, improving: bool) -> usize {
    let limit = (3 + depth * depth) * G::LATE_MOVE_PERCENT / 100 / (2 - i32::from(improving));
    limit.max(1) as usize
}

/// How the main thread scales its soft time limit: more time when the best move changes,
/// when the score falls, and when the best move took a small share of the nodes.
#[derive(Default)]
struct TimeScale {
    best: Move,
    changes: f64,
    last_score: Option<i32>,
    falling: f64,
    share: f64,
}

impl TimeScale {
    fn update(&mut self, depth: i32, best: Move, score: i32, share: f64) {
        self.changes *= 0.5;
        if depth > 1 && best != self.best {
            self.changes += 1.0;
        }
        self.best = best;
        self.falling = match self.last_score {
            Some(last) => ((last - score) as f64 / 100.0).clamp(0.0, 1.0),
            None => 0.0,
        };
        self.last_score = Some(score);
        self.share = share;
    }

    fn scale(&self) -> f64 {
        let stability = 0.8 + 0.6 * self.changes;
        let falling = 1.0 + 0.6 * self.falling;
        let share = (1.6 - self.share).clamp(0.6, 1.5);
        (stability * falling * share).clamp(0.4, 2.5)
    }
}

/// Selection sort, one step: moves the best remaining move to `index` and returns it.
#[inline]
fn pick_next(moves: &mut [Move], scores: &mut [i32], index: usize) -> Move {
    let mut best = index;
    for i in index + 1..moves.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.swap(index, best);
    scores.swap(index, best);
    moves[index]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stable best move that took most of the nodes stops early; a changing best move or
    /// a falling score thinks longer; the scale stays within its bounds.
    #[test]
    fn time_scale_follows_stability_score_and_node_share() {
        let a = Move::simple(1, 2, 0);
        let b = Move::simple(3, 4, 0);
        let mut stable = TimeScale::default();
        for depth in 1..10 {
            stable.update(depth, a, 30, 0.9);
        }
        let mut changing = TimeScale::default();
        for depth in 1..10 {
            changing.update(depth, if depth % 2 == 0 { a } else { b }, 30, 0.9);
        }
        let mut falling = TimeScale::default();
        for depth in 1..10 {
            falling.update(depth, a, 300 - 30 * depth, 0.9);
        }
        let mut spread = TimeScale::default();
        for depth in 1..10 {
            spread.update(depth, a, 30, 0.2);
        }
        assert!(stable.scale() < 1.0, "{}", stable.scale());
        for longer in [&changing, &falling, &spread] {
            assert!(longer.scale() > stable.scale());
        }
        for scale in [&stable, &changing, &falling, &spread].map(TimeScale::scale) {
            assert!((0.4..=2.5).contains(&scale), "{scale}");
        }
    }

    /// A cut-off's score moves halfway to beta at depth 1, less deeper, never below beta;
    /// mates are kept.
    #[test]
    fn cut_off_scores_move_toward_beta() {
        assert_eq!(toward_beta(300, 100, 1), 200);
        assert_eq!(toward_beta(300, 100, 9), 280);
        assert_eq!(toward_beta(100, 100, 5), 100);
        assert_eq!(toward_beta(-100, -301, 3), -150);
        for depth in 1..30 {
            for (score, beta) in [(101, 100), (-50, -51), (2000, -2000)] {
                let moved = toward_beta(score, beta, depth);
                assert!(
                    (beta..=score).contains(&moved),
                    "{score} {beta} {depth}: {moved}"
                );
            }
        }
        assert_eq!(toward_beta(MATE - 10, 100, 3), MATE - 10);
        assert_eq!(toward_beta(200, MATE_BOUND, 3), 200);
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(base_reduction(1, 1), 0);
        assert!(base_reduction(10, 30) > base_reduction(3, 30));
        assert!(base_reduction(10, 30) > base_reduction(10, 3));
        assert_eq!(base_reduction(200, 500), base_reduction(63, 63));
    }
}
