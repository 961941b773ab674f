//! Where an example keeps its items, as its command line says: the embedded table, a local
//! DynamoDB-compatible endpoint, or (feature `aws`) a real AWS account.

use std::fmt;

/// The store an example was asked to use.
///
/// ```
/// use sortkey_examples::Target;
///
/// let args = ["--endpoint", "http://127.0.0.1:8000"].map(String::from);
/// match Target::parse("orders", &args) {
///     #[cfg(feature = "dynamodb")]
///     Ok(Target::Endpoint { url, table }) => {
///         assert_eq!((url.as_str(), table.as_str()), ("http://127.0.0.1:8000", "sortkey-orders"))
///     }
///     #[cfg(not(feature = "dynamodb"))]
///     Err(hint) => assert!(hint.contains("--example orders")),
///     other => panic!("{other:?}"),
/// }
/// assert_eq!(Target::parse("orders", &[]), Ok(Target::Embedded));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// The embedded byte-ordered table (no arguments).
    Embedded,
    /// `--endpoint URL [--table NAME]`: a DynamoDB-compatible server over plain HTTP.
    Endpoint {
        /// The endpoint's URL.
        url: String,
        /// The table, `sortkey-<example>` unless `--table` names one.
        table: String,
    },
    /// `--aws [--table NAME]`: DynamoDB itself, region and credentials from the AWS default
    /// chain (environment, profile, SSO, instance role), over TLS.
    Aws {
        /// The table, `sortkey-<example>` unless `--table` names one.
        table: String,
    },
}

impl Target {
    /// The target on this process's command line, for the example called `example`.
    pub fn from_args(example: &str) -> Result<Target, String> {
        let args: Vec<String> = std::env::args().skip(1).collect();
        Target::parse(example, &args)
    }

    /// The target `args` (the arguments after `--`) ask for. A flag the build cannot serve is an
    /// error naming the command that can, for this example.
    pub fn parse(example: &str, args: &[String]) -> Result<Target, String> {
        let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1)).cloned();
        let table = value("--table").unwrap_or_else(|| format!("sortkey-{example}"));
        let usage = "[--endpoint URL | --aws] [--table NAME]";
        let hint = |feature: &str, flags: &str| {
            format!(
                "{flags} needs the `{feature}` feature: \
                 cargo run -p sortkey-examples --features {feature} --example {example} -- {flags}"
            )
        };
        let known = |a: &&String| !matches!(a.as_str(), "--endpoint" | "--table" | "--aws");
        let flags: Vec<&String> = args.iter().filter(|a| a.starts_with("--")).filter(known).collect();
        if !flags.is_empty() {
            return Err(format!("unknown arguments {flags:?} for the {example} example; expected {usage}"));
        }
        match (value("--endpoint"), args.iter().any(|a| a == "--aws")) {
            (Some(_), true) => Err(format!("--endpoint and --aws exclude each other; expected {usage}")),
            (None, false) if args.is_empty() => Ok(Target::Embedded),
            (None, false) => Err(format!("unknown arguments {args:?} for the {example} example; expected {usage}")),
            (Some(url), false) if cfg!(feature = "dynamodb") => Ok(Target::Endpoint { url, table }),
            (Some(_), false) => Err(hint("dynamodb", "--endpoint URL")),
            (None, true) if cfg!(feature = "aws") => Ok(Target::Aws { table }),
            (None, true) => Err(hint("aws", "--aws")),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Target::Embedded => f.write_str("the embedded byte-ordered table"),
            Target::Endpoint { url, table } => write!(f, "DynamoDB table {table} at {url}"),
            Target::Aws { table } => write!(f, "DynamoDB table {table} (AWS default chain)"),
        }
    }
}
