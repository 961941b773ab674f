//! Audits by Scan started from the audit page: each runs in the server, rate-limited, as `sortkey
//! audit --table T --report FILE --rate R` would, its partial report saved in the server's audit
//! folder after every page, so that one stopped (or cut by the server's end) resumes where it
//! saved, from the page or from the command. Reading only: a Scan writes nothing to DynamoDB.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::ask::Connection;
use crate::audit::partial::{self, Partial};
use crate::audit::scan::{self, Progress, ScanPlan};
use crate::outcome::AskError;

/// The scans the server started, by table, and the folder their partial reports are saved in.
pub(crate) struct Scans {
    runs: Mutex<HashMap<String, Arc<ScanRun>>>,
    dir: PathBuf,
}

/// What a scan reads with: the server's client, its lock (and the lock's path) and connection.
pub(crate) struct ScanReader {
    pub(crate) client: aws_sdk_dynamodb::Client,
    pub(crate) lock: sortkey_core::LockFile,
    pub(crate) lock_path: String,
    pub(crate) connection: Connection,
}

/// One scan started from the page.
pub(crate) struct ScanRun {
    /// About how many items it reads (DynamoDB's estimate), and how many it read so far.
    expected: AtomicU64,
    read: AtomicU64,
    /// The read units its Scan spent so far.
    read_units: Mutex<f64>,
    status: Mutex<Status>,
    /// Stops the task between two pages.
    abort: Mutex<Option<tokio::task::AbortHandle>>,
}

/// Where a scan stands.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Status {
    Running,
    Finished,
    Stopped,
    Failed(String),
}

/// What the page shows of a scan: started here or only saved by an earlier one.
pub(crate) struct ScanView {
    pub(crate) table: String,
    /// The items read so far and the estimate, when it ran in this server.
    pub(crate) read: u64,
    pub(crate) expected: u64,
    /// The read units its Scan spent in this server.
    pub(crate) read_units: f64,
    /// Where it stands, in words, and whether it still runs (the page then refreshes).
    pub(crate) status: String,
    pub(crate) running: bool,
    /// The segments read to their end, of all, by its partial report.
    pub(crate) segments_done: usize,
    pub(crate) segments: usize,
    /// The partial report, and the command that goes on with it in a terminal.
    pub(crate) report: String,
    pub(crate) command: String,
}

impl ScanView {
    /// How far it is, in percent of the estimate (100 when finished).
    pub(crate) fn percent(&self) -> u64 {
        if self.segments > 0 && self.segments_done == self.segments {
            return 100;
        }
        (self.read * 100).checked_div(self.expected).unwrap_or(0).min(99)
    }
}

impl Progress for ScanRun {
    fn expect(&self, items: u64) {
        self.expected.store(items, Ordering::Relaxed);
    }

    fn advance(&self, items: u64) {
        self.read.fetch_add(items, Ordering::Relaxed);
    }

    fn spent(&self, read_units: f64) {
        *lock(&self.read_units) += read_units;
    }
}

/// What the page asks of a new scan.
pub(crate) struct Request {
    pub(crate) table: String,
    pub(crate) rate: u64,
    pub(crate) segments: u32,
    /// Start over: the saved partial report is removed first.
    pub(crate) fresh: bool,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Scans {
    /// No scan yet, their reports to be saved in `dir` (made when the first starts).
    pub(crate) fn new(dir: PathBuf) -> Scans {
        Scans { runs: Mutex::default(), dir }
    }

    /// The partial report of the scan of `table` in the server's audit folder.
    pub(crate) fn report_path(&self, table: &str) -> PathBuf {
        self.dir.join(report_file_name(table))
    }

    /// Starts (or resumes, from its partial report) the scan of `request.table` with `reader`,
    /// unless one runs.
    pub(crate) fn start(&self, request: &Request, reader: ScanReader) -> Result<(), AskError> {
        let mut scans = lock(&self.runs);
        if scans.get(&request.table).is_some_and(|r| *lock(&r.status) == Status::Running) {
            return Ok(());
        }
        let path = self.report_path(&request.table);
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| AskError::local(format!("cannot make the audit folder {}: {e}", self.dir.display())))?;
        if request.fresh {
            match std::fs::remove_file(&path) {
                Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                    return Err(AskError::local(format!("cannot remove {}: {e}", path.display())));
                }
                _ => {}
            }
        }
        // A saved scan goes on with its own split.
        let total = match partial::load(&path)? {
            Some(saved) => saved.total,
            None => request.segments,
        };
        let plan = ScanPlan {
            table: request.table.clone(),
            index: None,
            keys: None,
            total,
            numbers: (0..total).collect(),
            report: Some(path),
            rate: Some(request.rate),
            connection: reader.connection.clone(),
        };
        let run = Arc::new(ScanRun {
            expected: AtomicU64::new(0),
            read: AtomicU64::new(0),
            read_units: Mutex::new(0.0),
            status: Mutex::new(Status::Running),
            abort: Mutex::new(None),
        });
        let task_run = run.clone();
        let task = tokio::spawn(async move {
            let progress: &dyn Progress = &*task_run;
            let read = scan::read(&reader.client, &plan, &reader.lock, &reader.lock_path, Some(progress)).await;
            *lock(&task_run.status) = match read {
                Ok(_) => Status::Finished,
                Err(e) => Status::Failed(e.message),
            };
        });
        *lock(&run.abort) = Some(task.abort_handle());
        scans.insert(request.table.clone(), run);
        Ok(())
    }

    /// Stops the scan of `table` between two pages; its partial report stays, to resume.
    pub(crate) fn stop(&self, table: &str) {
        let scans = lock(&self.runs);
        if let Some(run) = scans.get(table) {
            let mut status = lock(&run.status);
            if *status == Status::Running {
                if let Some(abort) = lock(&run.abort).take() {
                    abort.abort();
                }
                *status = Status::Stopped;
            }
        }
    }

    /// What the page shows of the scan of `table`: the one this server runs or ran, with its
    /// partial report as read (`saved`), or that report alone, saved by an earlier server; `None`
    /// when there is neither.
    pub(crate) fn view(&self, table: &str, saved: Option<&Partial>, command: String) -> Option<ScanView> {
        let path = self.report_path(table);
        let run = lock(&self.runs).get(table).cloned();
        if saved.is_none() && run.is_none() {
            return None;
        }
        let (segments_done, segments) =
            saved.map_or((0, 0), |s| (s.segments.iter().filter(|s| s.done).count(), s.segments.len()));
        let status = run.as_ref().map(|r| lock(&r.status).clone());
        let running = status == Some(Status::Running);
        let words = match status {
            Some(Status::Running) => "running".to_owned(),
            Some(Status::Finished) => "finished".to_owned(),
            Some(Status::Stopped) => "stopped; resume it to go on from its partial report".to_owned(),
            Some(Status::Failed(why)) => format!("failed: {why}"),
            None if segments > 0 && segments_done == segments => "finished (saved by an earlier server)".to_owned(),
            None => "saved by an earlier server, not finished; resume it to go on".to_owned(),
        };
        let (read, expected, read_units) = run.map_or((0, 0, 0.0), |r| {
            (r.read.load(Ordering::Relaxed), r.expected.load(Ordering::Relaxed), *lock(&r.read_units))
        });
        Some(ScanView {
            table: table.to_owned(),
            read,
            expected,
            read_units,
            status: words,
            running,
            segments_done,
            segments,
            report: path.display().to_string(),
            command,
        })
    }

    /// The tables with a scan running or saved, in name order.
    pub(crate) fn tables(&self) -> Vec<String> {
        let mut tables: Vec<String> = lock(&self.runs).keys().cloned().collect();
        if let Ok(entries) = std::fs::read_dir(&self.dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().into_owned();
                // A report saved under a hashed name says its table inside.
                let table = match name.strip_suffix(".json") {
                    Some(stem) if stem.starts_with("table-") => {
                        crate::audit::partial::load(&entry.path()).ok().flatten().map(|p| p.table)
                    }
                    Some(stem) => Some(stem.to_owned()),
                    None => None,
                };
                if let Some(table) = table
                    && !tables.contains(&table)
                {
                    tables.push(table);
                }
            }
        }
        tables.sort();
        tables
    }
}

/// The file a scan of `table` saves its partial report in: `TABLE.json`, unless that would be a
/// hidden file (a table named `...` or `.x` is legal) or longer than a file name may be (a table
/// name has up to 255 bytes): then `table-PREFIX-HASH.json`, the name's first 200 bytes without
/// leading dots and the FNV-1a hash of the whole name, one file per table and under 255 bytes.
pub(crate) fn report_file_name(table: &str) -> String {
    if !table.starts_with('.') && table.len() + ".json".len() <= 255 {
        return format!("{table}.json");
    }
    let hash = table.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3));
    let prefix: String = table.trim_start_matches('.').chars().take(200).collect();
    format!("table-{prefix}-{hash:016x}.json")
}

#[cfg(test)]
mod tests {
    use super::report_file_name;

    #[test]
    fn every_legal_table_name_saves_to_a_file_of_its_own() {
        assert_eq!(report_file_name("Runs"), "Runs.json");
        let long = "t".repeat(255);
        for name in ["...", ".x", "..x", long.as_str(), &format!("{}u", "t".repeat(254))] {
            let file = report_file_name(name);
            assert!(!file.starts_with('.') && file.len() < 255, "{name}: {file}");
        }
        assert_ne!(report_file_name("..."), report_file_name("...."));
        assert_ne!(report_file_name(&long), report_file_name(&format!("{}u", "t".repeat(254))));
    }
}
