"""Running searches to their limits: both optima of a problem on two processes, and a problem's rating.

A search held to a time limit that does not finish reports the best strategy known in full and the proven lower
bound; ``optimal_values`` runs the two objectives side by side on two cores when both are long.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import as_completed as as_completed_futures
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, suppress
from fractions import Fraction
from typing import Any

from tmphys.game.problems import Problem
from tmphys.solve.budget import RATING_BYTES, Share, worker_share
from tmphys.solve.engine import DEFAULT_CONFIG, EngineConfig, engine_built
from tmphys.solve.progress import SharedSteps, report_into, searching
from tmphys.solve.solver import ENGINE_MISSING, OBJECTIVES, Deduction, EngineMissingWarning, SearchStopped, Solver
from tmphys.text import clip, fraction_text

#: ``tmphys solve``: how long each objective's search first runs in this process before, if neither is done,
#: the other goes on in a second process (starting one takes about 0.3 s; most problems are done by then).
SOLO_SECONDS = 0.5
#: How often the second process looks whether the first is still there (killed, it could not end the second).
PARENT_CHECK_SECONDS = 0.25
def value_entry(objective: str, r: Fraction, q: Fraction) -> dict[str, Any]:
    if objective == "worst":
        return {"rounds": int(r), "questions": int(q)}
    return {"rounds": float(r), "questions": float(q), "rounds_fraction": fraction_text(r),
            "questions_fraction": fraction_text(q)}


def optimal_values(problem: Problem, solvers: dict[str, Solver], first: str, seconds: float,
                   upper_seconds: float, apart_config: EngineConfig | None = DEFAULT_CONFIG
                   ) -> dict[str, dict[str, Any]]:
    """Both optima of a problem's card set within ``seconds``, JSON-ready, each with ``exact``; on two cores when
    both searches are long.

    Worst as ints, expected as floats plus exact fractions. When the time limit stops a search, the entry is the
    value of the best strategy known in full (``exact: false``; ``strategy``: "search", the best start proposal the
    search finished, or "greedy", the greedy strategy's, evaluated within ``upper_seconds``; the values null when
    neither is known) with the proven ``lower_bound`` (lexicographic). Each objective's search first gets
    ``SOLO_SECONDS`` here, which settles most problems; if neither is done and more time is left, the other
    objective's search starts afresh in a second process, its engine held to ``apart_config``, while ``first`` goes
    on here (the wall time of the slower search instead of the sum of both). Where a second process cannot be
    started, or without ``apart_config`` (no memory for one), the searches go on one after the other. Within
    ``ctrl_c_stops`` a Ctrl-C stops both searches where they are (the entries say what they found); elsewhere it
    ends the second process at once, silently.
    """
    until = time.time() + seconds
    solo = time.monotonic() + min(SOLO_SECONDS, seconds)
    done: dict[str, dict[str, Any]] = {}
    for o in (first, *(o for o in OBJECTIVES if o != first)):
        solvers[o].deadline, solvers[o].stopped = solo, False
        proven = _proven(solvers[o])
        if proven is not None:
            done[o] = proven
    for s in solvers.values():
        s.set_time_limit(max(0.0, until - time.time()))
        s.stopped = False
    other = next(o for o in OBJECTIVES if o != first)
    if apart_config is not None and first not in done and other not in done and until - time.time() > SOLO_SECONDS \
            and not any(s.halted for s in solvers.values()):
        pool: ProcessPoolExecutor | None = None
        try:
            pool, apart, started = start_apart(problem, other, until, upper_seconds, apart_config)
            _APART.append(pool)
            done[first] = optimal_value(solvers[first], upper_seconds)
            if solvers[first].halted and not started.is_set():  # Ctrl-C before its search began: nothing to wait for
                _stop_apart(pool)
            else:
                if solvers[first].halted:  # Ctrl-C while it started: it stops too
                    _ask_apart_to_stop()
                done[other] = apart.result()
        except (OSError, BrokenProcessPool):  # no second process here: one after the other
            pass
        except BaseException:  # Ctrl-C above all: end the second process now, not when its search ends
            if pool is not None:
                _stop_apart(pool)
            raise
        finally:
            if pool is not None:
                if pool in _APART:
                    _APART.remove(pool)
                pool.shutdown(wait=True, cancel_futures=True)
    for o in OBJECTIVES:
        if o not in done:
            done[o] = optimal_value(solvers[o], upper_seconds)
    return {o: done[o] for o in OBJECTIVES}


def _proven(solver: Solver) -> dict[str, Any] | None:
    """One objective's entry of ``optimal_values`` when its search finishes within the solver's time limit."""
    try:
        r, q = solver.optimum()
    except SearchStopped:
        return None
    return {**value_entry(solver.objective, r, q), "exact": True}


def optimal_value(solver: Solver, upper_seconds: float | None, upper_steps: int | None = None) -> dict[str, Any]:
    """One objective's entry of ``optimal_values``: the optimum, or what the search found before its limit (the
    greedy strategy's value worked out within ``upper_seconds``, or ``upper_steps`` steps when given)."""
    proven = _proven(solver)
    if proven is not None:
        return proven
    o = solver.objective
    (lr, lq), upper = solver.bounds(upper_seconds, upper_steps)
    if upper is None:
        found: dict[str, Any] = {"rounds": None, "questions": None}
        if o == "expected":
            found.update(rounds_fraction=None, questions_fraction=None)
        return {**found, "exact": False, "lower_bound": value_entry(o, lr, lq)}
    ur, uq = upper
    return {**value_entry(o, ur, uq), "exact": ur == lr and uq == lq, "lower_bound": value_entry(o, lr, lq),
            "strategy": solver.upper_from}


#: In the second process: the event its search sets when it starts (see ``start_apart``), its solver, and whether
#: Ctrl-C asked it to stop (before its solver was made, too).
_started: Any = None
_apart_solver: Solver | None = None
_apart_halted = False
#: In the first process: the second processes searching now, which a Ctrl-C that stops the searches reaches too.
_APART: list[ProcessPoolExecutor] = []


@contextmanager
def ctrl_c_stops(solvers: Sequence[Solver]) -> Iterator[Callable[[], bool]]:
    """Within the block the first Ctrl-C stops the searches where they are, here and in a second process, each
    keeping the best it found (reported and played as at a time limit); a second Ctrl-C aborts. Gives a function
    that says whether a Ctrl-C came. Where Ctrl-C is not Python's (ignored as the command started, or not in the
    main thread), nothing changes."""
    asked = [False]
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield lambda: asked[0]
        return
    # Python runs a handler once for signals that came close together (a search step may be long): the wake-up
    # descriptor gets a byte for each, so two quick Ctrl-Cs are seen as two
    woken, wake = os.pipe()
    os.set_blocking(woken, False)
    os.set_blocking(wake, False)

    def stop(signum: int, frame: Any) -> None:
        try:
            pressed = os.read(woken, 1024).count(signal.SIGINT)
        except BlockingIOError:
            pressed = 1
        if asked[0] or pressed > 1:
            raise KeyboardInterrupt
        asked[0] = True
        for s in solvers:
            s.halt()
        _ask_apart_to_stop()

    before = signal.set_wakeup_fd(wake, warn_on_full_buffer=False)
    signal.signal(signal.SIGINT, stop)
    try:
        yield lambda: asked[0]
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.set_wakeup_fd(before)
        os.close(woken)
        os.close(wake)


def _ask_apart_to_stop() -> None:
    """Pass a Ctrl-C on to the second processes (a terminal sends it to them too; ``kill -INT`` to this one
    alone): each stops its search and reports what it found."""
    for pool in _APART:
        for process in _processes_of(pool):
            with suppress(OSError, ValueError):
                os.kill(process.pid, signal.SIGINT)


def _apart_stop(signum: int, frame: Any) -> None:
    """Ctrl-C in the second process: its search stops where it is, and reports what it found."""
    global _apart_halted
    _apart_halted = True
    if _apart_solver is not None:
        _apart_solver.halt()


def _quiet_apart(started: Any, parent: int) -> None:
    """Set up the second process: Ctrl-C stops its search where it is, and it reports what it found (the first
    process ends it at once if it aborts instead: silently), the Ctrl-C held back while it started up
    (``_sigint_held``) is let through, and it ends by itself once the first process (``parent``) is gone: killed,
    that one could not end it, and it would search on, orphaned, holding the caller's output open."""
    global _started
    _started = started
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:  # ignored as the command started: kept so
        signal.signal(signal.SIGINT, _apart_stop)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    watch_parent(parent)


#: Linux's prctl option that has the kernel send a signal to this process when its parent ends.
PR_SET_PDEATHSIG = 1
#: The signal a worker asks for then: caught (not acted on), it wakes the thread that waits for it through Python's
#: wake-up descriptor (``_end_on_signal``) whichever thread it reaches, and that thread unlinks the semaphores made
#: for the worker before it ends (a SIGKILL would leave them to the resource tracker, which warns of them).
PARENT_GONE = getattr(signal, "SIGUSR1", None)


def watch_parent(parent: int) -> None:
    """End this worker process as soon as ``parent`` (the command that started it) ends, even by ``kill -9``: on
    Linux the kernel tells it (``prctl(PR_SET_PDEATHSIG)``), and everywhere a thread watches the parent
    (``_end_with``: its pipe, else its pid); either unlinks the semaphores the parent made for it first. In the
    worker's main thread (its initializer)."""
    if sys.platform.startswith("linux") and PARENT_GONE is not None:
        try:
            import ctypes

            woken, wake = os.pipe()
            os.set_blocking(wake, False)
            signal.signal(PARENT_GONE, lambda signum, frame: None)
            signal.set_wakeup_fd(wake, warn_on_full_buffer=False)
            threading.Thread(target=_end_on_signal, args=(woken,), daemon=True, name="tmphys-parent-signal").start()
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(PARENT_GONE), 0, 0, 0)
        except (OSError, AttributeError, ValueError):  # no prctl here: the other thread alone
            pass
    if os.getppid() != parent:  # the parent ended before the kernel was asked
        _leave()
    threading.Thread(target=_end_with, args=(parent,), daemon=True, name="tmphys-parent-watch").start()


def _end_on_signal(woken: int) -> None:
    """Wait for the kernel's word that the parent has ended (``PARENT_GONE``, through the wake-up descriptor
    ``woken``, where each signal caught is one byte), then end this process."""
    while PARENT_GONE not in os.read(woken, 64):
        pass
    _leave()


#: Held by the first of the watching threads to see the parent gone: the other waits (both unlinking the same
#: semaphores, one might end the process between the other's unlink and its word to the resource tracker).
_leaving = threading.Lock()


def _leave() -> None:
    """End this worker at once, its parent gone: its semaphores unlinked as the parent would have."""
    _leaving.acquire()
    _release_semaphores()
    os._exit(0)


def _worker_start(parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]) -> None:
    """``run_all``'s worker set-up: it ends with its parent (``watch_parent``), then the caller's ``initializer``."""
    watch_parent(parent)
    if initializer is not None:
        initializer(*initargs)


def _end_with(parent: int) -> None:
    """End this process at once when the first process (``parent``) has ended (the search lets go of the
    interpreter, so this thread runs meanwhile): through multiprocessing's handle on it, which works on Windows
    too, else by polling whether it is still this process's parent."""
    handle = multiprocessing.parent_process()
    if handle is not None:
        handle.join()
    else:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
    _leave()


def _release_semaphores() -> None:
    """Unlink the named semaphores the first process made for this one (its queues, the started event), as that
    process would have at its exit: killed (kill -9), it could not, and the resource tracker would warn of them."""
    import gc
    from multiprocessing.synchronize import SemLock

    for lock in [o for o in gc.get_objects() if isinstance(o, SemLock)]:
        name = getattr(lock._semlock, "name", None)
        if name:
            try:
                SemLock._cleanup(name)  # sem_unlink, and the tracker told
            except OSError:
                pass


@contextmanager
def _sigint_held() -> Iterator[None]:
    """Hold Ctrl-C back here while the second process starts: it inherits the hold, so no Ctrl-C can reach it
    before ``_quiet_apart`` (a traceback from its start-up); here, it arrives when the hold ends."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def start_apart(problem: Problem, objective: str, until: float, upper_seconds: float,
                config: EngineConfig = DEFAULT_CONFIG) -> tuple[ProcessPoolExecutor, Future[dict[str, Any]], Any]:
    """Start ``objective``'s search in a second process, held to ``config`` (the pool, the search's future, and an
    event the second process sets as its search begins). Returns at once: the threads that hand the task over run
    while this process searches, as the compiled engine lets go of the interpreter during a search."""
    context = multiprocessing.get_context("spawn")
    # the event's semaphore starts multiprocessing's resource tracker, which lets Ctrl-C through again once it
    # has started: so before Ctrl-C is held back for the second process
    started = context.Event()
    pool = None
    try:
        with _sigint_held():
            pool = ProcessPoolExecutor(1, mp_context=context, initializer=_quiet_apart,
                                       initargs=(started, os.getpid()))
            apart = pool.submit(_optimal_value_apart, problem, objective, until, upper_seconds, config)
    except BaseException:
        if pool is not None:
            _stop_apart(pool)
            pool.shutdown(wait=True, cancel_futures=True)
        raise
    return pool, apart, started


def _stop_apart(pool: ProcessPoolExecutor) -> None:
    """End the second process at once (terminated: it prints nothing), rather than wait for its search."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in _processes_of(pool):
        process.terminate()


def _processes_of(pool: ProcessPoolExecutor) -> list[Any]:
    """A pool's worker processes now (none once it has let them go)."""
    return list((getattr(pool, "_processes", None) or {}).values())


def _optimal_value_apart(problem: Problem, objective: str, until: float, upper_seconds: float,
                         config: EngineConfig = DEFAULT_CONFIG) -> dict[str, Any]:
    """``optimal_value`` in a process of its own, searching until the wall-clock time ``until``."""
    global _apart_solver
    if _started is not None:
        _started.set()
    solver = Solver(Deduction(problem), objective, config=config)
    solver.set_time_limit(max(0.0, until - time.time()))
    _apart_solver = solver
    if _apart_halted:
        solver.halt()
    return optimal_value(solver, upper_seconds)


def rate(problem: Problem, seconds: float | None, steps: int | None = None,
         config: EngineConfig = DEFAULT_CONFIG) -> tuple[Fraction, Fraction] | None:
    """The optimal strategy's rounds and questions on average over the card set's games (its difficulty), or None
    when the exact search does not finish within ``seconds``, or within ``steps`` search steps (a budget that gives
    the same answer on any machine held to the same ``config``)."""
    solver = Solver(Deduction(problem), "expected", config=config)
    solver.set_time_limit(seconds)
    solver.set_step_limit(steps)
    try:
        return solver.optimum()
    except SearchStopped:
        return None


# --- rating many problems: processes on this machine, or a Dask cluster -----------------------------------------

#: The part of a rating's time limit that goes to the greedy strategy's value when the search stops first.
UPPER_SHARE = 0.15


def rating(problem: Problem, steps: int | None, seconds: float | None = None, bounds: bool = True,
           config: EngineConfig = DEFAULT_CONFIG) -> dict[str, Any]:
    """A problem's difficulty as JSON: the optimal expected rounds and questions over its card set's games, with
    ``exact``; where the search stops at its budget (``steps``, which gives the same figures on any machine held to
    the same ``config``, or ``seconds``), the best strategy known in full (``exact`` false) and the proven
    ``lower_bound``; without ``bounds``, null figures then (as ``rate``: no greedy strategy worked out). Within
    ``seconds`` in all: with ``bounds``, the search gets ``1 - UPPER_SHARE`` of them, the greedy strategy the rest."""
    solver = Solver(Deduction(problem), "expected", config=config)
    solver.set_time_limit(None if seconds is None else seconds * (1 - UPPER_SHARE) if bounds else seconds)
    solver.set_step_limit(steps)
    searching(solver)  # its steps, for a progress line (``SharedSteps``)
    try:
        if bounds:
            return optimal_value(solver, None if seconds is None else seconds * UPPER_SHARE, steps)
        try:
            proven = solver.optimum()
        except SearchStopped:
            return {"rounds": None, "questions": None, "rounds_fraction": None, "questions_fraction": None,
                    "exact": False}
        return {**value_entry("expected", *proven), "exact": True}
    finally:
        searching(None)


def rating_on_dask(problem: Problem, steps: int | None, seconds: float | None, bounds: bool,
                   most: int) -> dict[str, Any]:
    """``rating`` as a task on a Dask worker: held to the worker's share of its own memory limit (``worker_share``),
    at most ``most`` bytes."""
    from distributed import get_worker

    return quiet_rating(problem, steps, seconds, bounds, worker_share(get_worker(), most).config())


#: Seconds to wait for a Dask scheduler to answer before giving up (a wrong address fails in one line).
SCHEDULER_TIMEOUT = 10


def default_workers() -> int:
    """Processes ``rate_all`` uses by default: one per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def run_all(fn: Callable[..., Any], tasks: Sequence[tuple[Any, ...]], workers: int | None = None,
            scheduler: str | None = None, progress: Any = None, initializer: Callable[..., None] | None = None,
            initargs: tuple[Any, ...] = (), spawn: bool = True) -> list[Any]:
    """``fn(*task)`` for every task, the results in the tasks' order: on ``workers`` processes here (default: every
    core; 1: in this process, after ``initializer``), or on the Dask cluster whose scheduler is at ``scheduler``
    (``pip install '.[cluster]'``). ``progress(n)`` is called as each n tasks more are done. A worker that dies
    raises ``BrokenProcessPool``; Ctrl-C ends the workers at once."""
    done: list[Any] = [None] * len(tasks)
    step = progress or (lambda n: None)
    if scheduler is not None:
        try:
            from dask.distributed import Client, as_completed
        except ImportError:
            raise RuntimeError("--scheduler needs Dask: pip install 'tmphys[cluster]' "
                               "(or pip install 'dask[distributed]')") from None
        try:
            client = Client(scheduler, timeout=SCHEDULER_TIMEOUT)
        except Exception as e:  # whatever Dask raises, one line of ours (its own may run to several)
            raise RuntimeError(f"cannot reach the Dask scheduler at {scheduler}: {clip(str(e) or type(e).__name__)}") \
                from None
        with client:
            futures = [client.submit(fn, *task, pure=False) for task in tasks]
            index = {f.key: k for k, f in enumerate(futures)}
            try:
                for future in as_completed(futures):
                    done[index[future.key]] = future.result()
                    step(1)
            except Exception as e:  # a worker without tmphys, one that died, …: one line, not Dask's traceback
                raise RuntimeError(f"the Dask cluster at {scheduler} failed: {type(e).__name__}: "
                                   f"{clip(str(e))}") from None
        return done
    workers = default_workers() if workers is None else workers
    if workers <= 1 or len(tasks) <= 1:
        if initializer is not None:
            initializer(*initargs)
        for k, task in enumerate(tasks):
            done[k] = fn(*task)
            step(1)
        return done
    context = multiprocessing.get_context("spawn") if spawn else None
    with ProcessPoolExecutor(min(workers, len(tasks)), mp_context=context, initializer=_worker_start,
                             initargs=(os.getpid(), initializer, initargs)) as pool:
        pending = {pool.submit(fn, *task): k for k, task in enumerate(tasks)}
        try:
            for future in as_completed_futures(pending):
                done[pending[future]] = future.result()
                step(1)
        except BaseException:  # Ctrl-C above all: end the workers now, not when their searches end
            _stop_apart(pool)
            raise
    return done


def quiet_rating(problem: Problem, steps: int | None, seconds: float | None = None, bounds: bool = True,
                 config: EngineConfig = DEFAULT_CONFIG) -> dict[str, Any]:
    """``rating``, without the warning that the compiled search is not built (``rate_all`` says it once)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", EngineMissingWarning)
        return rating(problem, steps, seconds, bounds, config)


def rate_all(problems: list[Problem], steps: int | None, seconds: float | None = None, workers: int | None = None,
             scheduler: str | None = None, progress: Any = None, bounds: bool = True,
             share: Share | None = None, steps_seen: SharedSteps | None = None) -> list[dict[str, Any]]:
    """``rating`` of every problem, in the problems' order, on ``workers`` processes here or on a Dask cluster
    (``run_all``). Each problem is rated whole by one worker held to ``share`` (here: ``budget.rating_plan``'s; on a
    cluster, the worker's own limit over its threads, at most ``share``), so with a ``steps`` budget the ratings
    are the same whichever way they ran. Without ``share``: ``EngineConfig``'s defaults (a rating worker's share
    on a cluster). Without the compiled search it says so once, here, as ``solve`` does; the workers stay quiet.
    With ``steps_seen`` (``rating_steps``), the processes here add their searches' steps to it as they go (for a
    progress line; not a cluster's)."""
    if not engine_built():
        warnings.warn(ENGINE_MISSING, EngineMissingWarning, stacklevel=2)
    if scheduler is not None:
        most = RATING_BYTES if share is None else share.process
        return run_all(rating_on_dask, [(p, steps, seconds, bounds, most) for p in problems], workers, scheduler,
                       progress)
    config = DEFAULT_CONFIG if share is None else share.config()
    tasks = [(p, steps, seconds, bounds, config) for p in problems]
    if steps_seen is None:
        return run_all(quiet_rating, tasks, workers, scheduler, progress)
    try:
        return run_all(quiet_rating, tasks, workers, scheduler, progress, initializer=report_into,
                       initargs=(steps_seen,))
    finally:
        report_into(None)  # when the ratings ran in this process: its searches no longer counted there


def rating_steps(workers: int | None) -> SharedSteps:
    """A count of steps ``rate_all``'s processes share with this one (``steps_seen``), for ``workers`` of them."""
    return SharedSteps(default_workers() if workers is None else workers, multiprocessing.get_context("spawn"))
