use frontend::cli;

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
