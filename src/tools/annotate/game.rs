//! One game, analysed: an evaluation of every position from the first to the last, and
//! from them a note on every move (its evaluation, its loss, its judgement, the better line).

use super::judge::{clamped_cp, expected_score, Judgement};
use crate::core::{Color, GameResult, GameState, Move};
use crate::search::{Limits, SearchGame, Settings, Shared};
use crate::tools::analyze::{search_position, Record, Score};

/// The evaluation of one position of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionEval {
    /// The side to move.
    pub side: Color,
    /// The search's score, from the side to move's view; `None` when the game is over here.
    pub score: Option<Score>,
    /// The result, when the game is over in this position.
    pub result: Option<GameResult>,
    /// The engine's line, best move first (empty when the game is over).
    pub pv: Vec<String>,
    /// The move the game went on with, if any.
    pub played: Option<String>,
}

impl PositionEval {
    /// The expected score of `side` in this position.
    fn expected_for(&self, side: Color) -> Option<f64> {
        if let Some(result) = self.result {
            return Some(match result.winner {
                Some(winner) if winner == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            });
        }
        let own = expected_score(self.score?);
        Some(if side == self.side { own } else { 1.0 - own })
    }

    /// The score from White's view (`None` when the game is over or unsearched).
    pub fn white_score(&self) -> Option<Score> {
        let score = self.score?;
        Some(match (self.side, score) {
            (Color::White, s) => s,
            (Color::Black, Score::Cp(cp)) => Score::Cp(-cp),
            (Color::Black, Score::Mate(n)) => Score::Mate(-n),
        })
    }

    /// White's expected score here (0.5 when unknown).
    pub fn white_expected(&self) -> f64 {
        self.expected_for(Color::White).unwrap_or(0.5)
    }
}

/// What is said about one move of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveNote {
    /// The side that made it.
    pub mover: Color,
    /// The evaluation after it, from White's view (`None` when it ended the game).
    pub white_eval: Option<Score>,
    /// The mover's expected score lost by it (0 for the engine's own choice).
    pub loss: f64,
    /// The centipawns it lost (mates count as 1000), for average-loss figures.
    pub cp_loss: i32,
    /// `?!`, `?` or `??`, if it lost that much.
    pub judgement: Option<Judgement>,
    /// The engine's line from the position before it, best move first.
    pub best: Vec<String>,
}

/// Evaluates every position of the game that starts at `start` and goes on with `moves`
/// (legal, in order): `moves.len() + 1` evaluations. The table is cleared first and kept
/// from one position to the next, so that a game's result does not depend on what was
/// analysed before it.
pub fn analyse_game<G: SearchGame>(
    start: &GameState<G>,
    moves: &[Move],
    limits: &Limits,
    shared: &Shared,
) -> Vec<PositionEval> {
    analyse_game_with(start, moves, limits, shared, &mut || {})
}

/// [`analyse_game`], calling `done` after each position.
pub fn analyse_game_with<G: SearchGame>(
    start: &GameState<G>,
    moves: &[Move],
    limits: &Limits,
    shared: &Shared,
    done: &mut dyn FnMut(),
) -> Vec<PositionEval> {
    shared.clear();
    let settings = Settings::default();
    let mut game = start.clone();
    let mut evals = Vec::with_capacity(moves.len() + 1);
    for i in 0..=moves.len() {
        let played = moves.get(i).map(|&m| game.position.move_text(m));
        let mut eval = PositionEval {
            side: game.position.side_to_move(),
            score: None,
            result: game.result(),
            pv: Vec::new(),
            played,
        };
        if eval.result.is_none() {
            let mut record = Record::default();
            search_position(&game, limits, &settings, shared, None, &mut record);
            eval.score = record.score;
            eval.pv = record.pv;
        }
        evals.push(eval);
        done();
        match moves.get(i) {
            Some(&mv) => game.play(mv),
            None => break,
        }
    }
    evals
}

/// The notes on the moves between the positions of `evals` (one fewer than positions).
pub fn notes(evals: &[PositionEval]) -> Vec<MoveNote> {
    evals
        .windows(2)
        .map(|pair| {
            let (before, after) = (&pair[0], &pair[1]);
            let mover = before.side;
            let engine_choice = before
                .pv
                .first()
                .is_some_and(|b| before.played.as_ref() == Some(b));
            let (loss, cp_loss) = match (before.expected_for(mover), after.expected_for(mover)) {
                (Some(b), Some(a)) if !engine_choice => {
                    (f64::max(b - a, 0.0), cp_drop(before, after, mover))
                }
                _ => (0.0, 0),
            };
            let judgement = Judgement::of_loss(loss);
            MoveNote {
                mover,
                white_eval: after.white_score(),
                loss,
                cp_loss,
                judgement,
                best: if judgement.is_some() {
                    before.pv.clone()
                } else {
                    Vec::new()
                },
            }
        })
        .collect()
}

/// The centipawns the mover lost between two positions, at least 0; a finished game counts
/// as a mate for its winner and 0 for a draw.
fn cp_drop(before: &PositionEval, after: &PositionEval, mover: Color) -> i32 {
    let cp_for = |eval: &PositionEval| -> Option<i32> {
        if let Some(result) = eval.result {
            return Some(match result.winner {
                Some(w) if w == mover => 1000,
                Some(_) => -1000,
                None => 0,
            });
        }
        let cp = clamped_cp(eval.score?);
        Some(if eval.side == mover { cp } else { -cp })
    };
    match (cp_for(before), cp_for(after)) {
        (Some(b), Some(a)) => (b - a).max(0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::variants::Chess;

    fn eval(side: Color, score: Score, pv: &[&str], played: &str) -> PositionEval {
        PositionEval {
            side,
            score: Some(score),
            result: None,
            pv: pv.iter().map(|s| s.to_string()).collect(),
            played: Some(played.to_string()),
        }
    }

    #[test]
    fn a_move_that_throws_away_a_won_position_is_a_blunder() {
        let evals = [
            eval(Color::White, Score::Cp(300), &["d1h5", "g7g6"], "a2a3"),
            // After a2a3 Black to move stands well: White lost most of its expected score.
            eval(Color::Black, Score::Cp(200), &["e7e5"], "e7e5"),
            eval(Color::White, Score::Cp(-210), &["g1f3"], "g1f3"),
        ];
        let notes = notes(&evals);
        assert_eq!(notes.len(), 2);
        assert_eq!(notes[0].mover, Color::White);
        assert_eq!(notes[0].judgement, Some(Judgement::Blunder));
        assert_eq!(notes[0].best, ["d1h5", "g7g6"]);
        assert_eq!(notes[0].cp_loss, 500);
        assert_eq!(notes[0].white_eval, Some(Score::Cp(-200)));
        // Black played the engine's own move: no loss, whatever the next score says.
        assert_eq!(notes[1].loss, 0.0);
        assert_eq!(notes[1].judgement, None);
        assert!(notes[1].best.is_empty());
    }

    #[test]
    fn the_move_that_ends_the_game_is_judged_by_its_result() {
        let mut last = eval(Color::Black, Score::Cp(0), &[], "");
        last.score = None;
        last.played = None;
        last.result = Some(GameResult::draw("stalemate"));
        let evals = [eval(Color::White, Score::Mate(2), &["h5f7"], "h5h7"), last];
        let notes = notes(&evals);
        assert!((notes[0].loss - 0.5).abs() < 1e-12);
        assert_eq!(notes[0].judgement, Some(Judgement::Blunder));
        assert_eq!(notes[0].white_eval, None);
        assert_eq!(notes[0].cp_loss, 1000);
    }

    #[test]
    fn every_position_of_a_real_game_is_evaluated() {
        let start = GameState::new(Chess::from_fen(Chess::START_FEN).unwrap());
        // Fool's mate: the last position is over, the second-last has a mate in one.
        let mut game = start.clone();
        let moves: Vec<Move> = ["f2f3", "e7e5", "g2g4", "d8h4"]
            .iter()
            .map(|t| game.play_text(t).unwrap())
            .collect();
        let limits = Limits::fixed_depth(4);
        let evals = analyse_game(&start, &moves, &limits, &Shared::new(1));
        assert_eq!(evals.len(), 5);
        assert_eq!(evals[3].score, Some(Score::Mate(1)));
        assert_eq!(evals[3].pv.first().map(String::as_str), Some("d8h4"));
        assert_eq!(evals[4].result.map(|r| r.winner), Some(Some(Color::Black)));
        assert_eq!(evals[2].played.as_deref(), Some("g2g4"));
        let notes = notes(&evals);
        // g2g4 allows mate in one: a blunder, with the engine's better line given.
        assert_eq!(notes[2].judgement, Some(Judgement::Blunder));
        assert!(!notes[2].best.is_empty());
        assert_eq!(notes[3].judgement, None);
    }
}
