//! Where an export's data files are: a folder, or S3 (`export_s3`); each opened as a stream of
//! its bytes, which the export's reader decompresses.

use std::io::Read;
use std::path::{Path, PathBuf};

use walkdir::WalkDir;

use crate::outcome::AskError;

/// The data files of an export, wherever they are: a folder ([`Folder`]) or S3
/// (`S3Files`).
pub(crate) trait DataFiles: Sync {
    /// How many there are.
    fn len(&self) -> usize;
    /// The `i`th, as errors name it.
    fn name(&self, i: usize) -> String;
    /// Its size in bytes (compressed), when known.
    fn size(&self, i: usize) -> Option<u64>;
    /// Its bytes, as they are read.
    fn open(&self, i: usize) -> Result<Box<dyn Read + Send>, AskError>;
}

/// The data files of an export in a folder, in name order.
pub(crate) struct Folder(Vec<PathBuf>);

impl Folder {
    /// Every `.json.gz` (or, as moto writes them, `.gz`) file in a `data` folder under `dir`.
    pub(crate) fn of(dir: &Path) -> Result<Folder, AskError> {
        data_files(dir).map(Folder)
    }
}

impl DataFiles for Folder {
    fn len(&self) -> usize {
        self.0.len()
    }

    fn name(&self, i: usize) -> String {
        self.0[i].display().to_string()
    }

    fn size(&self, i: usize) -> Option<u64> {
        std::fs::metadata(&self.0[i]).ok().map(|m| m.len())
    }

    fn open(&self, i: usize) -> Result<Box<dyn Read + Send>, AskError> {
        let file =
            std::fs::File::open(&self.0[i]).map_err(|e| AskError::unreadable(&e, format!("{}: {e}", self.name(i))))?;
        Ok(Box::new(file))
    }
}

/// The export's data files, in name order: every `.json.gz` (or, as moto writes them, `.gz`)
/// file in a `data` folder under `dir`.
fn data_files(dir: &Path) -> Result<Vec<PathBuf>, AskError> {
    let mut files = Vec::new();
    for entry in WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.map_err(|e| AskError::local(format!("cannot read the export {}: {e}", dir.display())))?;
        let in_data = entry.path().parent().and_then(Path::file_name).is_some_and(|n| n == "data");
        let name = entry.file_name().to_string_lossy();
        if entry.file_type().is_file() && in_data {
            if name.ends_with(".ion.gz") {
                return Err(in_ion(&entry.path().display().to_string()));
            }
            if name.ends_with(".gz") {
                files.push(entry.into_path());
            }
        }
    }
    if files.is_empty() {
        return Err(AskError::bad(format!(
            "no data files (data/*.json.gz) under {}; expected the folder of a DynamoDB export in DynamoDB JSON",
            dir.display()
        )));
    }
    Ok(files)
}

/// A data file of an export in Amazon Ion (`.ion.gz`), at `address`: no export this reads.
pub(crate) fn in_ion(address: &str) -> AskError {
    AskError::bad(format!(
        "{address}: an export in Amazon Ion; expected one in DynamoDB JSON (ExportFormat DYNAMODB_JSON)"
    ))
}
