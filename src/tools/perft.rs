//! Perft with divide output, for the command line and the `go perft` command.

use crate::core::game::perft_divide;
use crate::core::Game;
use std::io::Write;
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

/// Runs perft `depth` on `pos` and writes the divide as RULES.md gives it: one line
/// `<move>: <count>` per legal move, an empty line, `Nodes searched: <total>`.
pub fn run_divide<G: Game>(
    pos: &G,
    depth: u32,
    threads: usize,
    out: &mut impl Write,
) -> std::io::Result<PerftReport> {
    let start = Instant::now();
    let divide = perft_divide(pos, depth, threads);
    let millis = start.elapsed().as_millis();
    let mut nodes = 0;
    for (text, count) in &divide {
        writeln!(out, "{text}: {count}")?;
        nodes += count;
    }
    writeln!(out)?;
    writeln!(out, "Nodes searched: {nodes}")?;
    Ok(PerftReport { nodes, millis })
}
