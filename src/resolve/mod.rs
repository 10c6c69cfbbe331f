//! Name resolution shared by operator counting (`crate::operators::precise`) and the analysis
//! (`crate::eval`): what an import statement binds, and which torch operator a dotted path
//! names. Both stages read imports and canonical names only through here, so a call is the
//! same operator in `op_calls` and in a finding (checked over real code by
//! `tests/resolution_agreement.rs`).

pub mod layout;

use ruff_python_ast::Stmt;

use crate::operators::api::{torch_api, ApiKind};

/// What one name of an import statement refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imported<'s> {
    /// `import a.b` binds `a` to the module `a`; `import a.b as c` binds `c` to `a.b`.
    Module(&'s str),
    /// `from m import x` (`level` leading dots: 0 for an absolute import).
    Member {
        level: u32,
        module: &'s str,
        name: &'s str,
    },
    /// `from m import *`.
    Star { level: u32, module: &'s str },
}

impl Imported<'_> {
    /// The absolute dotted path bound, for a module or an absolute `from` import.
    pub fn path(&self) -> Option<String> {
        match *self {
            Imported::Module(path) => Some(path.to_string()),
            Imported::Member {
                level: 0,
                module,
                name,
            } => Some(if module.is_empty() {
                name.to_string()
            } else {
                format!("{module}.{name}")
            }),
            _ => None,
        }
    }
}

/// A name an import statement binds (`None` for a star import, which binds what the module
/// exports), what it refers to, and whether it was renamed with `as` (an alias).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Binding<'s> {
    pub name: Option<&'s str>,
    pub imported: Imported<'s>,
    pub aliased: bool,
}

/// The bindings of an `import` or `from ... import` statement, in order; nothing for any
/// other statement.
pub fn import_bindings(stmt: &Stmt) -> Vec<Binding<'_>> {
    match stmt {
        Stmt::Import(import) => import
            .names
            .iter()
            .map(|alias| {
                let path = alias.name.id.as_str();
                match &alias.asname {
                    Some(asname) => Binding {
                        name: Some(asname.id.as_str()),
                        imported: Imported::Module(path),
                        aliased: true,
                    },
                    None => {
                        let root = path.split('.').next().unwrap_or(path);
                        Binding {
                            name: Some(root),
                            imported: Imported::Module(root),
                            aliased: false,
                        }
                    }
                }
            })
            .collect(),
        Stmt::ImportFrom(from) => {
            let module = from.module.as_ref().map_or("", |m| m.id.as_str());
            let level = from.level;
            from.names
                .iter()
                .map(|alias| {
                    let name = alias.name.id.as_str();
                    if name == "*" {
                        return Binding {
                            name: None,
                            imported: Imported::Star { level, module },
                            aliased: false,
                        };
                    }
                    Binding {
                        name: Some(alias.asname.as_ref().unwrap_or(&alias.name).id.as_str()),
                        imported: Imported::Member {
                            level,
                            module,
                            name,
                        },
                        aliased: alias.asname.is_some(),
                    }
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Whether a dotted path is in torch's namespace.
pub fn is_torch_path(path: &str) -> bool {
    path == "torch" || path.starts_with("torch.")
}

/// The canonical torch name a dotted path resolves to (`torch.nn.modules.conv.Conv2d` and
/// `nn.Conv2d` imported from `torch` are `torch.nn.Conv2d`; `torch.nn.functional.conv2d`
/// is `torch.conv2d`, the same object), with what it is; `None` outside torch's API table.
pub fn torch_name(path: &str) -> Option<(&'static str, ApiKind)> {
    torch_api().lookup(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bindings(src: &str) -> Vec<(Option<String>, Option<String>, bool)> {
        let module = crate::frontend::parse_python(src).expect("parses");
        module
            .body
            .iter()
            .flat_map(import_bindings)
            .map(|b| (b.name.map(str::to_string), b.imported.path(), b.aliased))
            .collect()
    }

    #[test]
    fn imports_bind_modules_members_and_aliases() {
        let s = |x: &str| Some(x.to_string());
        assert_eq!(
            bindings("import torch.nn as nn\nimport torch.nn.functional\nfrom torch import nn as tnn, cat\nfrom . import layers\nfrom torch.nn import *\n"),
            vec![
                (s("nn"), s("torch.nn"), true),
                (s("torch"), s("torch"), false),
                (s("tnn"), s("torch.nn"), true),
                (s("cat"), s("torch.cat"), false),
                (s("layers"), None, false),
                (None, None, false),
            ]
        );
    }

    #[test]
    fn paths_resolve_to_one_canonical_operator() {
        assert_eq!(
            torch_name("torch.nn.modules.conv.Conv2d").map(|x| x.0),
            Some("torch.nn.Conv2d")
        );
        assert_eq!(
            torch_name("torch.nn.functional.conv2d").map(|x| x.0),
            Some("torch.conv2d")
        );
        assert_eq!(torch_name("numpy.zeros"), None);
    }
}
