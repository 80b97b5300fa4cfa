//! Time to load the v7 one- and four-attribute circuit pairs from each file
//! form, recognised by the catalog (IDs not recomputed) and fully identified.
//!
//! `cargo bench -p longfellow-circuit --bench load`

use criterion::{criterion_group, criterion_main, Criterion};
use longfellow_circuit::{load_pair_with, LoadOptions};

const SPECS: [(&str, &str); 2] = [
    (
        "v7-1attr",
        "8d079211715200ff06c5109639245502bfe94aa869908d31176aae4016182121",
    ),
    (
        "v7-4attr",
        "5aebdaaafe17296a3ef3ca6c80c6e7505e09291897c39700410a365fb278e460",
    ),
];

fn load(c: &mut Criterion) {
    let mut group = c.benchmark_group("load_pair");
    group.sample_size(10);
    group.warm_up_time(std::time::Duration::from_secs(1));
    group.measurement_time(std::time::Duration::from_secs(4));
    for (label, hash) in SPECS {
        for (form, suffix) in [("pair", ""), ("lfa1", ".lfa1"), ("lfa2", ".lfa2")] {
            let bytes =
                longfellow_testvectors::read(&format!("google/mdoc/circuits/{hash}{suffix}"));
            for (mode, use_catalog) in [("catalogued", true), ("full-id", false)] {
                group.bench_function(format!("{label}/{form}/{mode}"), |b| {
                    b.iter(|| {
                        let pair = load_pair_with(&bytes, LoadOptions { use_catalog });
                        assert!(pair.is_ok());
                        pair
                    })
                });
            }
        }
    }
    group.finish();
}

criterion_group!(benches, load);
criterion_main!(benches);
