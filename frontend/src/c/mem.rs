//! The C memory model of the front end: C types beyond scalars (pointers, arrays, structs,
//! unions, functions), their layout in the chosen data model, and objects flattened into
//! typed cells.
//!
//! Every C object (a variable, an inlined instance of a local, a static, the object an entry
//! parameter points to) is an [`Object`]: a list of [`Cell`]s at byte offsets, each a CFG
//! variable of a scalar type. Structs and arrays are field-sensitive (one cell per scalar
//! leaf); a union is stored as unsigned integer words (little-endian), so that every member
//! reads and writes it by exact bit extraction and insertion. A pointer is a pair of
//! integers: the id of the object it points into (0 is NULL) and a byte offset; a pointer
//! cell is two variables. The aliasing and layout assumptions are in `docs/c-frontend.md`.

use super::cfg::Ty;
use super::lower::DataModel;

/// The type of a pointer's object id (0 = NULL, functions have ids above [`FN_ID_BASE`]).
pub const OBJ_TY: Ty = Ty::Int {
    bits: 32,
    signed: true,
};
/// The type of a pointer's byte offset.
pub const OFF_TY: Ty = Ty::Int {
    bits: 64,
    signed: true,
};
/// Function designators as pointer targets: id `FN_ID_BASE + k` is function `k`.
pub const FN_ID_BASE: i128 = 1 << 24;

/// Typed id of a memory object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ObjId(pub usize);

impl ObjId {
    /// The value of a pointer into this object (ids start at 1: 0 is NULL).
    pub fn ptr_id(self) -> i128 {
        self.0 as i128 + 1
    }
}

/// Typed id of a struct or union type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RecId(pub usize);

/// A C type.
#[derive(Clone, Debug, PartialEq)]
pub enum CType {
    /// a scalar (or void)
    S(Ty),
    Ptr(Box<CType>),
    /// element type and length (0: unknown length, only behind a pointer or as a parameter)
    Array(Box<CType>, usize),
    Rec(RecId),
    Func(Box<FnType>),
    /// a bit-field member (only as the type of a struct or union member and of a place):
    /// its declared integer type, the first bit inside the byte at the member's offset
    /// (0..=7, little-endian bit order) and its width
    Bits {
        ty: Ty,
        bit: u8,
        width: u8,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct FnType {
    pub ret: CType,
    pub params: Vec<CType>,
    pub variadic: bool,
}

impl CType {
    pub fn scalar(&self) -> Option<Ty> {
        match self {
            CType::S(t) => Some(*t),
            _ => None,
        }
    }
    pub fn is_ptr(&self) -> bool {
        matches!(self, CType::Ptr(_))
    }
    pub fn is_void(&self) -> bool {
        matches!(self, CType::S(Ty::Void))
    }
    pub fn pointee(&self) -> Option<&CType> {
        match self {
            CType::Ptr(t) => Some(t),
            _ => None,
        }
    }
    /// The type a value of this type has after array and function decay.
    pub fn decayed(&self) -> CType {
        match self {
            CType::Array(t, _) => CType::Ptr(t.clone()),
            CType::Func(_) => CType::Ptr(Box::new(self.clone())),
            t => t.clone(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Field {
    /// `None` for an anonymous struct or union member (its members are found through it)
    pub name: Option<String>,
    pub ty: CType,
    pub off: usize,
}

#[derive(Clone, Debug)]
pub struct Record {
    pub tag: String,
    pub union: bool,
    pub fields: Vec<Field>,
    pub size: usize,
    pub align: usize,
    pub complete: bool,
}

/// One scalar piece of an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    /// byte offset in the object
    pub off: usize,
    pub kind: CellKind,
}

#[derive(Clone, Debug, PartialEq)]
pub enum CellKind {
    /// a scalar of this type, held in a CFG variable
    Scalar(Ty, usize),
    /// a pointer: the variables of its object id and byte offset
    Ptr(usize, usize),
}

#[derive(Clone, Debug)]
pub struct Object {
    pub name: String,
    pub ty: CType,
    pub size: usize,
    pub cells: Vec<Cell>,
    /// the object is `const` (a write through a pointer into it is not translated)
    pub is_const: bool,
}

/// The record table and the layout rules of the data model.
#[derive(Clone, Debug)]
pub struct Layouts {
    pub model: DataModel,
    pub records: Vec<Record>,
    /// 8-byte scalars are aligned to 8 in ILP32 too (ARM EABI, `--target arm32`; the replay
    /// builds with `gcc -m32 -malign-double`)
    pub align8: bool,
}

impl Layouts {
    pub fn new(model: DataModel) -> Layouts {
        Layouts {
            model,
            records: Vec::new(),
            align8: false,
        }
    }

    /// The layout rules of a target: ARM EABI (`arm_eabi`) aligns `double` and the 64-bit
    /// integers to 8 bytes inside structs, i386 to 4.
    pub fn for_target(model: DataModel, arm_eabi: bool) -> Layouts {
        Layouts {
            align8: arm_eabi,
            ..Layouts::new(model)
        }
    }

    pub fn ptr_size(&self) -> usize {
        match self.model {
            DataModel::Lp64 => 8,
            DataModel::Ilp32 => 4,
        }
    }

    pub fn scalar_size(t: Ty) -> usize {
        match t {
            Ty::Void => 1,
            Ty::Bool => 1,
            t => t.bits() as usize / 8,
        }
    }

    /// Alignment inside structs. x86-64 (LP64): the size; i386 (`gcc -m32`, the replay
    /// compiler of ILP32): 8-byte scalars are aligned to 4; ARM EABI (`--target arm32`,
    /// replayed with `gcc -m32 -malign-double`): the size.
    fn scalar_align(&self, t: Ty) -> usize {
        let s = Self::scalar_size(t);
        match self.model {
            DataModel::Ilp32 if !self.align8 => s.min(4),
            DataModel::Ilp32 | DataModel::Lp64 => s,
        }
    }

    /// `sizeof`; `None` for an incomplete type or a function.
    pub fn size_of(&self, t: &CType) -> Option<usize> {
        match t {
            CType::S(Ty::Void) => None,
            CType::S(s) => Some(Self::scalar_size(*s)),
            CType::Ptr(_) => Some(self.ptr_size()),
            CType::Array(e, n) => self.size_of(e)?.checked_mul(*n),
            CType::Rec(r) => {
                let r = &self.records[r.0];
                r.complete.then_some(r.size)
            }
            CType::Func(_) | CType::Bits { .. } => None,
        }
    }

    pub fn align_of(&self, t: &CType) -> usize {
        match t {
            CType::S(s) => self.scalar_align(*s),
            CType::Ptr(_) => self.ptr_size(),
            CType::Array(e, _) => self.align_of(e),
            CType::Rec(r) => self.records[r.0].align.max(1),
            CType::Func(_) => 1,
            CType::Bits { ty, .. } => self.scalar_align(*ty),
        }
    }

    /// Lays out a struct or union from its members (name, type, bit-field width) as gcc
    /// does on x86-64 and i386 (`PCC_BITFIELD_TYPE_MATTERS`): a bit-field starts at the
    /// next free bit unless it would then span more alignment units of its declared type
    /// than that type has (then it starts at the next such unit); a zero-width bit-field
    /// moves the next member to its type's alignment; a named bit-field's type counts for
    /// the record's alignment, an unnamed one's does not.
    pub fn complete(
        &mut self,
        id: RecId,
        members: Vec<(Option<String>, CType, Option<u32>)>,
    ) -> Result<(), String> {
        let union = self.records[id.0].union;
        // the next free bit (structs)
        let mut pos = 0usize;
        let mut size = 0usize;
        let mut align = 1usize;
        let mut fields = Vec::new();
        let n = members.len();
        for (k, (name, ty, width)) in members.into_iter().enumerate() {
            if let Some(w) = width {
                let w = w as usize;
                let shown = name.as_deref().unwrap_or("<unnamed>");
                let t = match ty {
                    CType::S(t) if t.is_int() => t,
                    _ => {
                        return Err(format!(
                            "bit-field `{shown}` of a type that is not an integer type"
                        ))
                    }
                };
                let tbits = Self::scalar_size(t) * 8;
                let max = if t == Ty::Bool { 1 } else { tbits };
                if w > max {
                    return Err(format!("the width of bit-field `{shown}` exceeds its type"));
                }
                let ta = self.scalar_align(t) * 8;
                if w == 0 {
                    if name.is_some() {
                        return Err(format!("zero width for bit-field `{shown}`"));
                    }
                    if !union {
                        pos = pos.div_ceil(ta) * ta;
                    }
                    continue;
                }
                if name.is_some() {
                    align = align.max(ta / 8);
                }
                if union {
                    size = size.max(w.div_ceil(8));
                    if name.is_some() {
                        fields.push(Field {
                            name,
                            ty: CType::Bits {
                                ty: t,
                                bit: 0,
                                width: w as u8,
                            },
                            off: 0,
                        });
                    }
                    continue;
                }
                if (pos % ta + w).div_ceil(ta) > tbits / ta {
                    pos = pos.div_ceil(ta) * ta;
                }
                if name.is_some() {
                    fields.push(Field {
                        name,
                        ty: CType::Bits {
                            ty: t,
                            bit: (pos % 8) as u8,
                            width: w as u8,
                        },
                        off: pos / 8,
                    });
                }
                pos += w;
                continue;
            }
            let s = match self.size_of(&ty) {
                Some(s) => s,
                // a flexible array member, last in a struct
                None if matches!(ty, CType::Array(_, 0)) && k + 1 == n && !union => 0,
                None => {
                    return Err(format!(
                        "member `{}` has an incomplete type",
                        name.as_deref().unwrap_or("<anonymous>")
                    ))
                }
            };
            let a = self.align_of(&ty);
            align = align.max(a);
            if union {
                fields.push(Field { name, ty, off: 0 });
                size = size.max(s);
            } else {
                let off = pos.div_ceil(8).div_ceil(a) * a;
                fields.push(Field { name, ty, off });
                pos = (off + s) * 8;
            }
        }
        if !union {
            size = pos.div_ceil(8);
        }
        let size = size.div_ceil(align) * align;
        let r = &mut self.records[id.0];
        r.fields = fields;
        r.size = size;
        r.align = align;
        r.complete = true;
        Ok(())
    }

    /// Finds member `name` of a record (also inside anonymous members): its type and offset.
    pub fn member(&self, id: RecId, name: &str) -> Option<(CType, usize)> {
        for f in &self.records[id.0].fields {
            match &f.name {
                Some(n) if n == name => return Some((f.ty.clone(), f.off)),
                None => {
                    if let CType::Rec(inner) = &f.ty {
                        if let Some((t, o)) = self.member(*inner, name) {
                            return Some((t, f.off + o));
                        }
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The scalar leaves of a type in storage order: (offset, leaf). A union is stored as
    /// unsigned words; a pointer is one leaf.
    pub fn leaves(
        &self,
        t: &CType,
        base: usize,
        path: &str,
        out: &mut Vec<(usize, Leaf, String)>,
    ) -> Result<(), String> {
        if out.len() > MAX_CELLS {
            return Err(format!(
                "objects of more than {MAX_CELLS} scalar cells are not supported"
            ));
        }
        match t {
            CType::S(Ty::Void) => Err("an object of type void".into()),
            CType::S(s) => {
                out.push((base, Leaf::Scalar(*s), path.to_string()));
                Ok(())
            }
            CType::Ptr(_) => {
                out.push((base, Leaf::Ptr, path.to_string()));
                Ok(())
            }
            CType::Array(e, n) => {
                let s = self.size_of(e).ok_or("an array of an incomplete type")?;
                for k in 0..*n {
                    self.leaves(e, base + k * s, &format!("{path}[{k}]"), out)?;
                }
                Ok(())
            }
            CType::Rec(r) => {
                let rec = &self.records[r.0];
                if !rec.complete {
                    return Err(format!("an object of the incomplete type `{}`", rec.tag));
                }
                if rec.union {
                    if self.has_ptr(t) {
                        return Err(format!("a union with a pointer member (`{}`)", rec.tag));
                    }
                    let mut o = 0;
                    while o < rec.size {
                        let w = [8usize, 4, 2, 1]
                            .into_iter()
                            .find(|w| o % w == 0 && o + w <= rec.size)
                            .unwrap_or(1);
                        out.push((
                            base + o,
                            Leaf::Scalar(Ty::Int {
                                bits: (w * 8) as u8,
                                signed: false,
                            }),
                            format!("{path}@{o}"),
                        ));
                        o += w;
                    }
                    return Ok(());
                }
                // the bytes that hold bit-fields are unsigned bytes (a bit-field is read and
                // written by bit extraction and insertion on them, so copies, `memcpy` and
                // union punning over them are exact)
                let start = out.len();
                let mut bf_bytes = std::collections::BTreeSet::new();
                for f in &rec.fields {
                    if let CType::Bits { bit, width, .. } = f.ty {
                        let nb = (bit as usize + width as usize).div_ceil(8);
                        bf_bytes.extend(f.off..f.off + nb);
                        continue;
                    }
                    let p = match &f.name {
                        Some(n) => format!("{path}.{n}"),
                        None => path.to_string(),
                    };
                    self.leaves(&f.ty, base + f.off, &p, out)?;
                }
                if !bf_bytes.is_empty() {
                    for b in bf_bytes {
                        out.push((
                            base + b,
                            Leaf::Scalar(Ty::Int {
                                bits: 8,
                                signed: false,
                            }),
                            format!("{path}@{b}"),
                        ));
                    }
                    out[start..].sort_by_key(|l| l.0);
                }
                Ok(())
            }
            CType::Func(_) => Err("an object of function type".into()),
            CType::Bits { .. } => Err("an object of bit-field type".into()),
        }
    }

    pub fn has_ptr(&self, t: &CType) -> bool {
        match t {
            CType::Ptr(_) => true,
            CType::Array(e, _) => self.has_ptr(e),
            CType::Rec(r) => self.records[r.0].fields.iter().any(|f| self.has_ptr(&f.ty)),
            _ => false,
        }
    }

    /// A readable name of a type (messages).
    pub fn name(&self, t: &CType) -> String {
        match t {
            CType::S(Ty::Void) => "void".into(),
            CType::S(s) => s.c_name(),
            CType::Ptr(p) => format!("{} *", self.name(p)),
            CType::Array(e, n) => format!("{}[{n}]", self.name(e)),
            CType::Rec(r) => {
                let rec = &self.records[r.0];
                format!("{} {}", if rec.union { "union" } else { "struct" }, rec.tag)
            }
            CType::Func(_) => "function".into(),
            CType::Bits { ty, width, .. } => format!("{} : {width}", ty.c_name()),
        }
    }

    /// Two types are the same for assignment and pointer compatibility purposes.
    pub fn same(&self, a: &CType, b: &CType) -> bool {
        match (a, b) {
            (CType::Ptr(x), CType::Ptr(y)) => x.is_void() || y.is_void() || self.same(x, y),
            (CType::Array(x, _), CType::Array(y, _)) => self.same(x, y),
            _ => a == b,
        }
    }
}

/// The most cells one object may have.
pub const MAX_CELLS: usize = 65536;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Leaf {
    Scalar(Ty),
    Ptr,
}

impl Leaf {
    pub fn size(self, ptr_size: usize) -> usize {
        match self {
            Leaf::Scalar(t) => Layouts::scalar_size(t),
            Leaf::Ptr => ptr_size,
        }
    }
}

impl Object {
    /// The cell that starts at `off`, if any.
    pub fn cell_at(&self, off: usize) -> Option<&Cell> {
        self.cells
            .binary_search_by_key(&off, |c| c.off)
            .ok()
            .map(|k| &self.cells[k])
    }
    /// The cells overlapping `[off, off + len)`.
    pub fn overlapping(&self, off: usize, len: usize, ptr_size: usize) -> Vec<&Cell> {
        self.cells
            .iter()
            .filter(|c| {
                let s = c.size(ptr_size);
                c.off < off + len && off < c.off + s
            })
            .collect()
    }
}

impl Cell {
    /// The CFG variables of the cell (one for a scalar, two for a pointer).
    pub fn vars(&self) -> Vec<usize> {
        match self.kind {
            CellKind::Scalar(_, v) => vec![v],
            CellKind::Ptr(a, b) => vec![a, b],
        }
    }

    pub fn size(&self, ptr_size: usize) -> usize {
        match self.kind {
            CellKind::Scalar(t, _) => Layouts::scalar_size(t),
            CellKind::Ptr(..) => ptr_size,
        }
    }
}
