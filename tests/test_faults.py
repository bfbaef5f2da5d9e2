"""Faults (#38): builds killed or stopped at any point leave the old build or the new one and no litter a later
build does not clear; a build that succeeded exits 0; Ctrl-C while tmphys loads prints no traceback; a ``solve``
killed outright leaves no semaphore for the resource tracker to warn of."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tmphys.print import folder


def fake_build(tag: str, count: int = 6) -> dict[str, bytes]:
    """A small stand-in for a build's files, as ``write_tree`` is given them (a manifest listing them, as a build's)."""
    files = {f"svg/card-{k}.svg": f"{tag} {k}".encode() for k in range(count)}
    manifest = {"layout": "classic", "paper": "a4", "files": [{"path": p} for p in sorted(files)]}
    return {**files, "manifest.json": json.dumps(manifest).encode()}


def tag_of(out: Path) -> str:
    """Which build is in ``out``: the tag its files were written with."""
    return (out / "svg/card-0.svg").read_text().split()[0]


def litter(out: Path) -> list[str]:
    """Everything beside ``out`` that is not ``out`` (work folders left behind)."""
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def as_a_shell_starts_it() -> None:
    """In the child, before it runs Python: Ctrl-C as a shell leaves it (default, not held back), whatever the test
    process has (a pytest-xdist worker may have it ignored or held back, and a child inherits both)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def run_and_kill(script: str, cwd: Path) -> subprocess.CompletedProcess:
    """Run a Python snippet that kills itself (SIGKILL) at a chosen moment of ``write_tree``."""
    return subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


def test_a_build_killed_while_writing_leaves_a_tmp_folder_the_next_build_clears(tmp_path) -> None:
    out = tmp_path / "sets" / "classic"
    folder.write_tree(fake_build("old"), out)
    done = run_and_kill(f"""
        import os, signal
        from pathlib import Path
        from tmphys.print import folder
        real, calls = folder.write_atomic, []
        def dying(path, data):
            calls.append(path)
            if len(calls) == 3:
                os.kill(os.getpid(), signal.SIGKILL)
            real(path, data)
        folder.write_atomic = dying
        folder.write_tree({fake_build("new")!r}, Path({str(out)!r}))
    """, tmp_path)
    assert done.returncode == -signal.SIGKILL
    assert tag_of(out) == "old" and any(name.endswith(".tmp") for name in litter(out))
    folder.write_tree(fake_build("newer"), out)
    assert tag_of(out) == "newer" and litter(out) == []


def test_a_build_killed_between_the_renames_is_put_back_by_the_next(tmp_path) -> None:
    """Where no one-step swap is possible (two renames): kill -9 after the earlier build moved aside and before the
    new one moved in: the next build (or its ``recover``) puts the earlier build back first."""
    out = tmp_path / "classic"
    folder.write_tree(fake_build("old"), out)
    done = run_and_kill(f"""
        import os, signal
        from pathlib import Path
        from tmphys.print import folder
        folder.exchange = lambda a, b: False
        real = os.replace
        def dying(src, dst):
            real(src, dst)
            if str(dst).endswith("previous"):
                os.kill(os.getpid(), signal.SIGKILL)
        os.replace = dying
        folder.write_tree({fake_build("new")!r}, Path({str(out)!r}))
    """, tmp_path)
    assert done.returncode == -signal.SIGKILL
    assert not out.exists() and any(name.endswith(".old") for name in litter(out))
    folder.recover(out)
    assert tag_of(out) == "old" and litter(out) == []


def test_an_error_between_the_renames_puts_the_old_build_back(tmp_path, monkeypatch) -> None:
    """Where no one-step swap is possible: stopped between the two renames (SIGTERM and Ctrl-C wait through them,
    an error does not), the earlier build goes back in place rather than staying stranded in ``.NAME.*.old/``."""
    out = tmp_path / "classic"
    folder.write_tree(fake_build("old"), out)
    monkeypatch.setattr(folder, "exchange", lambda a, b: False)
    real = os.replace

    def terminated(src, dst):
        real(src, dst)
        if str(dst).endswith("previous"):
            raise SystemExit(143)

    monkeypatch.setattr(os, "replace", terminated)
    with pytest.raises(SystemExit):
        folder.write_tree(fake_build("new"), out)
    monkeypatch.undo()
    assert tag_of(out) == "old" and litter(out) == []


def test_a_running_builds_work_folder_is_left_alone(tmp_path) -> None:
    """Only folders whose process is gone are cleared: a build running now keeps its own."""
    out = tmp_path / "classic"
    running = tmp_path / f".classic.{os.getppid()}.abcd1234.tmp"
    running.mkdir()
    gone = tmp_path / ".classic.999999999.abcd1234.tmp"
    gone.mkdir()
    folder.write_tree(fake_build("new"), out)
    assert litter(out) == [running.name]


def test_a_build_whose_old_copy_cannot_be_removed_still_succeeds(tmp_path, monkeypatch) -> None:
    """The new build is in place: failing to delete the earlier one is no failure (the next build clears it)."""
    out = tmp_path / "classic"
    folder.write_tree(fake_build("old"), out)
    real = shutil.rmtree

    def stuck(path, ignore_errors=False, **kwargs):
        if str(path).endswith(".old"):
            if ignore_errors:
                return
            raise PermissionError(13, "Permission denied", str(path))
        real(path, ignore_errors=ignore_errors, **kwargs)

    monkeypatch.setattr(shutil, "rmtree", stuck)
    folder.write_tree(fake_build("new"), out)  # no exception: exit status 0 at the command line
    assert tag_of(out) == "new"
    monkeypatch.undo()
    # the folder is left with the process's pid: this process is alive, so clear it as a later process would
    for old in out.parent.glob(".classic.*.old"):
        old.rename(old.with_name(f".classic.999999999.{old.name.split('.')[-2]}.old"))
    folder.write_tree(fake_build("newer"), out)
    assert tag_of(out) == "newer" and litter(out) == []


#: A Python snippet's start: an audit hook that calls ``act()`` at the first step that moves a build at ``out`` (a
#: rename from or, with ``INTO``, only to ``out``, or the system's one-step swap, whichever the system uses: Python
#: audits the look-up of ``renameat2``, not its call) or, with ``AFTER``, at the first step after it.
PUT_IN_PLACE_HOOK = """
import os, signal, sys
from pathlib import Path
OUT = Path(sys.argv[1])
seen = []
def touches_out(event, args):
    if event == "os.rename":
        return Path(os.fsdecode(args[1])) == OUT or (not INTO and Path(os.fsdecode(args[0])) == OUT)
    return event == "ctypes.dlsym" and args[1] == "renameat2"
def hook(event, args):
    if seen and not seen[-1] and AFTER:
        seen.append(True)
        act()
    elif touches_out(event, args) and not seen:
        seen.append(False)
        if not AFTER:
            act()
sys.addaudithook(hook)
"""


@pytest.mark.parametrize("after", [False, True])
def test_a_build_killed_as_it_goes_in_place_leaves_one_whole_build(tmp_path, after: bool) -> None:
    """kill -9 as the new build goes in place (at the step that moves ``out``, or just after it): ``out`` is the
    earlier build or the new one, whole, never missing (it was missing until the next build between the two renames);
    the next build clears what is left beside it."""
    out = tmp_path / "classic"
    folder.write_tree(fake_build("old"), out)
    script = PUT_IN_PLACE_HOOK.replace("AFTER", str(after)).replace("INTO", "False") + textwrap.dedent(f"""
        def act():
            os.kill(os.getpid(), signal.SIGKILL)
        from tmphys.print import folder
        folder.write_tree({fake_build("new")!r}, OUT)
    """)
    done = subprocess.run([sys.executable, "-c", script, str(out)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert tag_of(out) == ("new" if after else "old")
    assert sorted(p.name for p in (out / "svg").iterdir()) == [f"card-{k}.svg" for k in range(6)]
    folder.write_tree(fake_build("newer"), out)
    assert tag_of(out) == "newer" and litter(out) == []


def test_ctrl_c_once_the_new_build_is_in_place_reports_it_built(tmp_path) -> None:
    """Ctrl-C in the last moment, the new build complete and going in place, printed "aborted" with exit 130 and left
    a ``.old`` copy beside it: the build finishes its last steps, says it is in place, exits 0, leaves nothing."""
    out = tmp_path / "classic"
    folder.write_tree(fake_build("old"), out)
    script = PUT_IN_PLACE_HOOK.replace("AFTER", "False").replace("INTO", "True") + textwrap.dedent(f"""
        def act():
            os.kill(os.getpid(), signal.SIGINT)  # delivered as the step returns: the build is then in place
        import tmphys.cli.build
        tmphys.cli.build.build_files = lambda plan, progress=None: {fake_build("new")!r}
        from tmphys.cli.main import main
        main(["build", "--out", str(OUT)])
    """)
    done = subprocess.run([sys.executable, "-c", script, str(out)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=60, preexec_fn=as_a_shell_starts_it)
    assert done.returncode == 0, done.stderr
    assert "aborted" not in done.stderr and "the new build was written: it is in place" in done.stderr
    assert done.stdout.startswith(f"wrote 7 files to {out}/")
    assert tag_of(out) == "new" and litter(out) == []


def _tmphys(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "tmphys", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=as_a_shell_starts_it)


#: ``tmphys solve --cards 3 7 10 14`` started as the command is, once Python itself has started and tmphys's first
#: line has run (it writes a byte then): the moments after it are tmphys's own, however loaded the machine. (Before
#: that line, in Python's own start-up and import system, no package can handle a Ctrl-C: benchmarks/RESULTS.md.)
AS_THE_COMMAND = ("import os, sys, runpy; sys.argv[:] = ['tmphys', 'solve', '--cards', '3', '7', '10', '14']; "
                  "import tmphys; os.write(1, b'.'); runpy.run_module('tmphys', run_name='__main__')")


@pytest.mark.parametrize("after", [0.03, 0.08, 0.3])
def test_ctrl_c_while_loading_prints_no_traceback(after: float) -> None:
    """Ctrl-C while tmphys loads (its first moments, numpy and the rest) printed a KeyboardInterrupt traceback."""
    process = subprocess.Popen([sys.executable, "-c", AS_THE_COMMAND], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, preexec_fn=as_a_shell_starts_it)
    assert process.stdout.read(1) == b"."
    time.sleep(after)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert b"Traceback" not in err, err.decode()
    # 130 as Ctrl-C's exit; 0 when the solve finished first; killed by the signal itself when it came as the
    # interpreter shut down (it puts the default handler back then)
    assert process.returncode in (0, 130, -signal.SIGINT)


def test_ctrl_c_at_the_first_line_of_tmphys_prints_no_traceback() -> None:
    """The quiet Ctrl-C is set by the first of tmphys's code that runs (``import tmphys``), not once ``tmphys.cli``
    has loaded: a Ctrl-C right after ``import tmphys`` ends the command with 130 and no traceback."""
    code = ("import os, signal, sys; sys.argv[0] = 'tmphys'; import tmphys; os.kill(os.getpid(), signal.SIGINT); "
            "import tmphys.cli.main")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60,
                          preexec_fn=as_a_shell_starts_it)
    assert done.returncode == 130 and done.stderr == b"tmphys: aborted\n", done.stderr.decode()
    program = subprocess.run([sys.executable, "-c", "import signal, tmphys; print(signal.getsignal(signal.SIGINT))"],
                             capture_output=True, text=True, timeout=60, preexec_fn=as_a_shell_starts_it)
    assert program.stdout.strip() == "<built-in function default_int_handler>"  # a program keeps its own Ctrl-C


def test_a_killed_solve_leaves_no_semaphore_behind() -> None:
    """kill -9 of ``solve`` while its second process searches: that process ends, and unlinks the semaphores the
    first made for it, so the resource tracker has none to warn of."""
    from test_solve_cli import _children, _cmdline, _searching

    process = _tmphys("solve", "--nightmare", "--cards", "17", "34", "36", "44", "9", "--time-limit", "60")
    deadline, worker = time.monotonic() + 30, None
    while worker is None and process.poll() is None and time.monotonic() < deadline:
        worker = next((k for k in _children(process.pid) if "multiprocessing.spawn" in _cmdline(k)), None)
        time.sleep(0.01)
    assert worker is not None, "the second process never started"
    _searching(worker)
    process.kill()
    _, err = process.communicate(timeout=30)  # the pipe ends once the second process and the tracker have
    assert process.returncode == -signal.SIGKILL
    assert b"leaked semaphore" not in err, err.decode()
