//! The games. Each module holds all the rules of one game (RULES.md is the authority).
//!
//! [`for_each_game!`](crate::for_each_game) below is the one list of games; everything that
//! has to name every game is generated from it: the modules, [`Variant`] and its names (each
//! game's own [`Game::NAME`]), [`with_game!`](crate::with_game), [`AnyGame`] and the data
//! built in from `positions/`. A new game is its module, one line in that list and its files
//! in `positions/` (`<name>.perft`, `bench/<name>.fen`, and the `openings/` and `tactics/`
//! books that the tests read for every game); beyond the engine, the browser board draws its
//! pieces (`tools/serve/page.html`), a network is listed in `nnue/embedded.rs` once one is
//! built in, and RULES.md and the README describe the game.

pub mod any;
mod arg;
pub mod chesslike;
pub mod pawns8;
pub mod pst8;
pub mod see8;
#[cfg(test)]
mod see_checks;
pub mod swap_list;
pub mod terms;

pub use any::AnyGame;
pub use arg::VariantParser;

use crate::core::Game;

/// The list of games, in `UCI_Variant` order (the first is the default): the one place that
/// names them all. Each line is `<Variant> => <module>::<type>`; the module is
/// `src/variants/<module>/`, and its data is `positions/<module>.perft` (the perft suite) and
/// `positions/bench/<module>.fen` (the bench positions), so `<module>` must equal the game's
/// [`Game::NAME`] (a test checks it).
///
/// It hands the list to another macro: `for_each_game!((path::to::macro) args)` expands to
/// `path::to::macro! { args Chess => chess::Chess, ... }`, each line ending with a comma.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_game {
    (($($callback:tt)+) $args:tt) => {
        $($callback)+! { $args
            Chess => chess::Chess,
            Duck => duck::Duck,
            Chaturanga => chaturanga::Chaturanga,
            Skak => skak::Skak,
            Jetan => jetan::Jetan,
        }
    };
}

/// Runs `$body` with `$G` bound to the game type named by `$variant` (a [`Variant`]).
#[macro_export]
macro_rules! with_game {
    ($variant:expr, $G:ident => $body:expr) => {
        $crate::for_each_game!(($crate::with_game_arms)($variant, $G, $body))
    };
}

/// The `match` of [`with_game!`], one arm per game of [`for_each_game!`].
#[doc(hidden)]
#[macro_export]
macro_rules! with_game_arms {
    (($variant:expr, $G:ident, $body:expr) $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        match $variant {
            $($crate::variants::Variant::$Variant => {
                type $G = $crate::variants::$module::$Type;
                $body
            })+
        }
    };
}

/// The modules, [`Variant`] and its per-game tables, from the list of games.
macro_rules! define_games {
    ({} $($Variant:ident => $module:ident :: $Type:ident,)+) => {
        $(pub mod $module;)+
        $(pub use $module::$Type;)+

        /// One of the games, as chosen by `UCI_Variant` or `--variant`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Variant {
            $(
                #[doc = concat!("The game of [`", stringify!($Type), "`].")]
                $Variant,
            )+
        }

        impl Variant {
            /// How many games there are.
            pub const COUNT: usize = [$(Variant::$Variant),+].len();

            /// All games, in `UCI_Variant` order.
            pub const ALL: [Variant; Variant::COUNT] = [$(Variant::$Variant),+];

            /// The `UCI_Variant` name: the game's [`Game::NAME`].
            pub const fn name(self) -> &'static str {
                match self {
                    $(Variant::$Variant => <$Type as Game>::NAME,)+
                }
            }

            /// The perft suite (`positions/<name>.perft`): `id`, `epd` and `perft` lines.
            pub fn perft_suite(self) -> &'static str {
                match self {
                    $(Variant::$Variant => include_str!(concat!(
                        env!("CARGO_MANIFEST_DIR"), "/positions/", stringify!($module), ".perft"
                    )),)+
                }
            }

            /// The bench positions (`positions/bench/<name>.fen`): one FEN per line, `#`
            /// comments.
            pub fn bench_positions(self) -> &'static str {
                match self {
                    $(Variant::$Variant => include_str!(concat!(
                        env!("CARGO_MANIFEST_DIR"), "/positions/bench/", stringify!($module), ".fen"
                    )),)+
                }
            }

            /// The depth `bench` searches this game's positions to (its module's
            /// `BENCH_DEPTH`).
            pub const fn bench_depth(self) -> i32 {
                match self {
                    $(Variant::$Variant => $module::BENCH_DEPTH,)+
                }
            }

            /// The module name of each game, for the test that it equals the game's name.
            #[cfg(test)]
            const MODULES: [&'static str; Variant::COUNT] = [$(stringify!($module)),+];
        }
    };
}

for_each_game!((define_games) {});

impl Default for Variant {
    /// The first game of the list: chess.
    fn default() -> Variant {
        Variant::ALL[0]
    }
}

impl Variant {
    /// Parses a `UCI_Variant` name (case-insensitive).
    pub fn from_name(name: &str) -> Result<Variant, String> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "unknown variant '{}' (known: {})",
                    name.escape_debug(),
                    Variant::names().join(", ")
                )
            })
    }

    /// Every game's name, in `UCI_Variant` order.
    pub fn names() -> [&'static str; Variant::COUNT] {
        Variant::ALL.map(Variant::name)
    }
}

/// The positions of the perft suite of the game named `game`, in file order.
///
/// # Panics
/// If there is no such game or its suite does not read (the perft tests read every one).
pub fn perft_cases(game: &str) -> Vec<crate::core::suite::PerftCase> {
    let variant = Variant::from_name(game).unwrap_or_else(|e| panic!("{e}"));
    crate::core::suite::parse(variant.perft_suite())
        .unwrap_or_else(|e| panic!("positions/{game}.perft: {e}"))
}

impl std::str::FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Variant, String> {
        Variant::from_name(s)
    }
}

impl std::fmt::Display for Variant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in data files are found by module name, the files read at run time by the
    /// game's name: they must be the same.
    #[test]
    fn every_module_is_named_after_its_game() {
        assert_eq!(Variant::MODULES, Variant::names());
    }

    #[test]
    fn names_parse_back_case_insensitively() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Ok(v));
            assert_eq!(v.name().to_ascii_uppercase().parse::<Variant>(), Ok(v));
            assert_eq!(v.to_string(), v.name());
        }
        assert_eq!(Variant::default(), Variant::Chess);
        let error = Variant::from_name("xiangqi").unwrap_err();
        assert!(
            error.ends_with("(known: chess, duck, chaturanga, skak, jetan)"),
            "{error}"
        );
    }

    #[test]
    fn every_game_has_its_data() {
        for v in Variant::ALL {
            let cases = perft_cases(v.name());
            assert!(cases.len() >= 10, "{v}");
            for case in &cases {
                assert!(!case.fen.is_empty() && !case.counts.is_empty(), "{case:?}");
            }
            assert!(
                v.bench_positions().lines().any(|l| !l.starts_with('#')),
                "{v}"
            );
            assert!(v.bench_depth() > 0, "{v}");
        }
    }
}
