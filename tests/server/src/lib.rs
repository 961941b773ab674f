//! The moto server the DynamoDB tests and benchmarks run against (the tests crate's feature
//! `dynamodb`, the `sortkey` command's feature `moto`): found, started on a free loopback port
//! and killed on drop, and a client of it.

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Credentials, Region};

/// A moto server process on a loopback port, killed on drop.
pub struct Server {
    child: Child,
    /// The server's URL, for the client's `endpoint_url`.
    pub endpoint: String,
}

/// moto's server with one request at a time (werkzeug's `threaded=False`): DynamoDB isolates
/// each request (a transaction as a whole), while moto's threaded server lets a failed
/// transaction's restore of the whole table undo another connection's write; serialized, the
/// races a test sees are the library's, not moto's.
const SERIALIZED: &str = "import sys
from werkzeug.serving import run_simple
from moto.moto_server.werkzeug_app import DomainDispatcherApplication, MotoRequestHandler, create_backend_app
run_simple(sys.argv[1], int(sys.argv[2]), DomainDispatcherApplication(create_backend_app), threaded=False,
           request_handler=MotoRequestHandler)";

impl Server {
    /// Starts moto's server, or `None` when there is none to start.
    pub fn start() -> Option<Server> {
        Server::spawn(false)
    }

    /// Starts moto's server answering one request at a time (werkzeug's `threaded=False`), or `None`.
    pub fn start_serialized() -> Option<Server> {
        Server::spawn(true)
    }

    /// Starts the server on a free port and waits until it answers there. A start can lose its
    /// port between the probe and moto's bind (another test's connection may take it as its own
    /// port): the server then exits, and the start is tried again on another port.
    fn spawn(serialized: bool) -> Option<Server> {
        let bin = find_server()?;
        for _ in 0..5 {
            let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
            let mut command = match serialized {
                // The Python of moto's own environment, beside its `moto_server`.
                true => {
                    let mut c = Command::new(python().unwrap_or_else(|| PathBuf::from("python3")));
                    c.args(["-c", SERIALIZED, "127.0.0.1", &port.to_string()]);
                    c
                }
                false => {
                    let mut c = Command::new(&bin);
                    c.args(["-H", "127.0.0.1", "-p", &port.to_string()]);
                    c
                }
            };
            // moto logs every request; a failing request shows in the SDK error instead.
            let child = command
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
            let mut server = Server { child, endpoint: format!("http://127.0.0.1:{port}") };
            if server.listens(port) {
                return Some(server);
            }
        }
        panic!("moto_server exited five times before it listened (each on a free port)");
    }

    /// Whether the server came to listen on `port` (`false`: it exited first). Panics after 20 s.
    ///
    /// A connection counts only when its two ends differ: a connect to an unbound local port of
    /// the ephemeral range can be given that same port as its own and connect to itself (TCP's
    /// simultaneous open), which once made a test use a server that was not there.
    fn listens(&mut self, port: u16) -> bool {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(stream) = TcpStream::connect(("127.0.0.1", port)) {
                let to_itself = stream.local_addr().ok() == stream.peer_addr().ok();
                if !to_itself {
                    return true;
                }
            }
            if let Ok(Some(_)) = self.child.try_wait() {
                return false;
            }
            assert!(Instant::now() < deadline, "moto_server did not listen on port {port} within 20 s");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The Python of moto's environment (beside its `moto_server`, with boto3), for what a test asks
/// of the server that the Rust SDK of DynamoDB cannot: another service of moto's (an export to
/// its S3).
pub fn python() -> Option<PathBuf> {
    let python = find_server()?.with_file_name("python3");
    Some(if python.exists() { python } else { PathBuf::from("python3") })
}

/// `MOTO_SERVER`, then `tests/.venv/bin/moto_server`, then `moto_server` on `PATH`.
fn find_server() -> Option<PathBuf> {
    if let Some(bin) = std::env::var_os("MOTO_SERVER") {
        return Some(PathBuf::from(bin));
    }
    let local = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.venv/bin/moto_server");
    if local.exists() {
        return Some(local);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join("moto_server")).find(|p| p.exists())
}

/// The server, or a skip message on a developer machine; under CI a missing server fails.
pub fn server_or_skip(test: &str) -> Option<Server> {
    found_or_skip(test, Server::start())
}

/// [`server_or_skip`] with a server that answers one request at a time.
pub fn serialized_server_or_skip(test: &str) -> Option<Server> {
    found_or_skip(test, Server::start_serialized())
}

fn found_or_skip(test: &str, server: Option<Server>) -> Option<Server> {
    if server.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "{test}: moto_server not found, and CI must run the DynamoDB tests: \
             run `python3 -m venv tests/.venv && tests/.venv/bin/pip install -r tests/requirements-dynamodb.txt` first"
        );
        eprintln!(
            "{test}: SKIPPED, no moto_server found. Enable with `python3 -m venv tests/.venv && \
             tests/.venv/bin/pip install -r tests/requirements-dynamodb.txt` (or MOTO_SERVER=/path/to/moto_server)"
        );
    }
    server
}

/// A client of the server at `endpoint`, with test credentials.
pub fn client(endpoint: &str) -> Client {
    // Plain HTTP to loopback: no TLS stack to build.
    let http = aws_smithy_http_client::Builder::new().build_http();
    let conf = aws_sdk_dynamodb::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("test", "test", None, None, "sortkey-tests"))
        .endpoint_url(endpoint)
        .http_client(http)
        .build();
    Client::from_conf(conf)
}

/// Creates table `name` with string key attributes `pk` (partition) and `sk` (sort), on demand.
pub async fn create_table(client: &Client, name: &str) {
    let definition = sortkey_core::TableDefinition::new(name, sortkey_core::KeyNames::DEFAULT);
    let request = definition.apply_to_create(client.create_table()).expect("a table definition");
    request.send().await.unwrap_or_else(|e| panic!("cannot create table {name}: {e:?}"));
}

/// A current-thread tokio runtime with timers.
pub fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread().enable_all().build().expect("a tokio runtime")
}
