//! Time controls in cutechess-cli style: `moves/seconds+increment`, `seconds+increment`,
//! `seconds`, `movetime=MS`, `depth=D`, `nodes=N`, and the clocks that a referee keeps.

use std::time::Duration;

/// How long each engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeControl {
    /// A game clock: `base_ms` for every `moves` moves (or the whole game), plus `inc_ms`
    /// after each move.
    Clock {
        /// Moves per period, `None` for the whole game.
        moves: Option<u32>,
        /// Time per period in milliseconds.
        base_ms: u64,
        /// Increment per move in milliseconds.
        inc_ms: u64,
    },
    /// A fixed time per move in milliseconds.
    MoveTime(u64),
    /// A fixed search depth.
    Depth(u32),
    /// A fixed node count.
    Nodes(u64),
}

fn seconds_to_ms(text: &str) -> Option<u64> {
    let value: f64 = text.parse().ok()?;
    (value.is_finite() && (0.0..=1e7).contains(&value)).then(|| (value * 1000.0).round() as u64)
}

impl TimeControl {
    /// Parses a `--tc` value.
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let bad = || {
            format!(
                "bad time control '{}' (moves/seconds+inc, seconds+inc, movetime=MS, depth=D, nodes=N)",
                text.escape_debug()
            )
        };
        let number = |v: &str| v.parse::<u64>().ok().filter(|&n| n > 0).ok_or_else(bad);
        if let Some(v) = text.strip_prefix("movetime=") {
            return Ok(TimeControl::MoveTime(number(v)?));
        }
        if let Some(v) = text.strip_prefix("depth=") {
            return Ok(TimeControl::Depth(number(v)?.min(127) as u32));
        }
        if let Some(v) = text.strip_prefix("nodes=") {
            return Ok(TimeControl::Nodes(number(v)?));
        }
        let (moves, rest) = match text.split_once('/') {
            Some((m, rest)) => (Some(number(m)?.min(10_000) as u32), rest),
            None => (None, text),
        };
        let (base, inc) = match rest.split_once('+') {
            Some((b, i)) => (b, Some(i)),
            None => (rest, None),
        };
        let base_ms = seconds_to_ms(base).filter(|&ms| ms > 0).ok_or_else(bad)?;
        let inc_ms = match inc {
            Some(i) => seconds_to_ms(i).ok_or_else(bad)?,
            None => 0,
        };
        Ok(TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        })
    }

    /// The PGN `TimeControl` tag value (seconds, as the PGN standard writes clocks).
    pub fn pgn_tag(&self) -> String {
        let secs = |ms: u64| {
            if ms.is_multiple_of(1000) {
                format!("{}", ms / 1000)
            } else {
                format!("{}", ms as f64 / 1000.0)
            }
        };
        match *self {
            TimeControl::Clock {
                moves,
                base_ms,
                inc_ms,
            } => {
                let mut tag = String::new();
                if let Some(m) = moves {
                    tag.push_str(&format!("{m}/"));
                }
                tag.push_str(&secs(base_ms));
                if inc_ms > 0 {
                    tag.push_str(&format!("+{}", secs(inc_ms)));
                }
                tag
            }
            TimeControl::MoveTime(ms) => format!("movetime={ms}"),
            TimeControl::Depth(d) => format!("depth={d}"),
            TimeControl::Nodes(n) => format!("nodes={n}"),
        }
    }
}

/// The clocks of one game: each side's remaining time and moves made.
#[derive(Clone, Debug)]
pub struct Clocks {
    tc: TimeControl,
    remaining: [u64; 2],
    moves_made: [u32; 2],
}

/// How long an engine without a clock (depth, nodes) may take before it is judged stalled.
pub const NO_CLOCK_LIMIT: Duration = Duration::from_secs(60);

impl Clocks {
    /// Fresh clocks for a game.
    pub fn new(tc: TimeControl) -> Clocks {
        let base = match tc {
            TimeControl::Clock { base_ms, .. } => base_ms,
            _ => 0,
        };
        Clocks {
            tc,
            remaining: [base; 2],
            moves_made: [0; 2],
        }
    }

    /// The `go` command for the side with index `side` (0 White, 1 Black).
    pub fn go_command(&self, side: usize) -> String {
        match self.tc {
            TimeControl::Clock { moves, inc_ms, .. } => {
                let mut go = format!(
                    "go wtime {} btime {} winc {inc_ms} binc {inc_ms}",
                    self.remaining[0], self.remaining[1]
                );
                if let Some(m) = moves {
                    let left = m - self.moves_made[side] % m;
                    go.push_str(&format!(" movestogo {left}"));
                }
                go
            }
            TimeControl::MoveTime(ms) => format!("go movetime {ms}"),
            TimeControl::Depth(d) => format!("go depth {d}"),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
        }
    }

    /// The longest the side may think before losing on time, grace included.
    pub fn allowed(&self, side: usize, grace: Duration) -> Duration {
        match self.tc {
            TimeControl::Clock { .. } => Duration::from_millis(self.remaining[side]) + grace,
            TimeControl::MoveTime(ms) => Duration::from_millis(ms) + grace,
            TimeControl::Depth(_) | TimeControl::Nodes(_) => NO_CLOCK_LIMIT,
        }
    }

    /// Charges `used` to the side's clock after a move within the allowed time, and adds
    /// the increment and any new period.
    pub fn charge(&mut self, side: usize, used: Duration) {
        if let TimeControl::Clock {
            moves,
            base_ms,
            inc_ms,
        } = self.tc
        {
            let used = used.as_millis().min(u64::MAX as u128) as u64;
            self.remaining[side] = self.remaining[side].saturating_sub(used) + inc_ms;
            self.moves_made[side] += 1;
            if let Some(m) = moves {
                if self.moves_made[side].is_multiple_of(m) {
                    self.remaining[side] += base_ms;
                }
            }
        }
    }

    /// The remaining time of each side in milliseconds.
    pub fn remaining(&self) -> [u64; 2] {
        self.remaining
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(
            TimeControl::parse("10+0.1"),
            Ok(TimeControl::Clock {
                moves: None,
                base_ms: 10_000,
                inc_ms: 100
            })
        );
        assert_eq!(
            TimeControl::parse("40/60+0.5"),
            Ok(TimeControl::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 500
            })
        );
        assert_eq!(
            TimeControl::parse("40/60"),
            Ok(TimeControl::Clock {
                moves: Some(40),
                base_ms: 60_000,
                inc_ms: 0
            })
        );
        assert_eq!(
            TimeControl::parse("0.5"),
            Ok(TimeControl::Clock {
                moves: None,
                base_ms: 500,
                inc_ms: 0
            })
        );
        assert_eq!(
            TimeControl::parse("movetime=200"),
            Ok(TimeControl::MoveTime(200))
        );
        assert_eq!(TimeControl::parse("depth=6"), Ok(TimeControl::Depth(6)));
        assert_eq!(
            TimeControl::parse("nodes=5000"),
            Ok(TimeControl::Nodes(5000))
        );
        for bad in [
            "",
            "+",
            "10+",
            "x",
            "10+x",
            "/10",
            "0/10",
            "-5",
            "0",
            "nan",
            "inf",
            "depth=",
            "nodes=0",
            "movetime=-1",
            "40/60/2",
            "1e9",
        ] {
            assert!(TimeControl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn pgn_tags_use_seconds() {
        for text in [
            "10+0.1",
            "40/60+0.5",
            "40/60",
            "0.5",
            "movetime=200",
            "nodes=50",
        ] {
            assert_eq!(TimeControl::parse(text).unwrap().pgn_tag(), text);
        }
    }

    #[test]
    fn clocks_charge_add_increments_and_periods() {
        let tc = TimeControl::parse("2/1+0.1").unwrap();
        let mut clocks = Clocks::new(tc);
        assert_eq!(
            clocks.go_command(0),
            "go wtime 1000 btime 1000 winc 100 binc 100 movestogo 2"
        );
        clocks.charge(0, Duration::from_millis(300));
        assert_eq!(clocks.remaining(), [800, 1000]);
        assert_eq!(
            clocks.go_command(0),
            "go wtime 800 btime 1000 winc 100 binc 100 movestogo 1"
        );
        clocks.charge(0, Duration::from_millis(2000));
        // Overdrawn to zero, then the increment and a new period of 1 s.
        assert_eq!(clocks.remaining(), [1100, 1000]);
        let grace = Duration::from_millis(50);
        assert_eq!(clocks.allowed(1, grace), Duration::from_millis(1050));
        let fixed = Clocks::new(TimeControl::MoveTime(200));
        assert_eq!(fixed.go_command(1), "go movetime 200");
        assert_eq!(fixed.allowed(1, grace), Duration::from_millis(250));
        assert_eq!(
            Clocks::new(TimeControl::Depth(3)).go_command(0),
            "go depth 3"
        );
    }
}
