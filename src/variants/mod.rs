//! The five games. Each module holds all the rules of one game (RULES.md is the authority).

pub mod chaturanga;
pub mod chess;
pub mod duck;
pub mod jetan;
pub mod skak;

pub mod pawns8;
pub mod pst8;
pub mod see8;
#[cfg(test)]
mod see_checks;
pub mod terms;

pub use chaturanga::Chaturanga;
pub use chess::Chess;
pub use duck::Duck;
pub use jetan::Jetan;
pub use skak::Skak;

/// The `UCI_Variant` names, default first.
pub const NAMES: [&str; 5] = ["chess", "duck", "chaturanga", "skak", "jetan"];

/// Runs `$body` with `$G` bound to the game type named by `$variant` (a [`Variant`]).
#[macro_export]
macro_rules! with_game {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            $crate::variants::Variant::Chess => {
                type $G = $crate::variants::Chess;
                $body
            }
            $crate::variants::Variant::Duck => {
                type $G = $crate::variants::Duck;
                $body
            }
            $crate::variants::Variant::Chaturanga => {
                type $G = $crate::variants::Chaturanga;
                $body
            }
            $crate::variants::Variant::Skak => {
                type $G = $crate::variants::Skak;
                $body
            }
            $crate::variants::Variant::Jetan => {
                type $G = $crate::variants::Jetan;
                $body
            }
        }
    };
}

/// One of the five games, as chosen by `UCI_Variant` or `--variant`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess.
    Chess,
    /// Duck chess.
    Duck,
    /// Chaturanga (Chess Variant Pages rules).
    Chaturanga,
    /// Skak, 7x7.
    Skak,
    /// Jetan, Martian chess, 10x10.
    Jetan,
}

impl Variant {
    /// All games, in `NAMES` order.
    pub const ALL: [Variant; 5] = [
        Variant::Chess,
        Variant::Duck,
        Variant::Chaturanga,
        Variant::Skak,
        Variant::Jetan,
    ];

    /// The `UCI_Variant` name.
    pub fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    /// Parses a `UCI_Variant` name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Variant, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "unknown variant '{}' (known: {})",
                    name.escape_debug(),
                    NAMES.join(", ")
                )
            })
    }
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        Variant::from_name(s)
    }
}
