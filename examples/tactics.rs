//! Makes candidate lines for `positions/tactics/<game>.epd`: positions with one clearly best
//! move, found in games played by the engine at a few hundred nodes per move with every
//! fourth move random (so pieces hang and kings get exposed).
//!
//! A position is kept when, by the rules alone (a brute-force walk, no evaluation):
//! - **win in 1**: exactly one piece move wins at once (captures the king, Jarkhan, Chief or
//!   Princess, mates, or — in chaturanga — stalemates the opponent); in duck chess the duck
//!   square of that move does not matter and the line's `bm` names the piece move alone;
//! - **win in 2**: no move wins at once and exactly one piece move wins against every reply
//!   at the next turn (in duck chess `bm` lists that piece move with every duck square that
//!   wins);
//!
//! and the engine's own search at `depth` with two lines agrees: its best move is the `bm`,
//! with a winning score, and (but in duck chess, whose search looks at a selection of duck
//! squares, so that its second line proves nothing) its second line is no forced win.
//! Chess also takes **material wins**: the engine at depth 8 sees the best move at least
//! 200 cp up and 300 cp better than the second. Every chess candidate must be confirmed by
//! Stockfish (`/usr/games/stockfish`, depth 18, MultiPV 2): the same best move, and the second
//! line at least 300 cp worse (or the best a mate and the second none).
//!
//! `cargo run --release --example tactics -- <game> <count> <seed> <depth>` prints EPD lines.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use thoat::core::{Game, GameState, Move};
use thoat::search::{
    search, search_quietly, Clock, Limits, Reporter, SearchGame, Settings, Shared, MATE_BOUND,
};
use thoat::variants::Variant;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Whether the side to move at `pos` has lost/won: the result of the game at `pos`.
fn winner_after<G: Game>(pos: &G) -> Option<thoat::core::Color> {
    if let Some(r) = pos.ended() {
        return r.winner;
    }
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    if moves.is_empty() {
        return pos.no_moves_result().winner;
    }
    None
}

/// The piece-move part of a move's text (all of it but in duck chess).
fn piece_part<G: Game>(pos: &G, mv: Move) -> String {
    let text = pos.move_text(mv);
    match text.split_once(',') {
        Some((piece, _)) => piece.to_string(),
        None => text,
    }
}

fn wins_at_once<G: Game>(pos: &G, mv: Move) -> bool {
    let mut child = pos.clone();
    child.play(mv);
    winner_after(&child) == Some(pos.side_to_move())
}

/// Piece moves (texts) that win at once.
fn immediate_wins<G: Game>(pos: &G) -> Vec<String> {
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    let mut wins: Vec<String> = moves
        .iter()
        .filter(|&&m| wins_at_once(pos, m))
        .map(|&m| piece_part(pos, m))
        .collect();
    wins.sort();
    wins.dedup();
    wins
}

/// Moves after which every reply loses at once (or there is no reply and the mover wins).
fn wins_in_two<G: Game>(pos: &G) -> Vec<String> {
    let me = pos.side_to_move();
    let mut moves = Vec::new();
    pos.generate(&mut moves);
    let mut found = Vec::new();
    let mut replies = Vec::new();
    let mut thirds = Vec::new();
    for &m in &moves {
        let mut child = pos.clone();
        child.play(m);
        if child.ended().is_some() {
            continue;
        }
        child.generate(&mut replies);
        if replies.is_empty() {
            if child.no_moves_result().winner == Some(me) {
                found.push(pos.move_text(m));
            }
            continue;
        }
        let all = replies.iter().all(|&r| {
            let mut grand = child.clone();
            grand.play(r);
            if grand.ended().is_some() {
                return false;
            }
            grand.generate(&mut thirds);
            if thirds.is_empty() {
                return grand.no_moves_result().winner == Some(me);
            }
            thirds.iter().any(|&t| wins_at_once(&grand, t))
        });
        if all {
            found.push(pos.move_text(m));
        }
    }
    found
}

/// A UCI `score cp <v>` or `score mate <v>` as one number: a mate in `v` moves is
/// 30,000 less two per move (negative for being mated).
fn uci_score(kind: &str, v: i32) -> i32 {
    match kind {
        "mate" if v > 0 => 30_000 - 2 * v,
        "mate" => -30_000 - 2 * v,
        _ => v,
    }
}

/// The engine's two best lines at `depth`: (best move text, score 1, score 2); a second
/// line with the same piece move as the first (duck chess: another duck square) is skipped.
fn engine_lines<G: SearchGame>(pos: &G, depth: i32) -> Option<(String, i32, Option<i32>)> {
    let lines = Arc::new(std::sync::Mutex::new(Vec::<(usize, i32, String)>::new()));
    let sink = Arc::clone(&lines);
    let reporter: Reporter = Arc::new(move |info: &str| {
        let t: Vec<&str> = info.split_whitespace().collect();
        let find = |k: &str| t.iter().position(|&x| x == k);
        let (Some(mp), Some(sc), Some(pv)) = (find("multipv"), find("score"), find("pv")) else {
            return;
        };
        let k: usize = t[mp + 1].parse().unwrap_or(0);
        let score = uci_score(t[sc + 1], t[sc + 2].parse().unwrap_or(0));
        if let Some(best) = t.get(pv + 1) {
            sink.lock().unwrap().push((k, score, best.to_string()));
        }
    });
    let limits = Limits::fixed_depth(depth);
    let clock = Clock::new(&limits, 0, 0);
    let shared = Shared::new(32);
    let settings = Settings {
        threads: 1,
        multipv: 2,
        ..Settings::default()
    };
    let game = GameState::new(pos.clone());
    search(&game, &limits, &settings, &clock, &shared, None, &reporter);
    let lines = lines.lock().unwrap();
    let first = lines.iter().rev().find(|l| l.0 == 1)?;
    let second = lines
        .iter()
        .rev()
        .find(|l| l.0 == 2)
        .filter(|l| piece_part_text(&l.2) != piece_part_text(&first.2))
        .map(|l| l.1);
    Some((first.2.clone(), first.1, second))
}

/// Stockfish's two best lines at depth 18: (best move, score 1, score 2) in centipawns,
/// mates as ±(30000 - plies).
fn stockfish_lines(fen: &str) -> Option<(String, i32, Option<i32>)> {
    let mut child = Command::new("/usr/games/stockfish")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .ok()?;
    let mut stdin = child.stdin.take()?;
    writeln!(
        stdin,
        "setoption name MultiPV value 2\nsetoption name Threads value 1\nposition fen {fen}\ngo depth 18"
    )
    .ok()?;
    let reader = BufReader::new(child.stdout.take()?);
    let (mut s1, mut s2, mut best) = (None, None, None);
    for line in reader.lines() {
        let line = line.ok()?;
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.first() == Some(&"bestmove") {
            best = t.get(1).map(|s| s.to_string());
            break;
        }
        let find = |k: &str| t.iter().position(|&x| x == k);
        if let (Some(mp), Some(sc)) = (find("multipv"), find("score")) {
            let score = uci_score(t[sc + 1], t[sc + 2].parse().ok()?);
            if find("upperbound").is_some() || find("lowerbound").is_some() {
                continue;
            }
            match t[mp + 1] {
                "1" => s1 = Some(score),
                _ => s2 = Some(score),
            }
        }
    }
    let _ = writeln!(stdin, "quit");
    let _ = child.wait();
    Some((best?, s1?, s2))
}

fn clear_margin(best: i32, second: Option<i32>) -> bool {
    match second {
        None => true,
        Some(s) => (best >= MATE_BOUND && s < MATE_BOUND) || best - s >= 300,
    }
}

fn generate<G: SearchGame>(variant: Variant, count: usize, seed: u64, depth: i32) {
    let mut rng = Rng(seed | 1);
    let mut seen = std::collections::HashSet::new();
    let (mut in1, mut in2) = (Vec::new(), Vec::new());
    let mut games = 0;
    let duck = variant == Variant::Duck;
    let quota1 = count - count / 2;
    let quota2 = count / 2;
    // Chess: mates are rare in these games, so up to a quarter of each mate kind and the
    // rest material wins judged by Stockfish.
    let chess = variant == Variant::Chess;
    let (quota1, quota2, quota3) = if chess {
        (count / 4, count / 4, count)
    } else {
        (quota1, quota2, 0)
    };
    let mut in3 = Vec::new();
    while in1.len() + in2.len() + in3.len() < count && games < 400 {
        games += 1;
        let mut pos = G::from_fen(G::START_FEN).unwrap();
        let mut history = GameState::new(pos.clone());
        for ply in 0..160 {
            if history.result().is_some() {
                break;
            }
            let mut moves = Vec::new();
            pos.generate(&mut moves);
            if ply >= 6 && seen.insert(pos.hash()) {
                let w1 = immediate_wins(&pos);
                let candidate = if w1.len() == 1 && in1.len() < quota1 {
                    Some((w1[0].clone(), "win in 1", &mut in1))
                } else if w1.is_empty() && in2.len() < quota2 {
                    // One piece move (in duck chess possibly with several duck squares, which
                    // are all listed: there the duck square matters).
                    let w2 = wins_in_two(&pos);
                    let mut pieces: Vec<String> = w2.iter().map(|t| piece_part_text(t)).collect();
                    pieces.dedup();
                    (pieces.len() == 1).then(|| (w2.join(" "), "win in 2", &mut in2))
                } else {
                    None
                };
                let candidate = candidate.or_else(|| {
                    if w1.is_empty() && in3.len() < quota3 {
                        let (best, s1, s2) = engine_lines(&pos, 8)?;
                        let s2 = s2?;
                        ((200..MATE_BOUND).contains(&s1) && s1 - s2 >= 300).then_some((
                            best,
                            "wins material",
                            &mut in3,
                        ))
                    } else {
                        None
                    }
                });
                if let Some((bm, what, list)) = candidate {
                    let fen = pos.fen();
                    let engine = engine_lines(&pos, depth);
                    let engine_ok = engine.as_ref().is_some_and(|(best, s1, s2)| {
                        bm.split(' ')
                            .any(|b| b == best.as_str() || b == piece_part_text(best))
                            && if what == "wins material" {
                                clear_margin(*s1, *s2)
                            } else {
                                // Duck chess searches a selection of duck squares, so its
                                // second line proves nothing: the walk above is the proof.
                                *s1 >= MATE_BOUND && (duck || s2.is_none_or(|s| s < MATE_BOUND))
                            }
                    });
                    let stockfish = if chess && engine_ok {
                        stockfish_lines(&fen)
                    } else {
                        None
                    };
                    let sf_ok = !chess
                        || stockfish
                            .as_ref()
                            .is_some_and(|(best, s1, s2)| *best == bm && clear_margin(*s1, *s2));
                    if engine_ok && sf_ok {
                        let (_, s1, s2) = engine.unwrap();
                        let sf = match stockfish {
                            Some((_, a, b)) => format!(
                                "; stockfish depth 18: {a} vs {}",
                                b.map_or("none".to_string(), |s| s.to_string())
                            ),
                            None => String::new(),
                        };
                        list.push(format!(
                            "{fen} bm {bm}; c0 \"{what}; thoat depth {depth}: {s1} vs {}{sf}\";",
                            s2.map_or("none".to_string(), |s| s.to_string())
                        ));
                        eprintln!("{} + {} + {}", in1.len(), in2.len(), in3.len());
                    }
                }
            }
            let mv = if rng.below(4) == 0 {
                moves[rng.below(moves.len())]
            } else {
                let limits = Limits::fixed_nodes(300 + rng.below(300) as u64);
                let settings = Settings {
                    threads: 1,
                    multipv: 1,
                    ..Settings::default()
                };
                search_quietly(&history, &limits, &settings, &Shared::new(1))
                    .best
                    .unwrap_or(moves[0])
            };
            history.play(mv);
            pos.play(mv);
        }
    }
    for (i, line) in in1.iter().chain(&in2).chain(&in3).enumerate() {
        let (head, tail) = line.split_once(" c0 ").unwrap();
        println!("{head} id \"{}.{:02}\"; c0 {tail}", G::NAME, i + 1);
    }
}

fn piece_part_text(text: &str) -> String {
    text.split(',').next().unwrap_or(text).to_string()
}

fn main() {
    thoat::core::attacks8::init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let variant: Variant = args[0].parse().unwrap();
    let count: usize = args[1].parse().unwrap();
    let seed: u64 = args[2].parse().unwrap();
    let depth: i32 = args[3].parse().unwrap();
    thoat::with_game!(variant, G => generate::<G>(variant, count, seed, depth));
}
