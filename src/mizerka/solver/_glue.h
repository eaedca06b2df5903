/* Reading a position's arguments from Python: shared by the two compiled searches (_kernel.c, _maxn.c).
 *
 * Both take the hands as a sequence of 2 to 4 disjoint 52-bit card masks (in order of play) and the trick
 * in progress as a sequence of card ints (0-51), fewer than the number of hands.  The Python layer
 * (position.py) has already validated the position; these checks only keep a bad direct call from
 * reaching the search.  Each reader returns 0, or -1 with a ValueError set.
 */
#ifndef MIZERKA_SOLVER_GLUE_H
#define MIZERKA_SOLVER_GLUE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>
#include <stdint.h>

/* One search at a time in each extension.  A search runs with the GIL released (other Python threads, an
 * event loop among them, go on meanwhile), but its transposition table and the table's generation are
 * global: two searches from two threads at once would share a generation and read each other's entries,
 * bounds for another seat or contract (a test solved one position for its three seats in three threads:
 * 43 of 90 values were wrong).  So the search takes this lock once the GIL is released, and gives it back
 * before taking the GIL again (a thread waiting for it holds nothing another thread needs). */
static PyThread_type_lock search_lock = NULL;
#define SEARCH_BEGIN Py_BEGIN_ALLOW_THREADS PyThread_acquire_lock(search_lock, WAIT_LOCK);
#define SEARCH_END PyThread_release_lock(search_lock); Py_END_ALLOW_THREADS

/* Ctrl-C in a long search.  A search runs with the GIL released, so Python's own SIGINT handler, which only
 * marks the signal, cannot raise KeyboardInterrupt before the search returns (a large position takes minutes).
 * A search in the main thread (the only one Python's signal handlers run in) therefore takes the GIL back every
 * POLL_EVERY + 1 nodes (2^19: tens of milliseconds) to let them run; once one raises, `interrupted` makes every
 * level of the search return at once (stop_search() is true), and the call returns NULL with the handler's
 * exception.  What the unwinding stores in a table is garbage, but the next search starts a new generation,
 * which forgets it.  Searches in other threads never take the GIL (a server's worker threads would wait for the
 * event loop's).  Each extension has its own copy of these (a static in a header); the search lock guards them. */
#define POLL_EVERY 0x7FFFFu
static unsigned long main_thread = 0; /* Python's main thread (threading.main_thread().ident), read at import */
static int poll_signals = 0;          /* this search runs in the main thread */
static int interrupted = 0;           /* a signal handler raised during this search */
static int poll_left = 0;             /* nodes before stop_search() next looks past this counter */

static int check_signals(void) {
    PyGILState_STATE gil = PyGILState_Ensure();
    int raised = PyErr_CheckSignals() < 0;
    PyGILState_Release(gil);
    return raised;
}

/* at a search's start, with the search lock held: poll only in the main thread, nothing raised yet */
static void watch_signals(void) {
    poll_signals = main_thread != 0 && PyThread_get_thread_ident() == main_thread;
    interrupted = 0;
    poll_left = POLL_EVERY + 1;
}

/* stop_search() once every POLL_EVERY + 1 nodes: poll (in the main thread), and once a handler has raised, stay
   here at every node (poll_left 0) */
static int stop_search_slow(void) {
    poll_left = POLL_EVERY + 1;
    if (!interrupted && poll_signals) interrupted = check_signals();
    if (interrupted) poll_left = 0;
    return interrupted;
}

/* called at every node: whether a signal handler raised, so that the search must unwind.  One counter in the
   common case (testing `interrupted`, `poll_signals` and a tick at every node took 0.6% more of the kernel's
   instructions) */
static inline int stop_search(void) {
    return --poll_left <= 0 && stop_search_slow();
}

/* the module, with its lock made first, and the main thread's ident read for the Ctrl-C poll (NULL with an
   exception set if any fails) */
static PyObject *create_module(PyModuleDef *def) {
    if (!search_lock && !(search_lock = PyThread_allocate_lock())) return PyErr_NoMemory();
    PyObject *threading = PyImport_ImportModule("threading");
    PyObject *main = threading ? PyObject_CallMethod(threading, "main_thread", NULL) : NULL;
    PyObject *ident = main ? PyObject_GetAttrString(main, "ident") : NULL;
    if (ident && PyLong_Check(ident)) main_thread = PyLong_AsUnsignedLong(ident);
    Py_XDECREF(ident), Py_XDECREF(main), Py_XDECREF(threading);
    if (PyErr_Occurred()) return NULL;
    return PyModule_Create(def);
}

static int read_hands(PyObject *hands, uint64_t out[4], int *n) {
    PyObject *seq = PySequence_Fast(hands, "hands must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count < 2 || count > 4) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "the search takes 2 to 4 hands");
        return -1;
    }
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        uint64_t h = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (h >> 52 || (h & seen)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "hands must be disjoint 52-bit masks");
            return -1;
        }
        seen |= h;
        out[i] = h;
    }
    Py_DECREF(seq);
    *n = (int)count;
    return 0;
}

static int read_trick(PyObject *trick, int n, int leader, int out[4], int *len) {
    PyObject *seq = PySequence_Fast(trick, "trick must be a sequence");
    if (!seq) return -1;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count >= n || leader < 0 || leader >= n) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "bad trick or leader");
        return -1;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(seq, i));
        if (c < 0 || c > 51) {
            Py_DECREF(seq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card in trick");
            return -1;
        }
        out[i] = (int)c;
    }
    Py_DECREF(seq);
    *len = (int)count;
    return 0;
}

/* Append *item* to *list* and drop our reference to it (a NULL item is an error already set): 0, or -1. */
static int append_steal(PyObject *list, PyObject *item) {
    if (!item) return -1;
    int rc = PyList_Append(list, item);
    Py_DECREF(item);
    return rc;
}

#endif
