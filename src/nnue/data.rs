//! Training positions: the lines `thoat datagen --scores` writes, `<fen> ; <score> ; <result>`
//! (the search's score in centipawns and the game's result, both for White: `1`, `0.5`, `0`),
//! read into the inputs a network sees. A malformed line is an error that names it, and
//! reading goes on.

use super::features::{active_inputs, NnueGame};
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
}

/// Reads one line `<fen> ; <score> ; <result>` of game `G`.
pub fn parse_sample<G: NnueGame>(line: &str) -> Result<Sample, String> {
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
    active_inputs(&position, &mut views);
    let [white, black] = views;
    Ok(match position.side_to_move() {
        Color::White => Sample {
            inputs: [white, black],
            score,
            result,
        },
        Color::Black => Sample {
            inputs: [black, white],
            score: -score,
            result: 1.0 - result,
        },
    })
}

/// Reads every line of `text`: the samples, and one message per malformed line (blank lines
/// and `#` comments are skipped).
pub fn read_samples<G: NnueGame>(text: &str) -> (Vec<Sample>, Vec<String>) {
    let mut samples = Vec::new();
    let mut errors = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match parse_sample::<G>(line) {
            Ok(sample) => samples.push(sample),
            Err(e) => errors.push(format!("line {}: {e}", number + 1)),
        }
    }
    (samples, errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variants::Chess;

    #[test]
    fn samples_are_seen_from_the_side_to_move() {
        let white = parse_sample::<Chess>("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 120 ; 1").unwrap();
        let black = parse_sample::<Chess>("4k3/4p3/8/8/8/8/8/4K3 b - - 0 1 ; -120 ; 0").unwrap();
        // The same position with the colours exchanged: the same sample.
        assert_eq!(white, black);
        assert_eq!(white.score, 120);
        assert_eq!(white.result, 1.0);
    }

    #[test]
    fn malformed_lines_are_named_and_skipped() {
        let text = "# comment\n\n4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 12 ; 0.5\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 12\n\
            8/8/8 w ; 1 ; 1\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; x ; 1\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 1 ; 2\n\
            4k3/8/8/8/8/8/4P3/4K3 w - - 0 1 ; 99999999 ; 1\n";
        let (samples, errors) = read_samples::<Chess>(text);
        assert_eq!(samples.len(), 1);
        assert_eq!(errors.len(), 5, "{errors:?}");
        assert!(errors[0].starts_with("line 4: expected"), "{errors:?}");
        assert!(errors[2].contains("'x'"));
        assert!(errors[3].contains("'2'"));
    }
}
