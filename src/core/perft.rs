//! Perft divide, as RULES.md gives it: one line `<move>: <count>` per legal move, an empty
//! line, `Nodes searched: <total>`. Shared by `thoat perft` and the protocol's `go perft`,
//! which runs it on a worker thread and may stop it.

use super::game::perft_until;
use super::{Game, Move};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The figures of one perft run.
#[derive(Clone, Copy, Debug)]
pub struct PerftReport {
    /// Leaf nodes counted.
    pub nodes: u64,
    /// Wall time in milliseconds.
    pub millis: u128,
}

impl PerftReport {
    /// Nodes per second (0 when no time passed).
    pub fn nps(&self) -> u64 {
        (self.nodes as u128 * 1000)
            .checked_div(self.millis)
            .map_or(0, |nps| nps as u64)
    }
}

/// Perft split by root move, in move-generation order, or `None` if `stop` was set before it
/// finished. The root moves are shared among `threads` workers when `threads > 1`.
pub fn perft_divide<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
) -> Option<Vec<(String, u64)>> {
    if depth == 0 {
        return Some(Vec::new());
    }
    let mut root = Vec::new();
    pos.generate(&mut root);
    let count_child = |mv: &Move| {
        let mut child = pos.clone();
        child.play(*mv);
        (pos.move_text(*mv), perft_until(&child, depth - 1, stop))
    };
    let divide: Vec<(String, u64)> = if threads <= 1 {
        root.iter().map(count_child).collect()
    } else {
        use rayon::prelude::*;
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| root.par_iter().map(count_child).collect()),
            Err(e) => {
                log::warn!("could not start {threads} perft threads ({e}); using one");
                root.iter().map(count_child).collect()
            }
        }
    };
    // A count made while `stop` was set is wrong; one made before is not, but the divide
    // is only ever reported whole.
    (!stop.load(Ordering::SeqCst)).then_some(divide)
}

/// Runs perft `depth` on `pos` and writes the divide; `Ok(None)` (nothing written) if `stop`
/// was set before it finished.
pub fn write_divide<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> std::io::Result<Option<PerftReport>> {
    let start = Instant::now();
    let Some(divide) = perft_divide(pos, depth, threads, stop) else {
        return Ok(None);
    };
    let millis = start.elapsed().as_millis();
    let mut nodes = 0;
    for (text, count) in &divide {
        writeln!(out, "{text}: {count}")?;
        nodes += count;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {nodes}")?;
    Ok(Some(PerftReport { nodes, millis }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Chess;

    #[test]
    fn the_divide_sums_to_perft_and_a_stop_gives_nothing() {
        let pos = Chess::from_fen(Chess::START_FEN).unwrap();
        let go = AtomicBool::new(false);
        for threads in [1, 2] {
            let divide = perft_divide(&pos, 3, threads, &go).unwrap();
            assert_eq!(divide.len(), 20);
            assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 8902);
        }
        let mut out = Vec::new();
        let report = write_divide(&pos, 2, 1, &go, &mut out).unwrap().unwrap();
        assert_eq!(report.nodes, 400);
        let text = String::from_utf8(out).unwrap();
        assert!(text.ends_with("\n\nNodes searched: 400\n"), "{text}");
        let stopped = AtomicBool::new(true);
        let mut out = Vec::new();
        assert!(write_divide(&pos, 4, 2, &stopped, &mut out)
            .unwrap()
            .is_none());
        assert!(out.is_empty());
    }
}
