//! Machine-readable reports: the one JSON document `solve --format json` prints (schema:
//! `docs/solve-json.schema.json`) and the typed input error it carries.

use crate::diag::{Diagnostic, SourceMap};
use serde_json::{json, Value};

/// `format_version` of the JSON documents; raised when a field changes meaning or goes away.
pub const JSON_FORMAT_VERSION: u64 = 1;

/// Bad input (exit 1): the first error, where it is. `line`/`column` are 1-based, absent
/// when the error has no place in a file (a file that cannot be read).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub file: String,
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub message: String,
}

impl InputError {
    pub fn at(sm: &SourceMap<'_>, d: &Diagnostic) -> InputError {
        let (line, col) = sm.line_col(d.span.start);
        InputError {
            file: sm.name.to_string(),
            line: Some(line),
            column: Some(col),
            message: d.message.clone(),
        }
    }

    pub fn unplaced(file: &str, message: impl Into<String>) -> InputError {
        InputError {
            file: file.to_string(),
            line: None,
            column: None,
            message: message.into(),
        }
    }

    /// `{"result": "error", "message", "file", "line", "column"}` (without the version).
    pub fn json(&self) -> Value {
        json!({
            "result": "error",
            "message": self.message,
            "file": self.file,
            "line": self.line,
            "column": self.column,
        })
    }
}

/// The document as printed: `v` (an object) with `format_version`, on one line.
pub fn document(mut v: Value) -> String {
    if let Value::Object(m) = &mut v {
        m.insert("format_version".into(), json!(JSON_FORMAT_VERSION));
    }
    v.to_string()
}
