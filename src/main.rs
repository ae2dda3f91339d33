//! The `warden` command; everything is in [`warden::cli`].

fn main() {
    warden::exit::prepare();
    warden::exit::exit_now(warden::cli::main().code());
}
