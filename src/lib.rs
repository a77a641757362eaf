//! thoat: a chess-variant engine for jetan, duck chess, chaturanga, skak and chess.
//!
//! The rules of every game live in `variants::<name>` (see `RULES.md` at the top of the
//! repository); `core` holds the vocabulary shared by all games and
//! knows no rules.
#![forbid(unsafe_code)]

pub mod core;
pub mod nnue;
pub mod search;
pub mod tools;
pub mod uci;
pub mod variants;
