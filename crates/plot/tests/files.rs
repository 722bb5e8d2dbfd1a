//! The file helpers every front end writes and reads users' files with.

use std::io::Write;
use std::path::Path;

use zkaccel_plot::files::{
    check_distinct_outputs, read_limited, write_atomically, AtomicFile, BoundedLines, FileSet,
};

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_file_set_appears_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("a.txt"), "old a").unwrap();
    // The second file's destination is a directory: nothing is written, the first file keeps
    // its old contents, and no temporary file is left.
    std::fs::create_dir(d.join("b.txt")).unwrap();
    let mut set = FileSet::new();
    set.add(&d.join("a.txt"), "new a").unwrap();
    assert!(set.add(&d.join("b.txt"), "new b").is_err());
    drop(set);
    assert_eq!(std::fs::read_to_string(d.join("a.txt")).unwrap(), "old a");
    assert_eq!(names(d), ["a.txt", "b.txt"]);
    // One path twice in a set is refused, however it is spelled.
    let mut set = FileSet::new();
    set.add(&d.join("c.txt"), "1").unwrap();
    let err = set.add(&d.join(".").join("c.txt"), "2").unwrap_err();
    assert!(err.to_string().contains("named twice"), "{err}");
    drop(set);
    // Committed, every file is in place.
    let mut set = FileSet::new();
    set.add(&d.join("a.txt"), "new a").unwrap();
    set.add(&d.join("c.txt"), "new c").unwrap();
    set.commit().unwrap();
    assert_eq!(std::fs::read_to_string(d.join("a.txt")).unwrap(), "new a");
    assert_eq!(std::fs::read_to_string(d.join("c.txt")).unwrap(), "new c");
    assert_eq!(names(d), ["a.txt", "b.txt", "c.txt"]);
}

#[test]
fn an_unfinished_file_leaves_the_old_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("out.txt");
    std::fs::write(&path, "old").unwrap();
    let mut f = AtomicFile::create(&path).unwrap();
    f.write_all(b"half of the new").unwrap();
    drop(f);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
    assert_eq!(names(dir.path()), ["out.txt"]);
    write_atomically(&path, "new").unwrap();
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
}

#[cfg(unix)]
#[test]
fn a_new_file_gets_the_usual_permissions_and_an_old_one_keeps_its_own() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
    let plain = dir.path().join("plain.txt");
    std::fs::write(&plain, "").unwrap();
    let new = dir.path().join("new.txt");
    write_atomically(&new, "x").unwrap();
    assert_eq!(
        mode(&new),
        mode(&plain),
        "as File::create under the same umask"
    );
    for m in [0o600, 0o640, 0o755] {
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(m)).unwrap();
        write_atomically(&plain, "y").unwrap();
        assert_eq!(mode(&plain), m);
    }
}

#[test]
fn distinct_outputs_are_told_apart_by_the_file_they_name() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a");
    let a2 = dir.path().join("sub").join("..").join("a");
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    let b = dir.path().join("b");
    check_distinct_outputs(&[("--x", Some(&a)), ("--y", Some(&b)), ("--z", None)]).unwrap();
    let err = check_distinct_outputs(&[("--x", Some(&a)), ("--y", Some(&a2))]).unwrap_err();
    assert!(err.to_string().contains("--x and --y"), "{err}");
}

#[test]
fn reads_stop_at_their_bound() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f");
    std::fs::write(&path, vec![7u8; 100]).unwrap();
    assert_eq!(read_limited(&path, 100, "x").unwrap().len(), 100);
    let err = read_limited(&path, 99, "a test input").unwrap_err();
    assert!(err.to_string().contains("longer than 99 bytes"), "{err}");
    #[cfg(target_os = "linux")]
    {
        // A device whose metadata says nothing of its length.
        let err = read_limited(Path::new("/dev/zero"), 1 << 20, "x").unwrap_err();
        assert!(err.to_string().contains("longer than"), "{err}");
    }
    assert!(read_limited(dir.path(), 10, "x").is_err());
}

#[test]
fn lines_are_bounded_numbered_and_stripped() {
    let text = b"one\r\ntwo\n\nthree";
    let lines: Vec<(usize, String)> = BoundedLines::new(&text[..], 5)
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(
        lines,
        [
            (1, "one".to_owned()),
            (2, "two".to_owned()),
            (3, String::new()),
            (4, "three".to_owned())
        ]
    );
    // A line one byte over the bound, with and without its ending.
    for text in [&b"ok\n123456\n"[..], b"ok\n123456"] {
        let mut it = BoundedLines::new(text, 5);
        assert_eq!(it.next().unwrap().unwrap().1, "ok");
        let err = it.next().unwrap().unwrap_err();
        assert!(err.to_string().contains("line 2 is longer than 5"), "{err}");
    }
    // Exactly the bound, CRLF included, is fine.
    let mut it = BoundedLines::new(&b"12345\r\n"[..], 5);
    assert_eq!(it.next().unwrap().unwrap().1, "12345");
    assert!(it.next().is_none());
    assert!(BoundedLines::new(&b"\xff\n"[..], 5)
        .next()
        .unwrap()
        .is_err());
}
