//! Efficiently updatable neural networks (NNUE) for every game: the inputs a network sees
//! ([`features`]), the quantised network and its file ([`network`]), training positions
//! ([`data`]), the trainer ([`train`]) and the networks built into the binary
//! ([`embedded`]). Generic over the game: each game only says where its pieces stand
//! ([`features::NnueGame`]); nothing here knows a rule.

pub mod data;
pub mod embedded;
pub mod features;
pub mod network;
pub mod train;
