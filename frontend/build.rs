//! Records the git commit the binary is built from for `icpic3 --version`: `git rev-parse
//! --short HEAD` when git and a repository are there, else "unknown" (a source tarball
//! without `.git` builds too).

use std::process::Command;

fn main() {
    let commit = Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty() && s.bytes().all(|b| b.is_ascii_alphanumeric()))
        .unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=ICPIC3_GIT_COMMIT={commit}");
    // rebuild when HEAD moves (a commit, a checkout); both paths may be absent (a tarball)
    // (only paths that exist: cargo reruns the script every time for a missing one)
    let watch = |path: String| {
        if std::path::Path::new(&path).exists() {
            println!("cargo:rerun-if-changed={path}");
        }
    };
    if let Some(dir) = git_path("--absolute-git-dir") {
        watch(format!("{dir}/HEAD"));
    }
    // the branch's own ref: the common directory's refs/heads changes whenever another
    // worktree commits
    if let (Some(dir), Some(branch)) = (
        git_path("--git-common-dir"),
        git_out(&["symbolic-ref", "-q", "HEAD"]),
    ) {
        watch(format!("{dir}/{branch}"));
        watch(format!("{dir}/packed-refs"));
    }
    println!("cargo:rerun-if-changed=build.rs");
}

/// The trimmed output of a successful `git ARGS`.
fn git_out(args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let s = String::from_utf8(o.stdout).ok()?.trim().to_string();
    (!s.is_empty()).then_some(s)
}

/// A directory `git rev-parse FLAG` names: the working tree's git directory (worktrees have
/// their own `HEAD`) or the common one (branches), if there is a repository.
fn git_path(flag: &str) -> Option<String> {
    let o = Command::new("git")
        .args(["rev-parse", "--path-format=absolute", flag])
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    let dir = String::from_utf8(o.stdout).ok()?.trim().to_string();
    (!dir.is_empty()).then_some(dir)
}
