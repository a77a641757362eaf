//! `bench` is a signature of the search: the same node count on every run.

use thoat::tools::bench;

#[test]
fn bench_is_deterministic_and_ends_with_the_total() {
    let mut first = Vec::new();
    let a = bench::run(Some(5), &mut first).unwrap();
    let mut second = Vec::new();
    let b = bench::run(Some(5), &mut second).unwrap();
    assert!(a.nodes > 1000);
    assert_eq!(a.nodes, b.nodes);
    let text = String::from_utf8(first).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    for (line, game) in lines.iter().zip(thoat::variants::Variant::names()) {
        assert!(line.starts_with(&format!("{game}: depth 5 ")), "{line}");
    }
    let last: Vec<&str> = lines[5].split_whitespace().collect();
    assert_eq!(last.len(), 4);
    assert_eq!(last[0], a.nodes.to_string());
    assert_eq!((last[1], last[3]), ("nodes", "nps"));
    assert!(last[2].parse::<u64>().is_ok());
}
