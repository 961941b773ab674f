//! The items of a DynamoDB export instead of the table's, at no read cost: what an
//! `ExportTableToPointInTime` in DynamoDB JSON writes, whose `data/` files are gzip, one
//! `{"Item": {...}}` a line, in a folder (`aws s3 cp --recursive` brings it down) or where it lies
//! in S3: any [`DataFiles`]. The files are read on every core, each audited apart,
//! and the audits merged in the files' order.

use std::io::{BufRead, Read};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use flate2::read::MultiGzDecoder;
use indicatif::ProgressBar;

use crate::audit::attribute::{Attribute, read_names};
use crate::audit::data_files::DataFiles;
use crate::audit::export_line::{self, Attr};
use crate::outcome::AskError;

/// The audit of the file at one place in the list of files.
type FileAudit = (usize, Result<Vec<Attribute>, AskError>);

/// Audits every item of the data files `files` (those `share` picks, all by default) into
/// `attributes`, on every core, each file apart, merged in the files' order; `progress` counts
/// the bytes of the data files read (compressed), against their total.
pub(crate) fn read(
    files: &dyn DataFiles,
    share: &[usize],
    mut attributes: Vec<Attribute>,
    progress: Option<&ProgressBar>,
) -> Result<Vec<Attribute>, AskError> {
    if let Some(bar) = progress {
        bar.set_length(share.iter().filter_map(|&i| files.size(i)).sum());
    }
    let next = AtomicUsize::new(0);
    // Each file's audit, by its place in `share`.
    let done: Mutex<Vec<FileAudit>> = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(share.len());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&i) = share.get(at) else { break };
                    let mine = attributes.iter().map(Attribute::empty_like).collect();
                    let result = files.open(i).and_then(|bytes| read_file(&files.name(i), bytes, mine, progress));
                    done.lock().unwrap_or_else(|e| e.into_inner()).push((at, result));
                }
            });
        }
    });
    let mut done = done.into_inner().unwrap_or_else(|e| e.into_inner());
    done.sort_by_key(|(i, _)| *i);
    for (_, result) in done {
        for (total, part) in attributes.iter_mut().zip(result?) {
            total.merge(&part)?;
        }
    }
    Ok(attributes)
}

/// Audits the items of one data file: each line read for the audited attributes and their
/// partition keys alone ([`export_line`]), the rest of it skipped unbuilt, one line buffer
/// reused, so that memory stays flat.
fn read_file(
    name: &str,
    file: Box<dyn Read + Send>,
    mut attributes: Vec<Attribute>,
    progress: Option<&ProgressBar>,
) -> Result<Vec<Attribute>, AskError> {
    let failed = |line: usize, e: &dyn std::fmt::Display| AskError::bad(format!("{name}:{line}: {e}"));
    let file: Box<dyn Read + Send> = match progress {
        Some(bar) => Box::new(bar.wrap_read(file)),
        None => file,
    };
    let mut reader = std::io::BufReader::with_capacity(1 << 18, MultiGzDecoder::new(file));
    // The attributes a line is read for: each audited one, then each partition key not audited.
    let names = read_names(&attributes);
    let partition_of: Vec<Option<usize>> =
        attributes.iter().map(|a| a.partition.as_ref().and_then(|p| names.iter().position(|n| n == p))).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    // A partition and a sort key, and the partition key of each: never more than this.
    const MOST: usize = 4;
    if names.len() > MOST {
        return Err(AskError::bad(format!(
            "an export audit reads at most {MOST} attributes; asked for {}",
            names.len()
        )));
    }
    let mut line = Vec::with_capacity(4096);
    for n in 1.. {
        line.clear();
        if reader.read_until(b'\n', &mut line).map_err(|e| failed(n, &e))? == 0 {
            break;
        }
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let mut values: [Option<Attr<'_>>; MOST] = Default::default();
        export_line::read(&line, &names, &mut values[..names.len()]).map_err(|e| failed(n, &e))?;
        for (i, attribute) in attributes.iter_mut().enumerate() {
            let partition = partition_of[i].and_then(|p| match &values[p] {
                Some(Attr::S(s)) => Some(s.as_ref()),
                _ => None,
            });
            match &values[i] {
                Some(Attr::S(key)) if attribute.is_counter(key) => {}
                Some(Attr::S(key)) => attribute.audit.observe_in(key, partition),
                Some(Attr::Other) => attribute.not_strings += 1,
                None => {}
            }
        }
    }
    Ok(attributes)
}
