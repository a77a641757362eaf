//! Time management: how long to think, from the UCI `go` limits. The soft limit ends
//! iterative deepening between iterations; the hard limit stops the search mid-iteration.
//! Both keep a safety margin (`Move Overhead` plus a reserve) so the engine never loses
//! on time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The most of `Move Overhead` that `go movetime` keeps spare, in milliseconds.
pub const MOVETIME_MARGIN_MS: u64 = 3;

/// The limits of one `go` command.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Maximum depth in plies.
    pub depth: Option<i32>,
    /// Maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// Exact thinking time in milliseconds.
    pub movetime: Option<u64>,
    /// Remaining clock time of White and Black, in milliseconds.
    pub time: [Option<u64>; 2],
    /// Increment per move of White and Black, in milliseconds.
    pub increment: [u64; 2],
    /// Moves to the next time control.
    pub movestogo: Option<u32>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Start in ponder mode (until `ponderhit` or `stop`).
    pub ponder: bool,
    /// Look for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search only these root moves (UCI `searchmoves`); empty means all.
    pub searchmoves: Vec<crate::core::Move>,
}

impl Limits {
    /// A search to `depth` plies and no other limit.
    pub fn fixed_depth(depth: i32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// A search of `nodes` nodes and no other limit.
    pub fn fixed_nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }
}

/// The clock of one search: started at `go` (or restarted at `ponderhit`), with the soft and
/// hard limits for the side to move.
pub struct Clock {
    epoch: Instant,
    start_ns: AtomicU64,
    soft: Option<Duration>,
    hard: Option<Duration>,
    pondering: AtomicBool,
}

impl Clock {
    /// The clock for `limits`, for the side with index `side`, keeping `overhead_ms` spare.
    pub fn new(limits: &Limits, side: usize, overhead_ms: u64) -> Clock {
        let (soft, hard) = if limits.infinite {
            (None, None)
        } else if let Some(ms) = limits.movetime {
            // A fixed time per move is used in full: no early stop between iterations, and
            // only a small margin for the reply to leave (`Move Overhead` is for a clock,
            // whose lag adds up over a game; a fixed time is the opponent's own choice).
            let ms = ms
                .saturating_sub(overhead_ms.min(MOVETIME_MARGIN_MS))
                .max(1);
            (None, Some(Duration::from_millis(ms)))
        } else if let Some(remaining) = limits.time[side] {
            let increment = limits.increment[side];
            // Never plan to use the last overhead + 20 ms + 5 % of the clock.
            // Saturating: the clock values come from the GUI and may be absurd (u64::MAX).
            let reserve = overhead_ms
                .saturating_add(20)
                .saturating_add(remaining / 20);
            let usable = remaining.saturating_sub(reserve).max(1);
            // Without `movestogo`, plan for 20 more moves: a twentieth of the clock a move
            // beat a thirtieth by +27 Elo at 3+0.03 in chess (docs/search.md, session 34).
            let moves_left = limits.movestogo.map_or(20, |m| m.clamp(1, 50)) as u64;
            let soft = (usable / moves_left)
                .saturating_add(increment.saturating_mul(3) / 4)
                .min(usable);
            let hard = soft
                .saturating_mul(4)
                .min(usable.saturating_mul(2) / 5)
                .max(soft.min(usable))
                .max(1);
            (
                Some(Duration::from_millis(soft.max(1))),
                Some(Duration::from_millis(hard)),
            )
        } else {
            (None, None)
        };
        Clock {
            epoch: Instant::now(),
            start_ns: AtomicU64::new(0),
            soft,
            hard,
            pondering: AtomicBool::new(limits.ponder),
        }
    }

    /// Time since the start (or since `ponderhit`).
    pub fn elapsed(&self) -> Duration {
        let start = Duration::from_nanos(self.start_ns.load(Ordering::Relaxed));
        self.epoch.elapsed().saturating_sub(start)
    }

    /// `ponderhit`: the opponent played the expected move; the clock starts now.
    pub fn ponderhit(&self) {
        let now = self.epoch.elapsed().as_nanos() as u64;
        self.start_ns.store(now, Ordering::Relaxed);
        self.pondering.store(false, Ordering::Release);
    }

    /// Whether the search is pondering (no time limit applies).
    pub fn pondering(&self) -> bool {
        self.pondering.load(Ordering::Acquire)
    }

    /// Whether a new iteration should not be started.
    pub fn soft_expired(&self) -> bool {
        self.soft_expired_scaled(1.0)
    }

    /// Whether a new iteration should not be started when the soft limit is scaled by
    /// `scale` (the search's confidence in its best move: below 1 when it is stable, above
    /// when it changes or the score drops). Never beyond the hard limit.
    ///
    /// The soft limit counts from `go`, pondering included: after a `ponderhit` the search
    /// has already done the work a fresh `go` would do in that time, so it answers at the end
    /// of the iteration in progress instead of thinking the whole budget again. (The hard
    /// limit counts from `ponderhit`: only then does the engine's own clock run.)
    pub fn soft_expired_scaled(&self, scale: f64) -> bool {
        !self.pondering()
            && self.soft.is_some_and(|s| {
                self.epoch.elapsed().as_secs_f64() * 2.0 >= s.as_secs_f64() * scale
            })
    }

    /// Whether the search must stop now.
    pub fn hard_expired(&self) -> bool {
        !self.pondering() && self.hard.is_some_and(|h| self.elapsed() >= h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_plans_beyond_the_clock() {
        for remaining in [1u64, 10, 50, 100, 1000, 60_000, u64::MAX] {
            for inc in [0u64, 100, 2000, u64::MAX] {
                let limits = Limits {
                    time: [Some(remaining), Some(remaining)],
                    increment: [inc, inc],
                    ..Limits::default()
                };
                let clock = Clock::new(&limits, 0, 10);
                let hard = clock.hard.unwrap().as_millis() as u64;
                assert!(hard <= remaining.max(1), "{remaining} {inc}: hard {hard}");
                assert!(clock.soft.unwrap() <= clock.hard.unwrap());
                assert!(clock.soft.unwrap() > Duration::ZERO);
            }
        }
    }

    #[test]
    fn infinite_and_ponder_have_no_limit() {
        let clock = Clock::new(
            &Limits {
                infinite: true,
                ..Limits::default()
            },
            0,
            10,
        );
        assert!(!clock.hard_expired());
        let limits = Limits {
            ponder: true,
            movetime: Some(1),
            ..Limits::default()
        };
        let clock = Clock::new(&limits, 0, 0);
        std::thread::sleep(Duration::from_millis(3));
        assert!(!clock.hard_expired());
        clock.ponderhit();
        std::thread::sleep(Duration::from_millis(3));
        assert!(clock.hard_expired());
    }

    #[test]
    fn after_ponderhit_the_soft_limit_counts_the_pondering() {
        let limits = Limits {
            ponder: true,
            time: [Some(3000), Some(3000)],
            ..Limits::default()
        };
        let clock = Clock::new(&limits, 0, 0);
        let soft = clock.soft.unwrap();
        std::thread::sleep(soft);
        assert!(!clock.soft_expired(), "no limit while pondering");
        clock.ponderhit();
        assert!(
            clock.soft_expired(),
            "the pondering counts toward the soft limit"
        );
        assert!(!clock.hard_expired(), "the hard limit starts at ponderhit");
    }

    #[test]
    fn movetime_keeps_only_a_small_margin() {
        let limits = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let clock = Clock::new(&limits, 0, 30);
        assert_eq!(
            clock.hard,
            Some(Duration::from_millis(100 - MOVETIME_MARGIN_MS))
        );
        assert_eq!(clock.soft, None);
        let clock = Clock::new(&limits, 0, 0);
        assert_eq!(clock.hard, Some(Duration::from_millis(100)));
    }
}
