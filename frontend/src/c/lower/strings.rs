//! String literals: each literal in the text is one read-only `char` array object, created
//! and initialised once with the program's other static storage (C11 6.4.5: a literal has
//! static storage duration; modifying it is undefined, so the object is `const`). A pointer
//! to its first character is the literal's value; reading its characters, comparing the
//! pointer with NULL or storing it (`rtsiSetSolverName(..., "FixedStepDiscrete")`) then work
//! as for any other object.

use super::*;

/// Literals longer than this are an error (one CFG variable per character).
const MAX_LITERAL: usize = 4096;

impl<'a> Lowerer<'a> {
    /// The characters of a literal (adjacent parts concatenated), without the final NUL.
    pub(super) fn literal_bytes(&self, parts: &[String], span: Span) -> R<Vec<u8>> {
        let mut bytes = Vec::new();
        for p in parts {
            // a prefixed literal (L"", u8"", u"", U"") is not a plain char array
            let Some(body) = p.strip_prefix('"').and_then(|x| x.strip_suffix('"')) else {
                return self.err(span, "wide and prefixed string literals are not supported");
            };
            match unescape(body) {
                Some(b) => bytes.extend(b),
                None => {
                    return self.err(
                        span,
                        "an escape sequence in a string literal is not supported",
                    )
                }
            }
        }
        Ok(bytes)
    }

    /// A `char` array (of `n` elements of type `el`, at byte `off` of object `o`)
    /// initialised from a string literal (C11 6.7.9 14): its characters, then the NUL if
    /// there is room, and zeros for the rest of the array. `false` when `e` is not a string
    /// literal or the array's elements are not of a character type.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn string_init(
        &mut self,
        o: ObjId,
        el: &CType,
        n: usize,
        off: usize,
        e: &Node<Expression>,
        cur: &mut usize,
    ) -> R<bool> {
        let Expression::StringLiteral(parts) = &e.node else {
            return Ok(false);
        };
        let t = match el {
            CType::S(t @ Ty::Int { bits: 8, .. }) => *t,
            _ => return Ok(false),
        };
        let bytes = self.literal_bytes(&parts.node, e.span)?;
        if bytes.len() > n {
            return self.err(
                e.span,
                format!(
                    "initializer-string of {} characters for an array of {n}",
                    bytes.len()
                ),
            );
        }
        if n > MAX_LITERAL {
            return self.err(
                e.span,
                format!("a `char` array of more than {MAX_LITERAL} elements initialised from a string literal is not supported"),
            );
        }
        for k in 0..n {
            let b = bytes.get(k).copied().unwrap_or(0);
            let v = if t.is_signed_int() {
                b as i8 as i128
            } else {
                b as i128
            };
            let place = Place::Mem {
                base: Base::Obj(o),
                konst: (off + k) as i128,
                idx: Vec::new(),
                raw: None,
                ty: el.clone(),
                reads: Vec::new(),
            };
            self.write(&place, Val::S(E::Int(t, v), t), cur, e.span)?;
        }
        Ok(true)
    }

    pub(super) fn string_literal(&mut self, parts: &[String], span: Span) -> R<Val> {
        let char_ty = Ty::Int {
            bits: 8,
            signed: true,
        };
        let mut bytes = self.literal_bytes(parts, span)?;
        bytes.push(0);
        if bytes.len() > MAX_LITERAL {
            return self.err(
                span,
                format!("string literals longer than {MAX_LITERAL} characters are not supported"),
            );
        }
        let o = match self.statics.get(&span.start) {
            Some(Binding::Obj(o)) => *o,
            _ => {
                let ty = CType::Array(Box::new(CType::S(char_ty)), bytes.len());
                let o = self.new_object("string literal", &ty, true, span)?;
                self.exposed.insert(o);
                let mut g = self.ginit;
                for (c, b) in self.objects[o.0].cells.clone().iter().zip(&bytes) {
                    if let CellKind::Scalar(_, v) = c.kind {
                        g = self.assign_edge(g, v, E::Int(char_ty, *b as i8 as i128));
                    }
                }
                self.ginit = g;
                self.statics.insert(span.start, Binding::Obj(o));
                o
            }
        };
        Ok(Val::P(PtrV {
            obj: E::Int(OBJ_TY, o.ptr_id()),
            off: E::Int(OFF_TY, 0),
            to: CType::S(char_ty),
        }))
    }
}

/// The bytes of a literal's body with its escape sequences decoded (`None`: an escape that
/// is not one of C's simple, octal or hexadecimal escapes).
fn unescape(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = *b.get(i)?;
        i += 1;
        out.push(match c {
            b'n' => b'\n',
            b't' => b'\t',
            b'r' => b'\r',
            b'a' => 7,
            b'b' => 8,
            b'f' => 12,
            b'v' => 11,
            b'\\' | b'\'' | b'"' | b'?' => c,
            b'0'..=b'7' => {
                let mut v = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                u8::try_from(v).ok()?
            }
            b'x' => {
                let st = i;
                while i < b.len() && b[i].is_ascii_hexdigit() {
                    i += 1;
                }
                u8::from_str_radix(std::str::from_utf8(&b[st..i]).ok()?, 16).ok()?
            }
            _ => return None,
        });
    }
    Some(out)
}
