//! The weights of jetan's evaluation terms (`eval.rs`, `TERM_NAMES` in the same order), in
//! centipawns per count. Set by hand and by matches (README, Matches).

/// One weight per term of [`super::eval::TERM_NAMES`].
pub const WEIGHTS: [i32; 32] = [
    100, // material_panthan
    320, // material_thoat
    260, // material_warrior
    260, // material_padwar
    420, // material_dwar
    400, // material_flier
    3,   // centre_thoat
    3,   // centre_warrior
    3,   // centre_padwar
    3,   // centre_dwar
    3,   // centre_flier
    2,   // centre_chief
    0,   // centre_princess
    6,   // panthan_advance
    0,   // panthan_far
    3,   // mobility_thoat
    3,   // mobility_warrior
    3,   // mobility_padwar
    3,   // mobility_dwar
    2,   // mobility_flier
    1,   // mobility_chief
    40,  // princess_escape
    -30, // princess_near_enemies
    6,   // princess_flee
    -60, // princess_trapped
    -50, // princess_attacked
    -20, // chief_attackers
    -25, // chief_attackers_x_lead
    -5,  // chief_threats
    -8,  // chief_threats_x_lead
    -3,  // chiefs_near_x_lead
    10,  // tempo
];
