//! One seed, one run: the in-memory DynamoDB behind a connector that delays, reorders and fails
//! requests by choices drawn from the seed, on a tokio runtime of one thread whose clock is
//! paused (it jumps to the next timer when every task waits). Which pending request is applied
//! next follows from the latencies drawn; the same seed gives the same trace.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime};

use aws_sdk_dynamodb::Client;
use aws_sdk_dynamodb::config::{BehaviorVersion, Region};
use aws_smithy_async::time::{SharedTimeSource, TimeSource};
use aws_smithy_runtime_api::client::http::{
    HttpClient, HttpConnector, HttpConnectorFuture, HttpConnectorSettings, SharedHttpConnector,
};
use aws_smithy_runtime_api::client::orchestrator::{HttpRequest, HttpResponse};
use aws_smithy_runtime_api::client::result::ConnectorError;
use aws_smithy_runtime_api::client::runtime_components::RuntimeComponents;
use aws_smithy_runtime_api::http::StatusCode;
use aws_smithy_types::body::SdkBody;

use crate::MemoryDynamo;
use crate::error::DynamoError;
use crate::rng::Rng;

/// How often each fault strikes a request: one in `n` (0: never).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Faults {
    /// The request is applied but its answer is lost: the caller sees a timeout (ambiguous).
    pub lost_answer: u64,
    /// The request is refused, unapplied, as throttled.
    pub throttled: u64,
    /// The caller stalls before the request (2 to 6 s): a process paused, its lease running out.
    pub stall: u64,
    /// The caller's clock jumps forward (up to 3 s) before the request.
    pub clock_jump: u64,
}

impl Faults {
    /// No fault.
    pub const NONE: Faults = Faults { lost_answer: 0, throttled: 0, stall: 0, clock_jump: 0 };
    /// Some of each: of the requests, one in 40 answered lost, one in 30 throttled, one in 150
    /// stalled, one in 200 after a jump of its caller's clock.
    pub const SOME: Faults = Faults { lost_answer: 40, throttled: 30, stall: 150, clock_jump: 200 };
}

/// How far one run may go: past either bound it is stopped and fails (an actor that loops, a
/// wait that never ends), with its trace like any other failing run's. A run of the scenarios
/// makes a few hundred to a few thousand requests in a few minutes of virtual time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bounds {
    /// Requests: the one past this waits forever, so that the run ends at its time bound.
    pub requests: u64,
    /// Virtual time since the run's start.
    pub time: Duration,
}

impl Bounds {
    /// CI's bounds: 20,000 requests, 30 minutes of virtual time.
    pub const DEFAULT: Bounds = Bounds { requests: 20_000, time: Duration::from_secs(30 * 60) };
}

/// A run's result that can say the run went past its [`Bounds`]: such a run is a failure like
/// any other (`Err` with what it did), not a hang.
pub trait Bounded {
    /// The result of a run stopped at its bounds, `why` saying which.
    fn unbounded(why: String) -> Self;
}

impl<T> Bounded for Result<T, String> {
    fn unbounded(why: String) -> Self {
        Err(why)
    }
}

/// One write the simulated DynamoDB applied, as the server saw it: when (the run's virtual time),
/// by the clock of the client that sent it, the operation and its request. A run's writes, in
/// the order applied, are its history ([`Sim::history`]): what invariants of leases and
/// checkpoints are checked on, rather than on what the actors say they did.
#[derive(Debug, Clone)]
pub struct Applied {
    /// Milliseconds since the run's start.
    pub at_ms: u64,
    /// Milliseconds since the epoch by the sending client's clock when it was applied.
    pub clock_ms: u64,
    /// The operation: `PutItem`, `UpdateItem`, `DeleteItem`, `TransactWriteItems`, ...
    pub op: String,
    /// The request, as sent.
    pub request: serde_json::Value,
}

/// The state one run shares between its tasks: the generator, the trace, the clock's start.
#[derive(Debug)]
struct Shared {
    rng: Rng,
    trace: Vec<String>,
    faults: Faults,
    start: tokio::time::Instant,
    requests: u64,
    bounds: Bounds,
    history: Vec<Applied>,
    namer: Option<crate::trace::Namer>,
}

/// One simulated run: its DynamoDB, its generator and its trace. Made by [`Sim::run`].
#[derive(Debug, Clone)]
pub struct Sim {
    dynamo: MemoryDynamo,
    shared: Arc<Mutex<Shared>>,
}

/// A client's clock: a fixed start plus the runtime's (paused) time, plus how far it has jumped.
#[derive(Debug, Clone)]
struct SimClock {
    start: tokio::time::Instant,
    jumped: Arc<Mutex<Duration>>,
}

impl TimeSource for SimClock {
    fn now(&self) -> SystemTime {
        let jumped = *self.jumped.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        SystemTime::UNIX_EPOCH + Duration::from_secs(1_767_225_600) + self.start.elapsed() + jumped
    }
}

impl Sim {
    /// Runs `scenario` on a fresh simulation of `seed` with `faults`, on a runtime of one
    /// thread with a paused clock (its tasks spawned with `tokio::task::spawn_local`), and returns what it returned and the run's trace (one line
    /// a request: the virtual time, the operation, its key or table, and what became of it),
    /// which `SORTKEY_SIM_TRACE=1` also prints.
    ///
    /// A run that goes past [`Bounds::DEFAULT`] is stopped: its result is
    /// [`Bounded::unbounded`], saying how far it went.
    pub fn run<T, F, Fut>(seed: u64, faults: Faults, scenario: F) -> (T, Vec<String>)
    where
        T: Bounded,
        F: FnOnce(Sim) -> Fut,
        Fut: Future<Output = T>,
    {
        Sim::run_bounded(seed, faults, Bounds::DEFAULT, scenario)
    }

    /// [`run`](Self::run) within `bounds`.
    pub fn run_bounded<T, F, Fut>(seed: u64, faults: Faults, bounds: Bounds, scenario: F) -> (T, Vec<String>)
    where
        T: Bounded,
        F: FnOnce(Sim) -> Fut,
        Fut: Future<Output = T>,
    {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .start_paused(true)
            .build()
            .unwrap_or_else(|e| panic!("a tokio runtime: {e}"));
        // A local set: the scenario's tasks (`tokio::task::spawn_local`) need not be `Send`.
        let local = tokio::task::LocalSet::new();
        runtime.block_on(local.run_until(async move {
            let shared = Shared {
                rng: Rng::new(seed),
                trace: Vec::new(),
                faults,
                start: tokio::time::Instant::now(),
                requests: 0,
                bounds,
                history: Vec::new(),
                namer: None,
            };
            let sim = Sim { dynamo: MemoryDynamo::new(), shared: Arc::new(Mutex::new(shared)) };
            let out = match tokio::time::timeout(bounds.time, scenario(sim.clone())).await {
                Ok(out) => out,
                Err(_) => {
                    let requests = sim.requests();
                    let why = if requests > bounds.requests {
                        format!("the run did not end: over {} requests (an actor loops; see the trace's end)", bounds.requests)
                    } else {
                        format!(
                            "the run did not end: {} s of virtual time after {requests} requests (an actor waits for what never comes)",
                            bounds.time.as_secs()
                        )
                    };
                    sim.note(why.clone());
                    T::unbounded(why)
                }
            };
            let trace = std::mem::take(&mut sim.lock().trace);
            // `SORTKEY_SIM_TRACE=1`: every run's trace printed, for the scenarios' tests and
            // their replays alike.
            if std::env::var_os("SORTKEY_SIM_TRACE").is_some() {
                eprintln!("{}", trace.join("\n"));
            }
            (out, trace)
        }))
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A client of the simulated DynamoDB: the real SDK, its requests delayed, reordered and
    /// failed by the run's choices, its clock the run's, no retries.
    pub fn client(&self) -> Client {
        self.client_with(None)
    }

    /// A client like [`client`](Self::client) whose requests see no fault (their delays and
    /// order still drawn): for an actor whose own failures are not what the scenario tests, such
    /// as a backfill run start to end without a checkpoint to resume from.
    pub fn client_without_faults(&self) -> Client {
        self.client_with(Some(Faults::NONE))
    }

    /// A client like [`client`](Self::client) that retries as a service's does: the SDK's
    /// standard retries (3 attempts), at once rather than after a randomly drawn backoff so that
    /// a seed still replays its run (the request's own delays are still drawn). For an actor
    /// whose one read is many requests (a merged read over 20 partitions is about 45 a page):
    /// without retries one request in 17 fails and with it the page, so that nearly every page
    /// was read 15 times over.
    pub fn retrying_client(&self) -> Client {
        let retries = aws_sdk_dynamodb::config::retry::RetryConfig::standard().with_initial_backoff(Duration::ZERO);
        let conf = self.client().config().to_builder().retry_config(retries).build();
        Client::from_conf(conf)
    }

    fn client_with(&self, faults: Option<Faults>) -> Client {
        let clock = SimClock { start: self.lock().start, jumped: Arc::new(Mutex::new(Duration::ZERO)) };
        let conf = aws_sdk_dynamodb::Config::builder()
            .behavior_version(BehaviorVersion::latest())
            .region(Region::new("us-east-1"))
            // No signing and no stalled-stream watch: nothing the simulation looks at, and most
            // of a request's cost in a debug build.
            .allow_no_auth()
            .stalled_stream_protection(aws_sdk_dynamodb::config::StalledStreamProtectionConfig::disabled())
            .endpoint_url("http://dynamodb.simulated")
            .http_client(SimConnector(self.clone(), clock.clone(), faults))
            .time_source(SharedTimeSource::new(clock))
            .retry_config(aws_sdk_dynamodb::config::retry::RetryConfig::disabled())
            .build();
        Client::from_conf(conf)
    }

    /// A client that sees no fault and no delay: for setting a run up and checking its end.
    pub fn direct_client(&self) -> Client {
        self.dynamo.client()
    }

    /// A number in `0..n` from the run's generator.
    pub fn below(&self, n: u64) -> u64 {
        self.lock().rng.below(n)
    }

    /// The run's time since its start.
    pub fn elapsed(&self) -> Duration {
        self.lock().start.elapsed()
    }

    /// The run's wall clock: a fixed start plus the time since, as milliseconds since the epoch
    /// (what a lease is measured in).
    pub fn now_ms(&self) -> u64 {
        let clock = SimClock { start: self.lock().start, jumped: Arc::new(Mutex::new(Duration::ZERO)) };
        clock.now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
    }

    /// Adds a line of the scenario's own to the trace.
    pub fn note(&self, line: String) {
        let mut shared = self.lock();
        let at = shared.start.elapsed().as_millis();
        shared.trace.push(format!("{at:>8} ms  {line}"));
    }

    /// Names the layout of each whole key the trace shows (a Query's start key, an item's key):
    /// `namer` says which layout reads a key, `None` for none.
    pub fn name_keys(&self, namer: crate::trace::Namer) {
        self.lock().namer = Some(namer);
    }

    /// The requests made so far.
    pub fn requests(&self) -> u64 {
        self.lock().requests
    }

    /// The writes applied so far through the run's clients, in the order applied (not those of
    /// the direct client, which sets a run up and reads its end).
    pub fn history(&self) -> Vec<Applied> {
        self.lock().history.clone()
    }

    /// One request through the simulation: a latency before it is applied and one after,
    /// drawn; a fault, drawn; the answer.
    async fn call(
        &self,
        (clock, faults): (&SimClock, Option<Faults>),
        target: Option<String>,
        body: Vec<u8>,
    ) -> Result<HttpResponse, ConnectorError> {
        let op = target.as_deref().and_then(|t| t.strip_prefix("DynamoDB_20120810.")).unwrap_or("?").to_owned();
        let over = {
            let mut s = self.lock();
            s.requests += 1;
            s.requests > s.bounds.requests
        };
        if over {
            // Past the bound: the request never ends, nor the run, which its time bound stops.
            return std::future::pending().await;
        }
        let (before, after, lost, throttled, stall, jump) = {
            let mut s = self.lock();
            let faults = faults.unwrap_or(s.faults);
            let before = Duration::from_micros(200 + s.rng.below(5_000));
            let after = Duration::from_micros(200 + s.rng.below(5_000));
            let lost = faults.lost_answer > 0 && s.rng.one_in(faults.lost_answer);
            let throttled = faults.throttled > 0 && s.rng.one_in(faults.throttled);
            let stall = (faults.stall > 0 && s.rng.one_in(faults.stall))
                .then(|| Duration::from_millis(2_000 + s.rng.below(4_000)));
            let jump = (faults.clock_jump > 0 && s.rng.one_in(faults.clock_jump))
                .then(|| Duration::from_millis(s.rng.below(3_000)));
            (before, after, lost, throttled, stall, jump)
        };
        if let Some(jump) = jump {
            *clock.jumped.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) += jump;
            self.note(format!("a client's clock jumps {} ms", jump.as_millis()));
        }
        if let Some(stall) = stall {
            self.note(format!("a client stalls {} ms before {op}", stall.as_millis()));
            tokio::time::sleep(stall).await;
        }
        tokio::time::sleep(before).await;
        let request: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        let summary = crate::trace::summary(&request, self.lock().namer);
        let (status, answer) = if throttled {
            let e =
                DynamoError::new("ThrottlingException", "Rate of requests exceeds the allowed throughput.".to_owned());
            (400, e.body())
        } else {
            self.dynamo.answer_json(target.as_deref(), &request)
        };
        if status == 200 && matches!(op.as_str(), "PutItem" | "UpdateItem" | "DeleteItem" | "TransactWriteItems") {
            let clock_ms = clock.now().duration_since(SystemTime::UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64);
            let mut shared = self.lock();
            let at_ms = shared.start.elapsed().as_millis() as u64;
            shared.history.push(Applied { at_ms, clock_ms, op: op.clone(), request: request.clone() });
        }
        let outcome = match (status, lost) {
            (200, true) => "applied, answer lost".to_owned(),
            (200, false) => "ok".to_owned(),
            (_, _) => answer["__type"].as_str().unwrap_or("?").rsplit('#').next().unwrap_or("?").to_owned(),
        };
        self.note(format!("{op} {summary} -> {outcome}"));
        tokio::time::sleep(after).await;
        if lost && status == 200 {
            return Err(ConnectorError::timeout("the simulated answer was lost".into()));
        }
        let bytes = serde_json::to_vec(&answer).unwrap_or_default();
        let status = StatusCode::try_from(status).unwrap_or_else(|_| unreachable!("200 and 400 are statuses"));
        let mut response = HttpResponse::new(status, SdkBody::from(bytes));
        response.headers_mut().insert("content-type", "application/x-amz-json-1.0");
        Ok(response)
    }
}

/// The simulation's HTTP client, with its client's clock and its faults (`None`: the run's).
#[derive(Debug, Clone)]
struct SimConnector(Sim, SimClock, Option<Faults>);

impl HttpConnector for SimConnector {
    fn call(&self, request: HttpRequest) -> HttpConnectorFuture {
        let target = request.headers().get("x-amz-target").map(str::to_owned);
        let body = request.body().bytes().unwrap_or_default().to_vec();
        let (sim, clock, faults) = (self.0.clone(), self.1.clone(), self.2);
        HttpConnectorFuture::new(Box::pin(async move { sim.call((&clock, faults), target, body).await }))
    }
}

impl HttpClient for SimConnector {
    fn http_connector(&self, _: &HttpConnectorSettings, _: &RuntimeComponents) -> SharedHttpConnector {
        SharedHttpConnector::new(self.clone())
    }
}
