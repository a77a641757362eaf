//! The evaluation weights of jetan: one per term of its `Tunable::TERM_NAMES`, in that
//! order, each with its term's name (`thoat tune` writes this file in this form).
//! Set by hand and chosen by 100-game matches against material only (docs/matches.md):
//! Texel-tuned weights from self-play lost to these.

/// The weights in play.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 33] = [
    100, // material_panthan
    320, // material_thoat
    260, // material_warrior
    260, // material_padwar
    420, // material_dwar
    400, // material_flier
    3, // centre_thoat
    3, // centre_warrior
    3, // centre_padwar
    3, // centre_dwar
    3, // centre_flier
    2, // centre_chief
    0, // centre_princess
    6, // panthan_advance
    0, // panthan_far
    3, // mobility_thoat
    3, // mobility_warrior
    3, // mobility_padwar
    3, // mobility_dwar
    2, // mobility_flier
    1, // mobility_chief
    40, // princess_escape
    -40, // princess_near_enemies
    10, // princess_flee
    -150, // princess_trapped
    -100, // princess_attacked
    -60, // chief_attackers
    -40, // chief_attackers_x_lead
    -15, // chief_threats
    -12, // chief_threats_x_lead
    -3, // chiefs_near_x_lead
    20, // tempo
    -70, // chief_invading
];
