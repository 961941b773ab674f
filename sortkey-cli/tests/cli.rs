//! The command run as a user runs it, on the case files of tests/cmd: each `.toml` gives the
//! arguments and the exit status, its `.stdout` and `.stderr` what the command must print
//! (`TRYCMD=overwrite cargo test -p sortkey-cli` rewrites them after a deliberate change).

#[test]
fn commands_print_what_their_case_files_say() {
    trycmd::TestCases::new().case("tests/cmd/*.toml");
}
