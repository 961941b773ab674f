//! The command run as a user runs it, on the case files of tests/cmd: each `.toml` gives the
//! arguments and the exit status, its `.stdout` and `.stderr` what the command must print
//! (`TRYCMD=overwrite cargo test -p sortkey-cli` rewrites them after a deliberate change).

#[test]
fn commands_print_what_their_case_files_say() {
    trycmd::TestCases::new().case("tests/cmd/*.toml");
}

/// `cargo install --path sortkey-cli` resolves the command's own packages and warns of every
/// `[profile.*.package.NAME]` of the workspace that names none of them: each name the
/// workspace's profiles give is a package the command is built from.
#[test]
fn installing_the_command_warns_of_no_profile() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let named: Vec<&str> = manifest
        .lines()
        .filter_map(|line| {
            line.trim().strip_prefix("[profile.")?.strip_suffix(']')?.split_once(".package.").map(|(_, p)| p)
        })
        .map(|name| name.trim_matches('"'))
        .collect();
    assert!(!named.is_empty(), "the workspace's profiles name packages; none found in Cargo.toml");
    let tree = std::process::Command::new(env!("CARGO"))
        .current_dir(root)
        .args(["tree", "-p", "sortkey-cli", "-e", "normal,build", "--prefix", "none", "-f", "{p}", "--offline"])
        .output()
        .unwrap();
    assert!(tree.status.success(), "cargo tree: {}", String::from_utf8_lossy(&tree.stderr));
    let packages: std::collections::BTreeSet<&str> =
        std::str::from_utf8(&tree.stdout).unwrap().lines().filter_map(|line| line.split(' ').next()).collect();
    let outside: Vec<&&str> = named.iter().filter(|name| !packages.contains(**name)).collect();
    assert!(outside.is_empty(), "Cargo.toml's profiles name packages the command is not built from: {outside:?}");
}
