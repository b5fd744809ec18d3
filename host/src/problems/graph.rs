//! Undirected graphs, read from DIMACS files (`p edge N M` / `p col N M`, `e u v` lines,
//! `c` comments: the `.clq` and `.col` benchmark format) or from plain edge lists (`u v` or
//! `u v w` per line, `#` or `%` comments, n = the largest vertex). Vertices are numbered
//! from 1 in both formats; inside they are 0-based.
use super::{ProblemError, file_error, read_text};
use std::path::Path;

/// Most vertices a graph may have (one QAP location each).
pub const MAX_VERTICES: usize = qapgpu_common::MAX_N;
/// Largest edge weight of an edge list.
pub const MAX_WEIGHT: i64 = 1_000_000;

/// An undirected graph with positive integer edge weights (1 for DIMACS).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Graph {
    /// Vertices.
    pub n: usize,
    /// 0-based (u, v, w), u ≠ v, as read (repeated edges add up in `weights`).
    pub edges: Vec<(usize, usize, i64)>,
}

impl Graph {
    /// The symmetric n×n matrix of summed edge weights (0 on the diagonal).
    pub fn weights(&self) -> Vec<i64> {
        let mut w = vec![0i64; self.n * self.n];
        for &(u, v, x) in &self.edges {
            w[u * self.n + v] += x;
            w[v * self.n + u] += x;
        }
        w
    }

    /// The 0/1 adjacency matrix.
    pub fn adjacency(&self) -> Vec<bool> {
        let mut a = vec![false; self.n * self.n];
        for &(u, v, _) in &self.edges {
            a[u * self.n + v] = true;
            a[v * self.n + u] = true;
        }
        a
    }

    /// Total edge weight.
    pub fn total_weight(&self) -> i64 {
        self.edges.iter().map(|e| e.2).sum()
    }
}

/// Reads a graph file (DIMACS or an edge list, told apart by a `p` line).
pub fn read(path: &Path) -> Result<Graph, ProblemError> {
    parse(path, &read_text(path)?)
}

/// Parses the text of a graph file; errors name `path` and the line.
pub fn parse(path: &Path, text: &str) -> Result<Graph, ProblemError> {
    let lines = text.lines().enumerate().map(|(k, l)| (k + 1, l.trim())).filter(|(_, l)| !l.is_empty());
    let dimacs = text.lines().any(|l| l.trim_start().starts_with("p "));
    let mut n: Option<usize> = None;
    let mut edges = Vec::new();
    let mut largest = 0usize;
    for (line, l) in lines {
        let bad = |what: String| file_error(path, format!("line {line}: {what}"));
        let tokens: Vec<&str> = l.split_whitespace().collect();
        let vertex = |t: &str| -> Result<usize, ProblemError> {
            let v: i64 = t.parse().map_err(|_| bad(format!("`{}` is not a vertex number", shorten(t))))?;
            if v < 1 || v > MAX_VERTICES as i64 {
                return Err(bad(format!(
                    "vertex {v} is outside 1..={MAX_VERTICES} (vertices are numbered from 1; a QAP takes at most {MAX_VERTICES})"
                )));
            }
            Ok(v as usize)
        };
        if dimacs {
            match tokens[0] {
                "c" => continue,
                "p" => {
                    if n.is_some() {
                        return Err(bad("a second `p` line".into()));
                    }
                    if tokens.len() != 4 || !matches!(tokens[1], "edge" | "col" | "clq") {
                        return Err(bad("expected `p edge N M`".into()));
                    }
                    let v: i64 = tokens[2]
                        .parse()
                        .map_err(|_| bad(format!("`{}` is not a vertex count", shorten(tokens[2]))))?;
                    if v < 1 || v > MAX_VERTICES as i64 {
                        return Err(bad(format!("{v} vertices: a QAP takes 1..={MAX_VERTICES}")));
                    }
                    n = Some(v as usize);
                }
                "e" => {
                    let Some(nv) = n else { return Err(bad("an `e` line before the `p edge N M` line".into())) };
                    if tokens.len() != 3 {
                        return Err(bad("expected `e u v`".into()));
                    }
                    let (u, v) = (vertex(tokens[1])?, vertex(tokens[2])?);
                    if u > nv || v > nv {
                        return Err(bad(format!("vertex {} is larger than the {nv} of the `p` line", u.max(v))));
                    }
                    if u != v {
                        edges.push((u - 1, v - 1, 1));
                    }
                }
                "n" | "x" | "d" | "v" => continue,
                other => return Err(bad(format!("`{}` is not a DIMACS line (c, p, e)", shorten(other)))),
            }
        } else {
            if l.starts_with('#') || l.starts_with('%') {
                continue;
            }
            if !(2..=3).contains(&tokens.len()) {
                return Err(bad("expected `u v` or `u v w`".into()));
            }
            let (u, v) = (vertex(tokens[0])?, vertex(tokens[1])?);
            let w = match tokens.get(2) {
                None => 1,
                Some(t) => {
                    let w: i64 = t.parse().map_err(|_| bad(format!("`{}` is not an integer weight", shorten(t))))?;
                    if !(1..=MAX_WEIGHT).contains(&w) {
                        return Err(bad(format!("weight {w} is outside 1..={MAX_WEIGHT}")));
                    }
                    w
                }
            };
            largest = largest.max(u).max(v);
            if u != v {
                edges.push((u - 1, v - 1, w));
            }
        }
    }
    let n = if dimacs { n.ok_or_else(|| file_error(path, "no `p edge N M` line"))? } else { largest };
    if n == 0 {
        return Err(file_error(path, "no edges: expected `u v [w]` lines or a DIMACS `p edge N M` file"));
    }
    Ok(Graph { n, edges })
}

fn shorten(t: &str) -> String {
    t.chars().take(20).collect()
}

/// The graph as an edge list file (`u v w`, 1-based), the form `parse` reads back.
pub fn format_edge_list(g: &Graph) -> String {
    g.edges.iter().map(|&(u, v, w)| format!("{} {} {w}\n", u + 1, v + 1)).collect()
}

/// The graph as a DIMACS file (weights dropped).
pub fn format_dimacs(g: &Graph, comment: &str) -> String {
    let mut s = format!("c {comment}\np edge {} {}\n", g.n, g.edges.len());
    for &(u, v, _) in &g.edges {
        s += &format!("e {} {}\n", u + 1, v + 1);
    }
    s
}
