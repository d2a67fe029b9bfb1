//! Process-wide limits that every phase can poll cheaply: a memory budget fed by a
//! byte-counting global allocator, and a per-thread deadline for the phases that run on the
//! command's own thread (reading, parsing, elaboration, macro expansion, lowering).
//!
//! The binary installs a [`GlobalAlloc`](std::alloc::GlobalAlloc) wrapper that calls
//! [`note_alloc`] and [`note_dealloc`]; without it (library use, in-process tests) nothing is
//! counted and the memory budget is never exceeded. The budget has two thresholds: above the
//! *soft* one [`over_memory`] is true and every phase that polls it stops with
//! [`Stop::Memory`] (an UNKNOWN answer); the *hard* one, a little higher, is a last resort for
//! a single phase that did not poll in time: the allocator wrapper then ends the process with
//! an UNKNOWN answer instead of letting the kernel or an abort do it.

use std::cell::Cell;
use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::time::Instant;

/// Bytes in use as counted so far (signed: memory freed by one thread whose allocation is still
/// in another thread's batch can make it briefly negative; read through [`count`]).
static ALLOCATED: AtomicIsize = AtomicIsize::new(0);

/// The counted bytes, never below 0.
fn count() -> usize {
    ALLOCATED.load(Ordering::Relaxed).max(0) as usize
}
static SOFT_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);
static HARD_LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Why a phase stopped early. Typed, so that only the command line turns it into output and
/// an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// the deadline (`--timeout`) passed
    Time,
    /// the memory budget (`--memory-mb`) is used up
    Memory,
}

impl Stop {
    /// The reason as the solvers and engines word it (`time limit`, `memory limit`).
    pub fn text(self) -> &'static str {
        match self {
            Stop::Time => "time limit",
            Stop::Memory => "memory limit",
        }
    }
}

/// Sets the memory budget of the process in bytes (`None`: no budget). The soft threshold
/// (phases stop) is 75 % of it, the hard one (the allocator ends the process) 90 %, leaving
/// room for what the allocator does not see (code, stacks, allocator overhead) below the
/// resident-memory limit.
pub fn set_memory_limit(bytes: Option<u64>) {
    match bytes {
        None => {
            SOFT_LIMIT.store(usize::MAX, Ordering::Relaxed);
            HARD_LIMIT.store(usize::MAX, Ordering::Relaxed);
        }
        Some(b) => {
            let b = usize::try_from(b).unwrap_or(usize::MAX);
            SOFT_LIMIT.store(b / 4 * 3, Ordering::Relaxed);
            HARD_LIMIT.store(b / 10 * 9, Ordering::Relaxed);
        }
    }
}

/// Bytes currently allocated through the counting allocator.
pub fn allocated() -> usize {
    count()
}

/// The soft threshold in bytes (`usize::MAX`: none).
pub fn soft_limit() -> usize {
    SOFT_LIMIT.load(Ordering::Relaxed)
}

/// Over the soft threshold: every phase should stop (one atomic load).
#[inline]
pub fn over_memory() -> bool {
    count() > SOFT_LIMIT.load(Ordering::Relaxed)
}

/// Would `bytes` more fit under the soft threshold? For requests whose size comes from the
/// input (reading a file, a repeat count), asked before allocating.
pub fn fits(bytes: usize) -> bool {
    count()
        .saturating_add(bytes)
        .le(&SOFT_LIMIT.load(Ordering::Relaxed))
}

/// Allocation counts are kept per thread and added to the shared count in batches of this
/// many bytes: one shared atomic updated by every allocation of every engine thread made the
/// portfolio 28 % slower on an allocation-heavy task (cache-line traffic between the cores);
/// the count is then off by at most this much per thread.
const BATCH: isize = 256 << 10;

/// A thread's not yet counted bytes; what is left when the thread ends is added to the shared
/// count then (without that, thousands of short-lived engine threads in `deadcode` left their
/// remainders behind and the count drifted until it passed the limit).
struct Uncounted(Cell<isize>);

impl Drop for Uncounted {
    fn drop(&mut self) {
        ALLOCATED.fetch_add(self.0.get(), Ordering::Relaxed);
    }
}

thread_local! {
    /// bytes allocated (positive) or freed (negative) by this thread, not yet in `ALLOCATED`
    static UNCOUNTED: Uncounted = const { Uncounted(Cell::new(0)) };
}

fn add_shared(size: usize) -> bool {
    let size = size.min(isize::MAX as usize) as isize;
    let before = ALLOCATED.fetch_add(size, Ordering::Relaxed);
    if before.saturating_add(size).max(0) as usize > HARD_LIMIT.load(Ordering::Relaxed) {
        ALLOCATED.fetch_sub(size, Ordering::Relaxed);
        return false;
    }
    true
}

fn sub_shared(size: usize) {
    ALLOCATED.fetch_sub(size.min(isize::MAX as usize) as isize, Ordering::Relaxed);
}

/// Called by the allocator wrapper before allocating `size` bytes; `false` when the request
/// would pass the hard threshold (then the wrapper must not allocate).
#[inline]
pub fn note_alloc(size: usize) -> bool {
    if size >= BATCH as usize {
        return add_shared(size);
    }
    let flush = UNCOUNTED.try_with(|u| {
        let v = u.0.get() + size as isize;
        if v >= BATCH {
            u.0.set(0);
            Some(v as usize)
        } else {
            u.0.set(v);
            None
        }
    });
    match flush {
        Ok(None) => true,
        Ok(Some(v)) => add_shared(v),
        // the thread's local storage is gone (thread exit): count directly
        Err(_) => add_shared(size),
    }
}

/// Called by the allocator wrapper after freeing `size` bytes.
#[inline]
pub fn note_dealloc(size: usize) {
    if size >= BATCH as usize {
        sub_shared(size);
        return;
    }
    let flush = UNCOUNTED.try_with(|u| {
        let v = u.0.get() - size as isize;
        if v <= -BATCH {
            u.0.set(0);
            Some((-v) as usize)
        } else {
            u.0.set(v);
            None
        }
    });
    match flush {
        Ok(None) => {}
        Ok(Some(v)) => sub_shared(v),
        Err(_) => sub_shared(size),
    }
}

thread_local! {
    static DEADLINE: Cell<Option<Instant>> = const { Cell::new(None) };
    static STOPPED: Cell<Option<Stop>> = const { Cell::new(None) };
    static POLLS: Cell<u32> = const { Cell::new(0) };
}

/// Sets this thread's deadline for the front-end phases and clears an earlier stop.
pub fn set_deadline(deadline: Option<Instant>) {
    DEADLINE.with(|d| d.set(deadline));
    STOPPED.with(|s| s.set(None));
}

/// This thread's deadline.
pub fn deadline() -> Option<Instant> {
    DEADLINE.with(Cell::get)
}

/// Polls the limits: `Err` once the memory budget or this thread's deadline is passed (and
/// from then on, see [`stopped`]). Cheap enough for every token or node: the clock is read
/// every 64th call.
#[inline]
pub fn check() -> Result<(), Stop> {
    if let Some(s) = stopped() {
        return Err(s);
    }
    if over_memory() {
        STOPPED.with(|s| s.set(Some(Stop::Memory)));
        return Err(Stop::Memory);
    }
    let n = POLLS.with(|p| {
        let n = p.get().wrapping_add(1);
        p.set(n);
        n
    });
    if n.is_multiple_of(64) {
        return check_now();
    }
    Ok(())
}

/// Like [`check`], reading the clock on every call (for coarse-grained loops).
pub fn check_now() -> Result<(), Stop> {
    if let Some(s) = stopped() {
        return Err(s);
    }
    let why = if over_memory() {
        Some(Stop::Memory)
    } else if deadline().is_some_and(|d| Instant::now() >= d) {
        Some(Stop::Time)
    } else {
        None
    };
    match why {
        Some(w) => {
            STOPPED.with(|s| s.set(Some(w)));
            Err(w)
        }
        None => Ok(()),
    }
}

/// Records that a phase on this thread stops for `why` (a limit it checked itself, such as
/// an input that cannot fit the memory budget).
pub fn stop(why: Stop) {
    STOPPED.with(|s| s.set(Some(why)));
}

/// Why a phase on this thread stopped early, if one did since [`set_deadline`].
pub fn stopped() -> Option<Stop> {
    STOPPED.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// Memory counted by a thread that then ends, freed by another: the ending thread's
    /// remainder reaches the shared count, so the count returns to where it was (it drifted
    /// by up to a batch per thread before, and thousands of threads passed the limit).
    #[test]
    fn remainders_of_ended_threads_are_counted() {
        let start = ALLOCATED.load(Ordering::Relaxed);
        let (tx, rx) = std::sync::mpsc::channel();
        for _ in 0..200 {
            let tx = tx.clone();
            std::thread::spawn(move || {
                assert!(note_alloc(200 << 10));
                tx.send(()).unwrap();
            })
            .join()
            .unwrap();
        }
        drop(tx);
        for () in rx {
            note_dealloc(200 << 10);
        }
        // flush this thread's remainder the way its end would
        UNCOUNTED.with(|u| {
            ALLOCATED.fetch_add(u.0.replace(0), Ordering::Relaxed);
        });
        assert_eq!(ALLOCATED.load(Ordering::Relaxed), start);
    }

    #[test]
    fn deadline_stops_and_sticks() {
        set_deadline(Some(Instant::now() - Duration::from_millis(1)));
        assert_eq!(check_now(), Err(Stop::Time));
        assert_eq!(check(), Err(Stop::Time));
        assert_eq!(stopped(), Some(Stop::Time));
        set_deadline(None);
        assert_eq!(stopped(), None);
        assert_eq!(check_now(), Ok(()));
    }
}
