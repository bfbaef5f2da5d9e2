/* The CPython binding of the search core (core/tm.h): arguments in, results out, the interpreter let go of while a
 * search runs and taken back every few hundred steps to look at signals (Ctrl-C ends a search at once). No search
 * logic lives here: every value comes from the core.
 *
 * Engine(mode=, cards=, library=, counts=, expected=, <tuning>) sets a problem up and makes its search; its methods
 * take a state as an ascending uint32 buffer of class indices (tmphys.solve.engine says how Python uses them).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <time.h>

#include "core/tm.h"

typedef struct {
    PyObject_HEAD
    tm_setup *setup;
    tm_engine *engine;
    PyThreadState *released; /* the interpreter, let go of during a search; NULL while held */
} EngineObject;

/* A core status as a Python exception (NULL returned), or None for a search stopped at its limit. */
static PyObject *failed(int status) {
    switch (status) {
    case TM_STOPPED: Py_RETURN_NONE;
    case TM_NO_MEMORY: return PyErr_NoMemory();
    case TM_INTERRUPTED: return NULL; /* the poll hook left the signal handler's exception set */
    case TM_ERROR: PyErr_SetString(PyExc_ValueError, tm_error()); return NULL;
    default: PyErr_SetString(PyExc_RuntimeError, tm_error()); return NULL;
    }
}

static double monotonic(void *ctx) {
    (void)ctx;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts); /* time.monotonic()'s clock */
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Every 256 steps: take the interpreter back, run the signal handlers (Ctrl-C raises), let it go again. */
static int look_at_signals(tm_engine *engine, void *ctx) {
    (void)engine;
    EngineObject *self = ctx;
    if (!self->released) return 0;
    PyEval_RestoreThread(self->released);
    int stop = PyErr_CheckSignals() < 0;
    self->released = PyEval_SaveThread();
    return stop;
}

static void Engine_dealloc(EngineObject *self) {
    tm_engine_free(self->engine);
    tm_setup_free(self->setup);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* The criteria cards from `library` (48 x 9 x 2 uint64: each card's truth tables, low and high words) and `counts`
 * (48 bytes: how many each card holds). */
static int read_library(PyObject *library, PyObject *counts, tm_card *out) {
    Py_buffer lb, cb;
    if (PyObject_GetBuffer(library, &lb, PyBUF_SIMPLE) < 0) return -1;
    if (PyObject_GetBuffer(counts, &cb, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&lb);
        return -1;
    }
    int ok = lb.len == TM_CARDS * TM_CARD_CRITERIA * 16 && cb.len == TM_CARDS;
    if (ok) {
        const uint64_t *words = lb.buf;
        const uint8_t *n = cb.buf;
        for (int c = 0; c < TM_CARDS; c++) {
            out[c].count = n[c] <= TM_CARD_CRITERIA ? n[c] : TM_CARD_CRITERIA;
            for (int i = 0; i < TM_CARD_CRITERIA; i++) {
                out[c].criteria[i].lo = words[(c * TM_CARD_CRITERIA + i) * 2];
                out[c].criteria[i].hi = words[(c * TM_CARD_CRITERIA + i) * 2 + 1];
            }
        }
    }
    PyBuffer_Release(&lb);
    PyBuffer_Release(&cb);
    if (!ok) PyErr_SetString(PyExc_ValueError, "library: 48 x 9 x 2 uint64 truth tables and 48 counts");
    return ok ? 0 : -1;
}

/* A problem's criteria cards per verifier: a sequence of 1..6 sequences of one or two card numbers. */
static int read_cards(PyObject *cards, tm_problem *p) {
    PyObject *seq = PySequence_Fast(cards, "cards: a sequence of card-number sequences");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    int ok = n >= 1 && n <= TM_MAX_VERIFIERS;
    p->verifiers = (int)n;
    for (Py_ssize_t v = 0; v < n && ok; v++) {
        PyObject *group = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, v), "cards: a sequence of card numbers");
        if (!group) {
            Py_DECREF(seq);
            return -1;
        }
        Py_ssize_t g = PySequence_Fast_GET_SIZE(group);
        ok = g == (p->mode == TM_EXTREME ? 2 : 1);
        for (Py_ssize_t i = 0; i < g && ok; i++) {
            long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(group, i));
            ok = !(c == -1 && PyErr_Occurred());
            p->cards[v][i] = (int)c;
        }
        Py_DECREF(group);
    }
    Py_DECREF(seq);
    if (!ok && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "cards: 1..6 verifiers, one card each (two in Extreme)");
    return ok ? 0 : -1;
}

static int Engine_init(EngineObject *self, PyObject *args, PyObject *kw) {
    static char *names[] = {"mode", "cards", "library", "counts", "expected", "memo_bytes", "deep_after", "deep_share",
                            "deep_verifiers", "probe_share", "wider_after", "wider_share", "wider_verifiers",
                            "table_bytes", "deeper_share", "deeper_verifiers", "relabel", NULL};
    tm_tuning t = tm_default_tuning();
    tm_problem problem = {0};
    PyObject *cards, *library, *counts;
    int expected;
    long long memo_bytes = (long long)t.memo_bytes, table_bytes = (long long)t.table_bytes;
    long long deep_after = t.deep_after, wider_after = t.wider_after;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|$iOOOpLLdidLdiLdip", names, &problem.mode, &cards, &library, &counts,
                                     &expected, &memo_bytes, &deep_after, &t.deep_share, &t.deep_verifiers,
                                     &t.probe_share, &wider_after, &t.wider_share, &t.wider_verifiers, &table_bytes,
                                     &t.deeper_share, &t.deeper_verifiers, &t.relabel))
        return -1;
    if (memo_bytes < 1 || table_bytes < 0) {
        PyErr_SetString(PyExc_ValueError, "memo_bytes above 0, table_bytes at least 0");
        return -1;
    }
    t.memo_bytes = (uint64_t)memo_bytes;
    t.table_bytes = (uint64_t)table_bytes;
    t.deep_after = deep_after;
    t.wider_after = wider_after;
    tm_card lib[TM_CARDS];
    if (read_library(library, counts, lib) < 0 || read_cards(cards, &problem) < 0) return -1;
    tm_engine_free(self->engine);
    tm_setup_free(self->setup);
    self->engine = NULL;
    int status;
    self->setup = tm_setup_new(&problem, lib, &status);
    if (self->setup) self->engine = tm_engine_new(self->setup, expected, &t, &status);
    if (!self->engine) {
        failed(status);
        return -1;
    }
    tm_set_clock(self->engine, monotonic, NULL);
    tm_set_poll(self->engine, look_at_signals, self, 256);
    return 0;
}

static int ready(EngineObject *self) {
    if (self->engine) return 1;
    PyErr_SetString(PyExc_RuntimeError, "the engine was not set up");
    return 0;
}

/* A state argument: a buffer of ascending uint32 class indices (the core checks them). */
static int state_of(PyObject *obj, Py_buffer *b) {
    if (PyObject_GetBuffer(obj, b, PyBUF_SIMPLE) < 0) return -1;
    if (b->len % 4) {
        PyBuffer_Release(b);
        PyErr_SetString(PyExc_ValueError, "a state is a buffer of uint32 class indices");
        return -1;
    }
    return 0;
}

static PyObject *value_tuple(const tm_value *v) {
    return Py_BuildValue("(LLi)", (long long)v->rounds, (long long)v->questions, v->move);
}

/* A search, with the interpreter let go of while it runs (other Python threads run meanwhile). */
static PyObject *search(EngineObject *self, PyObject *obj, int p, int left) {
    Py_buffer b;
    if (!ready(self) || state_of(obj, &b) < 0) return NULL;
    tm_value v;
    self->released = PyEval_SaveThread();
    int status = left ? tm_inside_value(self->engine, b.buf, (int)(b.len / 4), p, left, &v)
                      : tm_round_value(self->engine, b.buf, (int)(b.len / 4), &v);
    PyEval_RestoreThread(self->released);
    self->released = NULL;
    PyBuffer_Release(&b);
    return status == TM_OK ? value_tuple(&v) : failed(status);
}

/* round_value(classes) -> (rounds, questions, proposal) or None when stopped */
static PyObject *Engine_round_value_work(EngineObject *self, PyObject *args) {
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj)) return NULL;
    return search(self, obj, 0, 0);
}

/* inside_value(classes, proposal, left) -> (rounds, questions, verifier) or None when stopped */
static PyObject *Engine_inside_value_work(EngineObject *self, PyObject *args) {
    PyObject *obj;
    int p, left;
    if (!PyArg_ParseTuple(args, "Oii", &obj, &p, &left)) return NULL;
    if (left < 1) {
        PyErr_SetString(PyExc_ValueError, "proposal 0..124, 1 to 3 questions left");
        return NULL;
    }
    return search(self, obj, p, left);
}

static PyObject *Engine_round_bounds_work(EngineObject *self, PyObject *args) {
    PyObject *obj;
    int tie_breaks = 1;
    if (!PyArg_ParseTuple(args, "O|p", &obj, &tie_breaks)) return NULL;
    Py_buffer b;
    if (!ready(self) || state_of(obj, &b) < 0) return NULL;
    tm_value bounds[TM_CODES];
    int64_t orders[TM_CODES];
    int status = tm_round_bounds(self->engine, b.buf, (int)(b.len / 4), tie_breaks, bounds, orders);
    PyBuffer_Release(&b);
    if (status != TM_OK) return failed(status);
    PyObject *out = PyList_New(TM_CODES);
    if (!out) return NULL;
    for (int p = 0; p < TM_CODES; p++) {
        PyObject *t = Py_BuildValue("(LLL)", (long long)bounds[p].rounds, (long long)bounds[p].questions,
                                    (long long)orders[p]);
        if (!t) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, p, t);
    }
    return out;
}

static PyObject *Engine_floor_work(EngineObject *self, PyObject *args) {
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj)) return NULL;
    Py_buffer b;
    if (!ready(self) || state_of(obj, &b) < 0) return NULL;
    tm_value v;
    int exact;
    int status = tm_floor(self->engine, b.buf, (int)(b.len / 4), &v, &exact);
    PyBuffer_Release(&b);
    if (status != TM_OK) return failed(status);
    return Py_BuildValue("(LLi)", (long long)v.rounds, (long long)v.questions, exact);
}

static PyObject *Engine_known_move_work(EngineObject *self, PyObject *args) {
    PyObject *obj;
    int p = -1, left = 0;
    if (!PyArg_ParseTuple(args, "O|ii", &obj, &p, &left)) return NULL;
    Py_buffer b;
    if (!ready(self) || state_of(obj, &b) < 0) return NULL;
    tm_value low, up;
    int has_up;
    int status = tm_known_move(self->engine, b.buf, (int)(b.len / 4), p, left, &low, &up, &has_up);
    PyBuffer_Release(&b);
    if (status != TM_OK) return failed(status);
    if (has_up)
        return Py_BuildValue("((LL)(LL)i)", (long long)low.rounds, (long long)low.questions, (long long)up.rounds,
                             (long long)up.questions, up.move);
    return Py_BuildValue("((LL)Oi)", (long long)low.rounds, (long long)low.questions, Py_None, -1);
}

static PyObject *Engine_stats_work(EngineObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    tm_stats s;
    tm_stats_of(self->engine, &s);
    return Py_BuildValue("{s:K,s:K,s:K,s:K,s:K,s:K,s:O,s:K,s:i,s:K}", "steps", (unsigned long long)s.steps, "entries",
                         (unsigned long long)s.entries, "round_starts", (unsigned long long)s.round_starts,
                         "memo_bytes", (unsigned long long)s.memo_bytes, "memo_limit",
                         (unsigned long long)s.memo_limit, "forgets", (unsigned long long)s.forgets, "deep",
                         s.deep ? Py_True : Py_False, "deep_bounds", (unsigned long long)s.deep_bounds, "deep_codes",
                         s.deep_codes, "deep_floors", (unsigned long long)s.deep_floors);
}

/* classes() -> (codes, weights, criteria, masks): the set-up's classes (int32 K, int64 K, int32 K x verifiers as
 * bytes) and its distinct truth tables as ints. */
static PyObject *Engine_classes_work(EngineObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    const int K = tm_setup_classes(self->setup), n = tm_setup_verifiers(self->setup);
    int nm;
    const tm_codes *masks = tm_setup_masks(self->setup, &nm);
    PyObject *tables = PyList_New(nm);
    if (!tables) return NULL;
    for (int i = 0; i < nm; i++) {
        PyObject *hi = PyLong_FromUnsignedLongLong(masks[i].hi), *shift = PyLong_FromLong(64);
        PyObject *up = hi && shift ? PyNumber_Lshift(hi, shift) : NULL;
        PyObject *lo = PyLong_FromUnsignedLongLong(masks[i].lo);
        PyObject *m = up && lo ? PyNumber_Or(up, lo) : NULL;
        Py_XDECREF(hi);
        Py_XDECREF(shift);
        Py_XDECREF(up);
        Py_XDECREF(lo);
        if (!m) {
            Py_DECREF(tables);
            return NULL;
        }
        PyList_SET_ITEM(tables, i, m);
    }
    return Py_BuildValue("(y#y#y#N)", (const char *)tm_setup_codes(self->setup), (Py_ssize_t)K * 4,
                         (const char *)tm_setup_weights(self->setup), (Py_ssize_t)K * 8,
                         (const char *)tm_setup_criteria(self->setup), (Py_ssize_t)K * n * 4, tables);
}

/* pairings(k) -> bytes: Nightmare, class k's pairings (int32, weight x verifiers card numbers); empty otherwise. */
static PyObject *Engine_pairings_work(EngineObject *self, PyObject *args) {
    int k;
    if (!PyArg_ParseTuple(args, "i", &k)) return NULL;
    if (!ready(self)) return NULL;
    const int K = tm_setup_classes(self->setup), n = tm_setup_verifiers(self->setup);
    if (k < 0 || k >= K) {
        PyErr_SetString(PyExc_IndexError, "no such class");
        return NULL;
    }
    int64_t w = tm_setup_weights(self->setup)[k];
    int32_t *out = PyMem_Malloc((size_t)(w * n + 1) * 4);
    if (!out) return PyErr_NoMemory();
    int found = tm_setup_pairings(self->setup, k, out);
    PyObject *b = PyBytes_FromStringAndSize((const char *)out, (Py_ssize_t)found * n * 4);
    PyMem_Free(out);
    return b;
}

/* symmetries() -> (code maps, class maps) as int32 bytes (count x 125, count x K). */
static PyObject *Engine_symmetries_work(EngineObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    const int32_t *cm, *km;
    int count = tm_setup_symmetries(self->setup, &cm, &km);
    Py_ssize_t K = tm_setup_classes(self->setup);
    return Py_BuildValue("(y#y#)", (const char *)cm, (Py_ssize_t)count * TM_CODES * 4, (const char *)km,
                         (Py_ssize_t)count * K * 4);
}

static PyObject *Engine_set_deadline(EngineObject *self, PyObject *args) {
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj) || !ready(self)) return NULL;
    if (obj == Py_None) {
        tm_set_deadline(self->engine, 0, 0.0);
    } else {
        double d = PyFloat_AsDouble(obj);
        if (d == -1.0 && PyErr_Occurred()) return NULL;
        tm_set_deadline(self->engine, 1, d);
    }
    Py_RETURN_NONE;
}

static PyObject *Engine_set_step_limit(EngineObject *self, PyObject *args) {
    PyObject *obj;
    if (!PyArg_ParseTuple(args, "O", &obj) || !ready(self)) return NULL;
    if (obj == Py_None) {
        tm_set_step_limit(self->engine, 0);
    } else {
        long long n = PyLong_AsLongLong(obj);
        if (n == -1 && PyErr_Occurred()) return NULL;
        tm_set_step_limit(self->engine, n > 0 ? (uint64_t)n : 1);
    }
    Py_RETURN_NONE;
}

static PyObject *Engine_set_memo_limit(EngineObject *self, PyObject *args) {
    long long n;
    if (!PyArg_ParseTuple(args, "L", &n) || !ready(self)) return NULL;
    if (n <= 0) {
        PyErr_SetString(PyExc_ValueError, "a memo limit of no bytes");
        return NULL;
    }
    tm_set_memo_limit(self->engine, (uint64_t)n);
    Py_RETURN_NONE;
}

static PyObject *Engine_memo_held(EngineObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)tm_memo_held(self->engine));
}

static PyObject *Engine_steps(EngineObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    return PyLong_FromUnsignedLongLong((unsigned long long)tm_steps(self->engine));
}

/* progress() -> (steps, (rounds, questions) lower bound, (rounds, questions) upper bound or None): readable from
 * another thread while a search runs (no lock taken). */
static PyObject *Engine_progress(EngineObject *self, PyObject *unused) {
    (void)unused;
    if (!ready(self)) return NULL;
    tm_progress p;
    tm_progress_of(self->engine, &p);
    if (p.has_up)
        return Py_BuildValue("(K(LL)(LL))", (unsigned long long)p.steps, (long long)p.low_rounds,
                             (long long)p.low_questions, (long long)p.up_rounds, (long long)p.up_questions);
    return Py_BuildValue("(K(LL)O)", (unsigned long long)p.steps, (long long)p.low_rounds, (long long)p.low_questions,
                         Py_None);
}

/* An engine's work is done one at a time in a process (the core's scratch memory is shared, and a search lets go of
 * the interpreter): each method below takes this lock first, letting go of the interpreter while it waits, so the
 * search under way can take it back to look at signals. */
static PyThread_type_lock WORKING;

#define ONE_AT_A_TIME(name)                                                                                            \
    static PyObject *name(EngineObject *self, PyObject *args) {                                                        \
        if (!PyThread_acquire_lock(WORKING, NOWAIT_LOCK)) {                                                            \
            Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(WORKING, WAIT_LOCK);                                          \
            Py_END_ALLOW_THREADS                                                                                       \
        }                                                                                                              \
        PyObject *out = name##_work(self, args);                                                                       \
        PyThread_release_lock(WORKING);                                                                                \
        return out;                                                                                                    \
    }
ONE_AT_A_TIME(Engine_round_value)
ONE_AT_A_TIME(Engine_inside_value)
ONE_AT_A_TIME(Engine_round_bounds)
ONE_AT_A_TIME(Engine_floor)
ONE_AT_A_TIME(Engine_known_move)
ONE_AT_A_TIME(Engine_stats)
ONE_AT_A_TIME(Engine_classes)
ONE_AT_A_TIME(Engine_pairings)
ONE_AT_A_TIME(Engine_symmetries)

static int Engine_init_locked(EngineObject *self, PyObject *args, PyObject *kw) {
    if (!PyThread_acquire_lock(WORKING, NOWAIT_LOCK)) {
        Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(WORKING, WAIT_LOCK);
        Py_END_ALLOW_THREADS
    }
    int out = Engine_init(self, args, kw);
    PyThread_release_lock(WORKING);
    return out;
}

static PyMethodDef Engine_methods[] = {
    {"round_value", (PyCFunction)Engine_round_value, METH_VARARGS,
     "round_value(classes) -> (rounds, questions, proposal), or None past the deadline"},
    {"inside_value", (PyCFunction)Engine_inside_value, METH_VARARGS,
     "inside_value(classes, proposal, left) -> (rounds, questions, verifier), or None past the deadline"},
    {"round_bounds", (PyCFunction)Engine_round_bounds, METH_VARARGS,
     "round_bounds(classes, tie_breaks=True) -> [(rounds, questions, tie-break)] * 125: each proposal's one-round "
     "bound"},
    {"floor", (PyCFunction)Engine_floor, METH_VARARGS,
     "floor(classes) -> (rounds, questions, exact): the best lower bound known"},
    {"known_move", (PyCFunction)Engine_known_move, METH_VARARGS,
     "known_move(classes, proposal=-1, left=0) -> ((rounds, questions), (rounds, questions) or None, move): the "
     "learnt lower bound, the least value a known move reaches, and that move (-1: none), without searching"},
    {"set_deadline", (PyCFunction)Engine_set_deadline, METH_VARARGS,
     "set_deadline(t): stop searching after time.monotonic() passes t (None: no limit)"},
    {"set_step_limit", (PyCFunction)Engine_set_step_limit, METH_VARARGS,
     "set_step_limit(n): stop searching once this many steps have been taken in all (None: no limit)"},
    {"steps", (PyCFunction)Engine_steps, METH_NOARGS, "steps() -> the steps taken so far"},
    {"progress", (PyCFunction)Engine_progress, METH_NOARGS,
     "progress() -> (steps, lower bound, upper bound or None) of the search under way (from any thread)"},
    {"set_memo_limit", (PyCFunction)Engine_set_memo_limit, METH_VARARGS,
     "set_memo_limit(n): the bytes the memo may take from now on (what it holds stays held)"},
    {"memo_held", (PyCFunction)Engine_memo_held, METH_NOARGS,
     "memo_held() -> the bytes the memo holds (table, entries and arena as allocated)"},
    {"stats", (PyCFunction)Engine_stats, METH_NOARGS,
     "steps taken, memo entries (round starts among them), bytes and limit, times the memo was forgotten, whether "
     "deep bounds are in use, deep bounds computed"},
    {"classes", (PyCFunction)Engine_classes, METH_NOARGS,
     "classes() -> (codes int32, weights int64, criteria int32 K x verifiers, truth tables): the set-up"},
    {"pairings", (PyCFunction)Engine_pairings, METH_VARARGS,
     "pairings(k) -> int32 bytes: Nightmare, the card number before each verifier, pairing by pairing"},
    {"symmetries", (PyCFunction)Engine_symmetries, METH_NOARGS,
     "symmetries() -> (code maps, class maps) as int32 bytes"},
    {NULL, NULL, 0, NULL}};

static PyTypeObject EngineType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "tmphys._engine.Engine",
    .tp_basicsize = sizeof(EngineObject),
    .tp_dealloc = (destructor)Engine_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "The exact search of one problem for one objective, with its memo (the search core's).",
    .tp_methods = Engine_methods,
    .tp_init = (initproc)Engine_init_locked,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef engine_module = {PyModuleDef_HEAD_INIT, "_engine",
                                           "The exact search of tmphys, compiled: the search core's CPython binding.",
                                           -1, NULL};

PyMODINIT_FUNC PyInit__engine(void) {
    if (!WORKING && !(WORKING = PyThread_allocate_lock())) return PyErr_NoMemory();
    if (PyType_Ready(&EngineType) < 0) return NULL;
    PyObject *mod = PyModule_Create(&engine_module);
    if (!mod) return NULL;
    Py_INCREF(&EngineType);
    if (PyModule_AddObject(mod, "Engine", (PyObject *)&EngineType) < 0) {
        Py_DECREF(&EngineType);
        Py_DECREF(mod);
        return NULL;
    }
    return mod;
}
