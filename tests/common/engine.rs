//! Drives the `thoat` binary over its stdin/stdout as a GUI would.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_thoat"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start thoat");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to engine");
        self.stdin.flush().expect("flush");
    }

    /// Every line up to and including the first one for which `done` holds.
    pub fn read_until(&mut self, done: impl Fn(&str) -> bool, timeout: Duration) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("timeout; lines so far: {seen:#?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine died; lines so far: {seen:#?}")
                }
            }
        }
    }

    /// Sends `isready` and returns every line before `readyok`.
    pub fn sync(&mut self) -> Vec<String> {
        self.send("isready");
        let mut lines = self.read_until(|l| l == "readyok", Duration::from_secs(30));
        lines.pop();
        lines
    }

    /// Asserts that the engine has answered with no `bestmove` yet (`when`: the moment, for
    /// the message), reading what it printed so far.
    pub fn assert_no_bestmove(&mut self, when: &str) {
        let replies = self.sync();
        assert!(
            replies.iter().all(|l| !l.starts_with("bestmove")),
            "bestmove {when}: {replies:?}"
        );
    }

    /// The FEN the engine reports with `d` (whose last line is `Result: ...`).
    pub fn fen(&mut self) -> String {
        self.send("d");
        let lines = self.read_until(|l| l.starts_with("Result: "), Duration::from_secs(10));
        let fen = lines
            .iter()
            .find_map(|l| l.strip_prefix("Fen: "))
            .expect("a Fen line");
        fen.to_string()
    }

    /// Waits for `bestmove` and returns the move text (or `(none)`).
    pub fn bestmove(&mut self, timeout: Duration) -> (String, Vec<String>) {
        let lines = self.read_until(|l| l.starts_with("bestmove"), timeout);
        let last = lines.last().unwrap().clone();
        let mv = last.split_whitespace().nth(1).unwrap_or("").to_string();
        (mv, lines)
    }

    /// Sends a `go` command and waits (at most 10 s) for its `bestmove`: the move text and
    /// every line up to it.
    pub fn go(&mut self, go: &str) -> (String, Vec<String>) {
        self.send(go);
        self.bestmove(Duration::from_secs(10))
    }

    /// Sends a `go` command and asserts that some line up to its `bestmove` contains `text`.
    pub fn go_and_expect(&mut self, go: &str, text: &str) {
        let (_, lines) = self.go(go);
        assert!(lines.iter().any(|l| l.contains(text)), "{text}: {lines:?}");
    }

    pub fn quit(mut self) {
        self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                assert!(status.success(), "engine exit status {status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        panic!("engine did not quit");
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
