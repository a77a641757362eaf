//! The [`Game`] trait that every variant implements, the game record ([`GameState`]) that
//! applies the result rules common to all games, and move-text parsing.

use super::{split_move_squares, Color, FileRank, Move};
use std::sync::atomic::{AtomicBool, Ordering};

/// How a game ended: the winner (`None` for a draw) and the reason in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The side that won, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why, e.g. "checkmate", "princess captured", "threefold repetition".
    pub reason: &'static str,
}

impl GameResult {
    /// A win for `winner`.
    pub const fn win(winner: Color, reason: &'static str) -> GameResult {
        GameResult {
            winner: Some(winner),
            reason,
        }
    }

    /// A draw.
    pub const fn draw(reason: &'static str) -> GameResult {
        GameResult {
            winner: None,
            reason,
        }
    }

    /// The PGN result text: `1-0`, `0-1` or `1/2-1/2`.
    pub fn pgn(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

/// One game's complete rules. Everything a search, a referee or the protocol needs to know
/// about a game comes through this trait; none of them knows any rule.
pub trait Game: Clone + Send + Sync + 'static {
    /// The `UCI_Variant` name.
    const NAME: &'static str;
    /// The start position.
    const START_FEN: &'static str;
    /// Files on the board.
    const WIDTH: u8;
    /// Ranks on the board.
    const HEIGHT: u8;

    /// Parses and validates a FEN (RULES.md says what is rejected).
    fn from_fen(fen: &str) -> Result<Self, String>;

    /// The FEN of this position; `from_fen(fen())` gives the same position back.
    fn fen(&self) -> String;

    /// The side to move.
    fn side_to_move(&self) -> Color;

    /// Fills `moves` (after clearing it) with every legal move. Empty when the game has
    /// already ended by a capture or by a countdown ([`Game::ended`]).
    fn generate(&self, moves: &mut Vec<Move>);

    /// The number of legal moves; perft uses it to count the last ply in bulk. `scratch` may
    /// be used as a buffer. Must equal the length of [`Game::generate`]'s list.
    fn count_moves(&self, scratch: &mut Vec<Move>) -> u64 {
        self.generate(scratch);
        scratch.len() as u64
    }

    /// Makes a move taken from [`Game::generate`] of this position.
    fn play(&mut self, mv: Move);

    /// The Zobrist hash, kept up to date incrementally by [`Game::play`]. Equal hashes mean
    /// the same position for threefold repetition (RULES.md: clocks are not compared).
    fn hash(&self) -> u64;

    /// The hash computed from scratch; tests check it equals [`Game::hash`].
    fn recompute_hash(&self) -> u64;

    /// The protocol text of a legal move of this position (`e2e4`, `b7b8n`, `e2e4,e4d5`). It
    /// starts with the name of the from square, which depends on [`Move::from`] alone, and
    /// then the name of the to square, which depends on [`Move::to`] alone: [`parse_move`]
    /// relies on that to write only the texts of the moves between the squares it is given.
    fn move_text(&self, mv: Move) -> String;

    /// Whether `mv` (legal here) captures a piece or promotes: the moves a quiescence search
    /// looks at.
    fn is_tactical(&self, mv: Move) -> bool;

    /// The result when the game ended by the move that reached this position: a capture of
    /// a king, Jarkhan, Chief or Princess, or the jetan countdown. `None` while it goes on.
    fn ended(&self) -> Option<GameResult>;

    /// The result when the side to move has no legal move (checkmate, stalemate, fowling,
    /// as the game scores it). Only called when [`Game::ended`] is `None`.
    fn no_moves_result(&self) -> GameResult;

    /// A draw that depends on this position alone: the 50-move rule with the game's own
    /// clock, or insufficient material. `None` if no such rule applies.
    fn rule_draw(&self) -> Option<&'static str>;

    /// The same position with the colours exchanged and the board mirrored top to bottom,
    /// which has the same perft (an independent check of the move generator).
    fn color_flipped(&self) -> Self;

    /// The board as text for the `d` command.
    fn board_text(&self) -> String;
}

/// Perft: the number of leaf nodes of the legal move tree `depth` plies deep, the last ply
/// counted in bulk.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    perft_until(pos, depth, &AtomicBool::new(false))
}

/// [`perft`] that gives up, returning a meaningless count, once `stop` is set (`go perft`
/// on its worker thread, `stop` from the protocol).
pub(crate) fn perft_until<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth.max(1)).map(|_| Vec::with_capacity(256)).collect();
    perft_with(pos, depth, &mut buffers, stop)
}

/// `buffers` holds one move list per ply.
fn perft_with<G: Game>(pos: &G, depth: u32, buffers: &mut [Vec<Move>], stop: &AtomicBool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
    if depth == 1 {
        return pos.count_moves(list);
    }
    // Checked above the bulk-counted ply only: a stop is seen within microseconds, at a
    // cost too small to measure.
    if stop.load(Ordering::Relaxed) {
        return 0;
    }
    pos.generate(list);
    let mut nodes = 0;
    for &mv in list.iter() {
        let mut child = pos.clone();
        child.play(mv);
        nodes += perft_with(&child, depth - 1, rest, stop);
    }
    nodes
}

/// Finds the legal move of `pos` whose text is `text` (the first in generation order). A
/// text that is not a move of this board's form is "malformed"; a well-formed move that is
/// not legal here is "illegal".
pub fn parse_move<G: Game>(pos: &G, text: &str) -> Result<Move, String> {
    let squares = (text.len() <= 16)
        .then(|| split_move_squares(text, G::WIDTH, G::HEIGHT))
        .flatten();
    let Some((from, to, _)) = squares else {
        return Err(format!("malformed move '{}'", text.escape_debug()));
    };
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    find_by_squares(pos, &moves, text, from, to)
        .ok_or_else(|| format!("illegal move '{text}' in {}", pos.fen()))
}

/// The first of `moves` whose text is `text`, which names the squares `from` and `to`.
///
/// Only the moves that leave `from` for `to` have their whole text compared. A move's text
/// names its from square by [`Move::from`] alone and its to square by [`Move::to`] alone
/// (as [`Game::move_text`] promises), so once one move's text shows that its from field
/// names another square, every move with that from field is passed over unwritten; the same
/// for the to field. In duck chess, where one piece move comes with every duck square, that
/// writes a few dozen texts of the hundreds of moves instead of all of them.
fn find_by_squares<G: Game>(
    pos: &G,
    moves: &[Move],
    text: &str,
    from: FileRank,
    to: FileRank,
) -> Option<Move> {
    // Move fields are 7 bits: whether a from (to) field is known to name another square.
    let mut other_from = [false; 128];
    let mut other_to = [false; 128];
    for &mv in moves {
        let (f, t) = (mv.from() as usize, mv.to() as usize);
        if other_from[f] || other_to[t] {
            continue;
        }
        let own = pos.move_text(mv);
        if own == text {
            return Some(mv);
        }
        if let Some((own_from, own_to, _)) = split_move_squares(&own, G::WIDTH, G::HEIGHT) {
            other_from[f] = own_from != from;
            other_to[t] = own_to != to;
        }
    }
    None
}

/// A game in progress: the current position and the hashes of every earlier position, so
/// that threefold repetition can be judged.
#[derive(Clone)]
pub struct GameState<G: Game> {
    /// The current position.
    pub position: G,
    /// Hashes of the positions before the current one, oldest first.
    pub history: Vec<u64>,
}

impl<G: Game> GameState<G> {
    /// A game starting at `position`.
    pub fn new(position: G) -> Self {
        GameState {
            position,
            history: Vec::new(),
        }
    }

    /// Makes a legal move.
    pub fn play(&mut self, mv: Move) {
        self.history.push(self.position.hash());
        self.position.play(mv);
    }

    /// Parses and makes a move given as text; on error the game is unchanged.
    pub fn play_text(&mut self, text: &str) -> Result<Move, String> {
        let mv = parse_move(&self.position, text)?;
        self.play(mv);
        Ok(mv)
    }

    /// How many times the current position occurred, counting itself.
    pub fn repetitions(&self) -> usize {
        let hash = self.position.hash();
        1 + self.history.iter().filter(|&&h| h == hash).count()
    }

    /// The result of the game if it is over, decided in the order RULES.md gives: a capture
    /// or countdown, then no legal move, then the 50-move rule (and insufficient material),
    /// then threefold repetition.
    pub fn result(&self) -> Option<GameResult> {
        if let Some(result) = self.position.ended() {
            return Some(result);
        }
        let mut moves = Vec::new();
        self.position.generate(&mut moves);
        if moves.is_empty() {
            return Some(self.position.no_moves_result());
        }
        if let Some(reason) = self.position.rule_draw() {
            return Some(GameResult::draw(reason));
        }
        if self.repetitions() >= 3 {
            return Some(GameResult::draw("threefold repetition"));
        }
        None
    }
}
