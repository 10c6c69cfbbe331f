//! PIL images ([`V::Image`]: width, height, mode) and torchvision's transforms
//! ([`V::Transform`]: a transform object, applied when called), modelled as the library
//! behaves (each behaviour below checked under Pillow 13 and torchvision 0.29) so that an
//! image's size and channels reach torch through `ToTensor()`, `np.array(img)` and the
//! rest. What is not known stays unknown: an image opened from a file has an unknown size
//! (fresh symbols) and an unknown mode; an unmodelled transform, function or method gives an
//! unknown value. A transform that raises for certain ends the path (no finding: it is not a
//! shape error of torch's), except `Normalize`, whose channel mismatch is torch's broadcast
//! error of `tensor.sub_(mean[:, None, None])`.

use std::rc::Rc;

use ruff_text_size::TextRange;

use crate::shapes::shape::{Dim, Shape};
use crate::shapes::value::{DType, TensorValue, Value};
use crate::shapes::{DimExpr, Pred};

use super::calls::argument as arg;
use super::expr::int_of;
use super::interp::Interp;
use super::value::V;

/// A PIL image: its size in pixels and its mode (`"RGB"`, `"L"`, ...), each `None` when
/// unknown.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: Option<DimExpr>,
    pub height: Option<DimExpr>,
    pub mode: Option<String>,
}

/// A torchvision transform object: its class (`"Resize"`), whether it is `transforms.v2`'s,
/// and its constructor's arguments.
#[derive(Debug)]
pub struct Transform<'a> {
    pub class: &'static str,
    pub v2: bool,
    pub args: Vec<V<'a>>,
    pub kwargs: Vec<(String, V<'a>)>,
}

/// Namespaces: attributes of these resolve through [`image_path`].
const NAMESPACES: &[&str] = &[
    "PIL",
    "PIL.Image",
    "torchvision",
    "torchvision.transforms",
    "torchvision.transforms.v2",
    "torchvision.transforms.functional",
    "torchvision.datasets",
];

/// torchvision's datasets modelled (see [`Interp::image_dataset`]).
const DATASETS: &[&str] = &[
    "torchvision.datasets.FakeData",
    "torchvision.datasets.ImageFolder",
    "torchvision.datasets.MNIST",
    "torchvision.datasets.FashionMNIST",
    "torchvision.datasets.CIFAR10",
    "torchvision.datasets.CIFAR100",
];

/// PIL's image constructors.
const PIL_FUNCTIONS: &[&str] = &["PIL.Image.new", "PIL.Image.open", "PIL.Image.fromarray"];

/// The transform classes modelled, as `torchvision.transforms` names them.
const TRANSFORMS: &[&str] = &[
    "torchvision.transforms.Compose",
    "torchvision.transforms.ToTensor",
    "torchvision.transforms.PILToTensor",
    "torchvision.transforms.Resize",
    "torchvision.transforms.CenterCrop",
    "torchvision.transforms.RandomCrop",
    "torchvision.transforms.RandomResizedCrop",
    "torchvision.transforms.Normalize",
    "torchvision.transforms.Grayscale",
    "torchvision.transforms.RandomHorizontalFlip",
    "torchvision.transforms.RandomVerticalFlip",
    "torchvision.transforms.ColorJitter",
    "torchvision.transforms.GaussianBlur",
    "torchvision.transforms.RandomRotation",
    "torchvision.transforms.Lambda",
];

/// The same classes in `torchvision.transforms.v2`, with its own `ToImage` and `ToDtype`.
const TRANSFORMS_V2: &[&str] = &[
    "torchvision.transforms.v2.Compose",
    "torchvision.transforms.v2.ToTensor",
    "torchvision.transforms.v2.PILToTensor",
    "torchvision.transforms.v2.Resize",
    "torchvision.transforms.v2.CenterCrop",
    "torchvision.transforms.v2.RandomCrop",
    "torchvision.transforms.v2.RandomResizedCrop",
    "torchvision.transforms.v2.Normalize",
    "torchvision.transforms.v2.Grayscale",
    "torchvision.transforms.v2.RandomHorizontalFlip",
    "torchvision.transforms.v2.RandomVerticalFlip",
    "torchvision.transforms.v2.ColorJitter",
    "torchvision.transforms.v2.GaussianBlur",
    "torchvision.transforms.v2.RandomRotation",
    "torchvision.transforms.v2.Lambda",
    "torchvision.transforms.v2.ToImage",
    "torchvision.transforms.v2.ToDtype",
];

/// `torchvision.transforms.functional`'s functions modelled, each the transform class it
/// computes (`F.resize(img, size)` is `Resize(size)(img)`).
const FUNCTIONAL: &[(&str, &str)] = &[
    ("torchvision.transforms.functional.to_tensor", "ToTensor"),
    (
        "torchvision.transforms.functional.pil_to_tensor",
        "PILToTensor",
    ),
    ("torchvision.transforms.functional.resize", "Resize"),
    (
        "torchvision.transforms.functional.center_crop",
        "CenterCrop",
    ),
    ("torchvision.transforms.functional.normalize", "Normalize"),
    (
        "torchvision.transforms.functional.hflip",
        "RandomHorizontalFlip",
    ),
    (
        "torchvision.transforms.functional.vflip",
        "RandomVerticalFlip",
    ),
    (
        "torchvision.transforms.functional.to_grayscale",
        "Grayscale",
    ),
    (
        "torchvision.transforms.functional.rgb_to_grayscale",
        "Grayscale",
    ),
];

/// The value an import or attribute path binds when it is a modelled PIL or torchvision
/// name (`torchvision.transforms.transforms.X` is `torchvision.transforms.X`).
pub fn image_path<'a>(path: &str) -> Option<V<'a>> {
    let path = match path.strip_prefix("torchvision.transforms.transforms.") {
        Some(rest) => format!("torchvision.transforms.{rest}"),
        None => path.to_string(),
    };
    NAMESPACES
        .iter()
        .chain(PIL_FUNCTIONS)
        .chain(DATASETS)
        .chain(TRANSFORMS)
        .chain(TRANSFORMS_V2)
        .chain(FUNCTIONAL.iter().map(|(f, _)| f))
        .find(|name| **name == path)
        .map(|name| V::Builtin(name))
}

/// `namespace.attr` of a modelled namespace; `None` when `namespace` is not one.
pub fn namespace_attr<'a>(namespace: &str, attr: &str) -> Option<V<'a>> {
    NAMESPACES
        .contains(&namespace)
        .then(|| image_path(&format!("{namespace}.{attr}")).unwrap_or(V::Unknown))
}

/// Whether a builtin's name is one of this module's functions or classes.
pub fn is_image_function(name: &str) -> bool {
    PIL_FUNCTIONS.contains(&name)
        || DATASETS.contains(&name)
        || TRANSFORMS.contains(&name)
        || TRANSFORMS_V2.contains(&name)
        || FUNCTIONAL.iter().any(|(f, _)| *f == name)
}

/// How many channels an image of `mode` has, and the dtype of its pixels as `np.array(img)`
/// and `PILToTensor` give them: uint8 (an int) for most modes, `"I"` int32, `"F"` float32,
/// `"1"` bool.
fn mode_channels(mode: &str) -> Option<(i64, Option<DType>)> {
    let byte = Some(DType::Int);
    Some(match mode {
        "L" | "P" | "I" | "I;16" => (1, byte),
        "1" => (1, Some(DType::Bool)),
        "F" => (1, Some(DType::Float)),
        "LA" | "La" | "PA" => (2, byte),
        "RGB" | "YCbCr" | "LAB" | "HSV" => (3, byte),
        "RGBA" | "RGBa" | "RGBX" | "CMYK" => (4, byte),
        _ => return None,
    })
}

/// `(w, h)` of a size argument: a pair of ints, each `None` when unknown.
fn pair(v: &V<'_>) -> Option<(Option<DimExpr>, Option<DimExpr>)> {
    match v.elements()?.as_slice() {
        [a, b] => Some((int_of(a), int_of(b))),
        _ => None,
    }
}

/// The `(h, w)` a transform's `size` asks for: an int `s` is `(s, s)`, a sequence of one
/// likewise, a pair is `(h, w)`.
fn crop_size(size: &V<'_>) -> Option<(DimExpr, DimExpr)> {
    if let Some(s) = int_of(size) {
        return Some((s.clone(), s));
    }
    match size.elements()?.as_slice() {
        [s] => int_of(s).map(|s| (s.clone(), s)),
        [h, w] => Some((int_of(h)?, int_of(w)?)),
        _ => None,
    }
}

fn known(d: &Dim) -> Option<DimExpr> {
    d.expr().cloned()
}

fn int_value<'a>(d: &Option<DimExpr>) -> V<'a> {
    match d {
        Some(e) => V::Data(Value::Int(e.clone())),
        None => V::Data(Value::IntUnknown),
    }
}

/// `img.<attr>`: `size` is `(width, height)`, `width`, `height`, `mode`; methods are bound.
pub fn image_attribute<'a>(img: &Image, attr: &str) -> V<'a> {
    match attr {
        "size" => V::Tuple(vec![int_value(&img.width), int_value(&img.height)]),
        "width" => int_value(&img.width),
        "height" => int_value(&img.height),
        "mode" => V::Data(Value::Str(img.mode.clone())),
        _ => V::Bound(Box::new(V::Image(Box::new(img.clone()))), attr.into()),
    }
}

/// `np.array(img)` / `np.asarray(img)`: `[h, w]` for a one-channel mode, `[h, w, c]` else;
/// unknown when the mode is.
pub fn image_array<'a>(img: &Image) -> V<'a> {
    let Some((channels, _)) = img.mode.as_deref().and_then(mode_channels) else {
        return V::Unknown;
    };
    let mut dims = vec![dim(&img.height), dim(&img.width)];
    if channels > 1 {
        dims.push(Dim::constant(channels));
    }
    super::numpy::array(TensorValue::of(Shape::Ranked(dims), None))
}

fn dim(d: &Option<DimExpr>) -> Dim {
    d.clone().map_or(Dim::Dyn, Dim::Known)
}

/// A tensor image `[c, h, w]` of an image; unknown when the mode is. `PILToTensor` keeps
/// the pixels' dtype; `ToTensor` scales 8-bit and bool pixels to floats and keeps the
/// others' (`"I"` stays int32).
fn image_tensor<'a>(img: &Image, scaled: bool) -> V<'a> {
    let Some(mode) = img.mode.as_deref() else {
        return V::Unknown;
    };
    let Some((channels, pixel)) = mode_channels(mode) else {
        return V::Unknown;
    };
    let dtype = match mode {
        "I" | "I;16" | "F" => pixel,
        _ if scaled => Some(DType::Float),
        _ => pixel,
    };
    let dims = vec![Dim::constant(channels), dim(&img.height), dim(&img.width)];
    V::Data(Value::Tensor(TensorValue::of(Shape::Ranked(dims), dtype)))
}

/// `[c, h, w]` of an HWC array (`[h, w]` is one channel); `None` for another rank.
fn chw_of_array(t: &TensorValue) -> Option<Vec<Dim>> {
    match t.shape.dims()? {
        [h, w] => Some(vec![Dim::constant(1), h.clone(), w.clone()]),
        [h, w, c] => Some(vec![c.clone(), h.clone(), w.clone()]),
        _ => None,
    }
}

/// A tensor with its last two dims replaced by `(h, w)`; `None` below rank 2.
fn with_hw<'a>(t: &TensorValue, h: Option<DimExpr>, w: Option<DimExpr>) -> Option<V<'a>> {
    let dims = t.shape.dims()?;
    let lead = dims.len().checked_sub(2)?;
    let mut out: Vec<Dim> = dims[..lead].to_vec();
    out.push(dim(&h));
    out.push(dim(&w));
    Some(V::Data(Value::Tensor(TensorValue::of(
        Shape::Ranked(out),
        t.dtype,
    ))))
}

/// `(h, w)` of a tensor image's last two dims.
fn tensor_hw(t: &TensorValue) -> Option<(Option<DimExpr>, Option<DimExpr>)> {
    let dims = t.shape.dims()?;
    let n = dims.len();
    (n >= 2).then(|| (known(&dims[n - 2]), known(&dims[n - 1])))
}

/// `Resize(s)` with an int: the smaller edge becomes `s`, the other `int(s * long / short)`
/// (torchvision's `_compute_resized_output_size`; the float quotient's truncation is floor
/// division for sizes below 2**26). Returns `(h, w)`; unknown where which edge is the
/// smaller is not known.
fn resized(
    h: &Option<DimExpr>,
    w: &Option<DimExpr>,
    s: &DimExpr,
) -> (Option<DimExpr>, Option<DimExpr>) {
    let (Some(h), Some(w)) = (h, w) else {
        return (None, None);
    };
    match w.decide_le(h) {
        Some(true) => (Some(s.mul(h).floordiv(w)), Some(s.clone())),
        Some(false) => (Some(s.clone()), Some(s.mul(w).floordiv(h))),
        None => (None, None),
    }
}

impl<'a> Interp<'a> {
    /// A call of a PIL constructor, a transform class or a functional transform.
    pub(super) fn call_image(
        &mut self,
        name: &str,
        args: Vec<V<'a>>,
        kwargs: Vec<(String, V<'a>)>,
        span: TextRange,
    ) -> V<'a> {
        let first = args.first().cloned().unwrap_or(V::Unknown);
        match name {
            // `Image.new(mode, (w, h))`.
            "PIL.Image.new" => {
                let mode = arg(&args, &kwargs, 0, "mode").and_then(|m| m.known_str());
                match arg(&args, &kwargs, 1, "size").and_then(pair) {
                    Some((width, height)) => V::Image(Box::new(Image {
                        width,
                        height,
                        mode: mode.map(str::to_string),
                    })),
                    None => V::Unknown,
                }
            }
            // A file's image: any size, any mode.
            "PIL.Image.open" => {
                let width = Some(self.fresh_dim("image.width"));
                let height = Some(self.fresh_dim("image.height"));
                V::Image(Box::new(Image {
                    width,
                    height,
                    mode: None,
                }))
            }
            // `Image.fromarray(a)`: `[h, w]` is a one-channel image (its mode depends on the
            // dtype: `L` for uint8, `F`, `I`, `1`); `[h, w, 2|3|4]` can only be uint8
            // (Pillow raises a `TypeError` for other dtypes) and is `LA`, `RGB`, `RGBA`.
            // `fromarray(a, mode=m)` is an `m` image of the same size (Pillow 13 raises
            // "Invalid mode for data type" when `m` does not fit the array; older Pillows
            // reinterpret the bytes): modelled only when `m` has the array's channels.
            "PIL.Image.fromarray" if args.len() <= 2 && kwargs.iter().all(|(k, _)| k == "mode") => {
                let V::Array(t) = first else {
                    return V::Unknown;
                };
                let Some(dims) = t.shape.dims() else {
                    return V::Unknown;
                };
                let given = match arg(&args, &kwargs, 1, "mode") {
                    None => None,
                    Some(m) => match m.known_str() {
                        Some(m) => Some(m.to_string()),
                        None if matches!(m, V::Data(Value::None)) => None,
                        None => return V::Unknown,
                    },
                };
                let channels = match dims {
                    [_, _] => 1,
                    [_, _, c] => match c.expr().and_then(DimExpr::as_const) {
                        Some(c) => c,
                        None => return V::Unknown,
                    },
                    _ => return V::Unknown,
                };
                let inferred = match channels {
                    2 => Some("LA"),
                    3 => Some("RGB"),
                    4 => Some("RGBA"),
                    _ => None,
                };
                let mode = match given {
                    None if dims.len() == 3 && inferred.is_none() => return V::Unknown,
                    None => inferred.map(str::to_string),
                    Some(m) => match mode_channels(&m) {
                        Some((c, _)) if c == channels && (dims.len() == 2 || c > 1) => Some(m),
                        _ => return V::Unknown,
                    },
                };
                let (h, w) = (&dims[0], &dims[1]);
                V::Image(Box::new(Image {
                    width: known(w),
                    height: known(h),
                    mode,
                }))
            }
            _ if DATASETS.contains(&name) => self.image_dataset(name, &args, &kwargs, span),
            _ if TRANSFORMS.contains(&name) || TRANSFORMS_V2.contains(&name) => {
                let v2 = TRANSFORMS_V2.contains(&name);
                let table = if v2 { TRANSFORMS_V2 } else { TRANSFORMS };
                let Some(full) = table.iter().find(|n| **n == name) else {
                    return V::Unknown;
                };
                V::Transform(Rc::new(Transform {
                    class: full.rsplit('.').next().unwrap_or(full),
                    v2,
                    args,
                    kwargs,
                }))
            }
            _ => match FUNCTIONAL.iter().find(|(f, _)| *f == name) {
                Some((_, class)) if !args.is_empty() => {
                    let t = Transform {
                        class,
                        v2: false,
                        args: args[1..].to_vec(),
                        kwargs,
                    };
                    self.apply_transform(&t, first, span)
                }
                _ => V::Unknown,
            },
        }
    }

    /// A torchvision dataset: its length and one sample `(transform(image), class)`, the
    /// class an int. `FakeData(size, image_size=(c, h, w))` draws a `c`-channel image
    /// (`ToPILImage` of a float tensor: `L`, `LA`, `RGB`, `RGBA`) of `size` samples;
    /// `ImageFolder` reads files with its default loader (`convert("RGB")`), of any size and
    /// number; `MNIST`/`FashionMNIST` are 28x28 `L` images (60,000 to train, 10,000 to
    /// test), `CIFAR10`/`CIFAR100` 32x32 `RGB` (50,000 and 10,000). Without a transform
    /// the samples are PIL images, which the default collation rejects; a target transform
    /// or another loader leaves the dataset unknown.
    fn image_dataset(
        &mut self,
        name: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
        span: TextRange,
    ) -> V<'a> {
        let class = name.rsplit('.').next().unwrap_or(name);
        // Positions of `transform`, `target_transform` and the other parameters.
        let (transform_at, target_at, known): (usize, usize, &[&str]) = match class {
            "FakeData" => (
                3,
                4,
                &[
                    "size",
                    "image_size",
                    "num_classes",
                    "transform",
                    "target_transform",
                    "random_offset",
                ],
            ),
            "ImageFolder" => (
                1,
                2,
                &["root", "transform", "target_transform", "allow_empty"],
            ),
            _ => (
                2,
                3,
                &["root", "train", "transform", "target_transform", "download"],
            ),
        };
        if args.len() > known.len() || kwargs.iter().any(|(k, _)| !known.contains(&k.as_str())) {
            return V::Unknown;
        }
        match arg(args, kwargs, target_at, "target_transform") {
            None | Some(V::Data(Value::None)) => {}
            Some(_) => return V::Unknown,
        }
        let train = || match arg(args, kwargs, 1, "train") {
            None => Some(true),
            Some(v) => v.truth(),
        };
        let image = |width: Option<DimExpr>, height: Option<DimExpr>, mode: &str| {
            V::Image(Box::new(Image {
                width,
                height,
                mode: Some(mode.to_string()),
            }))
        };
        let (length, img) = match class {
            "FakeData" => {
                let length = match arg(args, kwargs, 0, "size") {
                    None => Some(DimExpr::from(1000)),
                    Some(v) => int_of(v),
                };
                let (c, h, w) = match arg(args, kwargs, 1, "image_size") {
                    None => (Some(3), Some(DimExpr::from(224)), Some(DimExpr::from(224))),
                    Some(v) => match v.elements().as_deref() {
                        Some([c, h, w]) => {
                            (int_of(c).and_then(|c| c.as_const()), int_of(h), int_of(w))
                        }
                        _ => return V::Unknown,
                    },
                };
                let mode = match c {
                    Some(1) => "L",
                    Some(2) => "LA",
                    Some(3) => "RGB",
                    Some(4) => "RGBA",
                    _ => return V::Unknown,
                };
                (length, image(w, h, mode))
            }
            "ImageFolder" => {
                let width = Some(self.fresh_dim("image.width"));
                let height = Some(self.fresh_dim("image.height"));
                (None, image(width, height, "RGB"))
            }
            "MNIST" | "FashionMNIST" => {
                let n = match train() {
                    Some(true) => Some(DimExpr::from(60000)),
                    Some(false) => Some(DimExpr::from(10000)),
                    None => None,
                };
                (
                    n,
                    image(Some(DimExpr::from(28)), Some(DimExpr::from(28)), "L"),
                )
            }
            _ => {
                let n = match train() {
                    Some(true) => Some(DimExpr::from(50000)),
                    Some(false) => Some(DimExpr::from(10000)),
                    None => None,
                };
                (
                    n,
                    image(Some(DimExpr::from(32)), Some(DimExpr::from(32)), "RGB"),
                )
            }
        };
        let sample = match arg(args, kwargs, transform_at, "transform") {
            None | Some(V::Data(Value::None)) => img,
            Some(t) => {
                let t = t.clone();
                self.call(t, vec![img], Vec::new(), span)
            }
        };
        if sample.is_unknown() || self.run.dead {
            return V::Unknown;
        }
        V::Sampled(Rc::new((
            length,
            V::Tuple(vec![sample, V::Data(Value::IntUnknown)]),
        )))
    }

    /// `img.<method>(...)`: `convert(mode)`, `resize((w, h))`, `crop((l, t, r, b))`,
    /// `copy()`, `rotate(angle)` (without `expand`, the size stays); else unknown.
    pub(super) fn image_method(
        &mut self,
        img: &Image,
        method: &str,
        args: &[V<'a>],
        kwargs: &[(String, V<'a>)],
    ) -> V<'a> {
        let first = args.first();
        let image = |width, height, mode: Option<String>| {
            V::Image(Box::new(Image {
                width,
                height,
                mode,
            }))
        };
        match method {
            "convert" => {
                let mode = arg(args, kwargs, 0, "mode").and_then(|m| m.known_str());
                image(
                    img.width.clone(),
                    img.height.clone(),
                    mode.map(str::to_string),
                )
            }
            "resize" => match arg(args, kwargs, 0, "size").and_then(pair) {
                Some((w, h)) => image(w, h, img.mode.clone()),
                None => V::Unknown,
            },
            "crop" => match first.and_then(V::elements).as_deref() {
                Some([l, t, r, b]) => {
                    let side = |a: &V<'a>, b: &V<'a>| Some(int_of(b)?.sub(&int_of(a)?));
                    image(side(l, r), side(t, b), img.mode.clone())
                }
                _ => V::Unknown,
            },
            "copy" => V::Image(Box::new(img.clone())),
            "rotate" if !kwargs.iter().any(|(k, _)| k == "expand") && args.len() == 1 => {
                V::Image(Box::new(img.clone()))
            }
            _ => V::Unknown,
        }
    }

    /// A transform applied to `x` (a PIL image, a tensor, or for some an array), as
    /// torchvision computes it; unknown where it is not modelled.
    pub(super) fn apply_transform(
        &mut self,
        t: &Transform<'a>,
        x: V<'a>,
        span: TextRange,
    ) -> V<'a> {
        let param = |name: &str, i: usize| arg(&t.args, &t.kwargs, i, name).cloned();
        if x.is_unknown() {
            return V::Unknown;
        }
        // v2 passes what it does not transform (a numpy array) through unchanged.
        if t.v2
            && matches!(x, V::Array(_))
            && !matches!(t.class, "ToImage" | "ToTensor" | "Compose" | "Lambda")
        {
            return x;
        }
        match (t.class, &x) {
            ("Compose", _) => {
                let Some(steps) = param("transforms", 0).and_then(|l| l.elements()) else {
                    return V::Unknown;
                };
                let mut x = x;
                for step in steps {
                    x = self.call(step, vec![x], Vec::new(), span);
                    if x.is_unknown() || self.run.dead {
                        return V::Unknown;
                    }
                }
                x
            }
            ("Lambda", _) => match param("lambd", 0) {
                Some(f) => self.call(f, vec![x], Vec::new(), span),
                None => V::Unknown,
            },
            // A float tensor `[c, h, w]` in [0, 1]; from an image of mode `I`, `I;16` or `F`
            // the values keep their dtype.
            ("ToTensor", V::Image(img)) => image_tensor(img, true),
            // An HWC array (`[h, w]`: one channel) becomes `[c, h, w]`, float when uint8.
            ("ToTensor" | "ToImage", V::Array(a)) => match chw_of_array(a) {
                Some(dims) => V::Data(Value::Tensor(TensorValue::of(Shape::Ranked(dims), None))),
                None => {
                    self.run.dead = true;
                    V::Unknown
                }
            },
            // The pixels as they are: uint8 for the 8-bit modes.
            ("PILToTensor" | "ToImage", V::Image(img)) => image_tensor(img, false),
            ("ToImage", V::Data(Value::Tensor(_))) => x,
            ("ToDtype", V::Data(Value::Tensor(tv))) => {
                match param("dtype", 0).map(|d| d.to_value()) {
                    Some(Value::DType(d)) => V::Data(Value::Tensor(
                        tv.clone().without_content().converted(Some(d)),
                    )),
                    _ => V::Unknown,
                }
            }
            ("Resize", _) => {
                if param("max_size", 2).is_some_and(|m| !matches!(m, V::Data(Value::None))) {
                    return V::Unknown;
                }
                let Some(size) = param("size", 0) else {
                    return V::Unknown;
                };
                let hw = |h: &Option<DimExpr>, w: &Option<DimExpr>| match crop_size(&size) {
                    Some((th, tw)) if size.elements().is_some_and(|e| e.len() == 2) => {
                        (Some(th), Some(tw))
                    }
                    Some((s, _)) => resized(h, w, &s),
                    None => (None, None),
                };
                self.resize_to(&x, hw)
            }
            // The output always has the crop's size (`CenterCrop` pads a larger crop);
            // `RandomResizedCrop` resizes its crop to the size.
            ("CenterCrop" | "RandomResizedCrop", _) => {
                match param("size", 0).as_ref().and_then(crop_size) {
                    Some((h, w)) => self.resize_to(&x, |_, _| (Some(h.clone()), Some(w.clone()))),
                    None => V::Unknown,
                }
            }
            // `RandomCrop` raises for a crop larger than the image (without padding).
            ("RandomCrop", _) => {
                let padded = param("padding", 1)
                    .is_some_and(|p| !matches!(p, V::Data(Value::None)))
                    || param("pad_if_needed", 2).is_some_and(|p| p.truth() != Some(false));
                if padded {
                    return V::Unknown;
                }
                let Some((h, w)) = param("size", 0).as_ref().and_then(crop_size) else {
                    return V::Unknown;
                };
                let (ih, iw) = match &x {
                    V::Image(img) => (img.height.clone(), img.width.clone()),
                    V::Data(Value::Tensor(tv)) => tensor_hw(tv).unwrap_or((None, None)),
                    _ => return V::Unknown,
                };
                for (crop, side) in [(&h, ih), (&w, iw)] {
                    if let Some(side) = side {
                        let fits = Pred::Le(crop.clone(), side);
                        match fits.decide() {
                            Some(false) => {
                                self.run.dead = true;
                                return V::Unknown;
                            }
                            Some(true) => {}
                            None => self.assume(fits, span),
                        }
                    }
                }
                self.resize_to(&x, |_, _| (Some(h.clone()), Some(w.clone())))
            }
            ("Normalize", V::Data(Value::Tensor(tv))) => self.normalize(t, tv, x.clone(), span),
            // Normalize takes tensors only (a `TypeError` for an image).
            ("Normalize", V::Image(_)) => {
                self.run.dead = true;
                V::Unknown
            }
            ("Grayscale", _) => {
                let n = param("num_output_channels", 0)
                    .map_or(Some(1), |n| int_of(&n).and_then(|n| n.as_const()));
                match (&x, n) {
                    (V::Image(img), Some(n @ (1 | 3))) => V::Image(Box::new(Image {
                        mode: Some(if n == 1 { "L" } else { "RGB" }.to_string()),
                        ..(**img).clone()
                    })),
                    // A tensor image of 3 channels becomes `n` channels.
                    (V::Data(Value::Tensor(tv)), Some(n @ (1 | 3))) => match tv.shape.dims() {
                        Some(dims)
                            if dims.len() >= 3
                                && dims[dims.len() - 3].expr().and_then(DimExpr::as_const)
                                    == Some(3) =>
                        {
                            let mut dims = dims.to_vec();
                            let c = dims.len() - 3;
                            dims[c] = Dim::constant(n);
                            V::Data(Value::Tensor(TensorValue::of(
                                Shape::Ranked(dims),
                                tv.dtype,
                            )))
                        }
                        _ => V::Unknown,
                    },
                    _ => V::Unknown,
                }
            }
            // A rotation that does not `expand` keeps the size (corners are filled).
            ("RandomRotation", _)
                if param("expand", 2).is_some_and(|e| e.truth() != Some(false)) =>
            {
                V::Unknown
            }
            ("RandomRotation", V::Image(_)) => x,
            ("RandomRotation", V::Data(Value::Tensor(tv))) => {
                V::Data(Value::Tensor(tv.clone().without_content()))
            }
            // Flips, colour jitter and blur keep the size and channels.
            (
                "RandomHorizontalFlip" | "RandomVerticalFlip" | "ColorJitter" | "GaussianBlur",
                V::Image(_),
            ) => x,
            (
                "RandomHorizontalFlip" | "RandomVerticalFlip" | "ColorJitter" | "GaussianBlur",
                V::Data(Value::Tensor(tv)),
            ) => V::Data(Value::Tensor(tv.clone().without_content())),
            _ => V::Unknown,
        }
    }

    /// An image or tensor image resized to `(h, w)` computed from its own `(h, w)`.
    fn resize_to(
        &mut self,
        x: &V<'a>,
        hw: impl Fn(&Option<DimExpr>, &Option<DimExpr>) -> (Option<DimExpr>, Option<DimExpr>),
    ) -> V<'a> {
        match x {
            V::Image(img) => {
                let (height, width) = hw(&img.height, &img.width);
                V::Image(Box::new(Image {
                    width,
                    height,
                    mode: img.mode.clone(),
                }))
            }
            V::Data(Value::Tensor(tv)) => match tensor_hw(tv) {
                Some((h, w)) => {
                    let (h, w) = hw(&h, &w);
                    with_hw(tv, h, w).unwrap_or(V::Unknown)
                }
                None => V::Unknown,
            },
            _ => V::Unknown,
        }
    }

    /// `Normalize(mean, std)` of a tensor image `[..., c, h, w]`: torchvision computes
    /// `tensor.sub_(mean[:, None, None]).div_(std[:, None, None])`, which raises unless
    /// `len(mean)` is 1 or `c` (that requirement is torch's in-place broadcast rule). A
    /// tensor of rank below 3 or of an integer dtype raises first (no finding).
    fn normalize(
        &mut self,
        t: &Transform<'a>,
        tv: &TensorValue,
        x: V<'a>,
        span: TextRange,
    ) -> V<'a> {
        let rank = tv.shape.dims().map(<[Dim]>::len);
        let integer = tv.dtype.is_some_and(|d| !d.is_floating());
        if rank.is_some_and(|r| r < 3) || integer {
            self.run.dead = true;
            return V::Unknown;
        }
        for (name, i) in [("mean", 0), ("std", 1)] {
            let Some(stats) = arg(&t.args, &t.kwargs, i, name).and_then(V::elements) else {
                continue;
            };
            let column = V::Data(Value::float_tensor(&[stats.len() as i64, 1, 1]));
            self.apply_function(
                "torch.Tensor.sub_",
                vec![x.clone(), column],
                vec![],
                span,
                &[],
            );
            if self.run.dead {
                return V::Unknown;
            }
        }
        V::Data(Value::Tensor(tv.clone().without_content()))
    }
}

#[cfg(test)]
mod tests {
    use crate::testing::{assert_twins, findings};

    /// An image's size and mode reach torch: `convert`, `resize`, `np.array(img)` (`[h, w]`
    /// for `L`), `Image.fromarray` of `[h, w, 3]` (RGB), and a `Compose` of `Resize(int)`
    /// (50x33 becomes 36x24), `CenterCrop`, a flip, `ColorJitter`, `ToTensor`, `Normalize`.
    #[test]
    fn images_and_transforms_carry_shapes_into_torch() {
        let src = r#"
import numpy as np
import torch
import torch.nn as nn
from PIL import Image
import torchvision.transforms as T

img = Image.new("RGB", (50, 33))
arr = np.array(img.convert("L").resize((20, 10)))
back = T.ToTensor()(Image.fromarray(np.zeros((12, 16, 3), dtype=np.uint8)))
pipeline = T.Compose([T.Resize(24), T.CenterCrop(20), T.RandomHorizontalFlip(), T.ColorJitter(0.1), T.ToTensor(), T.Normalize([0.5] * 3, [0.5] * 3)])
x = pipeline(img)
nn.Conv2d(3, 8, 3)(x.unsqueeze(0))
nn.Linear(20, 4)(torch.from_numpy(arr).float())
nn.Conv2d(3, 4, 3)(back)
nn.Linear(WIDTH, 2)(T.Resize(24)(torch.zeros(3, 33, 50)))
"#;
        assert_twins(src, "WIDTH", "24", "36", 16);
    }

    /// `Normalize` with fewer means than channels raises in torch (`sub_` of `[2, 1, 1]`
    /// from `[3, h, w]`); one mean broadcasts.
    #[test]
    fn normalize_with_a_channel_mismatch_is_found() {
        let src = r#"
from PIL import Image
import torchvision.transforms as T

t = T.Compose([T.ToTensor(), T.Normalize(MEAN, MEAN)])
x = t(Image.new("RGB", (8, 8)))
"#;
        assert_twins(src, "MEAN", "[0.5, 0.5]", "[0.5]", 6);
    }

    /// An image opened from a file has an unknown size and mode: nothing is guessed of its
    /// channels until `convert("RGB")`; `Resize((h, w))`, `v2`'s `RandomCrop` and the
    /// functional forms then give known sizes.
    #[test]
    fn opened_images_are_unknown_until_converted_and_resized() {
        let src = r#"
import torch
import torch.nn as nn
from PIL import Image
from torchvision import transforms
from torchvision.transforms import v2
import torchvision.transforms.functional as F

img = Image.open("photo.jpg")
nn.Conv2d(5, 8, 3)(transforms.ToTensor()(img).unsqueeze(0))
nn.Linear(7, 2)(transforms.ToTensor()(img))
rgb = Image.open("photo.jpg").convert("RGB")
y = transforms.Compose([transforms.Resize((64, 64)), transforms.Lambda(lambda t: t), transforms.ToTensor()])(rgb)
z = v2.Compose([v2.ToImage(), v2.ToDtype(torch.float32, scale=True), v2.RandomCrop(32)])(rgb)
w = F.to_tensor(F.resize(rgb, [16, 16]))
nn.Conv2d(3, 8, 3)(y.unsqueeze(0))
nn.Linear(32, 2)(z)
nn.Linear(SIDE, 2)(w)
"#;
        assert_twins(src, "SIDE", "15", "16", 18);
    }

    /// `Image.fromarray(a, mode=m)` with a mode that has the array's channels is an `m`
    /// image of the array's size: a grey `[h, w]` array comes back two-dimensional.
    #[test]
    fn fromarray_with_a_fitting_mode_keeps_the_size() {
        let src = r#"
import numpy as np
import torch
from PIL import Image

grey = Image.fromarray(np.zeros((20, 30), dtype=np.uint8), mode="L")
colour = Image.fromarray(np.zeros((20, 30, 3), dtype=np.uint8), "RGB")
t = torch.from_numpy(np.asarray(grey) / 255.0).float()
c = torch.from_numpy(np.array(colour)).permute(2, 0, 1)
t = t.permute(DIMS)
"#;
        assert_twins(src, "DIMS", "2, 0, 1", "1, 0", 10);
    }

    /// A mode that does not fit the array (Pillow 13 raises, older ones reinterpret the
    /// bytes) leaves the image unknown.
    #[test]
    fn fromarray_with_a_mode_of_other_channels_is_unknown() {
        let src = r#"
import numpy as np
import torch
from PIL import Image

img = Image.fromarray(np.zeros((20, 30), dtype=np.uint8), mode="RGB")
torch.from_numpy(np.asarray(img)).permute(2, 0, 1, 3)
"#;
        assert!(findings(src).is_empty());
    }

    /// A loader over torchvision's generated or fixed-size datasets gives transformed
    /// images: `FakeData`'s `image_size` and MNIST's 28x28 grey digits reach the model.
    #[test]
    fn torchvision_datasets_give_transformed_images() {
        let src = r#"
import torch
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.transforms as T

fake = datasets.FakeData(size=20, image_size=(3, 16, 16), transform=T.ToTensor())
digits = datasets.MNIST("data", train=False, transform=T.ToTensor())
net = nn.Sequential(nn.Conv2d(3, 4, 3), nn.Flatten(), nn.Linear(4 * 14 * 14, 10))
for x, y in torch.utils.data.DataLoader(fake, batch_size=8):
    nn.functional.cross_entropy(net(x), y)
for x, y in torch.utils.data.DataLoader(digits, batch_size=100):
    nn.Linear(PIXELS, 10)(x.view(x.size(0), -1))
"#;
        assert_twins(src, "PIXELS", "1024", "784", 13);
    }

    /// Without a transform the samples are PIL images, which the default collation
    /// rejects: nothing is known of the batches. A folder's images have any size.
    #[test]
    fn untransformed_or_folder_images_are_not_guessed() {
        let src = r#"
import torch
import torch.nn as nn
import torchvision.datasets as datasets
import torchvision.transforms as T

raw = datasets.FakeData(size=20, image_size=(3, 16, 16))
folder = datasets.ImageFolder("photos", transform=T.ToTensor())
for x, y in torch.utils.data.DataLoader(raw, batch_size=8):
    nn.Linear(5, 2)(x)
for x, y in torch.utils.data.DataLoader(folder, batch_size=1):
    nn.Linear(5, 2)(x)
"#;
        assert!(findings(src).is_empty());
    }

    /// Unmodelled transforms and methods give unknown values, never alarms.
    #[test]
    fn unmodelled_transforms_are_unknown() {
        let src = r#"
import torch.nn as nn
from PIL import Image
import torchvision.transforms as T

img = Image.new("RGB", (40, 30)).rotate(30, expand=True)
x = T.Compose([T.RandomAffine(10), T.ToTensor()])(img)
nn.Conv2d(1, 8, 3)(x.unsqueeze(0))
nn.Linear(7, 2)(T.ToTensor()(img))
"#;
        assert!(findings(src).is_empty());
    }

    /// A rotation keeps the image's size unless it expands it; what follows is checked.
    #[test]
    fn rotations_keep_the_size_unless_expanded() {
        let src = r#"
import torch
import torch.nn as nn
from PIL import Image
import torchvision.transforms as T

img = Image.new("RGB", (64, 48))
x = T.Compose([T.RandomRotation(5), T.ToTensor()])(img)
nn.Linear(WIDTH, 2)(x)
"#;
        assert_twins(src, "WIDTH", "48", "64", 9);
        let expanded = src
            .replace("RandomRotation(5)", "RandomRotation(5, expand=True)")
            .replace("WIDTH", "48");
        assert!(findings(&expanded).is_empty());
    }
}
