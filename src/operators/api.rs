//! The PyTorch API as data: every public name of the torch namespaces we recognise, generated
//! from a real torch install by `scripts/gen_torch_api.py` into `torch_api.tsv` (the torch
//! version is recorded in the file). Loaded once per process.

use std::collections::HashMap;
use std::sync::OnceLock;

const TORCH_API_TSV: &str = include_str!("torch_api.tsv");

/// What a dotted torch name refers to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiKind {
    Namespace,
    Function,
    /// A class that is not an `nn.Module` (`torch.Tensor`, `torch.Size`, `torch.no_grad`).
    Class,
    /// An `nn.Module` subclass: constructing it builds a module, calling the instance applies it.
    Module,
}

/// Whether a Tensor method name is also a method of Python builtins (`split`, `index`) or of
/// `nn.Module` (`to`, `cuda`): such names count only on a receiver known to be a tensor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodSharing {
    Plain,
    Builtin,
    Module,
}

pub struct TorchApi {
    pub torch_version: String,
    names: HashMap<String, ApiKind>,
    aliases: HashMap<String, String>,
    methods: HashMap<String, MethodSharing>,
}

/// The API table of the torch version the data was generated from.
pub fn torch_api() -> &'static TorchApi {
    static API: OnceLock<TorchApi> = OnceLock::new();
    API.get_or_init(|| TorchApi::parse(TORCH_API_TSV))
}

impl TorchApi {
    fn parse(tsv: &str) -> TorchApi {
        let mut api = TorchApi {
            torch_version: String::new(),
            names: HashMap::new(),
            aliases: HashMap::new(),
            methods: HashMap::new(),
        };
        for line in tsv.lines() {
            if line.starts_with('#') || line.is_empty() {
                continue;
            }
            let cols: Vec<&str> = line.split('\t').collect();
            match cols.as_slice() {
                ["torch_version", v] => api.torch_version = v.to_string(),
                ["namespace", n] => {
                    api.names.insert(n.to_string(), ApiKind::Namespace);
                }
                ["function", n] => {
                    api.names.insert(n.to_string(), ApiKind::Function);
                }
                ["class", n] => {
                    api.names.insert(n.to_string(), ApiKind::Class);
                }
                ["module", n] => {
                    api.names.insert(n.to_string(), ApiKind::Module);
                }
                ["alias", from, to] => {
                    api.aliases.insert(from.to_string(), to.to_string());
                }
                ["method", full, sharing] => {
                    let name = full.strip_prefix("torch.Tensor.").unwrap_or(full);
                    let sharing = match *sharing {
                        "builtin" => MethodSharing::Builtin,
                        "module" => MethodSharing::Module,
                        _ => MethodSharing::Plain,
                    };
                    api.methods.insert(name.to_string(), sharing);
                }
                _ => {}
            }
        }
        api
    }

    /// Resolves a dotted path to its canonical name and kind (`torch.nn.modules.conv.Conv2d`
    /// → `torch.nn.Conv2d`).
    pub fn lookup(&self, path: &str) -> Option<(&str, ApiKind)> {
        if let Some((name, kind)) = self.names.get_key_value(path) {
            return Some((name.as_str(), *kind));
        }
        let canonical = self.aliases.get(path)?;
        let (name, kind) = self.names.get_key_value(canonical.as_str())?;
        Some((name.as_str(), *kind))
    }

    /// The public names directly under a namespace (`dir(torch.nn.functional)`), sorted.
    pub fn members(&self, namespace: &str) -> Vec<&str> {
        let prefix = format!("{namespace}.");
        let mut out: Vec<&str> = self
            .names
            .keys()
            .chain(self.aliases.keys())
            .filter_map(|n| n.strip_prefix(prefix.as_str()))
            .filter(|rest| !rest.contains('.'))
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// Is `name` a method of `torch.Tensor`, and is it shared with other types?
    pub fn tensor_method(&self, name: &str) -> Option<MethodSharing> {
        self.methods.get(name).copied()
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

const TORCH_ALIASES_TSV: &str = include_str!("torch_aliases.tsv");

/// The `canonical` column: the name PyTorch documents an operator under when it has several
/// (`torch.concat` → `torch.cat`, `x.relu()` → `torch.relu`, in-place variants to their
/// operator), generated from a real torch by `scripts/gen_torch_aliases.py` (its docstring
/// says which relations count). Any other name is its own canonical name.
pub fn canonical_of(operator: &str) -> &str {
    static SAME: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    let same = SAME.get_or_init(|| {
        TORCH_ALIASES_TSV
            .lines()
            .filter_map(|line| match line.split('\t').collect::<Vec<_>>()[..] {
                ["same", name, canonical, _] => Some((name, canonical)),
                _ => None,
            })
            .collect()
    });
    same.get(operator).copied().unwrap_or(operator)
}

/// The family column of `op_calls`: the namespace an operator lives in, without `torch.`
/// (`torch.nn.functional.relu` → `nn.functional`, `torch.cat` → `torch`, methods → `Tensor`).
pub fn family_of(canonical: &str) -> &str {
    let Some(rest) = canonical.strip_prefix("torch.") else {
        return "other";
    };
    match rest.rfind('.') {
        Some(i) => &rest[..i],
        None => "torch",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_knows_core_names() {
        let api = torch_api();
        assert!(api.torch_version.starts_with("2."), "{}", api.torch_version);
        assert_eq!(
            api.lookup("torch.cat"),
            Some(("torch.cat", ApiKind::Function))
        );
        assert_eq!(
            api.lookup("torch.nn"),
            Some(("torch.nn", ApiKind::Namespace))
        );
        assert_eq!(
            api.lookup("torch.nn.modules.conv.Conv2d"),
            Some(("torch.nn.Conv2d", ApiKind::Module))
        );
        assert_eq!(
            api.lookup("torch.Tensor"),
            Some(("torch.Tensor", ApiKind::Class))
        );
        assert_eq!(api.lookup("numpy.zeros"), None);
        assert_eq!(api.tensor_method("view"), Some(MethodSharing::Plain));
        assert_eq!(api.tensor_method("split"), Some(MethodSharing::Builtin));
        assert_eq!(api.tensor_method("to"), Some(MethodSharing::Module));
        assert_eq!(api.tensor_method("append"), None);
    }

    #[test]
    fn families() {
        assert_eq!(family_of("torch.cat"), "torch");
        assert_eq!(family_of("torch.nn.functional.relu"), "nn.functional");
        assert_eq!(family_of("torch.Tensor.view"), "Tensor");
        assert_eq!(family_of("torch.nn.Conv2d"), "nn");
    }
}
