//! The README's front door, as a newcomer uses it: its `Cargo.toml` lines and its `src/main.rs`
//! copied into a fresh crate outside the workspace (sortkey-core by path, as if from crates.io),
//! built, and run against moto; and every README example that needs a server (a `no_run` block
//! with `async fn run(client)`) built into the same crate and run, each on a server of its own.
//!
//! The crate builds in `target/front-door` (the workspace's build directory is locked while its
//! tests run) with the workspace's `Cargo.lock`, so that it takes the versions CI has built.

use std::path::{Path, PathBuf};
use std::process::Command;

use sortkey_tests::server::server_or_skip;

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}

/// A fenced block of the README: its info string and its lines, without the fence's indent.
struct Block {
    info: String,
    code: String,
}

/// Every fenced block of `text`, in order.
fn blocks(text: &str) -> Vec<(usize, Block)> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((number, line)) = lines.next() {
        let Some(info) = line.trim_start().strip_prefix("```") else { continue };
        let indent = line.len() - line.trim_start().len();
        let mut code = String::new();
        for (_, line) in lines.by_ref() {
            if line.trim_start().starts_with("```") {
                break;
            }
            code.push_str(line.get(indent.min(line.len() - line.trim_start().len())..).unwrap_or(""));
            code.push('\n');
        }
        out.push((number + 1, Block { info: info.trim().to_owned(), code }));
    }
    out
}

/// A doctest's code as a program: its hidden lines (`# ...`) shown.
fn unhidden(code: &str) -> String {
    code.lines()
        .map(|line| {
            let trimmed = line.trim_start();
            match trimmed {
                "#" => "",
                _ if trimmed.starts_with("##") => &trimmed[1..],
                _ => trimmed.strip_prefix("# ").unwrap_or(line),
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The front door's dependencies with sortkey-core from this checkout.
fn manifest(dependencies: &str) -> String {
    let core = root().join("sortkey-core");
    let dependencies = dependencies
        .lines()
        .map(|line| match line.starts_with("sortkey-core") {
            true => line.replace("version = \"0.1\"", &format!("path = {:?}", core.display().to_string())),
            false => line.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("\n");
    assert!(dependencies.contains("path = "), "the front door depends on sortkey-core: {dependencies}");
    format!(
        "[package]\nname = \"orders-service\"\nversion = \"0.1.0\"\nedition = \"2024\"\npublish = false\n\n\
         # Outside the sortkey workspace, as a user's crate is.\n[workspace]\n\n{dependencies}\n"
    )
}

/// The program that runs the README's server examples: `snippets N` runs the `N`th against
/// `DYNAMODB_ENDPOINT`.
fn snippets(codes: &[String]) -> String {
    let mut out = String::from("#![allow(dead_code, unused_imports)]\n\n");
    for (i, code) in codes.iter().enumerate() {
        let code = code.replace("async fn run(client", "pub async fn run(client");
        out.push_str(&format!("mod snippet_{i} {{\n{code}\n}}\n\n"));
    }
    let arms: String = (0..codes.len()).map(|i| format!("        {i} => snippet_{i}::run(client).await,\n")).collect();
    out.push_str(&format!(
        r#"fn client(url: &str) -> aws_sdk_dynamodb::Client {{
    use aws_sdk_dynamodb::config::{{BehaviorVersion, Credentials, Region}};
    let config = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("local", "local", None, None, "local"))
        .endpoint_url(url)
        .http_client(aws_smithy_http_client::Builder::new().build_http())
        .build();
    aws_sdk_dynamodb::Client::from_conf(config)
}}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {{
    let client = client(&std::env::var("DYNAMODB_ENDPOINT")?);
    let which: usize = std::env::args().nth(1).ok_or("expected the snippet's number")?.parse()?;
    match which {{
{arms}        _ => Err("no such snippet".into()),
    }}
}}
"#
    ));
    out
}

#[test]
fn the_readme_front_door_builds_in_a_fresh_crate_and_runs_on_moto() {
    let Some(server) = server_or_skip("the_readme_front_door_builds_in_a_fresh_crate_and_runs_on_moto") else {
        return;
    };
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let door = &readme[readme.find("## Use it in your service").expect("the README's front door")..];
    let all = blocks(door);
    let toml = all.iter().find(|(_, b)| b.info == "toml").expect("the front door's Cargo.toml lines");
    let main = all.iter().find(|(_, b)| b.info.starts_with("rust")).expect("the front door's src/main.rs");
    assert!(main.1.code.contains("fn main"), "the front door's Rust block is a program");
    let servers: Vec<(String, String)> = sortkey_tests::docs::documents()
        .into_iter()
        .flat_map(|(path, text)| {
            blocks(&text)
                .into_iter()
                .filter(|(_, b)| b.info.starts_with("rust") && b.info.contains("no_run"))
                .filter(|(_, b)| b.code.contains("async fn run(client: aws_sdk_dynamodb::Client)"))
                .map(move |(line, b)| (format!("{path} line {line}"), unhidden(&b.code)))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(servers.len() >= 4, "the README's and the book's server examples: {}", servers.len());

    let dir = root().join("target/front-door");
    let service = dir.join("orders-service");
    std::fs::create_dir_all(service.join("src/bin")).unwrap();
    std::fs::write(service.join("Cargo.toml"), manifest(&toml.1.code)).unwrap();
    std::fs::write(service.join("src/main.rs"), &main.1.code).unwrap();
    let codes: Vec<String> = servers.iter().map(|(_, code)| code.clone()).collect();
    std::fs::write(service.join("src/bin/snippets.rs"), snippets(&codes)).unwrap();
    std::fs::copy(root().join("Cargo.lock"), service.join("Cargo.lock")).unwrap();

    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let target = dir.join("target");
    let built = Command::new(&cargo)
        .args(["build", "--bins", "--quiet", "--manifest-path"])
        .arg(service.join("Cargo.toml"))
        .env("CARGO_TARGET_DIR", &target)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&built.stderr);
    assert!(built.status.success(), "the fresh crate does not build:\n{stderr}");
    assert!(!stderr.contains("src/main.rs"), "the front door builds with warnings:\n{stderr}");

    let run = |bin: &str, endpoint: &str, args: &[String]| {
        let out = Command::new(target.join("debug").join(bin))
            .args(args)
            .env("DYNAMODB_ENDPOINT", endpoint)
            .env_remove("AWS_PROFILE")
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(out.status.success(), "{bin} {args:?}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
        stdout
    };
    let printed = run("orders-service", &server.endpoint, &[]);
    assert_eq!(printed, "recent orders of c_1042: [3, 2]\nshipped: [1]\n", "the front door's output");

    for (i, (line, _)) in servers.iter().enumerate() {
        let Some(own) = server_or_skip("a README example") else { return };
        let _ = run("snippets", &own.endpoint, &[i.to_string()]);
        eprintln!("{line}: ran on moto");
    }
}
