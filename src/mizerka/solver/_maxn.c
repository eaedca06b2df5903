/* Max^n ("each for himself") search for small trick-taking endings: the C twin of mizerka/solver/maxn.py.
 *
 * Every player picks the card best for himself: the most own tricks in a trump or no-trump contract, the
 * fewest in Mizerka (avoid).  The value of a position is a vector of tricks, one per player, from here to
 * the end (the trick in progress counts).  Ties between cards that give the mover the same own value are
 * broken as in maxn.py: the fewest tricks to the next player in turn (the most in Mizerka), then the
 * lowest card.  The rule is deterministic, so this search returns exactly the vectors of the Python one.
 *
 * What makes it fast enough for a bot (one search per sampled world and decision):
 *   - a transposition table of trick-start positions (hands and leader -> vector), kept across calls by
 *     a generation counter, always-replace on collision;
 *   - equivalent cards: of a player's cards with no other card still in play (in a hand or in the trick)
 *     between them, only the lowest is searched; by symmetry the others give the same vector, and the
 *     tie-break would pick the lowest anyway;
 *   - the shallow cut max^n allows: a card that gives the mover every trick left (in Mizerka none, and
 *     every trick to the next player) cannot be beaten, so the mover's other cards are not searched.
 * No alpha-beta: with three self-interested players there is no zero-sum bound to cut on.
 */
#include "_glue.h"
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

static const u64 SUIT_MASK[4] = {0x1FFFULL, 0x1FFFULL << 13, 0x1FFFULL << 26, 0x1FFFULL << 39};

typedef struct {
    u64 h[4];
    uint32_t gen;
    int8_t leader;
    int8_t v[4];
} Entry;

#define TABLE_BITS 18
#define TABLE_SIZE (1u << TABLE_BITS)

static Entry *table = NULL;
static uint32_t generation = 0;
static unsigned long long total_nodes = 0;

typedef struct {
    int n, trump, avoid, must_trump;
    u64 hands[4];
    int trick[4];
    unsigned long long nodes;
} Search;

static inline int ctz(u64 m) { return __builtin_ctzll(m); }
static inline int popcount(u64 m) { return __builtin_popcountll(m); }

static inline uint32_t slot_of(const Search *s, int leader) {
    u64 k = (u64)leader * 0x9E3779B97F4A7C15ULL;
    for (int i = 0; i < s->n; i++) k = (k ^ s->hands[i]) * 0xBF58476D1CE4E5B9ULL + (u64)i;
    k ^= k >> 31;
    return (uint32_t)(k & (TABLE_SIZE - 1));
}

/* the index (0 = leader) of the card winning a complete trick */
static inline int winner_index(const int *trick, int n, int trump) {
    int best = 0;
    for (int i = 1; i < n; i++) {
        int c = trick[i], t = trick[best];
        if ((c / 13 == t / 13 && c > t) || (c / 13 == trump && t / 13 != trump)) best = i;
    }
    return best;
}

static void rec(Search *s, int leader, int len, int8_t *out);

/* the vector after *player* plays *card* as the len-th card of the trick led by *leader* */
static void after_card(Search *s, int leader, int len, int player, int card, int8_t *value) {
    u64 bit = 1ULL << card;
    s->hands[player] ^= bit;
    s->trick[len] = card;
    if (len + 1 == s->n) {
        int w = (leader + winner_index(s->trick, s->n, s->trump)) % s->n;
        int saved[4];
        memcpy(saved, s->trick, sizeof saved);
        rec(s, w, 0, value);
        memcpy(s->trick, saved, sizeof saved);
        value[w]++;
    } else {
        rec(s, leader, len + 1, value);
    }
    s->hands[player] ^= bit;
}

static u64 legal_of(const Search *s, int player, int len) {
    u64 hand = s->hands[player];
    if (!len) return hand;
    u64 follow = hand & SUIT_MASK[s->trick[0] / 13];
    if (follow) return follow;
    if (s->must_trump && s->trump >= 0 && (hand & SUIT_MASK[s->trump])) return hand & SUIT_MASK[s->trump];
    return hand;
}

static u64 in_play(const Search *s, int len) {
    u64 m = 0;
    for (int i = 0; i < s->n; i++) m |= s->hands[i];
    for (int i = 0; i < len; i++) m |= 1ULL << s->trick[i];
    return m;
}

/* whether *card* is equivalent to *lower*, the mover's next lower card searched, in the same suit */
static inline int equivalent(u64 play, int lower, int card) {
    if (lower < 0 || lower / 13 != card / 13) return 0;
    u64 between = ((1ULL << card) - 1) & ~((2ULL << lower) - 1);
    return !(play & between);
}

static void rec(Search *s, int leader, int len, int8_t *out) {
    int n = s->n;
    Entry *e = NULL;
    s->nodes++;
    if (stop_search()) { /* Ctrl-C (see _glue.h): unwind at once */
        memset(out, 0, 4);
        return;
    }
    if (!len) {
        e = &table[slot_of(s, leader)];
        if (e->gen == generation && e->leader == leader && !memcmp(e->h, s->hands, sizeof(u64) * (size_t)n)) {
            memcpy(out, e->v, 4);
            return;
        }
    }
    int player = (leader + len) % n;
    u64 hand = s->hands[player];
    if (!hand) {
        memset(out, 0, 4);
        return;
    }
    int after = (player + 1) % n;
    int left = popcount(hand); /* tricks left, the current one included: the mover has not played to it */
    u64 legal = legal_of(s, player, len), play = in_play(s, len);
    int8_t best[4] = {0, 0, 0, 0}, value[4];
    int have = 0, best_own = 0, best_next = 0, lower = -1;
    while (legal) {
        int card = ctz(legal);
        legal &= legal - 1;
        if (equivalent(play, lower, card)) {
            lower = card;
            continue;
        }
        lower = card;
        after_card(s, leader, len, player, card, value);
        if (interrupted) break;
        int own = value[player], nxt = value[after];
        int better = !have || (s->avoid ? (own < best_own || (own == best_own && nxt > best_next))
                                        : (own > best_own || (own == best_own && nxt < best_next)));
        if (better) {
            memcpy(best, value, 4);
            best_own = own, best_next = nxt, have = 1;
            if (s->avoid ? (own == 0 && nxt == left) : own == left) break; /* nothing can do better */
        }
    }
    memcpy(out, best, 4);
    if (e) {
        memcpy(e->h, s->hands, sizeof e->h);
        e->gen = generation;
        e->leader = (int8_t)leader;
        memcpy(e->v, best, 4);
    }
}

/* ---------------------------------------------------------------- Python glue ---------------- */

static int parse(PyObject *args, Search *s, int *leader, int *len) {
    PyObject *hands, *trick;
    int trump, avoid, must_trump;
    if (!PyArg_ParseTuple(args, "OiOipp", &hands, leader, &trick, &trump, &avoid, &must_trump)) return -1;
    memset(s, 0, sizeof(Search));
    if (read_hands(hands, s->hands, &s->n) < 0 || read_trick(trick, s->n, *leader, s->trick, len) < 0) return -1;
    if (trump < -1 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "bad trump");
        return -1;
    }
    s->trump = trump;
    s->avoid = avoid;
    s->must_trump = must_trump;
    return 0;
}

/* a new search's table: made on first use, and a new generation.  With the search lock held (see
   _glue.h); -1 if the table cannot be made */
static int begin_search(void) {
    watch_signals();
    if (!table && !(table = (Entry *)calloc(TABLE_SIZE, sizeof(Entry)))) return -1;
    if (++generation == 0) { /* wrapped: forget everything */
        memset(table, 0, TABLE_SIZE * sizeof(Entry));
        generation = 1;
    }
    return 0;
}

static PyObject *vector(const int8_t *v, int n) {
    PyObject *out = PyTuple_New(n);
    if (!out) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(out, i, PyLong_FromLong(v[i]));
    return out;
}

static PyObject *py_maxn(PyObject *self, PyObject *args) {
    Search s;
    int leader, len;
    if (parse(args, &s, &leader, &len) < 0) return NULL;
    int8_t v[4];
    int made, stopped;
    SEARCH_BEGIN
    if ((made = begin_search() == 0)) rec(&s, leader, len, v);
    stopped = interrupted, interrupted = 0; /* under the search lock: the next search must not see it */
    SEARCH_END
    if (stopped) return NULL; /* the signal handler's exception (KeyboardInterrupt) is set */
    if (!made) return PyErr_NoMemory();
    total_nodes += s.nodes;
    return vector(v, s.n);
}

static PyObject *py_maxn_all(PyObject *self, PyObject *args) {
    Search s;
    int leader, len;
    if (parse(args, &s, &leader, &len) < 0) return NULL;
    int player = (leader + len) % s.n;
    u64 legal = legal_of(&s, player, len), play = in_play(&s, len), m = legal;
    int8_t values[52][4];
    int lower = -1, made, stopped;
    SEARCH_BEGIN
    made = begin_search() == 0;
    while (m && made && !interrupted) {
        int card = ctz(m);
        m &= m - 1;
        if (equivalent(play, lower, card))
            memcpy(values[card], values[lower], 4);
        else
            after_card(&s, leader, len, player, card, values[card]);
        lower = card;
    }
    stopped = interrupted, interrupted = 0; /* under the search lock, as in py_maxn */
    SEARCH_END
    if (stopped) return NULL;
    if (!made) return PyErr_NoMemory();
    total_nodes += s.nodes;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    m = legal;
    while (m) {
        int card = ctz(m);
        m &= m - 1;
        PyObject *vec = vector(values[card], s.n);
        if (append_steal(out, vec ? Py_BuildValue("(iN)", card, vec) : NULL) < 0) {
            Py_DECREF(out);
            return NULL;
        }
    }
    return out;
}

static PyObject *py_nodes(PyObject *self, PyObject *noargs) { return PyLong_FromUnsignedLongLong(total_nodes); }

static PyMethodDef methods[] = {
    {"maxn", py_maxn, METH_VARARGS, "maxn(hands, leader, trick, trump, avoid, must_trump) -> tricks per player"},
    {"maxn_all", py_maxn_all, METH_VARARGS,
     "maxn_all(...same...) -> [(card, tricks per player)] for every legal card of the player to move"},
    {"nodes", py_nodes, METH_NOARGS, "max^n nodes searched since load"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_maxn",
                                    "Max^n (each for himself) search of small endings; see mizerka.solver.maxn.",
                                    -1, methods};

PyMODINIT_FUNC PyInit__maxn(void) { return create_module(&module); }
