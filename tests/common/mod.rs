//! Shared test helpers: an engine driver. (The perft suites are read by
//! `thoat::core::suite`.)
#![allow(dead_code)]

pub mod engine;
