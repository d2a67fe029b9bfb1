use frontend::cli;
use solver::budget;
use std::alloc::{GlobalAlloc, Layout, System};

/// The system allocator, counting bytes for `--memory-mb` (issue #24, `solver::budget`):
/// phases poll the count and stop with UNKNOWN above the soft threshold; a request past the
/// hard threshold, or one the system refuses, ends the process with UNKNOWN (or an error)
/// through [`cli::out_of_memory`] instead of an abort.
struct Counting;

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !budget::note_alloc(layout.size()) {
            cli::out_of_memory();
        }
        let p = unsafe { System.alloc(layout) };
        if p.is_null() {
            budget::note_dealloc(layout.size());
            cli::out_of_memory();
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !budget::note_alloc(layout.size()) {
            cli::out_of_memory();
        }
        let p = unsafe { System.alloc_zeroed(layout) };
        if p.is_null() {
            budget::note_dealloc(layout.size());
            cli::out_of_memory();
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        budget::note_dealloc(layout.size());
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !budget::note_alloc(new_size - old) {
            cli::out_of_memory();
        }
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if p.is_null() {
            if new_size > old {
                budget::note_dealloc(new_size - old);
            }
            cli::out_of_memory();
        }
        if new_size < old {
            budget::note_dealloc(old - new_size);
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Stack for the thread that runs the command. Syntax trees in real files are thousands of
/// levels deep (6,881 in the nlsat corpus); the passes are iterative, but derived `Clone` and
/// `Debug` are not, so the command runs with room to spare. Only touched pages are committed.
const STACK_BYTES: usize = 256 << 20;

fn main() {
    // A panic is never an acceptable answer (language doc Part C); should one slip through,
    // report it as an internal error with its own exit code rather than Rust's 101.
    std::panic::set_hook(Box::new(|info| {
        eprintln!("icpic3: internal error: {info}");
    }));
    // `--color auto` colours diagnostics only on a terminal
    // SAFETY: isatty only inspects the descriptor
    cli::set_stderr_terminal(unsafe { libc::isatty(2) } == 1);
    let worker = std::thread::Builder::new()
        .name("icpic3".into())
        .stack_size(STACK_BYTES)
        .spawn(|| {
            let stdout = std::io::stdout();
            // standard error stays unlocked between writes: engine threads print their
            // `-v -v` progress lines to it while this thread runs the command
            let mut stderr = std::io::stderr();
            cli::run(std::env::args_os(), &mut stdout.lock(), &mut stderr)
        });
    let code = match worker {
        Ok(handle) => handle.join().unwrap_or(cli::EXIT_INTERNAL),
        Err(e) => {
            eprintln!("icpic3: internal error: cannot start the worker thread: {e}");
            cli::EXIT_INTERNAL
        }
    };
    std::process::exit(code);
}
