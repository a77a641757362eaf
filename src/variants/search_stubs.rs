//! Temporary: neutral search hooks until each game has its own evaluation.

use crate::core::Move;
use crate::search::SearchGame;

macro_rules! neutral {
    ($($t:ty),*) => {$(
        impl SearchGame for $t {
            fn evaluate(&self) -> i32 { 0 }
            fn tactical_order(&self, _mv: Move) -> i32 { 0 }
            fn in_check(&self) -> bool { false }
            fn null_move(&self) -> Option<Self> { None }
        }
    )*};
}

neutral!(super::Jetan);
