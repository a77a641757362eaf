//! Staged move ordering for the main search. The game generates its moves at once (its
//! generator is fast); what is staged is the scoring and the choice, so that a cut-off by
//! an early move costs no scoring of the rest:
//! 1. the transposition-table move;
//! 2. good captures and promotions (static exchange >= 0), by victim and capture history;
//! 3. quiet moves: the two killers and the counter move first, then by butterfly history
//!    plus the continuation histories of the moves one and two plies back (in duck chess
//!    the duck square's history is part of the butterfly score); once late-move pruning
//!    ends them, the rest that give check where the game asks for them
//!    ([`SearchGame::LATE_QUIET_CHECKS`]), unsorted;
//! 4. the losing captures, in the order they were met.

use super::history::{piece_to, ThreadData};
use super::SearchGame;
use crate::core::Move;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    TtMove,
    ScoreCaptures,
    GoodCaptures,
    ScoreQuiets,
    Quiets,
    BadCaptures,
    Done,
}

/// The score that puts the killers and the counter move before every other quiet move.
const REFUTATION: i32 = 1 << 24;

/// What the quiet scores depend on beyond the tables: the side to move, the (piece, to)
/// pairs of the moves one and two plies back, and the refutations of this ply.
pub(super) struct QuietContext {
    pub side: usize,
    pub previous: [Option<usize>; 2],
    pub killers: [Move; 2],
    pub counter: Move,
}

/// Which stage a move came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Class {
    /// The transposition-table move.
    TtMove,
    /// A capture or promotion whose exchange does not lose.
    GoodTactical,
    /// A killer or the counter move.
    Refutation,
    /// Another quiet move.
    Quiet,
    /// A capture that loses material by the static exchange.
    BadTactical,
}

/// Hands out the moves of one node in the order above.
pub(super) struct MovePicker {
    moves: Vec<Move>,
    scores: Vec<i32>,
    bad: Vec<Move>,
    stage: Stage,
    tt_move: Move,
    next: usize,
    quiets_start: usize,
    /// Set by the search when no more quiet moves are wanted (late-move pruning).
    pub skip_quiets: bool,
    /// With `skip_quiets`: still hand out the quiet moves that give check, unsorted
    /// ([`SearchGame::LATE_QUIET_CHECKS`]).
    pub quiet_checks_after_skip: bool,
}

impl MovePicker {
    /// A picker over `moves` (every move the node searches); `tt_move` first if among them.
    /// The buffers are the node's own, returned by [`MovePicker::into_buffers`].
    pub fn new(
        mut moves: Vec<Move>,
        scores: Vec<i32>,
        mut bad: Vec<Move>,
        tt_move: Move,
    ) -> MovePicker {
        bad.clear();
        let stage = match moves.iter().position(|&m| m == tt_move) {
            Some(at) if tt_move != Move::NONE => {
                moves.swap_remove(at);
                Stage::TtMove
            }
            _ => Stage::ScoreCaptures,
        };
        MovePicker {
            moves,
            scores,
            bad,
            stage,
            tt_move,
            next: 0,
            quiets_start: 0,
            skip_quiets: false,
            quiet_checks_after_skip: false,
        }
    }

    /// The buffers back, for the next node at this ply.
    pub fn into_buffers(self) -> (Vec<Move>, Vec<i32>, Vec<Move>) {
        (self.moves, self.scores, self.bad)
    }

    /// The next move and its class, or `None` when all are handed out.
    pub fn next<G: SearchGame>(
        &mut self,
        pos: &G,
        data: &ThreadData,
        context: &QuietContext,
    ) -> Option<(Move, Class)> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::ScoreCaptures;
                    return Some((self.tt_move, Class::TtMove));
                }
                Stage::ScoreCaptures => {
                    self.score_captures(pos, data);
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.next >= self.quiets_start {
                        self.stage = Stage::ScoreQuiets;
                        continue;
                    }
                    let mv = self.pick(self.quiets_start);
                    if pos.see_ge(mv, 0) {
                        return Some((mv, Class::GoodTactical));
                    }
                    self.bad.push(mv);
                }
                Stage::ScoreQuiets => {
                    if !self.skip_quiets {
                        self.score_quiets(pos, data, context);
                    }
                    // Scored or not (late-move pruning came first), the quiets start here.
                    self.next = self.quiets_start;
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.next >= self.moves.len()
                        || (self.skip_quiets && !self.quiet_checks_after_skip)
                    {
                        self.stage = Stage::BadCaptures;
                        self.next = 0;
                        continue;
                    }
                    if self.skip_quiets {
                        let mv = self.moves[self.next];
                        self.next += 1;
                        if pos.gives_check(mv) {
                            return Some((mv, Class::Quiet));
                        }
                        continue;
                    }
                    let score = self.best_score(self.moves.len());
                    let mv = self.pick(self.moves.len());
                    let class = if score >= REFUTATION {
                        Class::Refutation
                    } else {
                        Class::Quiet
                    };
                    return Some((mv, class));
                }
                Stage::BadCaptures => {
                    if self.next >= self.bad.len() {
                        self.stage = Stage::Done;
                        continue;
                    }
                    self.next += 1;
                    return Some((self.bad[self.next - 1], Class::BadTactical));
                }
                Stage::Done => return None,
            }
        }
    }

    /// Puts the tactical moves first and scores them.
    fn score_captures<G: SearchGame>(&mut self, pos: &G, data: &ThreadData) {
        let mut split = 0;
        for i in 0..self.moves.len() {
            if pos.is_tactical(self.moves[i]) {
                self.moves.swap(i, split);
                split += 1;
            }
        }
        self.quiets_start = split;
        self.scores.clear();
        self.scores.resize(self.moves.len(), 0);
        for i in 0..split {
            let mv = self.moves[i];
            let current = piece_to(pos.moved_piece(mv), mv);
            self.scores[i] = 16 * pos.tactical_order(mv) + data.capture_score(current);
        }
        self.next = 0;
    }

    fn score_quiets<G: SearchGame>(&mut self, pos: &G, data: &ThreadData, c: &QuietContext) {
        for i in self.quiets_start..self.moves.len() {
            let mv = self.moves[i];
            self.scores[i] = if mv == c.killers[0] {
                REFUTATION + 2
            } else if mv == c.killers[1] {
                REFUTATION + 1
            } else if mv == c.counter {
                REFUTATION
            } else {
                let current = piece_to(pos.moved_piece(mv), mv);
                data.main_score(c.side, mv)
                    + data.continuation_score(c.previous[0], current)
                    + data.continuation_score(c.previous[1], current)
            };
        }
    }

    fn best_score(&self, end: usize) -> i32 {
        self.scores[self.next..end]
            .iter()
            .copied()
            .max()
            .unwrap_or(i32::MIN)
    }

    /// Selection sort, one step: the best remaining move of `next..end` to `next`.
    fn pick(&mut self, end: usize) -> Move {
        let mut best = self.next;
        for i in self.next + 1..end {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(self.next, best);
        self.scores.swap(self.next, best);
        self.next += 1;
        self.moves[self.next - 1]
    }
}
