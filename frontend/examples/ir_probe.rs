fn main() {
    let path = std::env::args().nth(1).unwrap();
    let text = std::fs::read_to_string(path).unwrap();
    let l = match frontend::hys::load(&text) {
        Ok(l) => l,
        Err(d) => {
            eprintln!("{:?}", d);
            return;
        }
    };
    let ck = &l.checked;
    for (i, d) in ck.declared().iter().enumerate() {
        println!(
            "v{i} {} {:?} {:?} dom={:?}",
            d.name, d.kind, d.sort, d.domain
        );
    }
    for s in ck.sections() {
        println!("== {:?}", s.kind);
        for c in &s.constraints {
            println!("-- constraint root {}", c.root);
            for id in c.first..c.end {
                let n = ck.ir().node(id);
                println!("  n{id}: {:?} : {:?}", n.kind, n.sort);
            }
        }
    }
}
