//! A UCI engine as a child process: started from an `--engine` spec, driven line by line,
//! and always killed and reaped when dropped.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long an engine may take to answer `uci` and `isready`.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// One `--engine` flag: `cmd=PROGRAM [name=NAME] [arg=ARG]... [option.NAME=VALUE]...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name in the PGN and the reports (default: the program's file name).
    pub name: String,
    /// The program to run.
    pub cmd: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// UCI options set after the handshake, in order.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Parses the words of one `--engine` flag.
    pub fn parse(words: &[String]) -> Result<EngineSpec, String> {
        let mut cmd = None;
        let mut name = None;
        let mut args = Vec::new();
        let mut options = Vec::new();
        for word in words {
            let (key, value) = word.split_once('=').ok_or_else(|| {
                format!("--engine: expected key=value (cmd=, name=, arg=, option.X=), not '{word}'")
            })?;
            match key {
                "cmd" => cmd = Some(value.to_string()),
                "name" => name = Some(value.to_string()),
                "arg" => args.push(value.to_string()),
                _ => match key.strip_prefix("option.") {
                    Some(option) if !option.is_empty() => {
                        options.push((option.to_string(), value.to_string()))
                    }
                    _ => return Err(format!("--engine: unknown key '{key}'")),
                },
            }
        }
        let cmd = cmd
            .filter(|c| !c.is_empty())
            .ok_or("--engine: cmd=PROGRAM is missing")?;
        let name = name.unwrap_or_else(|| {
            std::path::Path::new(&cmd)
                .file_name()
                .map_or(cmd.clone(), |f| f.to_string_lossy().into_owned())
        });
        Ok(EngineSpec {
            name,
            cmd,
            args,
            options,
        })
    }
}

/// How long an engine may take to give its `bestmove` after `stop`.
const STOP_TIMEOUT: Duration = Duration::from_secs(2);

/// An engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move text (`(none)` included, for the referee to judge).
    pub mv: String,
    /// The reply it expects (`bestmove ... ponder <move>`), if it said one.
    pub ponder: Option<String>,
    /// The time from the command that started its clock (`go` or `ponderhit`) to the answer.
    pub used: Duration,
}

/// Why an engine failed to give a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineFailure {
    /// No answer within the allowed time.
    Timeout,
    /// The process ended or closed its output.
    Disconnected,
}

/// A running UCI engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The spec it was started from (for restarts).
    pub spec: EngineSpec,
}

impl Engine {
    /// Starts the engine and does the handshake: `uci`/`uciok`, the options, `UCI_Variant`
    /// when `variant` is not chess, `isready`/`readyok`.
    pub fn start(spec: &EngineSpec, variant: &str) -> Result<Engine, String> {
        let mut child = Command::new(&spec.cmd)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start engine '{}' ({}): {e}", spec.name, spec.cmd))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("engine '{}': no pipes", spec.name));
        };
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).split(b'\n') {
                let Ok(line) = line else { break };
                let text = String::from_utf8_lossy(&line).trim_end().to_string();
                if tx.send(text).is_err() {
                    break;
                }
            }
        });
        let mut engine = Engine {
            child,
            stdin,
            lines,
            spec: spec.clone(),
        };
        engine.handshake(variant).map_err(|e| {
            format!(
                "engine '{}' failed the UCI handshake: {e}",
                engine.spec.name
            )
        })?;
        Ok(engine)
    }

    fn handshake(&mut self, variant: &str) -> Result<(), String> {
        self.send("uci")
            .map_err(|_| "it closed its input".to_string())?;
        self.wait_for("uciok", HANDSHAKE_TIMEOUT)
            .map_err(|e| format!("no uciok ({e:?})"))?;
        for (name, value) in self.spec.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))
                .map_err(|_| "it closed its input".to_string())?;
        }
        // A UCI engine plays chess unless told otherwise, and one that only plays chess
        // may have no UCI_Variant option at all.
        if variant != crate::variants::Variant::Chess.name() {
            self.send(&format!("setoption name UCI_Variant value {variant}"))
                .map_err(|_| "it closed its input".to_string())?;
        }
        self.ready().map_err(|e| format!("no readyok ({e:?})"))
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), EngineFailure> {
        log::debug!("{} < {line}", self.spec.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|_| EngineFailure::Disconnected)
    }

    /// Reads lines until one starts with `word`, which it returns.
    pub fn wait_for(&mut self, word: &str, timeout: Duration) -> Result<String, EngineFailure> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    log::trace!("{} > {line}", self.spec.name);
                    if line.split_whitespace().next() == Some(word) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(EngineFailure::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineFailure::Disconnected),
            }
        }
    }

    /// `isready` and wait for `readyok`.
    pub fn ready(&mut self) -> Result<(), EngineFailure> {
        self.send("isready")?;
        self.wait_for("readyok", HANDSHAKE_TIMEOUT).map(|_| ())
    }

    /// Tells the engine a new game begins.
    pub fn new_game(&mut self) -> Result<(), EngineFailure> {
        self.send("ucinewgame")?;
        self.ready()
    }

    /// Sends the position and the `go` command and waits up to `allowed` for `bestmove`.
    pub fn best_move(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
    ) -> Result<Reply, EngineFailure> {
        self.send(position)?;
        self.send(go)?;
        self.reply(allowed)
    }

    /// Starts pondering: `position` already holds the expected reply, `go` the clocks after
    /// it; `go ponder` is sent. The engine answers only after [`Engine::ponderhit`] or
    /// [`Engine::stop_pondering`].
    pub fn ponder(&mut self, position: &str, go: &str) -> Result<(), EngineFailure> {
        self.send(position)?;
        let go = go.strip_prefix("go").unwrap_or(go);
        self.send(&format!("go ponder{go}"))
    }

    /// The opponent played the expected move: `ponderhit`, and its clock runs from now; waits
    /// up to `allowed` for `bestmove`.
    pub fn ponderhit(&mut self, allowed: Duration) -> Result<Reply, EngineFailure> {
        self.send("ponderhit")?;
        self.reply(allowed)
    }

    /// The opponent played another move, or the game ended: `stop`, and the `bestmove` of the
    /// ponder search (thrown away) must come within a short time.
    pub fn stop_pondering(&mut self) -> Result<(), EngineFailure> {
        self.send("stop")?;
        self.wait_for("bestmove", STOP_TIMEOUT).map(|_| ())
    }

    /// Waits up to `allowed` for `bestmove`, timed from now.
    fn reply(&mut self, allowed: Duration) -> Result<Reply, EngineFailure> {
        let start = Instant::now();
        let line = self.wait_for("bestmove", allowed)?;
        let used = start.elapsed();
        let mut words = line.split_whitespace().skip(1);
        let mv = words.next().unwrap_or("").to_string();
        let ponder = match (words.next(), words.next()) {
            (Some("ponder"), Some(p)) => Some(p.to_string()),
            _ => None,
        };
        Ok(Reply { mv, ponder, used })
    }

    /// Whether the process ends within `wait` (its output closes a moment before the
    /// process is gone, so a crash needs a short wait to be told from a closed pipe).
    pub fn has_exited(&mut self, wait: Duration) -> bool {
        let deadline = Instant::now() + wait;
        loop {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Whether the engine still answers: after a timeout it is told to stop, and must then
    /// give its `bestmove` and a `readyok` within a short time.
    pub fn recover(&mut self) -> bool {
        if self.send("stop").is_err() {
            return false;
        }
        let _ = self.wait_for("bestmove", STOP_TIMEOUT);
        self.send("isready").is_ok() && self.wait_for("readyok", Duration::from_secs(2)).is_ok()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Ask politely, give it a moment, then kill; always reap, so no zombie is left.
        let _ = self.send("quit");
        crate::tools::reap(&mut self.child, Duration::from_millis(500));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn parses_engine_specs() {
        let spec = EngineSpec::parse(&words(
            "cmd=/usr/games/stockfish name=sf option.Hash=64 arg=-x",
        ))
        .unwrap();
        assert_eq!(spec.name, "sf");
        assert_eq!(spec.cmd, "/usr/games/stockfish");
        assert_eq!(spec.args, vec!["-x".to_string()]);
        assert_eq!(spec.options, vec![("Hash".to_string(), "64".to_string())]);
        let unnamed = EngineSpec::parse(&words("cmd=./target/release/thoat")).unwrap();
        assert_eq!(unnamed.name, "thoat");
        assert!(EngineSpec::parse(&words("name=x")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x colour=red")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x option.=1")).is_err());
        assert!(EngineSpec::parse(&words("cmd=x bare")).is_err());
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let spec = EngineSpec::parse(&words("cmd=/nonexistent/engine")).unwrap();
        assert!(Engine::start(&spec, "chess").is_err());
    }
}
