//! Training positions: the lines `thoat datagen --scores` writes, `<fen> ; <score> ; <result>`
//! (the search's score in centipawns and the game's result, both for White: `1`, `0.5`, `0`),
//! read into the inputs a network sees. A malformed line is an error that names it, and
//! reading goes on.

use super::features::{active_inputs, mirrored_input, InputLayout, NnueGame};
use crate::core::Color;

/// One position to learn from.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// The active inputs from the side to move's view, then from the other side's.
    pub inputs: [Vec<u16>; 2],
    /// The search's score for the side to move, centipawns.
    pub score: i32,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// Whether the position's mirror image left to right is worth the same
    /// ([`NnueGame::mirror_symmetric`]).
    pub mirrorable: bool,
}

impl Sample {
    /// The sample of the position mirrored left to right (the same score and result).
    pub fn mirrored<G: NnueGame>(&self) -> Sample {
        let mirror = |view: &Vec<u16>| {
            let mut inputs: Vec<u16> = view
                .iter()
                .map(|&i| mirrored_input::<G>(usize::from(i)) as u16)
                .collect();
            inputs.sort_unstable();
            inputs
        };
        Sample {
            inputs: [mirror(&self.inputs[0]), mirror(&self.inputs[1])],
            ..self.clone()
        }
    }
}

/// Adds to `samples` the mirror image of each one whose position allows it; returns how
/// many it added. For training positions only: a validation set with the mirrors of
/// training positions in it would measure what the network has seen.
pub fn add_mirror_images<G: NnueGame>(samples: &mut Vec<Sample>) -> usize {
    let mirrors: Vec<Sample> = samples
        .iter()
        .filter(|s| s.mirrorable)
        .map(Sample::mirrored::<G>)
        .collect();
    let added = mirrors.len();
    samples.extend(mirrors);
    added
}

/// Reads one line `<fen> ; <score> ; <result>` of game `G`, its inputs in `layout`.
pub fn parse_sample<G: NnueGame>(line: &str, layout: InputLayout) -> Result<Sample, String> {
    let mut fields = line.split(';').map(str::trim);
    let (Some(fen), Some(score), Some(result), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected '<fen> ; <score> ; <result>'".to_string());
    };
    let position = G::from_fen(fen)?;
    let score: i32 = score
        .parse()
        .map_err(|_| format!("the score '{score}' is not a whole number of centipawns"))?;
    if score.abs() > 100_000 {
        return Err(format!("the score {score} is out of range"));
    }
    let result: f32 = match result {
        "1" | "1.0" => 1.0,
        "0.5" | "1/2" => 0.5,
        "0" | "0.0" => 0.0,
        _ => return Err(format!("the result '{result}' is not 1, 0.5 or 0")),
    };
    let mut views = [Vec::new(), Vec::new()];
    active_inputs(&position, layout, &mut views);
    let [white, black] = views;
    let mirrorable = position.mirror_symmetric();
    Ok(match position.side_to_move() {
        Color::White => Sample {
            inputs: [white, black],
            score,
            result,
            mirrorable,
        },
        Color::Black => Sample {
            inputs: [black, white],
            score: -score,
            result: 1.0 - result,
            mirrorable,
        },
    })
}

/// Reads every line of `text`: the samples (inputs in `layout`), and one message per
/// malformed line (blank lines and `#` comments are skipped).
pub fn read_samples<G: NnueGame>(text: &str, layout: InputLayout) -> (Vec<Sample>, Vec<String>) {
    let mut samples = Vec::new();
    let mut errors = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_sample::<G>(line, layout) {
            Ok(sample) => samples.push(sample),
            Err(e) => errors.push(format!("line {}: {e}", number + 1)),
        }
    }
    (samples, errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Game;
    use crate::variants::{Chaturanga, Chess, Duck, Jetan, Skak};

    #[test]
    fn samples_are_seen_from_the_side_to_move() {
        let white = parse_sample::<Chess>(
            "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 120 ; 1",
            InputLayout::Plain,
        )
        .unwrap();
        let black = parse_sample::<Chess>(
            "4k3/4p3/8/8/8/8/8/4K3 b - - 0 1 ; -120 ; 0",
            InputLayout::Plain,
        )
        .unwrap();
        // The same position with the colours exchanged: the same sample.
        assert_eq!(white, black);
        assert_eq!(white.score, 120);
        assert_eq!(white.result, 1.0);
    }

    /// A mirrored sample is the sample of the position drawn mirrored by hand; a position
    /// with castling rights has none.
    #[test]
    fn a_mirror_image_is_the_sample_of_the_mirrored_position() {
        fn check<G: NnueGame>(line: &str, mirrored_line: &str) {
            let sample = parse_sample::<G>(line, InputLayout::Plain).unwrap();
            let by_hand = parse_sample::<G>(mirrored_line, InputLayout::Plain).unwrap();
            assert!(sample.mirrorable, "{line}");
            assert_ne!(
                sample.inputs, by_hand.inputs,
                "{line}: an asymmetric position"
            );
            assert_eq!(sample.mirrored::<G>(), by_hand, "{line}");
            assert_eq!(by_hand.mirrored::<G>(), sample, "{line}");
        }
        check::<Chess>(
            "r1bq1rk1/pp3ppp/2n2n2/3p4/1b1P4/2NB1N2/PP3PPP/R2QK2R b - - 3 9 ; -35 ; 0.5",
            "1kr1qb1r/ppp3pp/2n2n2/4p3/4P1b1/2N1BN2/PPP3PP/R2KQ2R b - - 3 9 ; -35 ; 0.5",
        );
        check::<Duck>(
            "4k3/1p6/8/3*4/8/8/6P1/4K2R w - - 0 30 ; 210 ; 1",
            "3k4/6p1/8/4*3/8/8/1P6/R2K4 w - - 0 30 ; 210 ; 1",
        );
        check::<Skak>(
            "rqbk2r/ppp1ppp/3b3/3P3/5q1/PPP1PPP/RQBKB1R w - - 0 5 ; 40 ; 0.5",
            "r2kbqr/ppp1ppp/3b3/3P3/1q5/PPP1PPP/R1BKBQR w - - 0 5 ; 40 ; 0.5",
        );
        check::<Jetan>(
            Jetan::START_FEN
                .split_once(' ')
                .map(|(board, rest)| format!("{board} {rest} ; 0 ; 0.5"))
                .unwrap()
                .as_str(),
            "wadfkqfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFQKFDAW w Qq 0 1 ; 0 ; 0.5",
        );
        let castling = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 ; 0 ; 0.5";
        assert!(
            !parse_sample::<Chess>(castling, InputLayout::Plain)
                .unwrap()
                .mirrorable
        );
        let chaturanga = format!("{} ; 0 ; 0.5", Chaturanga::START_FEN);
        assert!(
            !parse_sample::<Chaturanga>(&chaturanga, InputLayout::Plain)
                .unwrap()
                .mirrorable
        );
    }

    /// In the king-mirrored layout a position and its mirror image have the same inputs
    /// (their kings off the middle file): `--mirror` would add nothing.
    #[test]
    fn king_mirrored_samples_of_a_position_and_its_mirror_image_are_equal() {
        let line = "r1bq1rk1/pp3ppp/2n2n2/3p4/1b1P4/2NB1N2/PP3PPP/R2QK2R b - - 3 9 ; -35 ; 0.5";
        let mirrored = "1kr1qb1r/ppp3pp/2n2n2/4p3/4P1b1/2N1BN2/PPP3PP/R2KQ2R b - - 3 9 ; -35 ; 0.5";
        let sample = |line| parse_sample::<Chess>(line, InputLayout::KingMirrored).unwrap();
        assert_eq!(sample(line), sample(mirrored));
        let plain = |line| parse_sample::<Chess>(line, InputLayout::Plain).unwrap();
        assert_ne!(plain(line), plain(mirrored));
    }

    #[test]
    fn mirror_images_are_added_for_mirrorable_samples_only() {
        let text = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 ; 0 ; 0.5\n\
            4k3/8/8/8/8/8/1P6/4K3 w - - 0 1 ; 100 ; 1\n";
        let (mut samples, errors) = read_samples::<Chess>(text, InputLayout::Plain);
        assert!(errors.is_empty());
        assert_eq!(add_mirror_images::<Chess>(&mut samples), 1);
        assert_eq!(samples.len(), 3);
        assert_eq!(samples[2], samples[1].mirrored::<Chess>());
    }

    #[test]
    fn malformed_lines_are_named_and_skipped() {
        let text = "# comment\n\n4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 12 ; 0.5\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 12\n\
            8/8/8 w ; 1 ; 1\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; x ; 1\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 1 ; 2\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 99999999 ; 1\n";
        let (samples, errors) = read_samples::<Chess>(text, InputLayout::Plain);
        assert_eq!(samples.len(), 1);
        assert_eq!(errors.len(), 5, "{errors:?}");
        assert!(errors[0].starts_with("line 4: expected"), "{errors:?}");
        assert!(errors[2].contains("'x'"));
        assert!(errors[3].contains("'2'"));
    }
}
