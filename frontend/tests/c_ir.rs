//! The C front end builds its transition systems directly in the checker's IR
//! (`c::encode`), and `ICPIC3_DUMP_HYS` and the printed-invariant check print that IR as
//! `.hys` text (`hys::ir_print`). Here the printed text of every system of the C examples is
//! parsed and checked again by the `.hys` pipeline, an independent reader: its declarations
//! and its constraints must be the encoder's, node for node (up to spans and the order of
//! operand nodes). A node kind that the encoder builds differently from what its spelling
//! means to the checker (a wrong sort, a missing conversion, an operation printed as another)
//! fails here.

use frontend::c::encode::{encode, Selection};
use frontend::c::lower::DataModel;
use frontend::hys::check::Checked;
use std::path::{Path, PathBuf};

fn tree_eq(a: &Checked, x: u32, b: &Checked, y: u32, why: &mut String) -> bool {
    let (nx, ny) = (a.ir().node(x), b.ir().node(y));
    let (mut ox, mut oy) = (Vec::new(), Vec::new());
    nx.kind.operands(&mut ox);
    ny.kind.operands(&mut oy);
    let shape = |k: &frontend::hys::ir::NodeKind, n: usize| k.with_operands(&vec![0; n]);
    if nx.sort != ny.sort
        || ox.len() != oy.len()
        || shape(&nx.kind, ox.len()) != shape(&ny.kind, oy.len())
    {
        *why = format!(
            "{:?} : {:?}  vs  {:?} : {:?}",
            nx.kind, nx.sort, ny.kind, ny.sort
        );
        return false;
    }
    ox.iter().zip(&oy).all(|(&p, &q)| tree_eq(a, p, b, q, why))
}

fn c_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/c");
    let mut out = Vec::new();
    for dir in [root.join("suite"), root.clone()] {
        let mut fs: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect();
        fs.sort();
        out.extend(fs);
    }
    out
}

#[test]
fn printed_systems_read_back_to_the_same_ir() {
    if std::process::Command::new("cpp")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: no C preprocessor (scripts/setup.sh installs gcc)");
        return;
    }
    let mut systems = 0;
    let mut nodes = 0;
    for path in c_files() {
        let f = frontend::c::load(&path, DataModel::Lp64)
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
        let Ok(cfg) = frontend::c::lower_fn(&f, DataModel::Lp64, "main", true) else {
            continue; // a file of unsupported C (its error is tested elsewhere)
        };
        let all: Vec<usize> = (0..cfg.goals.len()).collect();
        let sel = Selection {
            hit: all.clone(),
            ub: all,
        };
        let enc = encode(&cfg, &sel).unwrap();
        let text = enc.hys();
        let loaded = frontend::hys::load(&text).unwrap_or_else(|d| {
            panic!(
                "{}: the printed system does not load: {:?}",
                path.display(),
                d
            )
        });
        let (a, b) = (&enc.system, &loaded.checked);
        assert_eq!(a.declared().len(), b.declared().len(), "{}", path.display());
        for (x, y) in a.declared().iter().zip(b.declared()) {
            assert_eq!(
                (&x.name, x.kind, x.sort, &x.domain),
                (&y.name, y.kind, y.sort, &y.domain),
                "{}",
                path.display()
            );
        }
        assert_eq!(a.sections().len(), b.sections().len());
        for (sa, sb) in a.sections().iter().zip(b.sections()) {
            assert_eq!(sa.kind, sb.kind);
            assert_eq!(
                sa.constraints.len(),
                sb.constraints.len(),
                "{}",
                path.display()
            );
            for (ca, cb) in sa.constraints.iter().zip(&sb.constraints) {
                let mut why = String::new();
                assert!(
                    tree_eq(a, ca.root, b, cb.root, &mut why),
                    "{}: a {:?} constraint reads back differently: {why}",
                    path.display(),
                    sa.kind
                );
            }
        }
        // the lowered systems agree too: same state, same formula sizes
        let la = frontend::hys::lower::lower(a).unwrap();
        let (frontend::hys::Lowered::Transition(ta), frontend::hys::Lowered::Transition(tb)) =
            (&la, &loaded.lowered)
        else {
            panic!("not transition systems");
        };
        assert_eq!(ta.state.len(), tb.state.len());
        assert_eq!(ta.trans.stats(), tb.trans.stats(), "{}", path.display());
        systems += 1;
        nodes += a.ir().len();
    }
    assert!(systems >= 25, "only {systems} C systems were encoded");
    eprintln!("{systems} systems, {nodes} IR nodes read back identically");
}
