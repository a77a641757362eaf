//! The networks shipped in `nets/` and built into the binary, so that a fresh build plays
//! with them (`Evaluation nnue`, the default) without an `EvalFile`. A game is listed here
//! once its network has beaten its classical evaluation at equal time (docs/nnue.md); the
//! other games search with their classical evaluation.

use super::features::NnueGame;
use super::network::Network;
use std::sync::OnceLock;

/// The games with a built-in network, and its file.
const EMBEDDED: [(&str, &[u8]); 4] = [
    ("chess", include_bytes!("../../nets/chess.nnue")),
    ("skak", include_bytes!("../../nets/skak.nnue")),
    ("chaturanga", include_bytes!("../../nets/chaturanga.nnue")),
    ("duck", include_bytes!("../../nets/duck.nnue")),
];

/// Each built-in network, read on first use.
static PARSED: [OnceLock<Option<Network>>; EMBEDDED.len()] =
    [const { OnceLock::new() }; EMBEDDED.len()];

/// The built-in network of the game named `name`, as its file's bytes.
pub fn file_of(name: &str) -> Option<&'static [u8]> {
    EMBEDDED
        .iter()
        .find(|(game, _)| *game == name)
        .map(|(_, bytes)| *bytes)
}

/// The built-in network of `G`, if it has one. A built-in file that does not read (a test
/// checks that each does) counts as none rather than stopping the engine.
pub fn network<G: NnueGame>() -> Option<&'static Network> {
    let i = EMBEDDED.iter().position(|(game, _)| *game == G::NAME)?;
    PARSED[i]
        .get_or_init(|| Network::from_bytes::<G>(EMBEDDED[i].1).ok())
        .as_ref()
}

#[cfg(test)]
mod tests {
    use crate::variants::Variant;

    /// Every built-in file is a network of its game that reads without error.
    #[test]
    fn every_built_in_network_reads() {
        let mut built_in = 0;
        for v in Variant::ALL {
            if let Some(bytes) = super::file_of(v.name()) {
                built_in += 1;
                crate::with_game!(v, G => {
                    assert!(
                        crate::nnue::network::Network::from_bytes::<G>(bytes).is_ok(),
                        "{}",
                        v.name()
                    );
                    assert!(super::network::<G>().is_some());
                });
            }
        }
        assert_eq!(
            built_in,
            super::EMBEDDED.len(),
            "a built-in network names no game"
        );
    }
}
