"""A build's folder written whole: the files of a set (or a game's cards, or the app's site) go in place in one step,
never half a folder, and never over a folder that holds anything but an earlier build.

>>> write_tree({"manifest.json": b"{}"}, Path("output/classic"))   # doctest: +SKIP
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from tmphys.files import current_umask, describe, exchange, signals_held, write_atomic
from tmphys.text import PATH_LIMIT, OneLineError, path_text, quote


class BuildError(OneLineError):
    """Options that cannot make a set (the message is one line, for the command line)."""


def check_target(out: Path) -> None:
    """Refuse to replace a directory that is not an earlier build and nothing else (it might hold someone's
    files: anything its manifest does not list), and the current directory or one holding it (replaced, it
    would leave the shell in a deleted one)."""
    here = Path.cwd().resolve()
    if out.exists() and out.is_dir() and (out.resolve() == here or out.resolve() in here.parents):
        raise BuildError(f"refusing to replace {path_text(out)}: it is the current directory or holds it; "
                         "give --out a folder inside it")
    work = out.is_dir() and _holds_work(out)  # past this, a folder holding work is an earlier build
    if out.exists() and (not out.is_dir() or (work and not is_earlier_build(out))):
        raise BuildError(f"refusing to replace {path_text(out)}: it exists and is not a tmphys build")
    if work and not out.is_symlink():
        try:
            extra = unlisted(out)
        except OSError as e:
            raise BuildError(f"refusing to replace {path_text(out)}: cannot read {describe(e)}") from None
        if extra:
            more = f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""
            first = path_text(extra[0]) if extra[0].isprintable() else quote(extra[0], PATH_LIMIT)  # one line, marked
            raise BuildError(f"refusing to replace {path_text(out)}: it holds {first}{more} that no build wrote: "
                             f"move {'them' if more else 'it'}, or choose another --out")


def _holds_work(out: Path) -> bool:
    """Whether the directory ``out`` holds anything but a file browser's clutter (``system_clutter``): a folder
    just made in Finder or Explorer, holding a .DS_Store or desktop.ini, takes a build as an empty one does."""
    return any(not system_clutter(p.name) or p.is_dir() for p in out.iterdir())


def is_earlier_build(out: Path) -> bool:
    """Whether the directory ``out`` holds a tmphys build: its ``manifest.json`` is a build's (layout, paper and
    the files, each with its path). Another program's manifest.json (a web app's) is not, so its folder is
    never replaced."""
    try:
        manifest = json.loads((out / "manifest.json").read_text("utf-8"))
        return (isinstance(manifest["layout"], str) and isinstance(manifest["paper"], str)
                and bool(manifest["files"]) and all(isinstance(entry["path"], str) for entry in manifest["files"]))
    except (OSError, ValueError, KeyError, TypeError):
        return False


#: Files a desktop's file browser leaves in any folder it shows: no one's work, replaced with the build.
SYSTEM_CLUTTER = frozenset({".DS_Store", "Thumbs.db", "desktop.ini", ".directory"})


def system_clutter(name: str) -> bool:
    """Whether a file is a file browser's: ``SYSTEM_CLUTTER``, or one of the ``._*`` files macOS writes beside
    every file on a drive it cannot keep their metadata on (a USB stick, a network share)."""
    return name in SYSTEM_CLUTTER or name.startswith("._")


def unlisted(out: Path) -> list[str]:
    """What the earlier build in ``out`` holds that its manifest does not list (``a/b.txt``, a folder as
    ``a/``), sorted: replacing the build would delete it, so a user's file there stops the build."""
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    files = {str(entry["path"]) for entry in manifest["files"]} | {"manifest.json"}
    folders = {"/".join(parts[:k]) for parts in (f.split("/") for f in files) for k in range(1, len(parts))}
    found: list[str] = []

    def walk(folder: Path, prefix: str) -> None:
        with os.scandir(folder) as it:
            for entry in sorted(it, key=lambda e: e.name):
                rel = prefix + entry.name
                if entry.is_dir(follow_symlinks=False):
                    if rel in folders:
                        walk(Path(entry.path), rel + "/")
                    else:
                        found.append(rel + "/")
                elif rel not in files and not system_clutter(entry.name):
                    found.append(rel)

    walk(out, "")
    return found


#: How the folders ``write_tree`` works in are named beside ``out``: ``.NAME.PID.XXXX.tmp`` (the new build, being
#: written) and ``.NAME.PID.XXXX.old`` (the earlier build, being removed: swapped out of ``out``, or where no one-step
#: swap is possible, moved into it as ``previous``); PID is the building process's, so a later build can tell a folder
#: a killed build left (its process gone) from one a build running now is using.
WORK_FOLDER = re.compile(r"\.(?P<name>.+)\.(?P<pid>[0-9]+)\.[^.]+\.(?P<kind>tmp|old)")


def _alive(pid: int) -> bool:
    """Whether process ``pid`` is running (so its work folders are in use)."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # someone else's process, or a system that cannot tell: leave its folders be
    return True


def left_behind(out: Path) -> list[Path]:
    """The work folders a killed or failed build of ``out`` left beside it (their process is gone), oldest first."""
    found = []
    try:
        entries = list(os.scandir(out.parent))
    except OSError:
        return []
    for entry in entries:
        m = WORK_FOLDER.fullmatch(entry.name)
        if m and m["name"] == out.name and entry.is_dir(follow_symlinks=False) and not _alive(int(m["pid"])):
            found.append(Path(entry.path))
    return sorted(found, key=lambda p: (p.stat().st_mtime, p.name))


def recover(out: Path) -> None:
    """Clear what killed builds of ``out`` left: an earlier build stranded in ``.NAME.*.old/previous`` while ``out``
    is missing (killed between the two renames) is put back; every other left-behind work folder is removed."""
    for folder in left_behind(out):
        previous = folder / "previous"
        if folder.name.endswith(".old") and previous.is_dir() and not os.path.lexists(out):
            os.replace(previous, out)
        shutil.rmtree(folder, ignore_errors=True)


def write_tree(files: dict[str, bytes], out: Path) -> list[int]:
    """Write the set into ``out`` all at once: build a sibling temp dir, then put it in place.

    Whatever stops it (an error, Ctrl-C, SIGTERM) while the new build is written, ``out`` is the earlier build and
    the temp dir is removed. Once the new build is written it goes in place whole: in one step where the system can
    (``files.exchange``: ``out`` is the earlier build or the new one at every instant, even under kill -9), else in
    two renames (a kill -9 between them leaves the earlier build in ``.NAME.*.old/previous``, which the next build
    puts back: ``recover``); then the earlier build is removed. Ctrl-C and SIGTERM wait through those steps
    (``signals_held``): the signals that came meanwhile are returned, the new build complete and in place (the
    command says so, rather than "aborted"). The earlier build's removal failing leaves a folder the next build
    clears, not an error.
    """
    recover(out)
    check_target(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    prefix = f".{out.name}.{os.getpid()}."
    tmp = Path(tempfile.mkdtemp(prefix=prefix, suffix=".tmp", dir=out.parent))
    try:
        for rel, data in files.items():
            write_atomic(tmp / rel, data)
        os.chmod(tmp, 0o777 & ~current_umask())
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    with signals_held() as came:
        earlier = _put_in_place(tmp, out, prefix)
        if earlier is not None:  # the new build is in place; a folder left here, the next build clears
            if earlier.is_symlink():
                earlier.unlink(missing_ok=True)
            else:
                shutil.rmtree(earlier, ignore_errors=True)
    return came


def _put_in_place(new: Path, out: Path, prefix: str) -> Path | None:
    """Move the folder ``new`` to ``out``; where the earlier build now is (to remove), None when there was none.
    A failure leaves ``out`` as it was, and ``new`` removed."""
    try:
        if not os.path.lexists(out):
            os.replace(new, out)
            return None
        if exchange(new, out):  # the earlier build is now under the new one's work name: named for what it holds
            earlier = new.with_name(new.name.removesuffix(".tmp") + ".old")
            try:
                os.replace(new, earlier)
            except OSError:
                return new
            return earlier
        old = Path(tempfile.mkdtemp(prefix=prefix, suffix=".old", dir=out.parent))
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        raise
    try:
        os.replace(out, old / "previous")
        os.replace(new, out)
    except BaseException:
        shutil.rmtree(new, ignore_errors=True)
        if (old / "previous").is_dir() and not os.path.lexists(out):
            os.replace(old / "previous", out)  # stopped between the two renames: the earlier build back in place
        if not (old / "previous").exists():
            shutil.rmtree(old, ignore_errors=True)
        raise
    return old
