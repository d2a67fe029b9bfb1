//! `deadcode --html DIR`: the report people read, one self-contained page `DIR/index.html`
//! (no script or style from elsewhere). At the top the totals and a table per function:
//! decision coverage as reached / proved dead / open. Then each source file with every goal
//! marked at its line and column and coloured by its answer (DEAD red, REACHABLE green,
//! UNKNOWN amber); a line is tinted by its goals. Clicking a mark (or hovering: the tooltip)
//! shows the goal's detail and, for REACHABLE, its test case in the side panel
//! (`index.html#gN` opens with goal N selected and in view). At the end the list of every goal, readable
//! without script.

use super::report::{is_coverage_kind, proof_engine, signal_name, RunFacts};
use super::DeadcodeLine;
use std::fmt::Write as _;

/// HTML-escapes text (element content and attribute values).
fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}

/// The CSS class of a status.
fn class(status: &str) -> &'static str {
    match status {
        "DEAD" => "dead",
        "REACHABLE" => "reach",
        _ => "unk",
    }
}

/// The test case of a REACHABLE goal as text lines (empty for the others).
pub fn test_case_lines(l: &DeadcodeLine) -> Vec<String> {
    let pairs = |v: &[(String, super::replay::InputValue)]| {
        v.iter()
            .map(|(n, x)| format!("{n} = {}", x.c_text()))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut out = Vec::new();
    if l.status != "REACHABLE" {
        return out;
    }
    match &l.test {
        Some(t) => {
            out.push(format!("{} step(s)", t.steps.len()));
            if !t.setup.is_empty() {
                out.push(format!("before the first step: {}", pairs(&t.setup)));
            }
            for (k, s) in t.steps.iter().enumerate() {
                out.push(format!("step {}: {}", k + 1, pairs(s)));
            }
        }
        None if l.inputs.is_empty() => out.push("no inputs".into()),
        None => {
            for (w, v) in &l.inputs {
                out.push(format!("input {w} = {}", v.c_text()));
            }
        }
    }
    for (label, inputs) in &l.tests {
        out.push(label.clone());
        for (w, v) in inputs {
            out.push(format!("  input {w} = {}", v.c_text()));
        }
    }
    out
}

/// Counts of (goals, reached, dead, open).
fn tally<'a>(it: impl Iterator<Item = &'a DeadcodeLine>) -> (usize, usize, usize, usize) {
    let mut t = (0, 0, 0, 0);
    for l in it {
        t.0 += 1;
        match l.status {
            "REACHABLE" => t.1 += 1,
            "DEAD" => t.2 += 1,
            _ => t.3 += 1,
        }
    }
    t
}

/// A coverage bar: green reached, red dead, amber open (widths in percent of the goals).
fn bar(t: (usize, usize, usize, usize)) -> String {
    let pc = |n: usize| {
        if t.0 == 0 {
            0.0
        } else {
            100.0 * n as f64 / t.0 as f64
        }
    };
    format!(
        "<div class=\"bar\" title=\"{r} reached, {d} proved dead, {u} open\"><span class=\"reach\" style=\"width:{:.2}%\"></span><span class=\"dead\" style=\"width:{:.2}%\"></span><span class=\"unk\" style=\"width:{:.2}%\"></span></div>",
        pc(t.1),
        pc(t.2),
        pc(t.3),
        r = t.1,
        d = t.2,
        u = t.3
    )
}

fn percent(n: usize, d: usize) -> String {
    if d == 0 {
        "–".into()
    } else {
        format!("{:.1}%", 100.0 * n as f64 / d as f64)
    }
}

const STYLE: &str = r#"
:root { --dead:#c62828; --dead-bg:#fde8e8; --reach:#2e7d32; --reach-bg:#e6f4ea; --unk:#b26a00; --unk-bg:#fff3d6; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color:#1d1d1f; background:#fafafa; }
header { padding:14px 22px; background:#263238; color:#fff; }
header h1 { margin:0 0 4px; font-size:19px; font-weight:600; }
header .sub { color:#cfd8dc; font-size:13px; }
main { margin-right:380px; padding:14px 22px 40px; }
h2 { font-size:16px; margin:22px 0 8px; }
.totals { display:flex; gap:12px; flex-wrap:wrap; margin:6px 0 10px; }
.card { background:#fff; border:1px solid #ddd; border-radius:6px; padding:8px 14px; min-width:120px; }
.card b { display:block; font-size:22px; }
.card.reach b { color:var(--reach); } .card.dead b { color:var(--dead); } .card.unk b { color:var(--unk); }
table { border-collapse:collapse; background:#fff; }
table.fns td, table.fns th, table.goals td, table.goals th { border:1px solid #ddd; padding:3px 8px; text-align:left; vertical-align:top; }
table.fns td.n { text-align:right; font-variant-numeric:tabular-nums; }
.bar { display:flex; width:180px; height:12px; background:#eee; border-radius:3px; overflow:hidden; margin-top:3px; }
.bar span { display:block; height:100%; }
.bar .reach { background:var(--reach); } .bar .dead { background:var(--dead); } .bar .unk { background:#f0a400; }
.legend span { display:inline-block; margin-right:14px; }
.sw { display:inline-block; width:11px; height:11px; border-radius:2px; vertical-align:-1px; margin-right:4px; }
.sw.dead { background:var(--dead); } .sw.reach { background:var(--reach); } .sw.unk { background:#f0a400; }
.srcbox { max-height:calc(100vh - 60px); overflow:auto; border:1px solid #ddd; }
table.src { width:100%; font:12.5px/1.5 "DejaVu Sans Mono", Menlo, Consolas, monospace; }
table.src td { padding:0 8px; white-space:pre; tab-size:8; }
table.src td.ln { width:1%; text-align:right; color:#888; background:#f3f3f3; user-select:none; border-right:1px solid #ddd; }
table.src td.mk { width:1%; padding:0 4px; }
tr.dead td.code { background:var(--dead-bg); } tr.reach td.code { background:var(--reach-bg); } tr.unk td.code { background:var(--unk-bg); }
.g { display:inline-block; font:bold 10.5px/1.35 system-ui, sans-serif; color:#fff; border-radius:3px; padding:0 4px; margin:0 2px; cursor:pointer; vertical-align:1px; white-space:nowrap; }
.g.dead { background:var(--dead); } .g.reach { background:var(--reach); } .g.unk { background:#e69500; }
.g.chk { background:#fff; border:1.5px solid; padding:0 3px; }
.g.chk.dead { color:var(--dead); } .g.chk.reach { color:var(--reach); } .g.chk.unk { color:var(--unk); }
.g.sel { outline:2px solid #1565c0; outline-offset:1px; }
td.st.dead { color:var(--dead); font-weight:600; } td.st.reach { color:var(--reach); font-weight:600; } td.st.unk { color:var(--unk); font-weight:600; }
aside { position:fixed; top:0; right:0; width:380px; height:100vh; overflow:auto; background:#fff; border-left:1px solid #ccc; padding:14px 16px; }
aside h3 { margin:0 0 8px; font-size:15px; }
aside .st { font-weight:700; }
aside pre { white-space:pre-wrap; word-break:break-word; background:#f6f6f6; border:1px solid #e2e2e2; padding:6px 8px; font-size:12px; }
aside .hint { color:#666; }
.small { color:#666; font-size:12px; }
"#;

const SCRIPT: &str = r#"
function show(el) {
  document.querySelectorAll('.g.sel').forEach(function (x) { x.classList.remove('sel'); });
  document.querySelectorAll('.g[data-goal="' + el.dataset.goal + '"]').forEach(function (x) { x.classList.add('sel'); });
  var d = document.getElementById('d' + el.dataset.goal);
  var p = document.getElementById('panel-body');
  if (d) { p.innerHTML = d.innerHTML; }
}
document.addEventListener('click', function (e) {
  var t = e.target.closest ? e.target.closest('.g') : null;
  if (t) { show(t); history.replaceState(null, '', '#' + t.dataset.goal); }
});
// `index.html#gN` opens with goal N selected and its source line in view (a link to one goal)
function fromHash() {
  var m = /^#(g[0-9]+)$/.exec(location.hash);
  var el = m ? document.querySelector('.g[data-goal="' + m[1] + '"]') : null;
  if (el) {
    show(el);
    // the source box scrolls to the mark (the page itself stays at the summary)
    var box = el.closest('.srcbox');
    if (box) {
      box.scrollTop += el.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 2;
    }
  }
}
window.addEventListener('hashchange', fromHash);
fromHash();
"#;

/// The page `DIR/index.html`.
pub fn page(lines: &[DeadcodeLine], facts: &RunFacts) -> String {
    let mut h = String::new();
    let total = tally(lines.iter());
    let branch = tally(lines.iter().filter(|l| is_coverage_kind(l.kind)));
    let mut files: Vec<&str> = Vec::new();
    for l in lines {
        if !files.contains(&l.pos.file.as_str()) {
            files.push(&l.pos.file);
        }
    }
    let title = format!("icpic3 deadcode: {}", files.join(", "));
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title><style>{STYLE}</style></head><body>\n",
        esc(&title)
    );
    let mut sub = format!(
        "{} goal(s) · {:.1} s with {} job(s)",
        total.0, facts.time_s, facts.jobs
    );
    if let Some(s) = facts.interrupted {
        let _ = write!(
            sub,
            " · interrupted by {}: the goals not decided by then are UNKNOWN",
            signal_name(s)
        );
    }
    let _ = write!(
        h,
        "<header><h1>Dead-code report: {}</h1><div class=\"sub\">{}</div></header>\n<main>\n",
        esc(&files.join(", ")),
        esc(&sub)
    );
    // totals
    let _ = write!(
        h,
        "<section id=\"summary\"><h2>Summary</h2><div class=\"totals\">\
         <div class=\"card\"><b id=\"total-goals\">{}</b>goals</div>\
         <div class=\"card reach\"><b id=\"total-reached\">{}</b>reached (REACHABLE)</div>\
         <div class=\"card dead\"><b id=\"total-dead\">{}</b>proved dead (DEAD)</div>\
         <div class=\"card unk\"><b id=\"total-open\">{}</b>open (UNKNOWN)</div>\
         <div class=\"card\"><b>{}</b>decision coverage (reached / branch goals)</div>\
         <div class=\"card\"><b>{}</b>of the feasible (reached / branch goals not dead)</div></div>",
        total.0,
        total.1,
        total.2,
        total.3,
        percent(branch.1, branch.0),
        percent(branch.1, branch.0 - branch.2),
    );
    let _ = write!(
        h,
        "<p class=\"legend\"><span><i class=\"sw reach\"></i>REACHABLE: a confirmed gcc run reaches it (test case shown)</span><span><i class=\"sw dead\"></i>DEAD: proved unreachable</span><span><i class=\"sw unk\"></i>UNKNOWN: not decided</span><span class=\"small\">Filled marks: branch goals (DEAD = dead code; the line is tinted by them). Outlined: error calls and undefined-behaviour checks (DEAD = cannot happen, REACHABLE = happens).</span></p>"
    );
    // per function
    let mut fns: Vec<&str> = Vec::new();
    for l in lines {
        if !fns.contains(&l.function.as_str()) {
            fns.push(&l.function);
        }
    }
    h.push_str("<table class=\"fns\" id=\"functions\"><tr><th>function</th><th>goals</th><th>reached</th><th>proved dead</th><th>open</th><th>decision coverage</th><th></th></tr>");
    for f in &fns {
        let t = tally(lines.iter().filter(|l| l.function == *f));
        let b = tally(
            lines
                .iter()
                .filter(|l| l.function == *f && is_coverage_kind(l.kind)),
        );
        let _ = write!(
            h,
            "<tr><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            esc(f),
            t.0,
            t.1,
            t.2,
            t.3,
            percent(b.1, b.0),
            bar(t)
        );
    }
    let _ = write!(
        h,
        "<tr><td><b>total</b></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr></table>",
        total.0,
        total.1,
        total.2,
        total.3,
        percent(branch.1, branch.0),
        bar(total)
    );
    if !facts.skipped.is_empty() {
        h.push_str("<p class=\"small\">Skipped functions: ");
        for (f, e) in facts.skipped {
            let _ = write!(h, "<code>{}</code> ({}) ", esc(f), esc(e));
        }
        h.push_str("</p>");
    }
    for a in facts.assumptions {
        let _ = write!(h, "<p class=\"small\">Assumes: {}</p>", esc(a));
    }
    if !facts.undefined.is_empty() {
        let _ = write!(
            h,
            "<p class=\"small\">Undefined functions treated as returning nondeterministic values: {}</p>",
            esc(&facts.undefined.join(", "))
        );
    }
    h.push_str("</section>\n");
    // goal ids, in report order
    let id = |i: usize| format!("g{i}");
    // the sources with the marks
    for f in &files {
        let _ = write!(h, "<h2>{}</h2>", esc(f));
        let text = match std::fs::read_to_string(f) {
            Ok(t) => t,
            Err(e) => {
                let _ = write!(
                    h,
                    "<p class=\"small\">The source cannot be read ({}); the goals are listed below.</p>",
                    esc(&e.to_string())
                );
                continue;
            }
        };
        h.push_str("<div class=\"srcbox\"><table class=\"src\">");
        for (n, src) in text.lines().enumerate() {
            let ln = n + 1;
            let mut here: Vec<(usize, &DeadcodeLine)> = lines
                .iter()
                .enumerate()
                .filter(|(_, l)| l.pos.file == *f && l.pos.line == ln)
                .collect();
            here.sort_by_key(|(i, l)| (l.pos.col, *i));
            // the line's tint says whether its code runs: from the branch goals only (a DEAD
            // undefined-behaviour check is good news about a line that may well run)
            let cov: Vec<&DeadcodeLine> = here
                .iter()
                .map(|x| x.1)
                .filter(|l| is_coverage_kind(l.kind))
                .collect();
            let row = if cov.iter().any(|l| l.status == "DEAD") {
                " class=\"dead\""
            } else if cov.iter().any(|l| l.status != "REACHABLE") {
                " class=\"unk\""
            } else if !cov.is_empty() {
                " class=\"reach\""
            } else {
                ""
            };
            // the code with a mark at each goal's column (bytes; 1 = the first)
            let mut code = String::new();
            let mut at = 0;
            for (i, l) in &here {
                let mut c = l.pos.col.saturating_sub(1).min(src.len());
                while !src.is_char_boundary(c) {
                    c -= 1;
                }
                // a column inside a word (the columns of a line with an expanded macro are
                // those of the expanded text) is shown at the word's start
                let word = |i: usize| {
                    src.as_bytes()
                        .get(i)
                        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                };
                while c > at && word(c) && word(c - 1) {
                    c -= 1;
                }
                if c > at {
                    code.push_str(&esc(&src[at..c]));
                    at = c;
                }
                let tip = format!("{} {} — {}", l.kind.name(), l.status, l.detail);
                let _ = write!(
                    code,
                    "<span class=\"g {}{}\" data-goal=\"{}\" title=\"{}\">{}</span>",
                    class(l.status),
                    if is_coverage_kind(l.kind) { "" } else { " chk" },
                    id(*i),
                    esc(&tip),
                    esc(l.kind.name())
                );
            }
            code.push_str(&esc(&src[at..]));
            let _ = write!(
                h,
                "<tr id=\"L{}-{ln}\"{row}><td class=\"ln\">{ln}</td><td class=\"code\">{}</td></tr>",
                files.iter().position(|x| x == f).unwrap_or(0),
                code
            );
        }
        h.push_str("</table></div>\n");
    }
    // every goal, with its detail (also the side panel's content)
    h.push_str("<h2>Goals</h2><table class=\"goals\" id=\"goals\"><tr><th>position</th><th>kind</th><th>function</th><th>status</th><th>detail</th><th>test case</th></tr>");
    for (i, l) in lines.iter().enumerate() {
        let tc = test_case_lines(l);
        let _ = write!(
            h,
            "<tr class=\"goal\" data-status=\"{}\"><td><span class=\"g {}\" data-goal=\"{}\">{}:{}:{}</span></td><td>{}</td><td><code>{}</code></td><td class=\"st {}\">{}</td><td>{}</td><td>{}</td></tr>",
            l.status,
            class(l.status),
            id(i),
            esc(&l.pos.file),
            l.pos.line,
            l.pos.col,
            esc(l.kind.name()),
            esc(&l.function),
            class(l.status),
            l.status,
            esc(&l.detail),
            esc(&tc.join("\n")).replace('\n', "<br>")
        );
    }
    h.push_str("</table>\n");
    // the panel contents, one hidden block per goal
    h.push_str("<div hidden>");
    for (i, l) in lines.iter().enumerate() {
        let _ = write!(
            h,
            "<div id=\"d{}\"><h3>{}:{}:{}</h3><p><span class=\"st {c}\" style=\"color:var(--{v})\">{}</span> · {} in <code>{}</code></p><p>{}</p>",
            id(i),
            esc(&l.pos.file),
            l.pos.line,
            l.pos.col,
            l.status,
            esc(l.kind.name()),
            esc(&l.function),
            esc(&l.detail),
            c = class(l.status),
            v = match l.status {
                "DEAD" => "dead",
                "REACHABLE" => "reach",
                _ => "unk",
            }
        );
        if let Some(e) = proof_engine(&l.detail).filter(|_| l.status == "DEAD") {
            let _ = write!(h, "<p>Proof engine: <b>{}</b></p>", esc(e));
        }
        let tc = test_case_lines(l);
        if !tc.is_empty() {
            let _ = write!(
                h,
                "<p>Test case (confirmed by running the gcc-compiled program):</p><pre>{}</pre>",
                esc(&tc.join("\n"))
            );
        }
        h.push_str("</div>");
    }
    h.push_str("</div>\n</main>\n");
    let _ = write!(
        h,
        "<aside id=\"panel\"><h3>Goal</h3><div id=\"panel-body\"><p class=\"hint\">Click a coloured mark in the source (or a position in the goal list) to see the goal's answer and, when it is reachable, its test case. Hover over a mark for a short tooltip.</p><p class=\"legend\"><span><i class=\"sw reach\"></i>REACHABLE</span><span><i class=\"sw dead\"></i>DEAD</span><span><i class=\"sw unk\"></i>UNKNOWN</span></p></div></aside>\n<script>{SCRIPT}</script>\n</body></html>\n"
    );
    h
}
