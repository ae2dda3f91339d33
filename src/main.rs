//! The `warden` command; everything is in [`warden::cli`].

fn main() {
    std::process::exit(warden::cli::main().code());
}
