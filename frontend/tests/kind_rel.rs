//! k-induction under relational lemmas (`--engine kind-rel`, issue #22 item 2) and the
//! distinct-state certificate it prints.
//!
//! The delayed system (`delayed(t)`): `x` and `y` count up together from 0, `p = 3` and
//! `q = 5` stay, `a' = (x - y)·w + p·q` with an input `w ∈ [-10, 10]`, and `b' = a`. By hand:
//! `x - y = 0` in every run, so `a` is 0 at the start and 15 from step 1 on, and `b` is 0, 0,
//! then 15 from step 2 on. TARGET `b >= 16` is unreachable; `b >= 15` is reached in 2 steps.
//! - plain k-induction fails for every k below the domain's 200-step horizon: its path may
//!   start with `x - y != 0`, so `a` can be anything at its second state and `b` at its third;
//! - rel-inv's guesses (bounds on variables and on `x - y`, `a - b`, … from the system's
//!   constants 0, 1, 3, 5, 16) keep `x - y = 0`, `p = 3`, `q = 5`, `a <= 16`, `b <= 16`, but
//!   `b = 16` satisfies all of them: they are not an invariant that excludes TARGET;
//! - under those lemmas the 2-step induction path is refuted: `a` at its second state is
//!   `0·w + 15 = 15`, so `b = 15 < 16` at its third.

mod common;

use frontend::hys::{load, Lowered};
use ic3::engine::Limits;
use ic3::ic3::certificate::{check, check_path, Lemmas};
use solver::SolverConfig;

fn delayed(t: u32) -> String {
    format!(
        "DECL\n  float [-100, 100] x, y, a, b, p, q;\n  float [-10, 10] w;\nINIT\n  \
         x = 0;  y = 0;  a = 0;  b = 0;  p = 3;  q = 5;\nTRANS\n  \
         x' = x + 1;  y' = y + 1;  p' = p;  q' = q;\n  a' = (x - y) * w + p * q;\n  b' = a;\n\
         TARGET\n  b >= {t};\n"
    )
}

/// `icpic3 solve --engine ENGINE --linear simplex --check-certificate` (the relation between
/// the term slot `x - y` and TRANS's own `x - y` is the simplex's, as on every VMT program;
/// `.hys` systems with ranges get interval propagation alone by default).
fn solve(t: u32, engine: &str, timeout: &str, json: bool) -> (i32, String, String) {
    let mut args = vec![
        "--engine",
        engine,
        "--linear",
        "simplex",
        "--timeout",
        timeout,
        "--check-certificate",
    ];
    if json {
        args.extend(["--format", "json"]);
    }
    let out = common::solve_text(
        "kind-rel",
        &format!("b{t}-{engine}.hys"),
        &delayed(t),
        &args,
    );
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// SAFE with a suffix certificate (lemmas and a 2-step path condition over distinct states)
/// that the front end parsed back and re-checked; neither k-induction nor rel-inv alone
/// proves it.
#[test]
fn relational_lemmas_let_k_induction_prove_a_delayed_bound() {
    let (code, out, err) = solve(16, "kind-rel", "60", false);
    assert_eq!(out.lines().next(), Some("SAFE"), "{out}\n{err}");
    assert_eq!(code, 20, "{out}\n{err}");
    assert!(
        out.contains("-- invariant (suffix 1)") && out.contains("pairwise distinct states"),
        "{out}"
    );
    assert!(
        out.contains("x - y <= 0;") && out.contains("x - y >= 0;"),
        "{out}"
    );
    assert!(out.contains("-- certificate checked:"), "{out}");
    for engine in ["kind", "rel-inv"] {
        let (_, out, err) = solve(16, engine, "3", false);
        assert_eq!(
            out.lines().next(),
            Some("UNKNOWN"),
            "{engine}: {out}\n{err}"
        );
    }
    let (_, out, err) = solve(16, "kind-rel", "60", true);
    let v: serde_json::Value = serde_json::from_str(&out).expect(&err);
    assert_eq!(v["result"], "SAFE", "{out}");
    assert_eq!(v["engine"], "kind-rel", "{out}");
    assert_eq!(v["invariant_suffix"], 1, "{out}");
    assert_eq!(v["invariant_distinct_states"], true, "{out}");
    assert_eq!(v["certificate_check"]["ok"], true, "{out}");
}

/// `b >= 15` is reached in 2 steps (module comment): kind-rel must not prove it, and its base
/// case finds and replays the run.
#[test]
fn relational_lemmas_never_hide_a_reachable_target() {
    let (code, out, err) = solve(15, "kind-rel", "60", false);
    assert_eq!(out.lines().next(), Some("UNSAFE"), "{out}\n{err}");
    assert_eq!(code, 10, "{out}\n{err}");
    assert!(out.contains("b@2:\n    [15, 15]"), "{out}");
}

/// The distinct-state certificate on a system whose suffix condition needs distinctness:
/// `x = 0` loops at 0, `x = 1` loops or moves to the target 2, and the run starts at 0. With
/// no lemmas and suffix 1, the path 1, 1, 2 avoids the target in its first two states, so the
/// plain certificate is rejected; two distinct states before 2 would be 0 and 1, and 0 never
/// moves to 1, so the distinct-state certificate is accepted (by hand: 2 is unreachable).
#[test]
fn the_distinct_state_certificate_needs_distinct_states() {
    let text = "DECL\n  int [0, 2] x;\nINIT\n  x = 0;\nTRANS\n  \
                (x = 0 and x' = 0) or (x = 1 and (x' = 1 or x' = 2)) or (x = 2 and x' = 2);\n\
                TARGET\n  x = 2;\n";
    let loaded = load(text).expect("the system loads");
    let Lowered::Transition(ts) = &loaded.lowered else {
        panic!("a transition system")
    };
    let none = Lemmas::Cubes(&[]);
    let (cfg, limits) = (SolverConfig::default(), Limits::default());
    let plain = check(ts, &none, 1, &cfg, &limits);
    assert!(plain.unwrap_err().contains("satisfiable"));
    assert!(check_path(ts, &none, 1, true, &cfg, &limits).is_ok());
    // and distinctness does not make a reachable target pass: from x = 1 it is reached
    let reach = text.replace("x = 0;\nTRANS", "x = 1;\nTRANS");
    let loaded = load(&reach).expect("the system loads");
    let Lowered::Transition(ts) = &loaded.lowered else {
        panic!("a transition system")
    };
    assert!(check_path(ts, &none, 1, true, &cfg, &limits).is_err());
}
