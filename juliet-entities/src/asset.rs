//! [`AssetPath`]: a field that names an asset file (a mesh, a texture, a template) by
//! its path relative to the project root, checked to exist when a world loads
//! (docs/design.md, section 5.8).

use std::fmt;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};

use juliet_core::{Codec, Element, PropertyType, Value, ValueError, ValueErrorKind};

/// The file kind an [`AssetPath`] names: its extension (`None`: any file).
///
/// ```
/// use juliet_entities::AssetKind;
///
/// /// Wavefront meshes.
/// pub struct Mesh;
///
/// impl AssetKind for Mesh {
///     const EXTENSION: Option<&'static str> = Some("obj");
/// }
/// ```
pub trait AssetKind: 'static {
    /// The extension the file must have, without the dot (`None`: any).
    const EXTENSION: Option<&'static str>;
}

/// The path of an asset file relative to the project root (the folder holding
/// `Assets/`), with `/` between folders on every platform: `Assets/Meshes/Rock_01.obj`.
/// `AssetPath<K>` names a file of [`AssetKind`] `K` (its extension); `AssetPath` any.
///
/// Written in files as a `String`. Reading refuses an absolute path, a `\`, a `..`
/// that leaves the project and, for a typed path, another extension (a located error).
/// The empty path is "none" (the default). [`crate::World::load`] and `jasset check`
/// report a path to a file the project does not have (a warning; an error with
/// `check --strict`).
///
/// ```
/// use juliet_entities::{AssetKind, AssetPath, Entity};
///
/// pub struct Mesh;
/// impl AssetKind for Mesh {
///     const EXTENSION: Option<&'static str> = Some("obj");
/// }
///
/// #[derive(Entity)]
/// struct Statue {
///     mesh: AssetPath<Mesh>,   // `Mesh: Assets/Meshes/Statue.obj`
///     plaque: Option<AssetPath>,
/// }
///
/// let mesh: AssetPath<Mesh> = AssetPath::new("Assets/Meshes/Statue.obj")?;
/// assert_eq!(mesh.as_str(), "Assets/Meshes/Statue.obj");
/// assert!(AssetPath::<Mesh>::new("Assets/Textures/Statue.png").is_err());
/// # Ok::<(), juliet_entities::juliet_core::ValueErrorKind>(())
/// ```
pub struct AssetPath<K: AssetKind = AnyAsset> {
    path: String,
    kind: PhantomData<fn() -> K>,
}

impl<K: AssetKind> AssetPath<K> {
    /// The path `path` (relative to the project root, `/` between folders).
    ///
    /// # Errors
    /// [`ValueErrorKind::Custom`] saying why, for an absolute path, a `\`, a `..` that
    /// leaves the project, or another extension than `K`'s.
    pub fn new(path: impl Into<String>) -> Result<AssetPath<K>, ValueErrorKind> {
        let path = path.into();
        check::<K>(&path).map_err(|why| ValueErrorKind::Custom(why.to_owned()))?;
        Ok(AssetPath {
            path,
            kind: PhantomData,
        })
    }

    /// The path as written.
    pub fn as_str(&self) -> &str {
        &self.path
    }

    /// Whether this is the empty path ("none").
    pub fn is_empty(&self) -> bool {
        self.path.is_empty()
    }

    /// The file under the project root `root`.
    pub fn under(&self, root: &Path) -> PathBuf {
        root.join(&self.path)
    }
}

/// Why `path` is not an asset path of kind `K`, if it is not.
fn check<K: AssetKind>(path: &str) -> Result<(), &'static str> {
    if path.is_empty() {
        return Ok(());
    }
    if path.starts_with('/') || path.contains(':') {
        return Err("an asset path is relative to the project root (no leading `/` or drive)");
    }
    if path.contains('\\') {
        return Err("an asset path has `/` between folders, not `\\`");
    }
    let mut depth = 0i32;
    for part in path.split('/') {
        depth += match part {
            ".." => -1,
            "" | "." => 0,
            _ => 1,
        };
        if depth < 0 {
            return Err("an asset path stays inside the project (a `..` leaves it)");
        }
    }
    match K::EXTENSION {
        Some(ext) if Path::new(path).extension().and_then(|e| e.to_str()) != Some(ext) => {
            Err("an asset path of this field has another extension")
        }
        _ => Ok(()),
    }
}

/// The kind of an untyped [`AssetPath`]: a file of any extension.
#[derive(Debug)]
pub enum AnyAsset {}

impl AssetKind for AnyAsset {
    const EXTENSION: Option<&'static str> = None;
}

impl<K: AssetKind> Clone for AssetPath<K> {
    fn clone(&self) -> Self {
        AssetPath {
            path: self.path.clone(),
            kind: PhantomData,
        }
    }
}

impl<K: AssetKind> Default for AssetPath<K> {
    fn default() -> Self {
        AssetPath {
            path: String::new(),
            kind: PhantomData,
        }
    }
}

impl<K: AssetKind> PartialEq for AssetPath<K> {
    fn eq(&self, other: &Self) -> bool {
        self.path == other.path
    }
}

impl<K: AssetKind> Eq for AssetPath<K> {}

impl<K: AssetKind> fmt::Debug for AssetPath<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "AssetPath({:?})", self.path)
    }
}

impl<K: AssetKind> fmt::Display for AssetPath<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)
    }
}

impl<K: AssetKind> Codec for AssetPath<K> {
    const PROPERTY_TYPE: PropertyType = PropertyType::Asset(K::EXTENSION);

    fn encode(&self, out: &mut String) {
        self.path.encode(out);
    }

    fn decode<'a>(value: Value<'a>) -> Result<Self, ValueError<'a>> {
        let line = value.single()?;
        let path = String::decode(value)?;
        check::<K>(&path)
            .map_err(|why| ValueError::new(ValueErrorKind::Custom(why.into()), line))?;
        Ok(AssetPath {
            path,
            kind: PhantomData,
        })
    }
}

impl<K: AssetKind> Element for AssetPath<K> {}

#[cfg(test)]
mod tests {
    use super::*;

    struct Mesh;
    impl AssetKind for Mesh {
        const EXTENSION: Option<&'static str> = Some("obj");
    }

    #[test]
    fn paths_are_checked_when_read() {
        fn read(text: &str) -> Result<AssetPath<Mesh>, ValueError<'_>> {
            AssetPath::<Mesh>::decode(Value::from_text(text))
        }
        assert_eq!(
            read("Assets/Meshes/Rock.obj").unwrap().as_str(),
            "Assets/Meshes/Rock.obj"
        );
        assert_eq!(
            read("\"Assets/My Meshes/Rock.obj\"").unwrap().as_str(),
            "Assets/My Meshes/Rock.obj"
        );
        for bad in [
            "/etc/Rock.obj",
            "C:/Rock.obj",
            "Assets\\Rock.obj",
            "../Rock.obj",
            "Assets/../../Rock.obj",
            "Assets/Rock.png",
        ] {
            let err = read(bad).unwrap_err();
            assert!(
                matches!(err.kind, ValueErrorKind::Custom(_)),
                "{bad}: {err:?}"
            );
        }
        assert!(read("Assets/../Assets/Rock.obj").is_ok());
        let any = AssetPath::<AnyAsset>::decode(Value::from_text("Assets/Rock.png")).unwrap();
        let mut out = String::new();
        any.encode(&mut out);
        assert_eq!(out, "Assets/Rock.png");
        assert_eq!(
            <AssetPath<Mesh> as Codec>::PROPERTY_TYPE,
            PropertyType::Asset(Some("obj"))
        );
    }
}
