//! The two small text formats the runner reads and writes: CSV (RFC 4180 quoting, as in the
//! benchmark sets' `expected.csv` files, some of which have CRLF line ends and quoted fields
//! with commas) and tab-separated manifests with a `#` header line.

/// Splits CSV text into records. Quoted fields may contain commas, doubled quotes and line
/// breaks; `\r\n` and `\n` both end a record; blank lines are skipped.
pub fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut in_quotes = false;
    // Whether the current record has anything in it yet, so that blank lines vanish.
    let mut started = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if in_quotes {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => in_quotes = false,
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' => {
                in_quotes = true;
                started = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                started = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' | '\r' => {
                if started || !field.is_empty() {
                    record.push(std::mem::take(&mut field));
                    records.push(std::mem::take(&mut record));
                }
                started = false;
            }
            _ => {
                field.push(c);
                started = true;
            }
        }
    }
    if started || !field.is_empty() {
        record.push(field);
        records.push(record);
    }
    records
}

/// One CSV field, quoted only when it has to be.
pub fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// One CSV line (without the line end).
pub fn csv_line<S: AsRef<str>>(fields: &[S]) -> String {
    fields
        .iter()
        .map(|f| csv_field(f.as_ref()))
        .collect::<Vec<_>>()
        .join(",")
}

/// A table read from a file: column names and rows of the same width (short rows are padded
/// with empty fields so that lookups by column never go out of range).
#[derive(Debug, Clone)]
pub struct Table {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    /// The index of a column, by exact name.
    pub fn column(&self, name: &str) -> Option<usize> {
        self.header.iter().position(|h| h == name)
    }

    /// The index of the first column whose name starts with `prefix` (the `expected_verdict(...)`
    /// column of `transition-systems/expected.csv` carries its legend in the name).
    pub fn column_starting(&self, prefix: &str) -> Option<usize> {
        self.header.iter().position(|h| h.starts_with(prefix))
    }

    fn from_records(mut records: Vec<Vec<String>>) -> Option<Table> {
        if records.is_empty() {
            return None;
        }
        let header: Vec<String> = records.remove(0);
        let width = header.len();
        for r in &mut records {
            if r.len() < width {
                r.resize(width, String::new());
            }
        }
        Some(Table {
            header,
            rows: records,
        })
    }

    /// A CSV file whose first record is the header.
    pub fn from_csv(text: &str) -> Option<Table> {
        Table::from_records(parse_csv(text))
    }

    /// A tab-separated file whose first line is the header, written `# name<TAB>name...`;
    /// further lines starting with `#` and blank lines are comments.
    pub fn from_tsv(text: &str) -> Option<Table> {
        let mut lines = text.lines().map(|l| l.strip_suffix('\r').unwrap_or(l));
        let first = lines.next()?;
        let header_line = first.strip_prefix('#').unwrap_or(first).trim_start();
        let mut records = vec![header_line.split('\t').map(str::to_string).collect()];
        for l in lines {
            if l.trim().is_empty() || l.starts_with('#') {
                continue;
            }
            records.push(l.split('\t').map(str::to_string).collect());
        }
        Table::from_records(records)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_commas_and_crlf() {
        let text = "a,b,\"c,\"\"d\"\"\"\r\n1,,3\r\n\r\n\"x\ny\",z\n";
        let recs = parse_csv(text);
        assert_eq!(
            recs,
            vec![
                vec!["a", "b", "c,\"d\""],
                vec!["1", "", "3"],
                vec!["x\ny", "z"],
            ]
        );
    }

    #[test]
    fn csv_round_trip() {
        let fields = [
            "plain",
            "with,comma",
            "with \"quote\"",
            "",
            "CANDIDATE SOLUTION",
        ];
        let line = csv_line(&fields);
        assert_eq!(
            line,
            "plain,\"with,comma\",\"with \"\"quote\"\"\",,CANDIDATE SOLUTION"
        );
        assert_eq!(parse_csv(&line), vec![fields.to_vec()]);
    }

    #[test]
    fn tsv_header_and_padding() {
        let t = Table::from_tsv("# a\tb\tc\nx\ty\n# comment\n\np\tq\tr\n").unwrap();
        assert_eq!(t.header, vec!["a", "b", "c"]);
        assert_eq!(t.rows, vec![vec!["x", "y", ""], vec!["p", "q", "r"]]);
        assert_eq!(t.column("c"), Some(2));
        assert_eq!(t.column_starting("b"), Some(1));
        assert_eq!(t.column("d"), None);
    }
}
