//! Every subcommand and every argument of `icpic3` has a help text: the test reads
//! `icpic3 help` for the list of subcommands, then `icpic3 help SUBCOMMAND` (clap's long help)
//! for each, and fails on an argument, or a listed possible value, without a description.

use std::process::Command;

fn help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_icpic3"))
        .arg("help")
        .args(args)
        .output()
        .expect("icpic3 runs");
    assert_eq!(out.status.code(), Some(0), "icpic3 help {args:?}");
    String::from_utf8(out.stdout).expect("UTF-8 help")
}

/// The lines of the section `title` (`Commands:`, `Options:`...) up to the next section.
fn section<'a>(text: &'a str, title: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| *l != title)
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .collect()
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// Clap's own annotations, which describe nothing.
fn is_annotation(l: &str) -> bool {
    let t = l.trim();
    t.is_empty()
        || t == "Possible values:"
        || t.starts_with("- ")
        || (t.starts_with('[') && t.ends_with(']') && t.contains(": "))
}

/// The arguments (`--long <V>`, `-s`, `<FILE>`...) of a long help text without a
/// description, and the possible values listed without one.
fn undescribed(text: &str) -> Vec<String> {
    let mut missing = Vec::new();
    for title in ["Arguments:", "Options:"] {
        let lines = section(text, title);
        let mut i = 0;
        while i < lines.len() {
            let head = lines[i];
            i += 1;
            let t = head.trim_start();
            // an argument's line is indented less than its description (10 spaces)
            if head.is_empty() || indent(head) >= 10 || !t.starts_with(['-', '<', '[']) {
                continue;
            }
            // a short description may share the argument's line
            let mut described = t.split_once("  ").is_some_and(|(_, d)| !is_annotation(d));
            while i < lines.len() && (lines[i].is_empty() || indent(lines[i]) >= 10) {
                let d = lines[i].trim();
                if let Some(value) = d.strip_prefix("- ") {
                    let text = value.split_once(':').map_or("", |(_, x)| x.trim());
                    if text.is_empty() {
                        missing.push(format!("{} value {value}", t.trim()));
                    }
                }
                described |= !is_annotation(lines[i]);
                i += 1;
            }
            if !described {
                missing.push(t.trim().to_string());
            }
        }
    }
    missing
}

#[test]
fn every_subcommand_and_argument_has_a_description() {
    let top = help(&[]);
    let commands: Vec<(String, String)> = section(&top, "Commands:")
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let t = l.trim();
            let (name, desc) = t.split_once(' ').unwrap_or((t, ""));
            (name.to_string(), desc.trim().to_string())
        })
        .collect();
    let names: Vec<&str> = commands.iter().map(|(n, _)| n.as_str()).collect();
    for expected in ["check", "solve", "deadcode", "dump", "smt", "help"] {
        assert!(names.contains(&expected), "{expected} in\n{top}");
    }
    for (name, desc) in &commands {
        assert!(
            !desc.is_empty(),
            "subcommand {name} has no description:\n{top}"
        );
    }
    let mut missing = undescribed(&top);
    for (name, _) in commands.iter().filter(|(n, _)| n != "help") {
        let text = help(&[name]);
        assert!(text.contains("Options:"), "{text}");
        missing.extend(
            undescribed(&text)
                .into_iter()
                .map(|m| format!("{name}: {m}")),
        );
    }
    assert!(
        missing.is_empty(),
        "arguments without a description: {missing:#?}"
    );
}

/// The parser of help texts finds what it must find (so that the test above can fail).
#[test]
fn an_undescribed_argument_is_found() {
    let text = "Usage: x\n\nArguments:\n  <FILE>\n          \n\nOptions:\n      --format <FORMAT>\n          [default: text]\n          [possible values: text, json]\n\n      --lang <LANG>\n          The language\n\n          Possible values:\n          - hys:  the .hys language\n          - c\n\n  -h, --help\n          Print help\n";
    assert_eq!(
        undescribed(text),
        vec![
            "<FILE>".to_string(),
            "--format <FORMAT>".to_string(),
            "--lang <LANG> value c".to_string()
        ]
    );
}
