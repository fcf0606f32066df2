"""Files the user names for output: checked before any work, written atomically.

Nothing a command reads, and no results database, is ever written over:

- ``check_output(path, inputs)`` refuses, before the work starts, an output that is
  the same file as one of the inputs (same resolved path, or the same inode through a
  symbolic or hard link), an existing SQLite database (whatever its name), a folder,
  a file that may not be written, a side file of an SQLite database (``-wal``,
  ``-shm``, ``-journal``), a block device or socket, or a place whose folder is
  missing or refuses a new file (tried by creating and removing one: permission bits
  say nothing to root, and nothing about a file system such as /proc);
- ``check_output_folder(path, inputs)`` does the same for a folder that a command
  fills with files (``patience report --out DIR``);
- ``atomic_open(path)`` writes to a new file beside ``path`` and renames it into place
  only once everything is written, so an interrupted or failed write leaves the old
  file as it was and no partial one.  A character device (``/dev/null``, a terminal) or
  a FIFO is written into, never replaced: renaming over it would put a regular file
  where the device was (as root, in /dev).

``-`` means standard output: it passes every check and ``output_file`` writes it directly.
"""

from __future__ import annotations

import os
import secrets
import stat
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import IO

STDOUT = "-"
SQLITE_MAGIC = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file

PathLike = str | os.PathLike


class OutputError(ValueError):
    """An output that would destroy data, or that cannot be written (one line)."""


def is_sqlite_database(path: PathLike) -> bool:
    """True if ``path`` is a regular file that starts as an SQLite database does."""
    try:
        if not os.path.isfile(path):
            return False
        with open(path, "rb") as f:
            return f.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def same_file(a: PathLike, b: PathLike) -> bool:
    """True if ``a`` and ``b`` name one file: the same path once links are resolved, or
    (both existing) the same inode, which also catches hard links."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one of them does not exist (or cannot be looked at)
        return False


SQLITE_SIDE_FILES = ("-wal", "-shm", "-journal")  # what SQLite keeps beside a database


def _streams_into(path: PathLike) -> bool:
    """True if ``path`` exists (links followed) and is a character device or a FIFO:
    written into as it is, never replaced by a file.  Any other existing target that is
    neither a regular file nor a folder (refused elsewhere), a block device or a socket,
    raises OutputError."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    if stat.S_ISCHR(mode) or stat.S_ISFIFO(mode):
        return True
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        kind = "a block device" if stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file"
        raise OutputError(f"refusing to write {str(path)!r}: it is {kind}")
    return False


def _refuse_side_file(path: PathLike) -> None:
    """``NAME-wal``, ``NAME-shm`` or ``NAME-journal`` beside an SQLite database ``NAME``
    (or existing): SQLite's own file, which writing would corrupt or SQLite would eat."""
    text = str(path)
    for suffix in SQLITE_SIDE_FILES:
        if text.endswith(suffix) and (is_sqlite_database(text[:-len(suffix)]) or os.path.exists(text)):
            raise OutputError(f"refusing to write {text!r}: it is a file SQLite keeps beside the database "
                              f"{text[:-len(suffix)]!r}")


def _inputs(inputs: Iterable[PathLike | None]) -> list[PathLike]:
    return [p for p in inputs if p is not None and str(p) != STDOUT]


def _probe_folder(folder: str, shown: str) -> None:
    """Create and remove a file in ``folder``: the only sure test that a file can be made there."""
    if not os.path.isdir(folder):
        raise OutputError(f"cannot write {shown!r}: no folder {folder!r}")
    probe = os.path.join(folder, f".patience-probe-{secrets.token_hex(6)}")
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as err:
        raise OutputError(f"cannot write {shown!r}: folder {folder!r} refuses new files "
                          f"({err.strerror or err})") from None
    os.close(fd)
    os.unlink(probe)


def _refuse_precious(path: PathLike, inputs: list[PathLike]) -> None:
    for source in inputs:
        if same_file(path, source):
            raise OutputError(f"refusing to write {str(path)!r}: it is the input {str(source)!r} "
                              "(an output never overwrites what the command reads)")
    if is_sqlite_database(path):
        raise OutputError(f"refusing to write {str(path)!r}: it is an SQLite database "
                          "(results databases are never overwritten; choose another name)")


def check_output(path: PathLike, inputs: Iterable[PathLike | None] = (), stdout: bool = True) -> None:
    """Raise OutputError unless a file may be written at ``path`` without losing anything.

    ``inputs`` are the files the command reads (None and ``-`` are skipped); ``stdout``
    False: ``-`` is a file of that name, as for an output that never goes to standard
    output.  Call it before the work starts, so that a long search never ends in a refusal."""
    if str(path) == STDOUT:
        if stdout:
            return
        raise OutputError("'-' (standard output) is not an output here: name a file")
    if not str(path):
        raise OutputError("an empty file name: name a file")
    _refuse_precious(path, _inputs(inputs))
    real = os.path.realpath(path)  # a link is followed: the name written is its target's
    if os.path.isdir(real):
        raise OutputError(f"cannot write {str(path)!r}: it is a folder")
    if os.path.exists(real) and not os.access(real, os.W_OK):
        raise OutputError(f"cannot write {str(path)!r}: the file is read-only")
    if _streams_into(real):
        return  # written into, no file made beside it
    _refuse_side_file(real)
    _probe_folder(os.path.dirname(real), str(path))


def check_output_folder(path: PathLike, inputs: Iterable[PathLike | None] = ()) -> None:
    """Raise OutputError unless files can be written into the folder ``path`` (made if
    missing, with its parents) without it being, or holding, one of ``inputs``."""
    inputs = _inputs(inputs)
    real = os.path.realpath(path)
    for source in inputs:
        if same_file(path, source):
            raise OutputError(f"refusing to write into {str(path)!r}: it is the input {str(source)!r}")
    if os.path.exists(real) and not os.path.isdir(real):
        raise OutputError(f"cannot write into {str(path)!r}: it is a file, not a folder")
    existing = real
    while not os.path.exists(existing):  # the folder is made with its parents: the nearest one must take them
        existing = os.path.dirname(existing)
    if not os.path.isdir(existing):
        raise OutputError(f"cannot write into {str(path)!r}: {existing!r} is a file, not a folder")
    _probe_folder(existing, str(path))


def _new_file_mode(target: str) -> int | None:
    """The permission bits the written file keeps: the old file's, if there is one."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        return None


@contextmanager
def atomic_open(path: PathLike, mode: str = "w", encoding: str | None = "utf-8",
                newline: str | None = None) -> Iterator[IO]:
    """A file object for writing ``path`` that replaces it only when the block ends
    without an exception.  The new content goes to a hidden file in the same folder
    (so the rename is atomic), is flushed to disk, and is renamed over ``path``; on any
    error, Ctrl-C included, the hidden file is removed and ``path`` is untouched.  A
    symbolic link is followed (its target is replaced, the link stays); an existing
    file's permission bits are kept, a new one gets the usual ones (umask)."""
    if "w" not in mode or "+" in mode:
        raise ValueError(f"atomic_open writes a whole new file: mode 'w' or 'wb', not {mode!r}")
    target = os.path.realpath(path)
    if _streams_into(target):  # a device or a FIFO: written into, never replaced
        binary = "b" in mode
        with open(target, "wb" if binary else "w", encoding=None if binary else encoding,
                  newline=None if binary else newline) as f:
            yield f
        return
    folder, name = os.path.split(target)
    keep_mode = _new_file_mode(target)
    while True:
        temp = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # umask applies, as to open()
            break
        except FileExistsError:
            continue
    try:
        binary = "b" in mode
        with os.fdopen(fd, "wb" if binary else "w", encoding=None if binary else encoding,
                       newline=None if binary else newline) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        if keep_mode is not None:
            os.chmod(temp, keep_mode)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def write_text(path: PathLike, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` atomically (see ``atomic_open``)."""
    with atomic_open(path, "w", encoding=encoding) as f:
        f.write(text)


@contextmanager
def output_file(path: PathLike, encoding: str = "utf-8", newline: str | None = None) -> Iterator[IO[str]]:
    """A text file to write: standard output for ``-`` (left open), else ``atomic_open``."""
    if str(path) == STDOUT:
        yield sys.stdout
        sys.stdout.flush()
        return
    with atomic_open(path, "w", encoding=encoding, newline=newline) as f:
        yield f
