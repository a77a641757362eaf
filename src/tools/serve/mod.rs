//! `thoat serve`: a board in the browser for every game. One self-contained page
//! (HTML, CSS, JS and SVG pieces, embedded in the binary) and a small JSON API on the
//! engine library: legal moves come from the game's own generator, results from
//! `GameState::result()`, replies from the in-process search, PGN from [`PgnGame`].
//!
//! HTTP is served by `tiny_http`: a synchronous HTTP/1.1 server with four small
//! dependencies and no async runtime, which is all a local single-user board needs.
//! A few worker threads share the listener, so a long engine think in one game does not
//! block another. Analyses run on threads of their own ([`analysis`]), annotations without
//! their game's lock, so neither holds up the game they are about. Every request is
//! answered; a bad one gets `{"error": "..."}` and a 4xx.
//!
//! [`PgnGame`]: crate::tools::pgn::PgnGame

pub mod analysis;
pub mod guard;
pub mod session;

use crate::core::Color;
use crate::tools::analyze::Limit;
use crate::variants::Variant;
use guard::Guard;
use serde_json::{json, Value};
use session::{new_session, Session, Strength};
use std::collections::HashMap;
use std::io::Read;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The page: HTML, CSS, JS and SVG in one file.
const PAGE: &str = include_str!("page.html");
/// The largest request body accepted, in bytes (a FEN and a move are far smaller).
pub const MAX_BODY: usize = 16 * 1024;
/// The most games kept in memory; the least recently used one is dropped beyond it.
pub const MAX_GAMES: usize = 64;
/// Threads answering requests.
const WORKERS: usize = 4;
/// The most analyses thinking at once, over all games; starting one more stops the oldest
/// (a local board has one or two pages open, and each analysis keeps a core busy).
pub const MAX_ANALYSES: usize = 2;
/// The most annotations running at once: each holds a request thread for up to a minute,
/// and the others must stay free for the boards.
pub const MAX_ANNOTATIONS: usize = WORKERS / 2;
/// The most nodes per position an annotation may ask for.
pub const MAX_ANNOTATE_NODES: u64 = 10_000_000;
/// The most time one `evaluate` request spends on evaluations; the page asks again for the
/// rest.
const EVALUATE_BUDGET: Duration = Duration::from_secs(1);

/// An HTTP answer.
#[derive(Debug, Clone)]
pub struct Reply {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
    /// A file name to offer for download (`Content-Disposition`), if any.
    pub download: Option<String>,
}

impl Reply {
    fn json(status: u16, value: Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
            download: None,
        }
    }

    fn error(status: u16, message: impl Into<String>) -> Reply {
        Reply::json(status, json!({ "error": message.into() }))
    }

    fn text(content_type: &'static str, text: String) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: text.into_bytes(),
            download: None,
        }
    }
}

struct Entry {
    session: Arc<Mutex<Box<dyn Session>>>,
    last_used: u64,
}

/// The games in memory and the request router.
pub struct App {
    games: Mutex<HashMap<u64, Entry>>,
    next_id: AtomicU64,
    tick: AtomicU64,
    /// The analyses started, oldest first, with their games: what [`MAX_ANALYSES`] counts.
    /// Stopping one by its handle needs no game's lock, which an engine reply may hold.
    analyses: Mutex<Vec<(u64, analysis::Handle)>>,
    /// Annotations running now (see [`MAX_ANNOTATIONS`]).
    annotating: AtomicUsize,
}

impl Default for App {
    fn default() -> Self {
        App::new()
    }
}

type SessionRef = Arc<Mutex<Box<dyn Session>>>;

impl App {
    /// No games yet.
    pub fn new() -> App {
        App {
            games: Mutex::new(HashMap::new()),
            next_id: AtomicU64::new(1),
            tick: AtomicU64::new(0),
            analyses: Mutex::new(Vec::new()),
            annotating: AtomicUsize::new(0),
        }
    }

    fn games(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        // A poisoned lock only means a handler panicked (caught below); the map is intact.
        self.games.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn insert(&self, session: Box<dyn Session>) -> (u64, SessionRef) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let session = Arc::new(Mutex::new(session));
        let mut games = self.games();
        // Dropped after the map's lock is released: dropping a game stops and joins its
        // analysis, which other requests need not wait for.
        let mut dropped = Vec::new();
        while games.len() >= MAX_GAMES {
            let oldest = games
                .iter()
                .min_by_key(|(_, e)| e.last_used)
                .map(|(&id, _)| id);
            match oldest.and_then(|old| games.remove(&old)) {
                Some(entry) => dropped.push(entry),
                None => break,
            };
        }
        games.insert(
            id,
            Entry {
                session: Arc::clone(&session),
                last_used: self.tick.fetch_add(1, Ordering::Relaxed),
            },
        );
        drop(games);
        drop(dropped);
        (id, session)
    }

    fn find(&self, id: &str) -> Result<(u64, SessionRef), Reply> {
        let number: u64 = id
            .parse()
            .map_err(|_| Reply::error(404, format!("unknown game '{}'", id.escape_debug())))?;
        let mut games = self.games();
        let entry = games
            .get_mut(&number)
            .ok_or_else(|| Reply::error(404, format!("unknown game '{number}'")))?;
        entry.last_used = self.tick.fetch_add(1, Ordering::Relaxed);
        Ok((number, Arc::clone(&entry.session)))
    }

    /// Answers one request. `body` is `Err` when it was too large or unreadable.
    pub fn handle(&self, method: &str, url: &str, body: Result<Vec<u8>, Reply>) -> Reply {
        let (path, query) = url.split_once('?').unwrap_or((url, ""));
        let parts: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
        match (method, parts.as_slice()) {
            ("GET", []) | ("GET", ["index.html"]) => {
                Reply::text("text/html; charset=utf-8", PAGE.to_string())
            }
            ("GET", ["api", "variants"]) => Reply::json(200, variants()),
            ("POST", ["api", "games"]) => match json_body(body) {
                Ok(request) => self.create(&request),
                Err(reply) => reply,
            },
            ("GET", ["api", "games", id]) => self.with_game(id, |_, s| Ok(state(id, s))),
            ("GET", ["api", "games", id, "moves"]) => {
                let from = query_value(query, "from").unwrap_or_default();
                self.with_game(id, |_, s| s.moves_from(&from).map_err(|e| (400, e)))
            }
            ("GET", ["api", "games", id, "fen"]) => match self.find(id) {
                Ok((_, session)) => {
                    let s = lock(&session);
                    let fen = s.state()["fen"].as_str().unwrap_or_default().to_string();
                    Reply::text("text/plain; charset=utf-8", fen + "\n")
                }
                Err(reply) => reply,
            },
            ("GET", ["api", "games", id, "analysis"]) => {
                self.with_game(id, |_, s| Ok(s.analysis()))
            }
            ("DELETE", ["api", "games", id, "analysis"]) => self.with_game(id, |_, s| {
                s.stop_analysis();
                Ok(s.analysis())
            }),
            ("GET", ["api", "games", id, "pgn"]) => match self.find(id) {
                Ok((number, session)) => {
                    let s = lock(&session);
                    let mut reply = Reply::text("application/x-chess-pgn; charset=utf-8", s.pgn());
                    reply.download = Some(format!("thoat-{}-{number}.pgn", s.variant().name()));
                    reply
                }
                Err(reply) => reply,
            },
            ("POST", ["api", "games", id, action]) => {
                let request = match json_body(body) {
                    Ok(request) => request,
                    Err(reply) => return reply,
                };
                match *action {
                    "move" => self.play(id, &request),
                    "engine" => self.engine(id, &request),
                    "undo" => self.undo(id, &request),
                    "evaluate" => self.with_game(id, |_, s| {
                        let missing = s.evaluate(EVALUATE_BUDGET);
                        let mut value = state(id, s);
                        value["missing"] = json!(missing);
                        Ok(value)
                    }),
                    "analysis" => self.analyse(id, &request),
                    "annotate" => self.annotate(id, &request),
                    _ => Reply::error(404, format!("no such action '{}'", action.escape_debug())),
                }
            }
            (_, ["api", ..]) | (_, []) => Reply::error(
                if matches!(method, "GET" | "POST") {
                    404
                } else {
                    405
                },
                format!("no route for {method} {}", path.escape_debug()),
            ),
            _ => Reply::error(404, format!("not found: {}", path.escape_debug())),
        }
    }

    /// Runs `f` on the game `id`; its error becomes a JSON error with its status.
    fn with_game(
        &self,
        id: &str,
        f: impl FnOnce(u64, &mut dyn Session) -> Result<Value, (u16, String)>,
    ) -> Reply {
        match self.find(id) {
            Ok((number, session)) => {
                let mut s = lock(&session);
                match f(number, &mut **s) {
                    Ok(value) => Reply::json(200, value),
                    Err((status, message)) => Reply::error(status, message),
                }
            }
            Err(reply) => reply,
        }
    }

    fn create(&self, request: &Value) -> Reply {
        let variant = match request.get("variant").and_then(Value::as_str) {
            Some(name) => match Variant::from_name(name) {
                Ok(v) => v,
                Err(e) => return Reply::error(400, e),
            },
            None => return Reply::error(400, "'variant' (a string) is required"),
        };
        let fen = match request.get("fen") {
            None | Some(Value::Null) => None,
            Some(Value::String(fen)) => Some(fen.as_str()),
            Some(_) => return Reply::error(400, "'fen' must be a string"),
        };
        let human = match request.get("human").map(|h| h.as_str()) {
            None | Some(Some("w")) => Color::White,
            Some(Some("b")) => Color::Black,
            _ => return Reply::error(400, "'human' must be \"w\" or \"b\""),
        };
        match new_session(variant, fen, human) {
            Ok(session) => {
                let (id, session) = self.insert(session);
                let s = lock(&session);
                Reply::json(201, state(&id.to_string(), &**s))
            }
            Err(e) => Reply::error(400, e),
        }
    }

    fn play(&self, id: &str, request: &Value) -> Reply {
        let Some(text) = request.get("move").and_then(Value::as_str) else {
            return Reply::error(400, "'move' (a string such as \"e2e4\") is required");
        };
        self.with_game(id, |_, s| {
            // A finished game is a conflict with the request (409); a bad move is not (422).
            let status = if s.is_over() { 409 } else { 422 };
            s.play(text).map_err(|e| (status, e))?;
            Ok(state(id, s))
        })
    }

    fn engine(&self, id: &str, request: &Value) -> Reply {
        let strength = match (request.get("movetime"), request.get("depth")) {
            (Some(ms), None) => match ms.as_u64() {
                Some(ms) if ms >= 1 => Strength::Movetime(ms),
                _ => return Reply::error(400, "'movetime' must be a whole number of ms >= 1"),
            },
            (None, Some(depth)) => match depth.as_u64() {
                Some(d) if (1..=session::MAX_DEPTH as u64).contains(&d) => {
                    Strength::Depth(d as i32)
                }
                _ => {
                    return Reply::error(
                        400,
                        format!("'depth' must be from 1 to {}", session::MAX_DEPTH),
                    )
                }
            },
            (None, None) => Strength::Movetime(1_000),
            (Some(_), Some(_)) => return Reply::error(400, "give 'movetime' or 'depth', not both"),
        };
        self.with_game(id, |_, s| {
            let reply = s.engine(strength).map_err(|e| (409, e))?;
            Ok(json!({ "reply": reply, "state": state(id, s) }))
        })
    }

    /// Starts an analysis of game `id`'s position, stopping the oldest analysis of any game
    /// when [`MAX_ANALYSES`] already think.
    fn analyse(&self, id: &str, request: &Value) -> Reply {
        let multipv = match request.get("multipv") {
            None => 1,
            Some(k) => match k.as_u64() {
                Some(k) if (1..=analysis::MAX_MULTIPV as u64).contains(&k) => k as usize,
                _ => {
                    return Reply::error(
                        400,
                        format!("'multipv' must be from 1 to {}", analysis::MAX_MULTIPV),
                    )
                }
            },
        };
        let movetime = match request.get("movetime") {
            None => analysis::MAX_ANALYSIS_MS,
            Some(ms) => match ms.as_u64() {
                Some(ms) if (1..=analysis::MAX_ANALYSIS_MS).contains(&ms) => ms,
                _ => {
                    return Reply::error(
                        400,
                        format!(
                            "'movetime' must be from 1 to {} ms",
                            analysis::MAX_ANALYSIS_MS
                        ),
                    )
                }
            },
        };
        let number = match self.find(id) {
            Ok((number, _)) => number,
            Err(reply) => return reply,
        };
        self.make_room_for_analysis(number);
        self.with_game(id, |number, s| {
            let handle = s.start_analysis(multipv, movetime).map_err(|e| (409, e))?;
            self.analyses_list().push((number, handle));
            Ok(s.analysis())
        })
    }

    /// Annotates game `id`: the annotator's search of every position runs without the
    /// game's lock (other requests to the game are answered meanwhile), bounded by
    /// [`session::MAX_ANNOTATE_MS`] in all.
    fn annotate(&self, id: &str, request: &Value) -> Reply {
        let limit = match annotate_limit(request) {
            Ok(limit) => limit,
            Err(reply) => return reply,
        };
        let session = match self.find(id) {
            Ok((_, session)) => session,
            Err(reply) => return reply,
        };
        let Some(_slot) = Slot::take(&self.annotating, MAX_ANNOTATIONS) else {
            return Reply::error(
                429,
                format!("{MAX_ANNOTATIONS} annotations are running; try again when one is done"),
            );
        };
        let job = lock(&session).annotation_job(limit);
        let annotation = job();
        let mut s = lock(&session);
        let annotated = s.take_annotation(annotation);
        let mut value = state(id, &**s);
        value["annotated"] = json!(annotated);
        Reply::json(200, value)
    }

    fn analyses_list(&self) -> std::sync::MutexGuard<'_, Vec<(u64, analysis::Handle)>> {
        // Poisoned only by a panic between two list operations; the list is still whole.
        self.analyses.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Forgets finished analyses and game `game`'s own (its new one replaces it), then stops
    /// the oldest until a new one fits under [`MAX_ANALYSES`].
    fn make_room_for_analysis(&self, game: u64) {
        let mut list = self.analyses_list();
        list.retain(|(g, handle)| *g != game && handle.is_running());
        while list.len() >= MAX_ANALYSES {
            let (_, oldest) = list.remove(0);
            oldest.stop();
        }
    }

    fn undo(&self, id: &str, request: &Value) -> Reply {
        let plies = match request.get("plies") {
            None => 1,
            Some(p) => match p.as_u64() {
                Some(p) if p >= 1 => p.min(session::MAX_PLIES as u64) as usize,
                _ => return Reply::error(400, "'plies' must be a whole number >= 1"),
            },
        };
        self.with_game(id, |_, s| {
            let taken = s.undo(plies);
            let mut value = state(id, s);
            value["undone"] = json!(taken);
            Ok(value)
        })
    }
}

/// One of at most `most` places, counted in `count` and given back when dropped (also when
/// the work in it panics).
struct Slot<'a>(&'a AtomicUsize);

impl<'a> Slot<'a> {
    fn take(count: &'a AtomicUsize, most: usize) -> Option<Slot<'a>> {
        count
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                (n < most).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(count))
    }
}

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

/// The annotator's limit per position: `nodes`, `movetime` or `depth`, at most one of them;
/// [`session::ANNOTATE_NODES`] when none is given.
fn annotate_limit(request: &Value) -> Result<Limit, Reply> {
    let given: Vec<(&str, &Value)> = ["nodes", "movetime", "depth"]
        .into_iter()
        .filter_map(|key| request.get(key).map(|value| (key, value)))
        .collect();
    let within = |value: &Value, most: u64| value.as_u64().filter(|n| (1..=most).contains(n));
    match given.as_slice() {
        [] => Ok(Limit::Nodes(session::ANNOTATE_NODES)),
        [("nodes", n)] => within(n, MAX_ANNOTATE_NODES)
            .map(Limit::Nodes)
            .ok_or_else(|| {
                Reply::error(
                    400,
                    format!("'nodes' must be from 1 to {MAX_ANNOTATE_NODES}"),
                )
            }),
        [("movetime", ms)] => within(ms, session::MAX_MOVETIME_MS)
            .map(Limit::MoveTime)
            .ok_or_else(|| {
                Reply::error(
                    400,
                    format!(
                        "'movetime' must be from 1 to {} ms",
                        session::MAX_MOVETIME_MS
                    ),
                )
            }),
        [("depth", d)] => within(d, session::MAX_DEPTH as u64)
            .map(|d| Limit::Depth(d as i32))
            .ok_or_else(|| {
                Reply::error(
                    400,
                    format!("'depth' must be from 1 to {}", session::MAX_DEPTH),
                )
            }),
        _ => Err(Reply::error(
            400,
            "give at most one of 'nodes', 'movetime' and 'depth'",
        )),
    }
}

fn lock(session: &SessionRef) -> std::sync::MutexGuard<'_, Box<dyn Session>> {
    // Each call on a session leaves it consistent or unchanged, so a poisoned lock (a
    // handler that panicked, caught by the server) still holds a usable game.
    session.lock().unwrap_or_else(|p| p.into_inner())
}

fn state(id: &str, session: &dyn Session) -> Value {
    let mut value = session.state();
    value["id"] = json!(id);
    value
}

fn variants() -> Value {
    let list: Vec<Value> = Variant::ALL
        .iter()
        .map(|&v| {
            crate::with_game!(v, G => {
                use crate::core::Game;
                json!({"name": v.name(), "width": G::WIDTH, "height": G::HEIGHT, "start_fen": G::START_FEN})
            })
        })
        .collect();
    json!(list)
}

/// Parses a request body as a JSON object; an empty body is `{}`.
fn json_body(body: Result<Vec<u8>, Reply>) -> Result<Value, Reply> {
    let body = body?;
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(json!({}));
    }
    match serde_json::from_slice::<Value>(&body) {
        Ok(value @ Value::Object(_)) => Ok(value),
        Ok(_) => Err(Reply::error(400, "the body must be a JSON object")),
        Err(e) => Err(Reply::error(400, format!("bad JSON: {e}"))),
    }
}

/// The value of `key` in a query string (`from=e2`); only plain square names are expected,
/// so no percent-decoding is needed beyond rejecting what is not plain.
fn query_value(query: &str, key: &str) -> Option<String> {
    query
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .find(|(k, _)| *k == key)
        .map(|(_, v)| v.to_string())
}

/// A bound listener, ready to [`Server::run`].
pub struct Server {
    http: Arc<tiny_http::Server>,
    app: Arc<App>,
    guard: Arc<Guard>,
}

impl Server {
    /// Listens on `host:port` (port 0: any free port), answering requests addressed to an IP
    /// literal, `localhost` or `host` (see [`guard`]).
    pub fn bind(host: &str, port: u16) -> Result<Server, String> {
        Server::bind_allowing(host, port, &[])
    }

    /// As [`Server::bind`], answering also requests addressed to the names in `allowed_hosts`.
    pub fn bind_allowing(
        host: &str,
        port: u16,
        allowed_hosts: &[String],
    ) -> Result<Server, String> {
        let http = tiny_http::Server::http((host, port))
            .map_err(|e| format!("cannot listen on {host}:{port}: {e}"))?;
        Ok(Server {
            http: Arc::new(http),
            app: Arc::new(App::new()),
            guard: Arc::new(Guard::new(host, allowed_hosts)),
        })
    }

    /// The address it listens on.
    pub fn addr(&self) -> Option<SocketAddr> {
        self.http.server_addr().to_ip()
    }

    /// Answers requests until the process ends.
    pub fn run(self) {
        let workers: Vec<_> = (0..WORKERS)
            .map(|_| {
                let http = Arc::clone(&self.http);
                let app = Arc::clone(&self.app);
                let guard = Arc::clone(&self.guard);
                std::thread::spawn(move || serve_requests(&http, &app, &guard))
            })
            .collect();
        for worker in workers {
            let _ = worker.join();
        }
    }
}

fn serve_requests(http: &tiny_http::Server, app: &App, guard: &Guard) {
    for mut request in http.incoming_requests() {
        let method = request.method().as_str().to_string();
        let url = request.url().to_string();
        let header = |name: &'static str| {
            request
                .headers()
                .iter()
                .find(|h| h.field.equiv(name))
                .map(|h| h.value.as_str().to_string())
        };
        let allowed = guard.check(header("Host").as_deref(), header("Origin").as_deref());
        let body = read_body(&mut request);
        // The handler has no panicking path that we know of; if one is ever found, the
        // request still gets a 500 and the server goes on.
        let reply = match allowed {
            Ok(()) => std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                app.handle(&method, &url, body)
            }))
            .unwrap_or_else(|_| Reply::error(500, "internal error")),
            Err(reason) => Reply::error(403, reason),
        };
        log::debug!("{method} {url} -> {}", reply.status);
        let mut response =
            tiny_http::Response::from_data(reply.body).with_status_code(reply.status);
        let mut headers = vec![
            ("Content-Type", reply.content_type.to_string()),
            ("Cache-Control", "no-store".to_string()),
        ];
        if let Some(name) = reply.download {
            headers.push((
                "Content-Disposition",
                format!("attachment; filename=\"{name}\""),
            ));
        }
        for (name, value) in headers {
            if let Ok(header) = tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()) {
                response.add_header(header);
            }
        }
        if let Err(e) = request.respond(response) {
            log::debug!("could not answer {url}: {e}");
        }
    }
}

fn read_body(request: &mut tiny_http::Request) -> Result<Vec<u8>, Reply> {
    let too_large = || Reply::error(413, format!("the body may hold at most {MAX_BODY} bytes"));
    if request.body_length().is_some_and(|n| n > MAX_BODY) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(MAX_BODY as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| Reply::error(400, format!("cannot read the body: {e}")))?;
    if body.len() > MAX_BODY {
        return Err(too_large());
    }
    Ok(body)
}

/// `thoat serve`: listens on `host:port` and serves until the process ends; requests addressed
/// to other names than an IP, `localhost`, `host` and `allowed_hosts` are refused.
pub fn run(host: &str, port: u16, allowed_hosts: &[String]) -> Result<(), String> {
    let server = Server::bind_allowing(host, port, allowed_hosts)?;
    match server.addr() {
        Some(addr) => println!("thoat serve: open http://{addr}/ in a browser"),
        None => println!("thoat serve: listening on {host}:{port}"),
    }
    server.run();
    Ok(())
}
