//! Puts the commit the binary is built from into `warden --version` (`WARDEN_COMMIT`): the
//! short hash, `-dirty` when tracked files differ from it, `unknown` where the source is not
//! a git checkout of its own (a tarball, or git missing), so that a build never fails for
//! want of git.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let commit = commit(&dir).unwrap_or_else(|| "unknown".to_owned());
    println!("cargo:rustc-env=WARDEN_COMMIT={commit}");
    // The source too: an edit makes the checkout dirty without touching git's files.
    for path in ["build.rs", "src", "Cargo.toml", "Cargo.lock"] {
        println!("cargo:rerun-if-changed={path}");
    }
}

/// `git` in `dir`, its output trimmed; `None` when git is missing or fails.
fn git(dir: &Path, args: &[&str]) -> Option<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// The short hash of HEAD, with `-dirty` for uncommitted changes to tracked files, when
/// `dir` is the top of a git work tree (not a folder inside another project's checkout).
/// Asks cargo to run this again when HEAD moves (the HEAD file, the branch's ref, the packed
/// refs) or the index changes (a commit, or `git add` of a change).
fn commit(dir: &Path) -> Option<String> {
    let top = PathBuf::from(git(dir, &["rev-parse", "--show-toplevel"])?);
    if top.canonicalize().ok()? != dir.canonicalize().ok()? {
        return None;
    }
    for file in ["HEAD", "index"] {
        let path = git(dir, &["rev-parse", "--git-path", file])?;
        println!("cargo:rerun-if-changed={}", dir.join(path).display());
    }
    if let Some(branch) = git(dir, &["symbolic-ref", "-q", "HEAD"]) {
        for file in [branch.as_str(), "packed-refs"] {
            let path = git(dir, &["rev-parse", "--git-path", file])?;
            println!("cargo:rerun-if-changed={}", dir.join(path).display());
        }
    }
    let hash = git(dir, &["rev-parse", "--short", "HEAD"])?;
    let clean = git(dir, &["status", "--porcelain", "--untracked-files=no"])?.is_empty();
    Some(if clean { hash } else { format!("{hash}-dirty") })
}
