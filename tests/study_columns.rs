//! The columns an operator-frequency study groups and filters by, through the real binary:
//! `canonical` (documented aliases merged), constructions and applications counted apart,
//! `role` from the path inside the repository, `repo_name`/`repo_version` from an unpacked
//! release's folder name, and `resolution` in `op_counts`.

mod common;

use std::collections::BTreeMap;

use common::{read_table, scan};

const LIB: &str = "\
import torch
from torch import nn


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)

    def forward(self, x):
        y = torch.concat([x, x]).relu()
        z = torch.cat([y, y])
        return torch.relu_(self.fc(z))
";

const USE: &str = "\
import torch


def test_cat():
    a = torch.concatenate([torch.ones(2), torch.ones(2)])
    assert a.shape[0] == 4
";

#[test]
fn study_columns_follow_their_documented_rules() {
    let t = tempfile::tempdir().unwrap();
    let corpus = t.path().join("corpus");
    let release = corpus.join("mylib-1.2.0");
    for dir in ["mylib", "tests", "examples", "docs"] {
        std::fs::create_dir_all(release.join(dir)).unwrap();
    }
    std::fs::write(release.join("mylib/block.py"), LIB).unwrap();
    std::fs::write(release.join("tests/test_block.py"), USE).unwrap();
    std::fs::write(release.join("examples/tests.py"), USE).unwrap();
    std::fs::write(release.join("docs/conf.py"), USE).unwrap();
    std::fs::create_dir_all(corpus.join("tests")).unwrap();
    std::fs::write(corpus.join("tests/block.py"), LIB).unwrap();
    let out = t.path().join("r");
    scan(&[&corpus], &out, &["--no-site-packages"]);

    let roles: BTreeMap<String, String> = read_table(&out, "files")
        .into_iter()
        .map(|f| (f["path"].clone(), f["role"].clone()))
        .collect();
    let expected: BTreeMap<String, String> = [
        ("mylib-1.2.0/mylib/block.py", "library"),
        ("mylib-1.2.0/tests/test_block.py", "test"),
        ("mylib-1.2.0/examples/tests.py", "example"),
        ("mylib-1.2.0/docs/conf.py", "docs"),
        // A repository named `tests`: its files are judged by the path inside it.
        ("tests/block.py", "library"),
    ]
    .iter()
    .map(|(p, r)| (p.to_string(), r.to_string()))
    .collect();
    assert_eq!(roles, expected);

    let counts = read_table(&out, "op_counts");
    let sum = |filter: &dyn Fn(&common::Row) -> bool| -> u64 {
        counts
            .iter()
            .filter(|c| filter(c))
            .map(|c| c["count"].parse::<u64>().unwrap())
            .sum()
    };
    let release_rows: Vec<_> = counts
        .iter()
        .filter(|c| c["repo"] == "mylib-1.2.0")
        .collect();
    assert!(release_rows
        .iter()
        .all(|c| c["repo_name"] == "mylib" && c["repo_version"] == "1.2.0"));
    assert!(counts
        .iter()
        .filter(|c| c["repo"] == "tests")
        .all(|c| c["repo_name"] == "tests" && c["repo_version"] == "null"));
    // torch.cat, torch.concat and torch.concatenate are one operation: 2 in each copy of
    // the library, 1 in each of the three other files.
    let cat = |repo: &str, role: &str| {
        sum(&|c| c["repo"] == repo && c["role"] == role && c["canonical"] == "torch.cat")
    };
    assert_eq!(cat("mylib-1.2.0", "library"), 2);
    assert_eq!(cat("tests", "library"), 2);
    for role in ["test", "example", "docs"] {
        assert_eq!(cat("mylib-1.2.0", role), 1, "{role}");
    }
    assert_eq!(
        sum(&|c| c["operator"] == "torch.concat" && c["canonical"] == "torch.cat"),
        2
    );
    // `.relu()` and `torch.relu_` are `torch.relu`.
    assert_eq!(sum(&|c| c["canonical"] == "torch.relu"), 4);
    // Constructing a module and applying it are separate rows.
    let linear = |kind: &str| {
        sum(&|c| {
            c["operator"] == "torch.nn.Linear" && c["call_kind"] == kind && c["repo"] == "tests"
        })
    };
    assert_eq!((linear("construct"), linear("apply")), (1, 1));
    let applied = counts
        .iter()
        .find(|c| c["operator"] == "torch.nn.Linear" && c["call_kind"] == "apply")
        .unwrap();
    assert_eq!(applied["resolution"], "module_attribute");
}
