"""Writing files safely: a file is either absent or complete, never half-written.

Only regular files are ever replaced: a device, FIFO, socket, directory or symbolic link that sits
where a file is to be written is refused (``NotRegularFileError``), so ``--out /dev/full`` can never
swap a device for a file.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path

from tmphys.text import path_text


class NotRegularFileError(OSError):
    """Something other than a regular file (device, FIFO, directory, symlink…) is where we would write."""


def current_umask() -> int:
    """The process umask (read without changing it for long)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def describe(error: OSError) -> str:
    """One line for an OSError: the path it names and what is wrong, without the errno prefix."""
    what = error.strerror or str(error)
    return f"{path_text(error.filename)}: {what}" if error.filename is not None else what


def _kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words."""
    for test, name in ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


class NotAFileError(OSError):
    """A path that is no regular file (a folder, a named pipe, a device), refused without opening it: a named pipe
    would wait for a writer, a device might never end."""


def read_regular(path: str | os.PathLike[str], limit: int) -> bytes:
    """At most ``limit`` + 1 bytes of a regular file (more than ``limit`` tells the caller it is too big, without
    reading the rest); NotAFileError, unopened, for anything else, naming what it is."""
    mode = os.stat(path).st_mode
    if not stat.S_ISREG(mode):
        raise NotAFileError(errno.EINVAL, _kind(mode), os.fspath(path))
    with open(path, "rb") as f:
        return f.read(limit + 1)


def refuse_non_regular(path: Path, directory: bool = False) -> None:
    """Raise NotRegularFileError when ``path`` exists and is not what we may replace.

    What we may replace is a regular file (or, with ``directory``, a real directory). Symbolic links
    are refused, not followed: writing through one would put the file somewhere the user did not name,
    and replacing it would silently break the link. Pass the link's target instead.
    """
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except NotADirectoryError:
        return  # a parent is a file: check_writable names it
    if (stat.S_ISDIR(mode) if directory else stat.S_ISREG(mode)):
        return
    want = "a directory" if directory else "a regular file"
    raise NotRegularFileError(errno.EEXIST, f"exists and is {_kind(mode)}, not {want}; refusing to replace it",
                              str(path))


#: The folder the commands write into by default (``output/``, beside where they run): made when missing, unlike
#: the folder of any other path.
DEFAULT_FOLDER = "output"


def check_writable(path: Path, directory: bool = False) -> None:
    """Raise OSError naming the problem unless ``path`` can be written (before any long work).

    ``path`` must not be something other than a regular file (or directory, with ``directory``), its
    folder must exist (``DEFAULT_FOLDER`` excepted: a typo in a path would otherwise create a tree of folders), its
    nearest existing parent must be a directory, and a temporary file must be creatable there.
    """
    path = Path(path)
    if "\x00" in str(path):  # no system takes it; Python's own refusal is a ValueError
        raise OSError(errno.EINVAL, "holds a NUL character, which no path may", str(path))
    refuse_non_regular(path, directory)
    parent = path.absolute().parent
    if not os.path.lexists(parent) and parent != Path(DEFAULT_FOLDER).absolute():
        raise FileNotFoundError(errno.ENOENT, "no such folder (none is made but output/)", str(path.parent))
    while not os.path.lexists(parent) and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, "not a directory, so nothing can be written under it",
                                 str(parent))
    try:
        fd, probe = tempfile.mkstemp(dir=parent, prefix=".tmphys-probe.", suffix=".part")
    except OSError as e:
        raise type(e)(e.errno, f"cannot create files here ({e.strerror})", str(parent)) from None
    os.close(fd)
    os.unlink(probe)


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename.

    The file gets the usual permissions (0666 less the umask), not the temporary file's 0600. Only a
    regular file is replaced: anything else at ``path`` (device, FIFO, directory, symbolic link, even
    one to a regular file) raises NotRegularFileError and is left untouched.
    """
    path = Path(path)
    refuse_non_regular(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o666 & ~current_umask())
        refuse_non_regular(path)  # again, just before the rename: it may have appeared meanwhile
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


# --- putting a folder in place in one step ----------------------------------------------------------------------

#: ``renameat2``'s flag that swaps two paths in one step, and the "current folder" file descriptor (Linux).
RENAME_EXCHANGE = 2
AT_FDCWD = -100
#: The errors by which a system or file system says it cannot swap (then nothing moved, and two renames do).
_CANNOT_SWAP = {errno.ENOSYS, errno.EINVAL, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EXDEV}


def _renameat2() -> object | None:
    """The C library's ``renameat2`` (Linux, glibc 2.28 and later), or None where there is none."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def exchange(a: Path, b: Path) -> bool:
    """Swap the two existing paths ``a`` and ``b`` in one step (Linux ``renameat2`` with ``RENAME_EXCHANGE``): at
    every instant, even under kill -9, each name holds one of the two. False where the system or its file system
    cannot (nothing moved then); another failure raises OSError."""
    function = _renameat2()
    if function is None:
        return False
    if function(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:  # type: ignore[operator]
        return True
    code = ctypes.get_errno()
    if code in _CANNOT_SWAP:
        return False
    raise OSError(code, os.strerror(code), str(b))


@contextlib.contextmanager
def signals_held() -> Iterator[list[int]]:
    """Within the block Ctrl-C (SIGINT), SIGTERM and SIGHUP are noted, not acted on, so that steps which must not be cut
    apart (a new build put in place, the earlier one removed) run whole; the signals that came are in the list it
    gives, for the caller to report. Outside the main thread, where Python sets no handlers, nothing is held."""
    came: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield came
        return
    ending = [getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)]
    saved = {sig: signal.signal(sig, lambda signum, frame: came.append(signum))
             for sig in ending if signal.getsignal(sig) is not signal.SIG_IGN}  # one ignored stays so
    try:
        yield came
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, signal.SIG_DFL if handler is None else handler)
