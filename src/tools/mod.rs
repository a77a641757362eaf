//! One-shot jobs on top of the rules: perft (and later bench, match, analyze).

pub mod analyze;
pub mod bench;
pub mod matches;
pub mod perft;
pub mod pgn;
pub mod robust;
pub mod serve;
