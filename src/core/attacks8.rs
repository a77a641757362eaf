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
pub static KNIGHT: [u64; 64] = step_table(&super::KNIGHT_LEAPS);

/// King steps from each square.
pub static KING: [u64; 64] = step_table(&super::KING_STEPS);

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
    fn build(dirs: &[(i8, i8); 4], seed: u64, known: &[u64; 64]) -> SliderTable {
        let mut rng = super::rng::Rng::from_state(seed);
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
                // The magic found for this square before, then random sparse candidates.
                let candidate = if attempt == 1 {
                    known[sq]
                } else {
                    rng.next_u64() & rng.next_u64() & rng.next_u64()
                };
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

/// Magic multipliers found by `SliderTable::build` from its seed, kept so that start-up does
/// not search for them again (the search remains as the fallback and the proof).
static ROOK_MAGICS: [u64; 64] = [
    0x1180001180400120,
    0x0040002000100040,
    0x2080082000801000,
    0x2080048008001000,
    0x0500030008001004,
    0x0B00010008020400,
    0x0200410818940A00,
    0x0100020040308100,
    0x8012802080024000,
    0x1002002080421500,
    0x4060802000801000,
    0x0040808008001000,
    0x8001000801001004,
    0x0102000201048810,
    0x2000800100800200,
    0x0002000214490084,
    0x0801010020408005,
    0x8020008020804008,
    0x9801010040200010,
    0x0140848008001000,
    0x0010828004000800,
    0x8000808004000200,
    0x8020040018028150,
    0x8051020000440081,
    0x1486400080003880,
    0x0000820200410020,
    0x0020200480100280,
    0x0900080080100080,
    0x0204080080040280,
    0x1600040801201040,
    0x0201814400080210,
    0x1002084A00040081,
    0x0402204001800080,
    0x0292004102002080,
    0x0010200080801000,
    0x4140800802801001,
    0x0481001005000800,
    0x0202040080800200,
    0x4082020001010004,
    0x0050291082000044,
    0x0410884102020020,
    0x0000200050004000,
    0x0402001880420020,
    0x1010042011010008,
    0x8004080004008080,
    0x002C040002008080,
    0x4806000401020008,
    0x1041000080410002,
    0x0210420081003200,
    0x0000400080200480,
    0x0048100220028880,
    0x8041024820500300,
    0x0002100800050100,
    0x0085000208040100,
    0x0201000A00041500,
    0x2000800100004080,
    0x000100C120160086,
    0x0200201080400101,
    0x1444088010204202,
    0x80060010C420404A,
    0x80420044302068AE,
    0x0202004810A10402,
    0x0002000108040082,
    0x0F01000882042041,
];

/// As [`ROOK_MAGICS`], for bishops.
static BISHOP_MAGICS: [u64; 64] = [
    0x00445C0800441080,
    0x0084080802668000,
    0x0121124401401800,
    0x06182A0020210028,
    0x000B114000008040,
    0xC000901088000101,
    0x6002011002100000,
    0x8081004044044000,
    0x1040482088021040,
    0x0200200A04106188,
    0x01081008A2015401,
    0x0880040420844000,
    0x4002040421010001,
    0x0004820290040403,
    0x0A8C808404024010,
    0x4208010841042000,
    0x0812140410300104,
    0x0010008210112100,
    0x8014844044010040,
    0x2605084820420000,
    0x0802010C06110000,
    0x4802000022012010,
    0x220C000290941080,
    0x28012000D4041400,
    0x0088400086040849,
    0x0010102005214600,
    0x0004410188080100,
    0x2422002082008200,
    0x0001010081904000,
    0x00008A0244880400,
    0x4800A4000C821803,
    0x8801020008484C20,
    0x0004304004841421,
    0x3008021010086104,
    0x8004002084041100,
    0x8000100820440400,
    0x80100A0080241004,
    0x20101201200A1000,
    0x1801080100420122,
    0x014200A021020204,
    0x0404412010102904,
    0x036602028218A010,
    0x0000092808001400,
    0x0200161148008400,
    0x800A302012000640,
    0x4004509082003100,
    0x2008410404000881,
    0x02B0020200480031,
    0x08A04404200A2000,
    0x0202021084048080,
    0x0033410041100112,
    0x22210501148808A0,
    0x0102000821010200,
    0x4000099001520000,
    0x0004200242420800,
    0x0404100240490200,
    0x0202108228024000,
    0x820001940C020200,
    0x2642480842080430,
    0x00008A4004208831,
    0x0480100410020210,
    0x088280080208A200,
    0x0880401012508119,
    0x1008100082040420,
];

struct Tables {
    rook: SliderTable,
    bishop: SliderTable,
    between: Vec<u64>,
    line: Vec<u64>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let rook = SliderTable::build(&ROOK_DIRS, 0x5EED_0001, &ROOK_MAGICS);
    let bishop = SliderTable::build(&BISHOP_DIRS, 0x5EED_0002, &BISHOP_MAGICS);
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
    fn stored_magics_are_the_ones_the_search_finds() {
        let rook = SliderTable::build(&ROOK_DIRS, 0x5EED_0001, &[0; 64]);
        let bishop = SliderTable::build(&BISHOP_DIRS, 0x5EED_0002, &[0; 64]);
        for sq in 0..64 {
            assert_eq!(rook.magics[sq].magic, ROOK_MAGICS[sq]);
            assert_eq!(bishop.magics[sq].magic, BISHOP_MAGICS[sq]);
        }
    }

    #[test]
    fn magic_lookups_equal_slow_slides() {
        let mut rng = crate::core::rng::Rng::from_state(99);
        for _ in 0..20_000 {
            let occ = rng.next_u64();
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
