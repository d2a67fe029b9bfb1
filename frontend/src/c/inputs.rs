//! The input files of `icpic3 solve` / `icpic3 deadcode` on C: several translation units, the
//! preprocessor flags of the command line (`-I`, `-D`, `-U`, `-include`) and those of a
//! `compile_commands.json` (CMake, Bear), each unit preprocessed with its own flags.

use std::path::{Path, PathBuf};

/// One translation unit to preprocess.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitInput {
    /// the file (as given on the command line, or the compile database's `file` joined to its
    /// `directory`)
    pub path: PathBuf,
    /// preprocessor flags, in order (`-I DIR`, `-D X=1`, `-U X`, `-include F`, `-std=...`)
    pub flags: Vec<String>,
    /// the directory `cpp` runs in (the compile database's `directory`)
    pub dir: Option<PathBuf>,
}

/// The C input options of the command line.
#[derive(Clone, Debug, Default)]
pub struct InputOptions {
    pub files: Vec<PathBuf>,
    pub include_dirs: Vec<String>,
    pub defines: Vec<String>,
    pub undefines: Vec<String>,
    pub include_files: Vec<String>,
    pub compile_commands: Option<PathBuf>,
    /// `--undefined-functions nondet`
    pub undefined_nondet: bool,
    /// plain `char` is unsigned (`--target arm32`)
    pub unsigned_char: bool,
    /// ARM EABI layout: 8-byte scalars aligned to 8 in structs (`--target arm32`)
    pub arm_eabi: bool,
}

impl InputOptions {
    /// The command line's own preprocessor flags (after a compile database's, so they win).
    fn flags(&self) -> Vec<String> {
        let mut f = Vec::new();
        for d in &self.include_dirs {
            f.push(format!("-I{d}"));
        }
        for d in &self.defines {
            f.push(format!("-D{d}"));
        }
        for u in &self.undefines {
            f.push(format!("-U{u}"));
        }
        for i in &self.include_files {
            f.push("-include".to_string());
            f.push(i.clone());
        }
        f
    }

    /// The translation units: the files of the command line (with the flags the compile
    /// database gives them, if it lists them), or every C file of the compile database.
    pub fn units(&self) -> Result<Vec<UnitInput>, String> {
        let db = match &self.compile_commands {
            Some(p) => compile_commands(p)?,
            None => Vec::new(),
        };
        let own = self.flags();
        let mut out = Vec::new();
        if self.files.is_empty() {
            for u in db {
                if matches!(u.path.extension().and_then(|e| e.to_str()), Some("c" | "i")) {
                    out.push(UnitInput {
                        flags: [u.flags, own.clone()].concat(),
                        ..u
                    });
                }
            }
            if out.is_empty() {
                return Err(format!(
                    "{}: lists no C file",
                    self.compile_commands
                        .as_ref()
                        .map(|p| p.display().to_string())
                        .unwrap_or_default()
                ));
            }
            return Ok(out);
        }
        for f in &self.files {
            if !f.is_file() {
                return Err(format!("{}: no such file", f.display()));
            }
            let canon = std::fs::canonicalize(f).ok();
            let listed = db
                .iter()
                .find(|u| canon.is_some() && std::fs::canonicalize(&u.path).ok() == canon);
            out.push(match listed {
                Some(u) => UnitInput {
                    path: f.clone(),
                    flags: [u.flags.clone(), own.clone()].concat(),
                    dir: u.dir.clone(),
                },
                None => UnitInput {
                    path: f.clone(),
                    flags: own.clone(),
                    dir: None,
                },
            });
        }
        Ok(out)
    }
}

/// Reads a `compile_commands.json`: per entry the file (joined to `directory`) and the
/// preprocessor flags of its `arguments` or `command` (relative paths made absolute).
pub fn compile_commands(path: &Path) -> Result<Vec<UnitInput>, String> {
    let p = path.display();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{p}: cannot read: {e}"))?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("{p}:{}:{}: not valid JSON: {e}", e.line(), e.column()))?;
    let Some(entries) = json.as_array() else {
        return Err(format!("{p}: expected a JSON array of compile commands"));
    };
    let base = path
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("."));
    let mut out = Vec::new();
    for (i, e) in entries.iter().enumerate() {
        let field = |k: &str| e.get(k).and_then(|v| v.as_str());
        let (Some(dir), Some(file)) = (field("directory"), field("file")) else {
            return Err(format!(
                "{p}: entry {} has no \"directory\" or \"file\" string",
                i + 1
            ));
        };
        let dir = base.join(dir);
        let args: Vec<String> = if let Some(a) = e.get("arguments").and_then(|v| v.as_array()) {
            a.iter()
                .map(|x| x.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
                .ok_or_else(|| format!("{p}: entry {}: \"arguments\" must be strings", i + 1))?
        } else if let Some(c) = field("command") {
            shell_words(c).map_err(|m| format!("{p}: entry {}: \"command\": {m}", i + 1))?
        } else {
            return Err(format!(
                "{p}: entry {} has neither \"arguments\" nor \"command\"",
                i + 1
            ));
        };
        out.push(UnitInput {
            path: dir.join(file),
            flags: preprocessor_flags(&args, &dir),
            dir: Some(dir),
        });
    }
    Ok(out)
}

/// The flags of a compiler command line that matter to the preprocessor.
fn preprocessor_flags(args: &[String], dir: &Path) -> Vec<String> {
    let abs = |s: &str| dir.join(s).display().to_string();
    let mut out = Vec::new();
    let mut i = 1; // args[0] is the compiler
    while i < args.len() {
        let a = args[i].as_str();
        let next = args.get(i + 1).cloned();
        let mut take = |opt: &str, val: Option<String>, path: bool| {
            if let Some(v) = val {
                out.push(opt.to_string());
                out.push(if path { abs(&v) } else { v });
            }
        };
        match a {
            "-I" | "-isystem" | "-iquote" | "-idirafter" | "-include" | "-imacros" => {
                take(a, next, true);
                i += 2;
                continue;
            }
            "-D" | "-U" => {
                take(a, next, false);
                i += 2;
                continue;
            }
            _ => {}
        }
        if let Some(v) = a.strip_prefix("-I") {
            out.push(format!("-I{}", abs(v)));
        } else if a.starts_with("-D") || a.starts_with("-U") || a.starts_with("-std=") {
            out.push(a.to_string());
        }
        i += 1;
    }
    out
}

/// Splits a shell command line into words (single and double quotes, backslash escapes).
fn shell_words(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("unterminated quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x) if matches!(x, '"' | '\\' | '$' | '`') => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => return Err("unterminated quote".into()),
                        },
                        Some(x) => cur.push(x),
                        None => return Err("unterminated quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_flags() {
        let w = shell_words(r#"gcc -DNAME="\"x y\"" -I inc -Isrc/a 'a b.c' -O2 -std=c99 -c x.c"#)
            .unwrap();
        assert_eq!(
            w,
            vec![
                "gcc",
                "-DNAME=\"x y\"",
                "-I",
                "inc",
                "-Isrc/a",
                "a b.c",
                "-O2",
                "-std=c99",
                "-c",
                "x.c"
            ]
        );
        let f = preprocessor_flags(&w, Path::new("/d"));
        assert_eq!(
            f,
            vec!["-DNAME=\"x y\"", "-I", "/d/inc", "-I/d/src/a", "-std=c99"]
        );
    }
}
