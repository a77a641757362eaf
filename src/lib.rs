//! thoat: a chess-variant engine for jetan, duck chess, chaturanga, skak and chess.
//!
//! The rules of every game live in `variants::<name>` (see `RULES.md` at the top of the
//! repository); `core` holds the vocabulary shared by all games and
//! knows no rules.
// One call may be `unsafe` (with an `allow` and a `// SAFETY:` proof): that of the network's
// output layer compiled for AVX2, when the processor has it (`nnue::network::Network::evaluate`).
#![deny(unsafe_code)]

pub mod core;
pub mod nnue;
pub mod search;
pub mod tools;
pub mod uci;
pub mod variants;
