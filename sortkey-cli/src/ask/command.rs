//! One command line from an ask: its arguments kept as a list (what the JSON documents carry)
//! and printed with every argument quoted for a POSIX shell, so that a key from a table, whatever
//! it holds (`$()`, backticks, quotes, `#`, `&`, newlines), reaches the program as one argument,
//! unchanged, and never a shell.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct CommandLine {
    /// The program and its arguments, exactly as the program receives them.
    pub(crate) argv: Vec<String>,
}

impl CommandLine {
    /// `program`, with no arguments yet.
    pub(crate) fn new(program: &str) -> Self {
        CommandLine { argv: vec![program.to_owned()] }
    }

    /// One more argument.
    pub(crate) fn arg(&mut self, arg: impl Into<String>) -> &mut Self {
        self.argv.push(arg.into());
        self
    }

    /// An option and its value: two arguments, or one (`--after=-5`) when the value starts with
    /// `-`, which would otherwise read as an option.
    pub(crate) fn option(&mut self, name: &str, value: impl Into<String>) -> &mut Self {
        let value = value.into();
        if value.starts_with('-') { self.arg(format!("{name}={value}")) } else { self.arg(name).arg(value) }
    }

    /// An option and its value when there is one.
    pub(crate) fn option_if(&mut self, name: &str, value: Option<impl Into<String>>) -> &mut Self {
        if let Some(value) = value {
            self.option(name, value);
        }
        self
    }

    /// A flag when `on`.
    pub(crate) fn flag(&mut self, name: &str, on: bool) -> &mut Self {
        if on {
            self.arg(name);
        }
        self
    }
}

impl fmt::Display for CommandLine {
    /// The line for a POSIX shell, every argument a shell would read otherwise quoted (shlex:
    /// single quotes, or double quotes where those are safe; tested against bash, dash, zsh and
    /// others). An argument holding U+0000, which no shell word can, is written as `'\0'` in
    /// its place: no program receives it from a shell, which the JSON's argument list says
    /// exactly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, arg) in self.argv.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            f.write_str(&quote(arg))?;
        }
        Ok(())
    }
}

/// `arg` as one word of a POSIX shell.
pub(crate) fn quote(arg: &str) -> std::borrow::Cow<'_, str> {
    match shlex::try_quote(arg) {
        Ok(word) => word,
        Err(_) => shlex::try_quote(&arg.replace('\0', "\\0")).map_or_else(|_| "''".into(), |w| w.into_owned().into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_argument_a_shell_would_read_otherwise_is_quoted() {
        let mut line = CommandLine::new("sortkey");
        line.arg("browse").option("--pk", "SEASON#2026").option("--after", "$(touch pwned)").arg("it's").arg("");
        let printed = line.to_string();
        assert!(printed.starts_with("sortkey browse --pk "), "{printed}");
        assert_eq!(shlex::split(&printed).unwrap(), line.argv);
        assert_eq!(quote("RankKey"), "RankKey");
        assert_ne!(quote("RUN#1&x"), "RUN#1&x");
    }

    proptest::proptest! {
        #![proptest_config(proptest::test_runner::Config { cases: 200, failure_persistence: None, ..Default::default() })]

        /// A POSIX shell given the printed line receives exactly the arguments, whatever they
        /// hold: any Unicode (but U+0000, which no argument can), quotes, `$()`, backticks,
        /// newlines, `#`, `&`, a leading `-` or `~`.
        #[test]
        fn a_shell_reads_the_printed_line_as_the_arguments(args in proptest::collection::vec(argument(), 1..5)) {
            let mut line = CommandLine::new("printf");
            line.arg("%s\\0");
            for a in &args {
                line.arg(a);
            }
            let out = std::process::Command::new("sh").arg("-c").arg(line.to_string()).output().unwrap();
            proptest::prop_assert!(out.status.success(), "{line}: {}", String::from_utf8_lossy(&out.stderr));
            let text = String::from_utf8(out.stdout).unwrap();
            let read: Vec<&str> = text.split_terminator('\0').collect();
            proptest::prop_assert_eq!(read, args.iter().map(String::as_str).collect::<Vec<_>>(), "{}", line);
        }
    }

    fn argument() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let hostile = prop::sample::select(vec![
            "'",
            "\"",
            "$(touch pwned)",
            "`id`",
            "\n",
            "#",
            "&",
            "?",
            "*",
            "<",
            ">",
            "|",
            ";",
            "~",
            "-x",
            "\\",
            "!",
            "$HOME",
            "\u{202e}",
            " ",
            "\t",
            "=",
        ]);
        let piece = prop_oneof![hostile.prop_map(str::to_owned), "[a-zA-Z0-9_]{0,4}", any::<String>()];
        prop::collection::vec(piece, 0..4).prop_map(|p| p.concat().replace('\0', ""))
    }
}
