//! One search thread: iterative deepening with aspiration windows over a principal-variation
//! alpha-beta search with quiescence, null move, late-move reductions and futility pruning.

use super::tt::{score_from_tt, score_to_tt, Bound};
use super::{
    result_score, score_text, Clock, EvalMode, Limits, Outcome, Reporter, SearchGame, Settings,
    Shared, INFINITE, MATE, MATE_BOUND, MAX_PLY,
};
use crate::core::{Color, GameResult, GameState, Move};
use std::sync::atomic::Ordering;

/// How often (in nodes) a thread publishes its node count and checks the clock.
const CHECK_INTERVAL: u64 = 1024;
/// Nodes at least this deep put off moves another thread is searching (ABDADA): below it
/// the bookkeeping costs more than the duplicated work it saves.
const DEFER_DEPTH: i32 = 3;
/// Entries of the history table: from square x to square (128 x 128), per side.
const HISTORY_SIZE: usize = 2 * 128 * 128;

pub(super) struct Worker<'a, G: SearchGame> {
    root: &'a GameState<G>,
    limits: &'a Limits,
    settings: &'a Settings,
    clock: &'a Clock,
    shared: &'a Shared,
    id: usize,
    nodes: u64,
    unpublished: u64,
    seldepth: usize,
    /// Hashes of the game so far and of the current search path, for repetitions.
    path: Vec<u64>,
    killers: [[Move; 2]; MAX_PLY + 1],
    history: Vec<i32>,
    moves: Vec<Vec<Move>>,
    scores: Vec<Vec<i32>>,
    pv: Vec<Vec<Move>>,
    /// Root moves already chosen as the best of an earlier MultiPV line at this depth.
    excluded: Vec<Move>,
    /// The depth of the iteration in progress.
    depth: i32,
    /// Whether threads share completed depths (Lazy SMP with one line).
    sharing: bool,
    /// Set when another thread completed the depth in progress: the iteration unwinds.
    abandoned: bool,
}

impl<'a, G: SearchGame> Worker<'a, G> {
    pub(super) fn new(
        root: &'a GameState<G>,
        limits: &'a Limits,
        settings: &'a Settings,
        clock: &'a Clock,
        shared: &'a Shared,
        id: usize,
    ) -> Self {
        let mut path = root.history.clone();
        path.push(root.position.hash());
        Worker {
            root,
            limits,
            settings,
            clock,
            shared,
            id,
            nodes: 0,
            unpublished: 0,
            seldepth: 0,
            path,
            killers: [[Move::NONE; 2]; MAX_PLY + 1],
            history: vec![0; HISTORY_SIZE],
            moves: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            scores: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            pv: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            excluded: Vec::new(),
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

    /// The score of a finished game for the side to move, with the contempt on draws.
    #[inline]
    fn result_score(&self, result: GameResult, side: Color, ply: usize) -> i32 {
        match result.winner {
            None => self.draw_score(ply),
            Some(_) => result_score(result, side, ply),
        }
    }

    /// The static evaluation the settings ask for.
    #[inline]
    fn evaluate(&self, pos: &G) -> i32 {
        match self.settings.eval {
            EvalMode::Material => pos.material(),
            _ => pos.evaluate(),
        }
    }

    /// Whether the search, or this thread's iteration, must unwind.
    fn stopped(&self) -> bool {
        self.abandoned || self.shared.stop.load(Ordering::Relaxed)
    }

    /// Counts a node; every `CHECK_INTERVAL` nodes publishes the count and (main thread)
    /// checks the clock and the node limit.
    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        self.unpublished += 1;
        if self.unpublished >= CHECK_INTERVAL {
            let total = self
                .shared
                .nodes
                .fetch_add(self.unpublished, Ordering::Relaxed)
                + self.unpublished;
            self.unpublished = 0;
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
                if self.clock.soft_expired() || mate_found {
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
        let total = self
            .shared
            .nodes
            .fetch_add(self.unpublished, Ordering::Relaxed)
            + self.unpublished;
        self.unpublished = 0;
        outcome.nodes = total;
        if outcome.ponder.is_none() {
            outcome.ponder = outcome.best.and_then(|b| self.ponder_from_tt(b));
        }
        outcome
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
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE_BOUND {
            (previous - delta, previous + delta)
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let score = self.negamax(&root, depth, alpha, beta, 0, true);
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

    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        pos: &G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        is_pv: bool,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiescence(pos, alpha, beta, ply);
        }
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let side = pos.side_to_move();
        let root = ply == 0;
        if !root {
            // Mate distance pruning: no line from here beats a win already found nearer.
            let alpha_md = alpha.max(-(MATE - ply as i32));
            let beta_md = beta.min(MATE - ply as i32 - 1);
            if alpha_md >= beta_md {
                return alpha_md;
            }
        }

        let key = pos.hash();
        let entry = self.shared.tt.probe(key);
        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        if let Some(e) = entry {
            if !is_pv && !root && e.depth >= depth {
                let score = score_from_tt(e.score, ply as i32);
                let cutoff = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cutoff && !self.repeated() {
                    return score;
                }
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
            return self.result_score(pos.no_moves_result(), side, ply);
        }
        if !root && (self.repeated() || pos.rule_draw().is_some()) {
            self.moves[ply] = moves;
            return self.draw_score(ply);
        }

        let in_check = pos.in_check();
        let eval = if in_check {
            -INFINITE
        } else {
            self.evaluate(pos)
        };
        // Pruning by the static evaluation assumes the side to move could pass; not so in
        // check, nor with its Princess (jetan) or Jarkhan (skak) en prise: the move or two
        // that save it may be all it has.
        if !is_pv && !root && !in_check && !pos.threatened() {
            // Reverse futility: far above beta at low depth, assume it holds.
            if depth <= 6 && eval - 90 * depth >= beta && eval.abs() < MATE_BOUND {
                self.moves[ply] = moves;
                return eval;
            }
            // Null move: if passing still fails high, a real move will too.
            if depth >= 3 && eval >= beta {
                if let Some(child) = pos.null_move() {
                    let reduction = 3 + depth / 4;
                    self.path.push(child.hash());
                    let score = -self.negamax(
                        &child,
                        depth - 1 - reduction,
                        -beta,
                        -beta + 1,
                        ply + 1,
                        false,
                    );
                    self.path.pop();
                    if self.stopped() {
                        self.moves[ply] = moves;
                        return 0;
                    }
                    if score >= beta {
                        self.moves[ply] = moves;
                        return if score >= MATE_BOUND { beta } else { score };
                    }
                }
            }
        }

        let mut scores = std::mem::take(&mut self.scores[ply]);
        self.order_moves(pos, &moves, &mut scores, tt_move, ply);

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut best_move = Move::NONE;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<Move> = Vec::new();
        // Moves another thread is searching right now, put off to the end (ABDADA).
        let mut deferred: Vec<Move> = Vec::new();
        let defer = self.settings.threads > 1 && depth >= DEFER_DEPTH;
        let mut index = 0;
        let mut next_deferred = 0;
        loop {
            let mv = if index < moves.len() {
                index += 1;
                let mv = pick_next(&mut moves, &mut scores, index - 1);
                if defer && searched > 0 && self.shared.busy.is_busy(key, mv) {
                    deferred.push(mv);
                    continue;
                }
                mv
            } else if next_deferred < deferred.len() {
                next_deferred += 1;
                deferred[next_deferred - 1]
            } else {
                break;
            };
            if root
                && (self.excluded.contains(&mv)
                    || (!self.limits.searchmoves.is_empty()
                        && !self.limits.searchmoves.contains(&mv)))
            {
                continue;
            }
            let tactical = pos.is_tactical(mv);
            let killer = self.killers[ply].contains(&mv);
            let mut child = pos.clone();
            child.play(mv);
            let gives_check = child.in_check();
            if !root
                && !in_check
                && !tactical
                && !killer
                && !gives_check
                && searched > 0
                && best_score > -MATE_BOUND
                && depth <= 3
            {
                // Futility and late-move pruning of quiet moves near the leaves.
                let futile = eval + 120 * depth <= alpha;
                let late = searched > 4 + 4 * (depth * depth) as usize;
                if futile || late {
                    continue;
                }
            }
            let new_depth = depth - 1 + i32::from(gives_check && ply < MAX_PLY / 2);
            self.path.push(child.hash());
            if defer {
                self.shared.busy.enter(key, mv);
            }
            let score = if searched == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, is_pv)
            } else {
                let reduction = if depth >= 3
                    && searched >= 3
                    && !tactical
                    && !gives_check
                    && !in_check
                    && !killer
                {
                    lmr(depth, searched) - i32::from(is_pv)
                } else {
                    0
                }
                .min(new_depth - 1)
                .max(0);
                let mut score = -self.negamax(
                    &child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                );
                if score > alpha && reduction > 0 {
                    score = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta && is_pv {
                    score = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                score
            };
            if defer {
                self.shared.busy.leave(key, mv);
            }
            self.path.pop();
            searched += 1;
            if self.stopped() {
                self.moves[ply] = moves;
                self.scores[ply] = scores;
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = mv;
                    self.set_pv(ply, mv);
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(pos, mv, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !tactical {
                quiets_tried.push(mv);
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        if searched == 0 {
            // Every move was excluded (MultiPV) or pruned: nothing to report.
            return alpha;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if self.excluded.is_empty() || !root {
            self.shared.tt.store(
                key,
                best_move,
                score_to_tt(best_score, ply as i32),
                depth,
                bound,
            );
        }
        best_score
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
            .map(|result| self.result_score(result, pos.side_to_move(), ply))
    }

    fn quiescence(&mut self, pos: &G, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        let side = pos.side_to_move();
        let in_check = pos.in_check();
        if ply >= MAX_PLY {
            return if in_check { 0 } else { self.evaluate(pos) };
        }
        let mut best = -INFINITE;
        if !in_check {
            best = self.evaluate(pos);
            if best >= beta {
                return best;
            }
            alpha = alpha.max(best);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        if !pos.quiescence_moves(&mut moves) {
            self.moves[ply] = moves;
            return self.result_score(pos.no_moves_result(), side, ply);
        }
        let mut scores = std::mem::take(&mut self.scores[ply]);
        scores.clear();
        scores.extend(moves.iter().map(|&m| pos.tactical_order(m)));
        for index in 0..moves.len() {
            let mv = pick_next(&mut moves, &mut scores, index);
            let mut child = pos.clone();
            child.play(mv);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped() {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        best
    }

    fn order_moves(
        &self,
        pos: &G,
        moves: &[Move],
        scores: &mut Vec<i32>,
        tt_move: Move,
        ply: usize,
    ) {
        let side = pos.side_to_move().index();
        scores.clear();
        scores.extend(moves.iter().map(|&mv| {
            if mv == tt_move {
                1 << 30
            } else if pos.is_tactical(mv) {
                (1 << 28) + pos.tactical_order(mv)
            } else if mv == self.killers[ply][0] {
                (1 << 27) + 1
            } else if mv == self.killers[ply][1] {
                1 << 27
            } else {
                self.history[history_index(side, mv)]
            }
        }));
    }

    fn reward_quiet(&mut self, pos: &G, mv: Move, tried: &[Move], depth: i32, ply: usize) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let side = pos.side_to_move().index();
        let bonus = (depth * depth).min(400);
        let update = |h: &mut i32, delta: i32| {
            *h += delta - *h * delta.abs() / 16_384;
        };
        update(&mut self.history[history_index(side, mv)], bonus);
        for &other in tried {
            update(&mut self.history[history_index(side, other)], -bonus);
        }
    }
}

#[inline]
fn history_index(side: usize, mv: Move) -> usize {
    side * 128 * 128 + mv.from() as usize * 128 + mv.to() as usize
}

/// The late-move reduction for a move searched `searched`-th at `depth`.
fn lmr(depth: i32, searched: usize) -> i32 {
    let r = 0.75 + (depth as f64).ln() * (searched as f64).ln() / 2.25;
    r as i32
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
