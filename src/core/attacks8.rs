//! Attack tables for 8x8 boards (also used by 7x7 boards embedded in the 8x8 layout):
//! knight, king and pawn steps as constant tables, rook and bishop slides by fancy magic
//! bitboards found at first use from a fixed seed, and the `between`/`line` tables.
//! Square index = rank * 8 + file.

use std::sync::LazyLock;

const fn step_table(deltas: &[(i8, i8)]) -> [u64; 64] {
    let mut table = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = ((sq % 8) as i8, (sq / 8) as i8);
        let mut i = 0;
        while i < deltas.len() {
            let (f, r) = (file + deltas[i].0, rank + deltas[i].1);
            if f >= 0 && f < 8 && r >= 0 && r < 8 {
                table[sq] |= 1u64 << (r * 8 + f);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Knight moves from each square.
pub static KNIGHT: [u64; 64] = step_table(&[
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
]);

/// King steps from each square.
pub static KING: [u64; 64] = step_table(&[
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
]);

/// Squares a pawn of each colour attacks: `PAWN_ATTACKS[color][square]`.
pub static PAWN_ATTACKS: [[u64; 64]; 2] = [
    step_table(&[(-1, 1), (1, 1)]),
    step_table(&[(-1, -1), (1, -1)]),
];

/// Diagonal two-step jumps (the chaturanga elephant, the alfil).
pub static ALFIL: [u64; 64] = step_table(&[(2, 2), (2, -2), (-2, 2), (-2, -2)]);

/// One diagonal step (the chaturanga counsellor, the ferz).
pub static FERZ: [u64; 64] = step_table(&[(1, 1), (1, -1), (-1, 1), (-1, -1)]);

/// One orthogonal step (the wazir).
pub static WAZIR: [u64; 64] = step_table(&[(1, 0), (-1, 0), (0, 1), (0, -1)]);

const ROOK_DIRS: [(i8, i8); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

fn slide(sq: usize, occupied: u64, dirs: &[(i8, i8); 4]) -> u64 {
    let mut attacks = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            f += df;
            r += dr;
            if !(0..8).contains(&f) || !(0..8).contains(&r) {
                break;
            }
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occupied & bit != 0 {
                break;
            }
        }
    }
    attacks
}

/// The squares whose occupancy matters for a slider on `sq`: its rays without the last square.
fn relevant_mask(sq: usize, dirs: &[(i8, i8); 4]) -> u64 {
    let mut mask = 0;
    for &(df, dr) in dirs {
        let (mut f, mut r) = ((sq % 8) as i8, (sq / 8) as i8);
        loop {
            let (nf, nr) = (f + df, r + dr);
            if !(0..8).contains(&(nf + df)) || !(0..8).contains(&(nr + dr)) {
                break;
            }
            f = nf;
            r = nr;
            mask |= 1u64 << (r * 8 + f);
        }
    }
    mask
}

#[derive(Clone, Copy, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

struct SliderTable {
    magics: [Magic; 64],
    attacks: Vec<u64>,
}

impl SliderTable {
    fn build(dirs: &[(i8, i8); 4], seed: u64) -> SliderTable {
        let mut rng = seed;
        let mut next = || {
            let (state, value) = super::zobrist::splitmix64(rng);
            rng = state;
            value
        };
        let mut magics = [Magic::default(); 64];
        let mut attacks = Vec::new();
        for (sq, entry) in magics.iter_mut().enumerate() {
            let mask = relevant_mask(sq, dirs);
            let bits = mask.count_ones();
            let size = 1usize << bits;
            // Every subset of the mask (Carry-Rippler enumeration) with its attack set.
            let mut occupancies = Vec::with_capacity(size);
            let mut subset = 0u64;
            loop {
                occupancies.push((subset, slide(sq, subset, dirs)));
                subset = subset.wrapping_sub(mask) & mask;
                if subset == 0 {
                    break;
                }
            }
            let shift = 64 - bits;
            let mut table = vec![0u64; size];
            let mut used = vec![0u32; size];
            let mut attempt = 0u32;
            let magic = loop {
                attempt += 1;
                let candidate = next() & next() & next();
                if (mask.wrapping_mul(candidate) >> 56).count_ones() < 6 {
                    continue;
                }
                let ok = occupancies.iter().all(|&(occ, att)| {
                    let index = (occ.wrapping_mul(candidate) >> shift) as usize;
                    if used[index] != attempt {
                        used[index] = attempt;
                        table[index] = att;
                        true
                    } else {
                        table[index] == att
                    }
                });
                if ok {
                    break candidate;
                }
            };
            *entry = Magic {
                mask,
                magic,
                shift,
                offset: attacks.len(),
            };
            attacks.extend_from_slice(&table);
        }
        SliderTable { magics, attacks }
    }

    #[inline]
    fn get(&self, sq: usize, occupied: u64) -> u64 {
        let m = &self.magics[sq];
        self.attacks[m.offset + ((occupied & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }
}

struct Tables {
    rook: SliderTable,
    bishop: SliderTable,
    between: Vec<u64>,
    line: Vec<u64>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let rook = SliderTable::build(&ROOK_DIRS, 0x5EED_0001);
    let bishop = SliderTable::build(&BISHOP_DIRS, 0x5EED_0002);
    let mut between = vec![0u64; 64 * 64];
    let mut line = vec![0u64; 64 * 64];
    for a in 0..64 {
        for b in 0..64 {
            if a == b {
                continue;
            }
            let bit_b = 1u64 << b;
            for (table, dirs) in [(&rook, &ROOK_DIRS), (&bishop, &BISHOP_DIRS)] {
                if table.get(a, 0) & bit_b != 0 {
                    between[a * 64 + b] = slide(a, bit_b, dirs) & slide(b, 1u64 << a, dirs);
                    line[a * 64 + b] =
                        (slide(a, 0, dirs) & slide(b, 0, dirs)) | (1u64 << a) | bit_b;
                }
            }
        }
    }
    Tables {
        rook,
        bishop,
        between,
        line,
    }
});

/// Forces the tables to be built now (so the first search or perft is not charged for it).
pub fn init() {
    LazyLock::force(&TABLES);
}

/// Rook attacks from `sq` with the given occupancy.
#[inline]
pub fn rook(sq: u8, occupied: u64) -> u64 {
    TABLES.rook.get(sq as usize, occupied)
}

/// Bishop attacks from `sq` with the given occupancy.
#[inline]
pub fn bishop(sq: u8, occupied: u64) -> u64 {
    TABLES.bishop.get(sq as usize, occupied)
}

/// Queen attacks from `sq` with the given occupancy.
#[inline]
pub fn queen(sq: u8, occupied: u64) -> u64 {
    rook(sq, occupied) | bishop(sq, occupied)
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal, else 0.
#[inline]
pub fn between(a: u8, b: u8) -> u64 {
    TABLES.between[a as usize * 64 + b as usize]
}

/// The whole line (rank, file or diagonal) through `a` and `b`, or 0 if there is none.
#[inline]
pub fn line(a: u8, b: u8) -> u64 {
    TABLES.line[a as usize * 64 + b as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_equal_slow_slides() {
        let mut state = 99u64;
        for _ in 0..20_000 {
            let (s, occ) = crate::core::zobrist::splitmix64(state);
            state = s;
            let occ = occ & crate::core::zobrist::splitmix64(occ).1;
            let sq = (occ % 64) as u8;
            assert_eq!(rook(sq, occ), slide(sq as usize, occ, &ROOK_DIRS));
            assert_eq!(bishop(sq, occ), slide(sq as usize, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn between_and_line() {
        // a1 = 0, h8 = 63, d4 = 27
        assert_eq!(between(0, 63).count_ones(), 6);
        assert_ne!(between(0, 63) & 1 << 27, 0);
        assert_eq!(between(0, 10), 0); // a1, c2: no line
        assert_eq!(line(0, 9).count_ones(), 8);
        assert_eq!(KNIGHT[0].count_ones(), 2);
        assert_eq!(KING[27].count_ones(), 8);
    }
}
