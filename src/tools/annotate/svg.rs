//! The evaluation graph of one game as a standalone SVG: White's expected score over the
//! plies (the light area is White's share), the even line, and the judged moves marked in
//! the colours of their suffix, each with a tooltip naming the move.

use super::game::{MoveNote, PositionEval};
use super::judge::Judgement;
use crate::core::Color;

const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 12.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 28.0;

/// The marker colour of a judgement.
pub fn colour(judgement: Judgement) -> &'static str {
    match judgement {
        Judgement::Inaccuracy => "#e6b800",
        Judgement::Mistake => "#e07b00",
        Judgement::Blunder => "#d11f1f",
    }
}

/// Escapes text for SVG content and attribute values.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The graph of one game. `labels[k]` names move `k` (as `12... e7e5`); `title` heads it;
/// `first_move` is the number of the game's first move, for the axis.
pub fn graph(
    title: &str,
    evals: &[PositionEval],
    notes: &[MoveNote],
    labels: &[String],
    first_move: u32,
) -> String {
    let plot_w = WIDTH - LEFT - RIGHT;
    let plot_h = HEIGHT - TOP - BOTTOM;
    let last = evals.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| LEFT + plot_w * i as f64 / last;
    let y = |e: f64| TOP + plot_h * (1.0 - e.clamp(0.0, 1.0));
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{HEIGHT}\" \
         viewBox=\"0 0 {WIDTH} {HEIGHT}\" font-family=\"sans-serif\" font-size=\"11\">\n\
         <title>{}</title>\n<rect width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#ffffff\"/>\n\
         <text x=\"{LEFT}\" y=\"18\" font-size=\"13\">{}</text>\n\
         <rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{plot_w}\" height=\"{plot_h}\" fill=\"#3b3b3b\"/>\n",
        escape(title),
        escape(title)
    );
    if !evals.is_empty() {
        let mut points = format!("{:.1},{:.1}", x(0), y(0.0));
        for (i, eval) in evals.iter().enumerate() {
            points.push_str(&format!(" {:.1},{:.1}", x(i), y(eval.white_expected())));
        }
        points.push_str(&format!(" {:.1},{:.1}", x(evals.len() - 1), y(0.0)));
        svg.push_str(&format!(
            "<polygon class=\"white-share\" points=\"{points}\" fill=\"#ececec\"/>\n"
        ));
    }
    svg.push_str(&format!(
        "<line x1=\"{LEFT}\" y1=\"{mid:.1}\" x2=\"{:.1}\" y2=\"{mid:.1}\" stroke=\"#8a8a8a\" \
         stroke-dasharray=\"4 3\"/>\n",
        WIDTH - RIGHT,
        mid = y(0.5)
    ));
    for (value, text) in [(1.0, "100%"), (0.5, "50%"), (0.0, "0%")] {
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{text}</text>\n",
            LEFT - 4.0,
            y(value) + 4.0
        ));
    }
    // Move numbers under the plot, every ten moves (twenty plies).
    let black_first = u32::from(evals.first().is_some_and(|e| e.side == Color::Black));
    let mut ply = 0;
    while ply < evals.len() {
        svg.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
            x(ply),
            HEIGHT - 10.0,
            first_move + (ply as u32 + black_first) / 2
        ));
        ply += 20;
    }
    // The legend, top right.
    for (i, judgement) in Judgement::ALL.iter().enumerate() {
        let left = WIDTH - RIGHT - 290.0 + 100.0 * i as f64;
        svg.push_str(&format!(
            "<circle cx=\"{left:.1}\" cy=\"14\" r=\"4.5\" fill=\"{}\" stroke=\"#000000\" \
             stroke-width=\"0.8\"/><text x=\"{:.1}\" y=\"18\">{} {}</text>\n",
            colour(*judgement),
            left + 8.0,
            judgement.symbol(),
            judgement.name()
        ));
    }
    for (k, note) in notes.iter().enumerate() {
        let (Some(judgement), Some(after)) = (note.judgement, evals.get(k + 1)) else {
            continue;
        };
        let label = labels.get(k).map_or("", String::as_str);
        let side = if note.mover == Color::White {
            "White"
        } else {
            "Black"
        };
        svg.push_str(&format!(
            "<circle class=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{}\" \
             stroke=\"#000000\" stroke-width=\"0.8\"><title>{}{} ({side} {}, lost {:.0} %)</title></circle>\n",
            judgement.name(),
            x(k + 1),
            y(after.white_expected()),
            colour(judgement),
            escape(label),
            judgement.symbol(),
            judgement.name(),
            note.loss * 100.0
        ));
    }
    svg.push_str("</svg>\n");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::analyze::Score;

    #[test]
    fn the_graph_has_a_point_per_position_and_a_marker_per_judged_move() {
        let eval = |side, cp| PositionEval {
            side,
            score: Some(Score::Cp(cp)),
            result: None,
            pv: vec!["a1a2".into()],
            played: Some("b1b2".into()),
        };
        let evals = [
            eval(Color::White, 20),
            eval(Color::Black, 400),
            eval(Color::White, -400),
        ];
        let notes = super::super::game::notes(&evals);
        let labels = ["1. b1b2".to_string(), "1... b1b2".to_string()];
        let svg = graph("A <&> B", &evals, &notes, &labels, 1);
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("A &lt;&amp;&gt; B"));
        let polygon = svg
            .split("points=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        // The start and end of the filled area on the base line, and one point per position.
        assert_eq!(polygon.split(' ').count(), evals.len() + 2);
        // The legend's three and the one marker.
        assert_eq!(svg.matches("<circle").count(), 4);
        assert_eq!(svg.matches("<circle class=").count(), 1);
        assert!(svg.contains("class=\"blunder\""));
        assert!(svg.contains("<title>1. b1b2??"));
        assert!(svg.trim_end().ends_with("</svg>"));
    }
}
