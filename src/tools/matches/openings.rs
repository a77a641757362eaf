//! Opening books: reading EPD/FEN files for `thoat match`, and making them
//! (`thoat openings`) by a reproducible method: from the start position play a random
//! number of uniformly random legal plies (a seeded generator), and keep the positions that
//! are new, not over, where the game cannot end within a set number of plies (1 or 2), and
//! that a short node-limited search scores within a margin of equal.

use crate::core::rng::Rng;
use crate::core::{Game, GameState};
use crate::search::{search_quietly, EvalMode, Limits, SearchGame, Settings, Shared};
use crate::variants::Variant;
use std::collections::HashSet;

/// Reads the openings of `text` (one FEN or EPD per line; empty lines and lines starting
/// with `#` are skipped; anything after a `;` is an EPD operation and ignored). Every
/// position must be one of `variant`; the FENs come back in the game's own form.
pub fn parse_openings(variant: Variant, text: &str) -> Result<Vec<String>, String> {
    crate::with_game!(variant, G => parse_for::<G>(text))
}

fn parse_for<G: Game>(text: &str) -> Result<Vec<String>, String> {
    let full_fields = G::START_FEN.split_whitespace().count();
    let mut fens = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.split(';').next().unwrap_or("").trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        // A FEN as it is, or an EPD: the fields before the clocks, then operations.
        let mut candidates = vec![line.to_string()];
        if fields.len() > full_fields {
            candidates.push(fields[..full_fields].join(" "));
        }
        if fields.len() >= full_fields.saturating_sub(2) && full_fields > 2 {
            candidates.push(format!("{} 0 1", fields[..full_fields - 2].join(" ")));
        }
        let position = candidates
            .iter()
            .find_map(|c| G::from_fen(c).ok())
            .ok_or_else(|| {
                let error = G::from_fen(line).err().unwrap_or_default();
                format!(
                    "openings line {}: not a {} position: {error}",
                    number + 1,
                    G::NAME
                )
            })?;
        fens.push(position.fen());
    }
    if fens.is_empty() {
        return Err("the openings file holds no position".to_string());
    }
    Ok(fens)
}

/// How `thoat openings` makes a book.
#[derive(Clone, Copy, Debug)]
pub struct Recipe {
    /// Positions wanted.
    pub count: usize,
    /// Seed of the random generator.
    pub seed: u64,
    /// Fewest random plies from the start.
    pub min_plies: u32,
    /// Most random plies from the start.
    pub max_plies: u32,
    /// Largest absolute search score kept, in centipawns.
    pub margin: i32,
    /// Nodes of the scoring search.
    pub nodes: u64,
    /// Reject positions where the game can end within this many plies (1: no move ends it
    /// at once; 2: nor any reply).
    pub safe_plies: u32,
}

/// Whether some sequence of at most `plies` moves ends the game by a capture or countdown
/// ([`Game::ended`]).
fn can_end_within<G: Game>(position: &G, plies: u32) -> bool {
    if plies == 0 {
        return false;
    }
    let mut moves = Vec::new();
    position.generate(&mut moves);
    moves.iter().any(|&mv| {
        let mut after = position.clone();
        after.play(mv);
        after.ended().is_some() || can_end_within(&after, plies - 1)
    })
}

/// Makes a book by the recipe: each line is a FEN and its search score. Gives up after
/// `count * 200` tries and returns what it found.
pub fn generate<G: SearchGame>(recipe: &Recipe) -> Vec<(String, i32)> {
    let mut rng = Rng::from_state(recipe.seed);
    let mut seen = HashSet::new();
    let mut book = Vec::new();
    let shared = Shared::new(16);
    let limits = Limits::fixed_nodes(recipe.nodes.max(1));
    // The classical evaluation, so that the books in `positions/openings/` stay what their
    // seed made, whatever network a game ships.
    let settings = Settings {
        eval: EvalMode::Full,
        ..Settings::default()
    };
    let start = match G::from_fen(G::START_FEN) {
        Ok(start) => start,
        Err(_) => return book,
    };
    let span = recipe.max_plies.max(recipe.min_plies) - recipe.min_plies + 1;
    let mut moves = Vec::new();
    for _ in 0..recipe.count.saturating_mul(200) {
        if book.len() >= recipe.count {
            break;
        }
        let plies = recipe.min_plies + rng.below(span as usize) as u32;
        let mut game = GameState::new(start.clone());
        let mut alive = true;
        for _ in 0..plies {
            game.position.generate(&mut moves);
            if moves.is_empty() || game.result().is_some() {
                alive = false;
                break;
            }
            let mv = moves[rng.below(moves.len())];
            game.play(mv);
        }
        if !alive || game.result().is_some() || !seen.insert(game.position.hash()) {
            continue;
        }
        // A position where a move ends the game soon (a Chief, Jarkhan or king en prise) is
        // no opening: its score may be 0 only because a draw is forced.
        if can_end_within(&game.position, recipe.safe_plies) {
            continue;
        }
        // Judge the position alone, as a match will start it: no history.
        let root = GameState::new(game.position.clone());
        shared.clear();
        let outcome = search_quietly(&root, &limits, &settings, &shared);
        if outcome.score.abs() <= recipe.margin {
            book.push((root.position.fen(), outcome.score));
        }
    }
    book
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Skak;

    #[test]
    fn reads_fen_and_epd_lines_and_skips_comments() {
        let text = "# a comment\n\n\
            rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\n\
            rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - bm e5; id \"x\";\n";
        let fens = parse_openings(Variant::Chess, text).unwrap();
        assert_eq!(fens.len(), 2);
        assert!(
            fens[1].starts_with("rnbqkbnr/pppppppp/8/8/8/5N2/"),
            "{}",
            fens[1]
        );
        assert!(parse_openings(Variant::Chess, "# nothing\n").is_err());
        let bad = parse_openings(
            Variant::Jetan,
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w",
        );
        assert!(bad.unwrap_err().contains("line 1"));
    }

    #[test]
    fn generation_is_reproducible_and_within_the_margin() {
        let recipe = Recipe {
            count: 4,
            seed: 7,
            min_plies: 2,
            max_plies: 4,
            margin: 80,
            nodes: 300,
            safe_plies: 1,
        };
        let a = generate::<Skak>(&recipe);
        let b = generate::<Skak>(&recipe);
        assert_eq!(a, b);
        assert_eq!(a.len(), 4);
        for (fen, score) in &a {
            assert!(score.abs() <= 80);
            let pos = Skak::from_fen(fen).unwrap();
            assert_ne!(fen, Skak::START_FEN);
            let mut moves = Vec::new();
            pos.generate(&mut moves);
            assert!(!moves.is_empty());
            for mv in moves {
                let mut after = pos;
                after.play(mv);
                assert!(after.ended().is_none(), "{fen}: a move ends the game");
            }
        }
        let other = generate::<Skak>(&Recipe { seed: 8, ..recipe });
        assert_ne!(a, other);
    }
}
