//! Configuration files a script reads by a path it writes out beside itself
//! (`json.load(open(os.path.join(os.path.dirname(__file__), "sweep.json")))`,
//! `json.loads((Path(__file__).parent / "cfg.json").read_text())`, `yaml.safe_load(f)`): the
//! values they hold are the script's, so a loop over them can be a declared domain
//! (`domains.rs`).
//!
//! Only the analysed file knows where it is (`__file__`, absolute, as Python 3.9+ gives a
//! script); paths are strings joined lexically, and a file is read only when it lies inside
//! the analysis's boundary (the repository in a scan), is regular, and is small. Every path
//! read, found or not, is recorded: a cached analysis holds while each still reads the same
//! (`dataflow::cache`), so editing a configuration file re-analyses the script.

use std::path::{Component, Path, PathBuf};

use super::interp::Interp;
use super::value::V;
use crate::shapes::{DimExpr, Value};

/// Configuration files larger than this are not read.
pub const MAX_DATA_BYTES: u64 = 1 << 20;

/// Marks a data file's path among the module names an analysis looked up
/// (`units::FileRun::modules_looked_up`); never part of a Python name.
pub const DATA_READ: char = '\u{1}';

/// Where the analysed file is, and the folder nothing is read outside of.
#[derive(Clone, Debug)]
pub struct Place {
    pub file: PathBuf,
    pub boundary: PathBuf,
}

impl Place {
    /// Both made absolute (against the working folder).
    pub fn new(file: &Path, boundary: &Path) -> Option<Place> {
        Some(Place {
            file: std::path::absolute(file).ok()?,
            boundary: std::path::absolute(boundary).ok()?,
        })
    }
}

/// The data files an analysis may read, and the paths it read.
#[derive(Debug)]
pub struct DataFiles {
    place: Place,
    read: std::collections::BTreeSet<String>,
}

impl DataFiles {
    pub fn new(place: Place) -> DataFiles {
        DataFiles {
            place,
            read: Default::default(),
        }
    }

    /// `__file__`.
    pub fn file_name(&self) -> Option<String> {
        self.place.file.to_str().map(str::to_string)
    }

    /// The text at `path` (absolute, joined lexically), when it is inside the boundary,
    /// regular, at most [`MAX_DATA_BYTES`] and UTF-8; the path is recorded either way.
    fn text(&mut self, path: &str) -> Option<String> {
        let path = normalise(path)?;
        if !path.starts_with(&self.place.boundary) {
            return None;
        }
        let name = path.to_str()?.to_string();
        self.read.insert(name);
        data_text(&path, &self.place.boundary)
    }

    /// The paths read, as looked-up names ([`DATA_READ`] and the path).
    pub fn read(&self) -> impl Iterator<Item = String> + '_ {
        self.read.iter().map(|p| format!("{DATA_READ}{p}"))
    }
}

/// The text of a data file inside `boundary` (after following links), when regular, small
/// and UTF-8.
pub fn data_text(path: &Path, boundary: &Path) -> Option<String> {
    let real = path.canonicalize().ok()?;
    let real_boundary = boundary.canonicalize().ok()?;
    if !real.starts_with(real_boundary) {
        return None;
    }
    let bytes = crate::corpus::source::read_bounded(&real, MAX_DATA_BYTES).ok()?;
    String::from_utf8(bytes).ok()
}

/// `path` absolute, with `.` and `..` taken lexically; `None` when relative (where the
/// script runs from is unknown) or when `..` leaves the root.
fn normalise(path: &str) -> Option<PathBuf> {
    let p = Path::new(path);
    if !p.is_absolute() {
        return None;
    }
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::RootDir | Component::Prefix(_) => out.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
            Component::Normal(n) => out.push(n),
        }
    }
    Some(out)
}

/// `os.path.join(a, b)`: an absolute part starts again.
fn join(base: &str, part: &str) -> String {
    if part.starts_with('/') || base.is_empty() {
        part.to_string()
    } else if base.ends_with('/') {
        format!("{base}{part}")
    } else {
        format!("{base}/{part}")
    }
}

/// `os.path.dirname`.
fn dirname(path: &str) -> String {
    match path.rfind('/') {
        Some(0) => "/".to_string(),
        Some(i) => path[..i].to_string(),
        None => String::new(),
    }
}

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A path's text: a string or a `pathlib.Path`.
fn path_text(v: &V<'_>) -> Option<String> {
    match v {
        V::Data(Value::Str(Some(s))) => Some(s.clone()),
        V::Path(p) => Some(p.to_string()),
        _ => None,
    }
}

fn text_value<'a>(s: String) -> V<'a> {
    V::Data(Value::Str(Some(s)))
}

/// The standard-library names this module models.
pub const DATA_FUNCTIONS: &[&str] = &[
    "open",
    "os.path",
    "os.path.join",
    "os.path.dirname",
    "os.path.basename",
    "os.path.abspath",
    "os.path.realpath",
    "os.path.normpath",
    "os.fspath",
    "json",
    "json.load",
    "json.loads",
    "yaml",
    "yaml.safe_load",
    "yaml.load",
    "yaml.full_load",
    "pathlib",
    "pathlib.Path",
    "pathlib.PurePath",
];

pub fn is_data_function(name: &str) -> bool {
    DATA_FUNCTIONS.contains(&name)
}

impl<'a> Interp<'a> {
    /// `__file__` for the analysed file's own code, when it is known where it is.
    pub fn file_dunder(&self) -> Option<V<'a>> {
        let files = self.data_files.as_ref()?;
        files.file_name().map(text_value)
    }

    fn data_text(&mut self, path: &str) -> Option<String> {
        self.data_files.as_mut()?.text(path)
    }

    /// Calls of [`DATA_FUNCTIONS`].
    pub(super) fn call_data_function(
        &mut self,
        name: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
    ) -> V<'a> {
        let texts: Option<Vec<String>> = args.iter().map(path_text).collect();
        let Some(texts) = texts else {
            return match (name, args) {
                ("json.load", [V::OpenFile(p)]) => self.json_file(p),
                ("yaml.safe_load" | "yaml.load" | "yaml.full_load", [V::OpenFile(p), ..]) => {
                    self.data_text(p).map_or(V::Unknown, |t| yaml_value(&t))
                }
                _ => V::Unknown,
            };
        };
        match (name, texts.as_slice()) {
            ("os.path.join", [first, rest @ ..]) => {
                text_value(rest.iter().fold(first.clone(), |acc, p| join(&acc, p)))
            }
            ("os.path.dirname", [p]) => text_value(dirname(p)),
            ("os.path.basename", [p]) => text_value(basename(p).to_string()),
            // Relative paths depend on where the script runs from.
            ("os.path.abspath" | "os.path.realpath" | "os.path.normpath", [p]) => normalise(p)
                .and_then(|p| p.to_str().map(str::to_string))
                .map_or(V::Unknown, text_value),
            ("os.fspath", [p]) => text_value(p.clone()),
            ("pathlib.Path" | "pathlib.PurePath", [first, rest @ ..]) => V::Path(
                rest.iter()
                    .fold(first.clone(), |acc, p| join(&acc, p))
                    .into(),
            ),
            ("open", [p, ..]) => {
                let mode = match (args.get(1), kwargs.iter().find(|(k, _)| k == "mode")) {
                    (Some(m), _) | (None, Some((_, m))) => path_text(m),
                    (None, None) => Some("r".to_string()),
                };
                match mode.as_deref() {
                    Some("r" | "rt") => V::OpenFile(p.as_str().into()),
                    _ => V::Unknown,
                }
            }
            ("json.loads", [text]) => json_value(text),
            ("yaml.safe_load" | "yaml.load" | "yaml.full_load", [text, ..]) => yaml_value(text),
            _ => V::Unknown,
        }
    }

    fn json_file(&mut self, path: &str) -> V<'a> {
        self.data_text(path).map_or(V::Unknown, |t| json_value(&t))
    }

    /// An attribute of a `pathlib.Path`.
    pub(super) fn path_attribute(&self, path: &str, attr: &str) -> V<'a> {
        match attr {
            "parent" => V::Path(dirname(path).into()),
            "name" => text_value(basename(path).to_string()),
            "stem" => {
                let name = basename(path);
                text_value(name.rsplit_once('.').map_or(name, |(s, _)| s).to_string())
            }
            "suffix" => text_value(
                basename(path)
                    .rsplit_once('.')
                    .map_or(String::new(), |(_, s)| format!(".{s}")),
            ),
            _ => V::Bound(Box::new(V::Path(path.into())), attr.into()),
        }
    }

    /// A method of a `pathlib.Path` or of a file opened for reading.
    pub(super) fn data_method(&mut self, recv: &V<'a>, method: &str, args: &[V<'a>]) -> V<'a> {
        match (recv, method) {
            (V::Path(p), "resolve" | "absolute" | "expanduser") => normalise(p)
                .and_then(|n| n.to_str().map(|s| V::Path(s.into())))
                .unwrap_or(V::Unknown),
            (V::Path(p), "joinpath") => {
                let parts: Option<Vec<String>> = args.iter().map(path_text).collect();
                parts.map_or(V::Unknown, |parts| {
                    V::Path(
                        parts
                            .iter()
                            .fold(p.to_string(), |acc, q| join(&acc, q))
                            .into(),
                    )
                })
            }
            (V::Path(p), "read_text") | (V::OpenFile(p), "read") => {
                let p = p.clone();
                self.data_text(&p).map_or(V::Unknown, text_value)
            }
            (V::Path(p), "open") if args.is_empty() => V::OpenFile(p.clone()),
            (V::Path(p), "__str__") => text_value(p.to_string()),
            _ => V::Unknown,
        }
    }
}

/// `path / "part"` with a `pathlib.Path` on either side.
pub fn path_division<'a>(l: &V<'a>, r: &V<'a>) -> Option<V<'a>> {
    if !matches!(l, V::Path(_)) && !matches!(r, V::Path(_)) {
        return None;
    }
    Some(V::Path(join(&path_text(l)?, &path_text(r)?).into()))
}

/// A JSON document as Python values (`json.loads`): objects keep their keys' order; an
/// object with a key that is not text is never made (JSON keys are text).
pub fn json_value<'a>(text: &str) -> V<'a> {
    serde_json::from_str::<Json>(text).map_or(V::Unknown, |j| j.into_value())
}

/// A YAML document as PyYAML's `safe_load` gives it: mappings with text keys in document
/// order, sequences, scalars; anything else (anchors left unresolved, other keys) unknown.
pub fn yaml_value<'a>(text: &str) -> V<'a> {
    use yaml_rust2::{Yaml, YamlLoader};
    fn value<'a>(y: &Yaml) -> V<'a> {
        match y {
            Yaml::Null => V::none(),
            Yaml::Boolean(b) => V::Data(Value::Bool(Some(*b))),
            Yaml::Integer(i) => V::Data(Value::Int(DimExpr::from(*i))),
            Yaml::Real(r) => V::Data(Value::Float(r.parse().ok())),
            Yaml::String(s) => text_value(s.clone()),
            Yaml::Array(items) => V::list(items.iter().map(value).collect()),
            Yaml::Hash(map) => {
                let entries: Option<Vec<(String, V<'a>)>> = map
                    .iter()
                    .map(|(k, v)| match k {
                        Yaml::String(k) => Some((k.clone(), value(v))),
                        _ => None,
                    })
                    .collect();
                entries.map_or(V::Unknown, V::dict)
            }
            _ => V::Unknown,
        }
    }
    match YamlLoader::load_from_str(text) {
        Ok(docs) if docs.len() == 1 => value(&docs[0]),
        _ => V::Unknown,
    }
}

/// JSON as parsed, objects in document order (`serde_json::Value` sorts them).
enum Json {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    List(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    fn into_value<'a>(self) -> V<'a> {
        match self {
            Json::Null => V::none(),
            Json::Bool(b) => V::Data(Value::Bool(Some(b))),
            Json::Int(i) => V::Data(Value::Int(DimExpr::from(i))),
            Json::Float(f) => V::Data(Value::Float(Some(f))),
            Json::Str(s) => text_value(s),
            Json::List(items) => V::list(items.into_iter().map(Json::into_value).collect()),
            Json::Object(entries) => V::dict(
                entries
                    .into_iter()
                    .map(|(k, v)| (k, v.into_value()))
                    .collect(),
            ),
        }
    }
}

impl<'de> serde::Deserialize<'de> for Json {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Json;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("JSON")
            }
            fn visit_unit<E>(self) -> Result<Json, E> {
                Ok(Json::Null)
            }
            fn visit_bool<E>(self, b: bool) -> Result<Json, E> {
                Ok(Json::Bool(b))
            }
            fn visit_i64<E>(self, i: i64) -> Result<Json, E> {
                Ok(Json::Int(i))
            }
            fn visit_u64<E>(self, u: u64) -> Result<Json, E> {
                Ok(i64::try_from(u).map_or(Json::Float(u as f64), Json::Int))
            }
            fn visit_f64<E>(self, f: f64) -> Result<Json, E> {
                Ok(Json::Float(f))
            }
            fn visit_str<E>(self, s: &str) -> Result<Json, E> {
                Ok(Json::Str(s.to_string()))
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = a.next_element()? {
                    items.push(item);
                }
                Ok(Json::List(items))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Json, A::Error> {
                let mut entries: Vec<(String, Json)> = Vec::new();
                while let Some((k, v)) = a.next_entry::<String, Json>()? {
                    // A repeated key: the last value, in the first one's place (as Python).
                    match entries.iter_mut().find(|(e, _)| *e == k) {
                        Some(e) => e.1 = v,
                        None => entries.push((k, v)),
                    }
                }
                Ok(Json::Object(entries))
            }
        }
        d.deserialize_any(Visit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_join_and_normalise_as_python_does() {
        assert_eq!(join("/a/b", "c.json"), "/a/b/c.json");
        assert_eq!(join("/a/b/", "/etc/x"), "/etc/x");
        assert_eq!(dirname("/a/b/c.py"), "/a/b");
        assert_eq!(dirname("/c.py"), "/");
        assert_eq!(
            normalise("/a/b/../c/./d.json"),
            Some(PathBuf::from("/a/c/d.json"))
        );
        assert_eq!(normalise("/.."), None);
        assert_eq!(normalise("cfg.json"), None);
    }

    #[test]
    fn json_objects_keep_their_order() {
        let v = json_value(r#"{"b": [1, 2.5], "a": {"x": null, "y": true}, "c": "s"}"#);
        let V::Dict(entries) = v else {
            panic!("a dict")
        };
        let keys: Vec<&str> = entries.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, ["b", "a", "c"]);
        assert!(matches!(&entries[0].1, V::List(items) if items.len() == 2));
        assert!(json_value("{not json").is_unknown());
    }

    #[test]
    fn yaml_reads_as_safe_load_gives_it() {
        let v = yaml_value("model:\n  channels: 16\nsweep:\n  kernel_size: [3, 5]\n  name: a\n");
        let V::Dict(entries) = v else {
            panic!("a dict")
        };
        assert_eq!(entries[0].0, "model");
        let V::Dict(sweep) = &entries[1].1 else {
            panic!("a dict")
        };
        assert!(matches!(&sweep[0].1, V::List(items) if items.len() == 2));
        assert!(yaml_value("a: [1\n").is_unknown());
    }

    #[test]
    fn files_outside_the_boundary_are_never_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let repo = dir.path().join("repo");
        std::fs::create_dir_all(&repo).expect("repo");
        std::fs::write(repo.join("cfg.json"), "[1]").expect("cfg");
        std::fs::write(dir.path().join("outside.json"), "[2]").expect("outside");
        std::os::unix::fs::symlink(dir.path().join("outside.json"), repo.join("link.json"))
            .expect("link");
        let mut files = DataFiles::new(Place {
            file: repo.join("train.py"),
            boundary: repo.clone(),
        });
        let at = |p: &Path| p.to_str().expect("utf-8").to_string();
        assert_eq!(
            files.text(&at(&repo.join("cfg.json"))).as_deref(),
            Some("[1]")
        );
        assert_eq!(files.text(&at(&repo.join("../outside.json"))), None);
        assert_eq!(files.text(&at(&repo.join("link.json"))), None);
        assert_eq!(files.text(&at(&repo.join("missing.json"))), None);
        // Found or not, inside the boundary: recorded.
        assert_eq!(files.read().count(), 3);
    }
}
