//! SV-COMP witnesses in witness format 2.0 (YAML).
//!
//! - `false`: a violation witness, one `violation_sequence` entry: one `function_return`
//!   waypoint per nondet value, in the order the program reads them (each in its own
//!   segment), then the `target` waypoint at the error call.
//! - `true`: a correctness witness, one `invariant_set` entry with a `loop_invariant` per
//!   loop whose invariant the engines' certificate gives (see [`super::loop_inv`]).
//!
//! Format 2.0 allows a `function_return` constraint only in the ACSL form
//! `\result <op> <constant>`; a value no such constraint can name (NaN: it compares unequal
//! to every constant) gets no waypoint, which leaves the witness less constrained, never
//! wrong. Invariants are C expressions (`c_expression`, the only format 2.0 has for them).

use super::replay::InputValue;
use super::{DataModel, SvcompAnswer};
use std::fmt::Write as _;
use std::path::Path;

fn yaml_str(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// The kind of a witness entry (`entry_type`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EntryType {
    Violation,
    Correctness,
}

/// The entry's first lines: `entry_type` and `metadata` (format version, a fresh UUID, the
/// creation time, the producer, the task with the program's SHA-256).
fn entry_header(kind: EntryType, path: &Path, model: DataModel) -> String {
    let file = path.display().to_string();
    let hash = std::fs::read(path)
        .map(|b| sha256_hex(&b))
        .unwrap_or_default();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let uuid = {
        let h = sha256_hex(format!("{file}{now}{}{kind:?}", std::process::id()).as_bytes());
        format!(
            "{}-{}-4{}-8{}-{}",
            &h[0..8],
            &h[8..12],
            &h[13..16],
            &h[17..20],
            &h[20..32]
        )
    };
    let mut s = String::new();
    let entry_type = match kind {
        EntryType::Violation => "violation_sequence",
        EntryType::Correctness => "invariant_set",
    };
    let _ = writeln!(
        s,
        "- entry_type: \"{entry_type}\"\n  metadata:\n    format_version: \"2.0\""
    );
    let _ = writeln!(s, "    uuid: {}", yaml_str(&uuid));
    let _ = writeln!(s, "    creation_time: {}", yaml_str(&iso8601(now)));
    let _ = writeln!(
        s,
        "    producer:\n      name: \"icpic3\"\n      version: {}",
        yaml_str(env!("CARGO_PKG_VERSION"))
    );
    let _ = writeln!(
        s,
        "    task:\n      input_files:\n        - {}",
        yaml_str(&file)
    );
    let _ = writeln!(
        s,
        "      input_file_hashes:\n        {}: {}",
        yaml_str(&file),
        yaml_str(&hash)
    );
    let _ = writeln!(s, "      specification: \"G ! call(reach_error())\"");
    let dm = match model {
        DataModel::Lp64 => "LP64",
        DataModel::Ilp32 => "ILP32",
    };
    let _ = writeln!(s, "      data_model: \"{dm}\"\n      language: \"C\"");
    s
}

/// The ACSL constraint `\result == v` (or the equivalent bound for an infinity), or `None`
/// for NaN, which no `\result <op> <constant>` constraint describes.
fn return_constraint(v: &InputValue) -> Option<String> {
    let finite_max = |f32_ty: bool| {
        if f32_ty {
            format!("{:e}f", f32::MAX)
        } else {
            format!("{:e}", f64::MAX)
        }
    };
    match v {
        InputValue::Int(_, x) => Some(format!("\\result == {x}")),
        InputValue::Bits(ty, b) => {
            let is_f32 = *ty == super::cfg::Ty::F32;
            let (nan, inf, pos) = if is_f32 {
                let f = f32::from_bits(*b as u32);
                (f.is_nan(), f.is_infinite(), f > 0.0)
            } else {
                let f = f64::from_bits(*b);
                (f.is_nan(), f.is_infinite(), f > 0.0)
            };
            match (nan, inf, pos) {
                (true, _, _) => None,
                // ACSL has no INFINITY macro: the only values beyond the largest finite one
                (false, true, true) => Some(format!("\\result > {}", finite_max(is_f32))),
                (false, true, false) => Some(format!("\\result < -{}", finite_max(is_f32))),
                _ => Some(format!("\\result == {}", v.c_expr())),
            }
        }
    }
}

/// The witness text for a `false` answer, with a note for standard error when a value
/// could not be stated.
pub fn violation_witness(path: &Path, model: DataModel, a: &SvcompAnswer) -> (String, Vec<String>) {
    let file = path.display().to_string();
    let mut notes = Vec::new();
    let mut s = entry_header(EntryType::Violation, path, model);
    s.push_str("  content:\n");
    for (i, (what, v)) in a.inputs.iter().enumerate() {
        let Some(pos) = a.input_ret_pos.get(i) else {
            continue;
        };
        let Some(constraint) = return_constraint(v) else {
            notes.push(format!(
                "the witness has no waypoint for input {} ({what} = NaN): format 2.0 states a \
                 return value only as `\\result <op> <constant>`, and NaN equals no constant",
                i + 1
            ));
            continue;
        };
        let _ = writeln!(
            s,
            "    - segment:\n        - waypoint:\n            type: \"function_return\"\n            action: \"follow\"\n            constraint:\n              value: {}\n              format: \"acsl_expression\"\n            location:\n              file_name: {}\n              line: {}\n              column: {}",
            yaml_str(&constraint),
            yaml_str(&file),
            pos.line,
            pos.col
        );
    }
    if let Some(p) = &a.error_pos {
        let _ = writeln!(
            s,
            "    - segment:\n        - waypoint:\n            type: \"target\"\n            action: \"follow\"\n            location:\n              file_name: {}\n              line: {}\n              column: {}",
            yaml_str(&file),
            p.line,
            p.col
        );
    }
    (s, notes)
}

/// The witness text for a `true` answer, with notes for standard error: an `invariant_set`
/// with the loop invariants the proof gives. Without any (the proof came from BMC or
/// k-induction, or no lemma can be said in C) the set is empty: trivially true, never wrong.
pub fn correctness_witness(
    path: &Path,
    model: DataModel,
    a: &SvcompAnswer,
) -> (String, Vec<String>) {
    let file = path.display().to_string();
    let mut notes = a.loop_invariants.skipped.clone();
    let mut s = entry_header(EntryType::Correctness, path, model);
    let invs = &a.loop_invariants.invariants;
    if invs.is_empty() {
        s.push_str("  content: []\n");
        if !a.loops.is_empty() {
            notes.push(format!(
                "the correctness witness states no loop invariant ({}): the proof gave none \
                 that can be said in C",
                a.detail
            ));
        }
    } else {
        s.push_str("  content:\n");
    }
    for inv in invs {
        // a witness names the task's file; a loop of another translation unit (or of a
        // header) cannot be located in it
        if inv.pos.file != file {
            notes.push(format!(
                "{}: the loop is not in {file}: no invariant stated",
                inv.pos
            ));
            continue;
        }
        let _ = writeln!(
            s,
            "    - invariant:\n        type: \"loop_invariant\"\n        location:\n          file_name: {}\n          line: {}\n          column: {}\n          function: {}\n        value: {}\n        format: \"c_expression\"",
            yaml_str(&file),
            inv.pos.line,
            inv.pos.col,
            yaml_str(&inv.function),
            yaml_str(&inv.value)
        );
    }
    (s, notes)
}

fn iso8601(secs: u64) -> String {
    let days = secs / 86400;
    let rem = secs % 86400;
    // civil from days (Howard Hinnant's algorithm)
    let z = days as i64 + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// SHA-256 (FIPS 180-4) of `data`, lower-case hex.
pub fn sha256_hex(data: &[u8]) -> String {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut h: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    let mut msg = data.to_vec();
    let bitlen = (data.len() as u64).wrapping_mul(8);
    msg.push(0x80);
    while msg.len() % 64 != 56 {
        msg.push(0);
    }
    msg.extend_from_slice(&bitlen.to_be_bytes());
    for chunk in msg.chunks(64) {
        let mut w = [0u32; 64];
        for i in 0..16 {
            w[i] = u32::from_be_bytes([
                chunk[4 * i],
                chunk[4 * i + 1],
                chunk[4 * i + 2],
                chunk[4 * i + 3],
            ]);
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let mut v = h;
        for i in 0..64 {
            let s1 = v[4].rotate_right(6) ^ v[4].rotate_right(11) ^ v[4].rotate_right(25);
            let ch = (v[4] & v[5]) ^ (!v[4] & v[6]);
            let t1 = v[7]
                .wrapping_add(s1)
                .wrapping_add(ch)
                .wrapping_add(K[i])
                .wrapping_add(w[i]);
            let s0 = v[0].rotate_right(2) ^ v[0].rotate_right(13) ^ v[0].rotate_right(22);
            let maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
            let t2 = s0.wrapping_add(maj);
            v = [
                t1.wrapping_add(t2),
                v[0],
                v[1],
                v[2],
                v[3].wrapping_add(t1),
                v[4],
                v[5],
                v[6],
            ];
        }
        for i in 0..8 {
            h[i] = h[i].wrapping_add(v[i]);
        }
    }
    h.iter().map(|x| format!("{x:08x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_known_values() {
        assert_eq!(
            sha256_hex(b"abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn iso_dates() {
        assert_eq!(iso8601(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso8601(951782400), "2000-02-29T00:00:00Z");
    }
}
