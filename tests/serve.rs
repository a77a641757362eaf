//! `thoat serve`'s HTTP/JSON API, over real TCP: the server runs in-process on a free port
//! and every request is written by hand with `TcpStream`, as a browser would send it.

use serde_json::{json, Value};
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::OnceLock;
use std::time::Duration;
use thoat::core::{Game, Move};
use thoat::tools::serve::{Server, MAX_ANALYSES, MAX_BODY, MAX_GAMES};
use thoat::variants::Jetan;

/// One server for the whole test binary (tests run in parallel; each uses its own games).
fn server() -> SocketAddr {
    static ADDR: OnceLock<SocketAddr> = OnceLock::new();
    *ADDR.get_or_init(|| {
        thoat::core::attacks8::init();
        let server = Server::bind("127.0.0.1", 0).expect("bind a free port");
        let addr = server.addr().expect("an IP address");
        std::thread::spawn(move || server.run());
        addr
    })
}

/// Sends raw bytes and returns (status, headers, body).
fn raw(request: &[u8]) -> (u16, String, String) {
    raw_to(server(), request)
}

fn raw_to(addr: SocketAddr, request: &[u8]) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    stream.write_all(request).expect("send");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8_lossy(&answer).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

fn request(method: &str, path: &str, body: Option<&str>) -> (u16, String, String) {
    request_to(server(), method, path, body)
}

fn request_to(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
) -> (u16, String, String) {
    let body = body.unwrap_or("");
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw_to(addr, text.as_bytes())
}

/// A JSON request; returns the status and the parsed body.
fn call(method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let text = body.map(|b| b.to_string());
    let (status, _, body) = request(method, path, text.as_deref());
    let value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    (status, value)
}

fn new_game(body: Value) -> (String, Value) {
    let (status, state) = call("POST", "/api/games", Some(body));
    assert_eq!(status, 201, "{state}");
    (state["id"].as_str().expect("an id").to_string(), state)
}

/// A 4xx with a JSON `error` text.
fn assert_error(method: &str, path: &str, body: Option<&str>, expected: u16) -> String {
    let (status, head, text) = request(method, path, body);
    assert_eq!(status, expected, "{method} {path}: {text}");
    assert!(head.contains("application/json"), "{head}");
    let value: Value = serde_json::from_str(&text).expect("a JSON error");
    value["error"].as_str().expect("an error text").to_string()
}

#[test]
fn the_page_is_served_whole_and_offline() {
    let (status, head, body) = request("GET", "/", None);
    assert_eq!(status, 200);
    assert!(head.contains("text/html"));
    assert!(
        body.contains("<svg") || body.contains("SVG = {"),
        "piece images inline"
    );
    // Nothing is loaded from elsewhere: no script, style or image from another host.
    for external in ["src=\"http", "href=\"http", "url(http", "@import"] {
        assert!(!body.contains(external), "the page loads {external}…");
    }
    let (status, list) = call("GET", "/api/variants", None);
    assert_eq!(status, 200);
    let names: Vec<&str> = list
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|v| v["name"].as_str())
        .collect();
    assert_eq!(names, ["chess", "duck", "chaturanga", "skak", "jetan"]);
    assert_eq!(list[4]["width"], 10);
    assert_eq!(list[3]["height"], 7);
}

#[test]
fn legal_moves_come_from_the_engine_with_the_escape_marked() {
    let (id, state) = new_game(json!({"variant": "jetan"}));
    assert_eq!(state["side_to_move"], "w");
    assert_eq!(state["pieces"].as_array().map(Vec::len), Some(40));
    let (status, answer) = call("GET", &format!("/api/games/{id}/moves?from=f1"), None);
    assert_eq!(status, 200, "{answer}");
    let moves = answer["moves"].as_array().expect("moves");
    // The same moves as the library's generator gives for the Princess on f1.
    let position = Jetan::from_fen(Jetan::START_FEN).expect("start");
    let mut all: Vec<Move> = Vec::new();
    position.generate(&mut all);
    let mut expected: Vec<String> = all
        .iter()
        .map(|&m| position.move_text(m))
        .filter(|t| t.starts_with("f1"))
        .collect();
    let mut got: Vec<String> = moves
        .iter()
        .map(|m| m["text"].as_str().unwrap_or("").to_string())
        .collect();
    expected.sort();
    got.sort();
    assert_eq!(got, expected);
    let find = |to: &str| moves.iter().find(|m| m["to"] == to).cloned();
    // f3 is a normal Princess move; a3 she reaches only by the escape (RULES.md).
    assert_eq!(find("f3").expect("f3")["escape"], false);
    assert_eq!(find("a3").expect("a3")["escape"], true);
    assert!(moves.iter().all(|m| m["duck"].is_null()));
    // An empty square and the enemy's piece have no moves for the side to move.
    let (_, answer) = call("GET", &format!("/api/games/{id}/moves?from=e5"), None);
    assert_eq!(answer["moves"], json!([]));
    let (_, answer) = call("GET", &format!("/api/games/{id}/moves?from=b9"), None);
    assert_eq!(answer["moves"], json!([]));
}

#[test]
fn duck_moves_have_the_duck_square_as_second_part() {
    let (id, _) = new_game(json!({"variant": "duck"}));
    let (_, answer) = call("GET", &format!("/api/games/{id}/moves?from=g1"), None);
    let moves = answer["moves"].as_array().expect("moves");
    // Two knight moves, each with the duck on any of the 32 empty squares (g1 included).
    assert_eq!(moves.len(), 64);
    let one = moves
        .iter()
        .find(|m| m["text"] == "g1f3,f3g1")
        .expect("the duck may take the square just left");
    assert_eq!((&one["to"], &one["duck"]), (&json!("f3"), &json!("g1")));
}

#[test]
fn chaturanga_promotes_only_as_the_rules_allow() {
    // White has no horse left: the b-pawn promotes on b8 to a horse, and only to that.
    let (id, _) =
        new_game(json!({"variant": "chaturanga", "fen": "3k4/1P6/8/8/8/8/8/4K3 w - - 0 1"}));
    let (_, answer) = call("GET", &format!("/api/games/{id}/moves?from=b7"), None);
    assert_eq!(
        answer["moves"],
        json!([{"text": "b7b8n", "from": "b7", "to": "b8", "promotion": "n",
                "duck": null, "escape": false}])
    );
}

#[test]
fn a_move_is_made_an_illegal_one_rejected_and_the_engine_replies() {
    let (id, start) = new_game(json!({"variant": "jetan", "human": "w"}));
    let path = format!("/api/games/{id}/move");
    let (status, state) = call("POST", &path, Some(json!({"move": "b2b3"})));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["moves"], json!(["b2b3"]));
    assert_eq!(state["side_to_move"], "b");
    assert_eq!(state["last_move"]["to"], "b3");
    assert_ne!(state["fen"], start["fen"]);
    // Illegal (Black's turn; a White move), malformed, and missing moves: 4xx, nothing changes.
    for (body, expected) in [
        (r#"{"move":"c2c3"}"#, 422),
        (r#"{"move":"zz"}"#, 422),
        (r#"{"move":"b9b8x"}"#, 422),
        (r#"{"mv":"b9b8"}"#, 400),
        (r#"{"move":42}"#, 400),
    ] {
        let error = assert_error("POST", &path, Some(body), expected);
        assert!(!error.is_empty());
    }
    let (_, after) = call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(after["fen"], state["fen"]);
    // The engine's reply at depth 2, with its evaluation, depth and PV.
    let (status, answer) = call(
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({"depth": 2})),
    );
    assert_eq!(status, 200, "{answer}");
    let reply = &answer["reply"];
    let played = reply["move"]["text"].as_str().expect("a move").to_string();
    assert_eq!(reply["depth"], 2);
    assert_eq!(reply["pv"][0], played.as_str());
    assert!(reply["eval"]
        .as_str()
        .is_some_and(|e| e.starts_with(['+', '-', '#'])));
    assert_eq!(answer["state"]["moves"], json!(["b2b3", played]));
    assert_eq!(answer["state"]["side_to_move"], "w");
    // Undo two plies: back to the start.
    let (status, state) = call(
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(json!({"plies": 2})),
    );
    assert_eq!(status, 200);
    assert_eq!(state["undone"], 2);
    assert_eq!(state["fen"], start["fen"]);
    let (_, fen_head, fen) = request("GET", &format!("/api/games/{id}/fen"), None);
    assert!(fen_head.contains("text/plain"));
    assert_eq!(fen.trim(), start["fen"].as_str().expect("fen"));
}

#[test]
fn the_game_ends_with_its_reason_and_the_pgn_says_so() {
    // Skak: the Adhal takes the Jarkhan.
    let fen = "3k3/7/7/7/7/7/3QK2 w - - 0 1";
    let (id, _) = new_game(json!({"variant": "skak", "fen": fen}));
    let (status, state) = call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "d1d7"})),
    );
    assert_eq!(status, 200);
    assert_eq!(
        state["result"],
        json!({"winner": "w", "reason": "jarkhan captured", "pgn": "1-0"})
    );
    // After the end: no move, no engine reply (409).
    assert_error(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(r#"{"move":"d7d6"}"#),
        409,
    );
    assert_error("POST", &format!("/api/games/{id}/engine"), Some("{}"), 409);
    let (status, head, pgn) = request("GET", &format!("/api/games/{id}/pgn"), None);
    assert_eq!(status, 200);
    assert!(head.contains("Content-Disposition: attachment"), "{head}");
    for line in [
        "[Variant \"skak\"]",
        "[SetUp \"1\"]",
        &format!("[FEN \"{fen}\"]"),
        "[Result \"1-0\"]",
        "[Termination \"jarkhan captured\"]",
        "1. d1d7 1-0",
    ] {
        assert!(pgn.contains(line), "{line} in {pgn}");
    }
    // Duck chess: capturing the king wins.
    let (id, _) = new_game(json!({"variant": "duck", "fen": "4k3/8/8/8/8/8/8/4Q2K w - - 0 1"}));
    let (_, state) = call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e1e8,e8d7"})),
    );
    assert_eq!(state["result"]["reason"], "king captured");
    assert_eq!(state["result"]["winner"], "w");
    // Jetan: a Panthan takes the Princess; Black's engine reply is refused.
    let fen = "5k4/10/10/10/10/10/4q5/4P5/10/4K4Q w - 0 1";
    let (id, state) = new_game(json!({"variant": "jetan", "fen": fen}));
    assert!(state["result"].is_null());
    let (_, state) = call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e3e4"})),
    );
    assert_eq!(
        state["result"],
        json!({"winner": "w", "reason": "princess captured", "pgn": "1-0"})
    );
    assert_error("POST", &format!("/api/games/{id}/engine"), Some("{}"), 409);
}

#[test]
fn either_side_may_begin_from_a_fen() {
    let fen = "wadfqkfdaw/tppppppppt/10/10/10/10/10/10/TPPPPPPPPT/WADFKQFDAW b Qq 0 1";
    let (id, state) = new_game(json!({"variant": "jetan", "fen": fen, "human": "b"}));
    assert_eq!(state["side_to_move"], "b");
    assert_eq!(state["first_to_move"], "b");
    assert_eq!(state["human"], "b");
    let (status, _) = call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "b9b8"})),
    );
    assert_eq!(status, 200);
    let (_, _, pgn) = request("GET", &format!("/api/games/{id}/pgn"), None);
    assert!(pgn.contains("1... b9b8 *"), "{pgn}");
    assert!(pgn.contains("[White \"thoat\"]"));
}

#[test]
fn bad_requests_get_a_json_error_and_a_4xx() {
    let (id, _) = new_game(json!({"variant": "chess"}));
    assert_error("POST", "/api/games", Some("{not json"), 400);
    assert_error("POST", "/api/games", Some("[1,2]"), 400);
    assert_error("POST", "/api/games", Some(r#"{"variant":"xiangqi"}"#), 400);
    assert_error(
        "POST",
        "/api/games",
        Some(r#"{"fen":"8/8/8/8/8/8/8/8 w - - 0 1"}"#),
        400,
    );
    let error = assert_error(
        "POST",
        "/api/games",
        Some(r#"{"variant":"chess","fen":"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w KQkq - 0 1"}"#),
        400,
    );
    assert!(error.contains("FEN"), "{error}");
    assert_error(
        "POST",
        "/api/games",
        Some(r#"{"variant":"chess","human":"x"}"#),
        400,
    );
    assert_error("GET", "/api/games/999999", None, 404);
    assert_error("GET", "/api/games/abc", None, 404);
    assert_error("GET", &format!("/api/games/{id}/moves?from=z9"), None, 400);
    assert_error("GET", &format!("/api/games/{id}/moves?from=e9"), None, 400);
    assert_error("GET", &format!("/api/games/{id}/moves"), None, 400);
    assert_error(
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(r#"{"depth":0}"#),
        400,
    );
    assert_error(
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(r#"{"movetime":-5}"#),
        400,
    );
    assert_error(
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(r#"{"movetime":5,"depth":3}"#),
        400,
    );
    assert_error(
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(r#"{"plies":0}"#),
        400,
    );
    assert_error("POST", &format!("/api/games/{id}/resign"), Some("{}"), 404);
    assert_error("GET", "/api/nothing", None, 404);
    assert_error("DELETE", "/api/games", None, 405);
    // A huge body is refused before it is read in full.
    let huge = "x".repeat(MAX_BODY + 1);
    assert_error("POST", "/api/games", Some(&huge), 413);
    // Not HTTP at all, and bytes that are not UTF-8: the server answers or hangs up, and
    // goes on serving.
    let _ = raw(b"\x00\xff garbage\r\n\r\n");
    let _ = raw(b"GET /api/games/\xff\xfe HTTP/1.1\r\nConnection: close\r\n\r\n");
    let (status, _) = call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
}

#[test]
fn games_in_memory_are_bounded() {
    // A server of its own, so that no other test's game is dropped.
    let server = Server::bind("127.0.0.1", 0).expect("bind");
    let addr = server.addr().expect("address");
    std::thread::spawn(move || server.run());
    let create = || {
        let (status, _, body) =
            request_to(addr, "POST", "/api/games", Some(r#"{"variant":"skak"}"#));
        assert_eq!(status, 201);
        let state: Value = serde_json::from_str(&body).expect("JSON");
        state["id"].as_str().expect("id").to_string()
    };
    let first = create();
    let second = create();
    // Using the first game makes the second the least recently used.
    assert_eq!(
        request_to(addr, "GET", &format!("/api/games/{first}"), None).0,
        200
    );
    for _ in 0..MAX_GAMES - 1 {
        create();
    }
    assert_eq!(
        request_to(addr, "GET", &format!("/api/games/{second}"), None).0,
        404
    );
    assert_eq!(
        request_to(addr, "GET", &format!("/api/games/{first}"), None).0,
        200
    );
}

/// DNS rebinding: a page whose own name resolves to this machine sends its name as `Host`;
/// a page elsewhere names itself in `Origin`. Neither may read or drive the API.
#[test]
fn foreign_hosts_and_cross_origin_requests_are_refused() {
    let addr = server();
    let port = addr.port();
    let send = |method: &str, path: &str, headers: &str, body: &str| {
        let text = format!(
            "{method} {path} HTTP/1.1\r\n{headers}Connection: close\r\n\
             Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        raw_to(addr, text.as_bytes())
    };
    let create = r#"{"variant": "skak", "fen": null, "human": "w"}"#;
    let own = format!("127.0.0.1:{port}");
    let rebound = format!("rebound.example:{port}");
    let localhost = format!("localhost:{port}");
    // (method, path, Host, Origin, body, status, text the answer names)
    #[rustfmt::skip]
    let cases = [
        ("GET", "/api/variants", Some("evil.example"), None, "", 403, "evil.example"),
        ("POST", "/api/games", Some(rebound.as_str()), Some(format!("http://{rebound}")), create, 403, ""),
        ("POST", "/api/games", Some(own.as_str()), Some("http://evil.example".into()), create, 403, "cross-origin"),
        ("GET", "/", None, None, "", 403, ""),
        // The board's own page, and clients that send no Origin, are answered.
        ("POST", "/api/games", Some(own.as_str()), Some(format!("http://{own}")), create, 201, ""),
        ("GET", "/api/variants", Some(localhost.as_str()), None, "", 200, ""),
    ];
    for (method, path, host, origin, body, status, names) in cases {
        let mut headers = String::new();
        if let Some(host) = host {
            headers += &format!("Host: {host}\r\n");
        }
        if let Some(origin) = origin {
            headers += &format!("Origin: {origin}\r\n");
        }
        let (got, _, answer) = send(method, path, &headers, body);
        assert_eq!(got, status, "{method} {path} {headers:?}: {answer}");
        assert!(
            answer.contains(names),
            "{method} {path} {headers:?}: {answer}"
        );
    }
}

/// A server of its own, for tests whose analyses must not count against another test's
/// (the server lets `MAX_ANALYSES` think at once).
fn own_server() -> SocketAddr {
    thoat::core::attacks8::init();
    let server = Server::bind("127.0.0.1", 0).expect("bind");
    let addr = server.addr().expect("address");
    std::thread::spawn(move || server.run());
    addr
}

/// A JSON request to the server at `addr`.
fn call_to(addr: SocketAddr, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let text = body.map(|b| b.to_string());
    let (status, _, body) = request_to(addr, method, path, text.as_deref());
    let value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    (status, value)
}

/// Polls the analysis of game `id` until `done` holds for it (at most 30 s).
fn poll_analysis(addr: SocketAddr, id: &str, done: impl Fn(&Value) -> bool) -> Value {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    loop {
        let (status, analysis) = call_to(addr, "GET", &format!("/api/games/{id}/analysis"), None);
        assert_eq!(status, 200, "{analysis}");
        if done(&analysis) {
            return analysis;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "waited 30 s; last: {analysis}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn every_position_is_evaluated_and_engine_replies_reuse_their_score() {
    let (id, state) = new_game(json!({"variant": "chess"}));
    assert_eq!(state["evals"], json!([null]));
    let (_, state) = call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e2e4"})),
    );
    assert_eq!(state["evals"], json!([null, null]));
    let (status, state) = call("POST", &format!("/api/games/{id}/evaluate"), None);
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["missing"], 0);
    let evals = state["evals"].as_array().expect("evals");
    assert_eq!(evals.len(), 2);
    for eval in evals {
        assert!(eval["depth"].as_i64().is_some_and(|d| d >= 1), "{eval}");
        assert!(eval["score"]["cp"].is_i64(), "{eval}");
        assert!(eval["eval"]
            .as_str()
            .is_some_and(|e| e.starts_with(['+', '-'])));
    }
    // The engine's reply: its score is the evaluation of the position after it, White's view.
    let (_, answer) = call(
        "POST",
        &format!("/api/games/{id}/engine"),
        Some(json!({"depth": 3})),
    );
    let evals = answer["state"]["evals"].as_array().expect("evals").clone();
    assert_eq!(evals.len(), 3);
    assert_eq!(
        evals[1], state["evals"][1],
        "an evaluation once made is kept"
    );
    assert_eq!(evals[2]["eval"], answer["reply"]["eval"]);
    assert_eq!(evals[2]["depth"], 3);
    let (_, state) = call(
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(json!({"plies": 1})),
    );
    assert_eq!(state["evals"].as_array().map(Vec::len), Some(2));

    // Mates from White's view whoever moves, and a finished game's result.
    for (fen, capture, mate, result) in [
        ("3k3/7/7/7/7/7/3QK2 w - - 0 1", "d1d7", 1, "1-0"),
        ("3q2k/7/7/7/7/7/3K3 b - - 0 1", "d7d1", -1, "0-1"),
    ] {
        let (id, _) = new_game(json!({"variant": "skak", "fen": fen}));
        call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": capture })),
        );
        let (_, state) = call("POST", &format!("/api/games/{id}/evaluate"), None);
        let evals = &state["evals"];
        let first = match state["moves"].as_array().map(Vec::len) {
            Some(1) => &evals[0],
            _ => panic!("{capture} not played from {fen}: {state}"),
        };
        assert_eq!(first["score"], json!({ "mate": mate }), "{fen}");
        let text = if mate > 0 { "#1" } else { "#-1" };
        assert_eq!(first["eval"], text);
        assert_eq!(evals[1]["eval"], result, "{fen}");
        assert_eq!(evals[1]["score"], Value::Null);
    }
    assert_error("POST", "/api/games/999999/evaluate", Some("{}"), 404);
}

#[test]
fn analysis_lines_arrive_live_and_stop_when_the_position_changes() {
    let addr = own_server();
    let (status, state) = call_to(
        addr,
        "POST",
        "/api/games",
        Some(json!({"variant": "chess"})),
    );
    assert_eq!(status, 201);
    let id = state["id"].as_str().expect("id").to_string();
    let path = format!("/api/games/{id}/analysis");
    let (status, started) = call_to(addr, "POST", &path, Some(json!({"multipv": 3})));
    assert_eq!(status, 200, "{started}");
    assert_eq!(
        (&started["running"], &started["multipv"]),
        (&json!(true), &json!(3))
    );
    // Three lines, numbered 1 to 3, each with a different first move.
    let three = poll_analysis(addr, &id, |a| {
        a["lines"].as_array().map(Vec::len) == Some(3)
    });
    let lines = three["lines"].as_array().expect("lines");
    let mut firsts = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        assert_eq!(line["multipv"], k + 1);
        assert!(line["depth"].as_i64().is_some_and(|d| d >= 1), "{line}");
        assert!(line["score"]["cp"].is_i64() || line["score"]["mate"].is_i64());
        assert!(line["eval"]
            .as_str()
            .is_some_and(|e| e.starts_with(['+', '-', '#'])));
        let first = line["pv"][0].as_str().expect("a move").to_string();
        let described = &line["move"];
        assert_eq!(described["text"], first.as_str());
        assert_eq!(
            format!(
                "{}{}",
                described["from"].as_str().unwrap_or(""),
                described["to"].as_str().unwrap_or("")
            ),
            first
        );
        firsts.push(first);
    }
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{three}");
    assert_eq!(three["fen"], state["fen"]);
    // Live: deeper lines keep coming while it runs.
    let depth = three["depth"].as_i64().expect("depth");
    poll_analysis(addr, &id, |a| a["depth"].as_i64() > Some(depth));

    // A move while it thinks is answered at once and stops it.
    let started = std::time::Instant::now();
    let (status, _) = call_to(
        addr,
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e2e4"})),
    );
    assert_eq!(status, 200);
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
    let (_, after) = call_to(addr, "GET", &path, None);
    assert_eq!(after["running"], false, "{after}");
    assert_eq!(after["lines"], json!([]));
    assert_ne!(after["fen"], three["fen"]);

    // A short analysis ends by itself and keeps its lines; off forgets them.
    let (status, _) = call_to(addr, "POST", &path, Some(json!({"movetime": 150})));
    assert_eq!(status, 200);
    let ended = poll_analysis(addr, &id, |a| a["running"] == false);
    assert_eq!(ended["multipv"], 1);
    assert_eq!(ended["lines"].as_array().map(Vec::len), Some(1), "{ended}");
    let (status, off) = call_to(addr, "DELETE", &path, None);
    assert_eq!(status, 200);
    assert_eq!(
        (&off["running"], &off["lines"]),
        (&json!(false), &json!([]))
    );
    // Undo and a new analysis of the new position: undo stops it too.
    call_to(addr, "POST", &path, Some(json!({"multipv": 2})));
    poll_analysis(addr, &id, |a| {
        !a["lines"].as_array().is_some_and(Vec::is_empty)
    });
    call_to(addr, "POST", &format!("/api/games/{id}/undo"), None);
    let (_, after) = call_to(addr, "GET", &path, None);
    assert_eq!(
        (&after["running"], &after["fen"]),
        (&json!(false), &state["fen"])
    );
}

#[test]
fn bad_analysis_requests_get_a_json_error() {
    let (id, _) = new_game(json!({"variant": "jetan"}));
    let path = format!("/api/games/{id}/analysis");
    for body in [
        r#"{"multipv":0}"#,
        r#"{"multipv":4}"#,
        r#"{"multipv":"two"}"#,
        r#"{"multipv":1.5}"#,
        r#"{"movetime":0}"#,
        r#"{"movetime":-1}"#,
        r#"{"movetime":60001}"#,
        r#"{"movetime":null}"#,
        "[3]",
        "{oops",
    ] {
        let error = assert_error("POST", &path, Some(body), 400);
        assert!(!error.is_empty(), "{body}");
    }
    // Nothing was started by them.
    let (_, analysis) = call("GET", &path, None);
    assert_eq!(analysis["running"], false);
    for method in ["GET", "POST", "DELETE"] {
        assert_error(method, "/api/games/999999/analysis", Some("{}"), 404);
        assert_error(method, "/api/games/x/analysis", Some("{}"), 404);
    }
    // A finished game has nothing to analyse.
    let (id, _) = new_game(json!({"variant": "skak", "fen": "3k3/7/7/7/7/7/3QK2 w - - 0 1"}));
    call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "d1d7"})),
    );
    let error = assert_error(
        "POST",
        &format!("/api/games/{id}/analysis"),
        Some("{}"),
        409,
    );
    assert!(error.contains("over"), "{error}");
}

#[test]
fn a_new_analysis_beyond_the_limit_stops_the_oldest() {
    let addr = own_server();
    let games: Vec<String> = (0..MAX_ANALYSES + 1)
        .map(|_| {
            let (_, state) = call_to(addr, "POST", "/api/games", Some(json!({"variant": "skak"})));
            let id = state["id"].as_str().expect("id").to_string();
            let (status, _) = call_to(addr, "POST", &format!("/api/games/{id}/analysis"), None);
            assert_eq!(status, 200);
            id
        })
        .collect();
    poll_analysis(addr, &games[0], |a| a["running"] == false);
    for id in &games[1..] {
        let (_, analysis) = call_to(addr, "GET", &format!("/api/games/{id}/analysis"), None);
        assert_eq!(analysis["running"], true, "{id}: {analysis}");
        call_to(addr, "DELETE", &format!("/api/games/{id}/analysis"), None);
    }
}

#[test]
fn annotate_marks_the_blunder_and_the_graph_takes_its_evaluations() {
    // White's queen walks into the rook's file; the rook takes it.
    let fen = "3rk3/8/8/8/8/8/8/4KQ2 w - - 0 1";
    let (id, _) = new_game(json!({"variant": "chess", "fen": fen}));
    for mv in ["f1d3", "d8d3"] {
        let (status, _) = call(
            "POST",
            &format!("/api/games/{id}/move"),
            Some(json!({ "move": mv })),
        );
        assert_eq!(status, 200);
    }
    let path = format!("/api/games/{id}/annotate");
    let (status, state) = call("POST", &path, Some(json!({"nodes": 5000})));
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["annotated"], 2);
    let notes = state["notes"].as_array().expect("notes");
    assert_eq!(notes.len(), 2);
    assert_eq!(
        (&notes[0]["symbol"], &notes[0]["judgement"]),
        (&json!("??"), &json!("blunder")),
        "{state}"
    );
    assert!(notes[0]["loss"].as_f64().is_some_and(|l| l > 0.3));
    let best = notes[0]["best"][0].as_str().expect("the better line");
    assert_ne!(best, "f1d3");
    assert_eq!(
        notes[1]["symbol"],
        Value::Null,
        "taking the queen is no mistake"
    );
    // The graph now shows the evaluations the marks come from: White stood well, then lost.
    let evals = state["evals"].as_array().expect("evals");
    assert_eq!(evals.len(), 3);
    assert!(evals
        .iter()
        .all(|e| e["depth"].is_null() && e["score"].is_object()));
    let expected = |i: usize| evals[i]["expected"].as_f64().expect("expected score");
    assert!(expected(0) > 0.7 && expected(2) < 0.3, "{:?}", evals);
    let accuracy = &state["accuracy"];
    assert!(
        accuracy["w"].as_f64() < accuracy["b"].as_f64(),
        "{accuracy}"
    );
    // Undo keeps the notes of the moves still played; a new move has none yet.
    call(
        "POST",
        &format!("/api/games/{id}/undo"),
        Some(json!({"plies": 1})),
    );
    let (_, state) = call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "e8e7"})),
    );
    assert_eq!(state["notes"][0]["symbol"], "??");
    assert_eq!(state["notes"][1], Value::Null);

    for body in [
        r#"{"nodes":0}"#,
        r#"{"nodes":"many"}"#,
        r#"{"nodes":10000001}"#,
        r#"{"movetime":0}"#,
        r#"{"movetime":30001}"#,
        r#"{"depth":41}"#,
        r#"{"depth":-2}"#,
        r#"{"nodes":100,"depth":3}"#,
        "[]",
    ] {
        assert_error("POST", &path, Some(body), 400);
    }
    assert_error("POST", "/api/games/999999/annotate", Some("{}"), 404);
}

/// The annotator searches without the game's lock: the game is answered meanwhile.
#[test]
fn a_game_being_annotated_still_answers() {
    let (id, _) = new_game(json!({"variant": "skak"}));
    call(
        "POST",
        &format!("/api/games/{id}/move"),
        Some(json!({"move": "a2a3"})),
    );
    let path = format!("/api/games/{id}/annotate");
    let annotation =
        std::thread::spawn(move || call("POST", &path, Some(json!({"movetime": 600}))));
    std::thread::sleep(Duration::from_millis(200));
    let asked = std::time::Instant::now();
    let (status, _) = call("GET", &format!("/api/games/{id}"), None);
    assert_eq!(status, 200);
    assert!(
        asked.elapsed() < Duration::from_millis(500),
        "{:?}",
        asked.elapsed()
    );
    let (status, state) = annotation.join().expect("the annotation's answer");
    assert_eq!(status, 200, "{state}");
    assert_eq!(state["annotated"], 1);
}
