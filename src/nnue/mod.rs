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

/// A setting of a network that its file stores as a number and `thoat train` takes by name:
/// the activation ([`network::Activation`]) and the input layout ([`features::InputLayout`]).
/// Each says its code; the names, the reading back and the messages are here, once.
pub trait FileSetting: Copy + PartialEq + Sized + 'static {
    /// Every value, in code order.
    const ALL: &'static [Self];
    /// Their names (`thoat train`'s flag values), in the same order.
    const NAMES: &'static [&'static str];
    /// What the setting is, in messages.
    const WHAT: &'static str;

    /// Its number in a network file.
    fn code(self) -> u32;

    /// The value numbered `code` in a file, if there is one.
    fn from_code(code: u32) -> Option<Self> {
        Self::ALL.iter().copied().find(|v| v.code() == code)
    }

    /// The value numbered `code` in a file, or an error that says which codes there are.
    fn read_code(code: u32) -> Result<Self, String> {
        Self::from_code(code).ok_or_else(|| {
            let codes: Vec<String> = Self::ALL.iter().map(|v| v.code().to_string()).collect();
            format!(
                "{} {code} is not supported ({})",
                Self::WHAT,
                codes.join(" or ")
            )
        })
    }

    /// Its name.
    fn name(self) -> &'static str {
        Self::NAMES[self.code() as usize]
    }

    /// The value named `s`, or an error that lists the names.
    fn from_name(s: &str) -> Result<Self, String> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.name() == s)
            .ok_or_else(|| {
                format!(
                    "unknown {} {s:?} ({})",
                    Self::WHAT,
                    Self::NAMES.join(" or ")
                )
            })
    }
}
