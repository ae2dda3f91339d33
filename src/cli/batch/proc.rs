//! Running one external process under a wall-clock limit, measuring its wall time and peak
//! resident set size with `wait4`: each task of a batch is a process of its own, so a crash
//! or a limit hit in one never touches another.

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How a limited run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Exit {
    /// Exited by itself with this code.
    Code(i32),
    /// Killed by a signal it did not get from us.
    Signal(i32),
    /// Killed by us at the wall-clock limit.
    TimedOut,
    /// Killed by us because `cancel` was set (the batch was interrupted): no outcome.
    Cancelled,
    /// Could not be started.
    SpawnFailed(String),
}

/// The outcome of [`run_limited`].
#[derive(Clone, Debug)]
pub struct Outcome {
    pub exit: Exit,
    /// Wall-clock time from spawn to reaping.
    pub wall: Duration,
    /// Peak resident set size of the process (`ru_maxrss`, KiB).
    pub rss_kib: u64,
}

/// Runs `cmd` in its own process group with stdin from `/dev/null` and stdout/stderr into
/// the given files, kills the whole group with SIGKILL once `limit` has passed, and reaps
/// it with `wait4` to get the peak RSS. Setting `cancel` kills the group as well: the child
/// runs in a process group of its own, so a terminal's Ctrl-C reaches only the caller.
pub fn run_limited(
    mut cmd: Command,
    stdout: &Path,
    stderr: &Path,
    limit: Duration,
    cancel: &AtomicBool,
) -> Outcome {
    use std::os::unix::process::CommandExt;
    let files = File::create(stdout).and_then(|o| Ok((o, File::create(stderr)?)));
    let (out, err) = match files {
        Ok(f) => f,
        Err(e) => return spawn_failed(format!("cannot create output files: {e}")),
    };
    cmd.stdin(Stdio::null())
        .stdout(Stdio::from(out))
        .stderr(Stdio::from(err))
        .process_group(0);
    let start = Instant::now();
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => return spawn_failed(e.to_string()),
    };
    let pid = child.id() as libc::pid_t;
    // We reap the child ourselves below; `Child` does not wait on drop.
    drop(child);
    // Wait for the exit without reaping (WNOWAIT), so that the pid, and with it the process
    // group id, stays ours while we kill the group; then reap with wait4 for the rusage.
    let (mut timed_out, mut cancelled) = (false, false);
    loop {
        // SAFETY: an all-zero `siginfo_t` is valid; `pid` is our own unreaped child.
        let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        let r = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
        // SAFETY: `si_pid` is set by waitid (and zero when no child has changed state).
        if r == 0 && unsafe { info.si_pid() } == pid {
            break;
        }
        if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            break; // should not happen; wait4 below reports what it can
        }
        if start.elapsed() >= limit {
            timed_out = true;
            break;
        }
        if cancel.load(Ordering::Relaxed) {
            cancelled = true;
            break;
        }
        // Poll often at first (short runs), then every 20 ms.
        let nap = (start.elapsed() / 20).clamp(Duration::from_millis(1), Duration::from_millis(20));
        std::thread::sleep(nap);
    }
    let wall = start.elapsed();
    // Kills the child at the limit, and any stray process it left in its group.
    kill_group(pid);
    let mut status: libc::c_int = 0;
    // SAFETY: an all-zero `rusage` is a valid value of this plain C struct.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `pid` is our own unreaped child; the pointers are to live locals.
        let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if r == pid {
            break;
        }
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return Outcome {
                exit: Exit::SpawnFailed(format!("wait4: {}", std::io::Error::last_os_error())),
                wall,
                rss_kib: 0,
            };
        }
    }
    let exit = if cancelled {
        Exit::Cancelled
    } else if timed_out {
        Exit::TimedOut
    } else if libc::WIFEXITED(status) {
        Exit::Code(libc::WEXITSTATUS(status))
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(-1)
    };
    Outcome {
        exit,
        wall,
        rss_kib: usage.ru_maxrss.max(0) as u64,
    }
}

fn kill_group(pid: libc::pid_t) {
    // SAFETY: plain syscall; the group id is our child's pid (process_group(0)).
    unsafe {
        libc::kill(-pid, libc::SIGKILL);
    }
}

fn spawn_failed(msg: String) -> Outcome {
    Outcome {
        exit: Exit::SpawnFailed(msg),
        wall: Duration::ZERO,
        rss_kib: 0,
    }
}
