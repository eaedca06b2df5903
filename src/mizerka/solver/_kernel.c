/*
 * mizerka.solver._kernel -- the accelerated double-dummy search (plain CPython C-API extension).
 *
 * The algorithm is the one of mizerka/solver/reference.py; read that first.  The game is two-sided
 * whatever the number of hands (2-4): `count_mask` names the players whose tricks make the value,
 * `max_mask` the players who maximise it; everyone else minimises.
 *
 * Techniques, following DDS (Haglund & Hein, "Search Algorithms for a Bridge Double Dummy Solver"):
 *
 *  1. Zero-window search.  reach() answers "can the max side make >= target tricks?"; the driver
 *     solve_value() binary-searches the target between a lower and an upper bound.  The max side
 *     needs one move answering yes, the min side one answering no.
 *  2. Target too low / too high at each trick boundary (tricks already won, tricks left).
 *  3. Transposition table, trick boundaries only, storing a lower and an upper bound on the tricks
 *     still to come.  The key is the relative-rank-normalised holding: in each suit the cards still in
 *     play are renumbered from the top (make_key()), so positions that differ only in which cards are
 *     gone share an entry.  Hands of players 0..n-2, the suit lengths and the leader make the key (the
 *     last hand is what is left).  Buckets of four 32-byte entries; a generation stamp invalidates the
 *     whole table in O(1) at every new solve; the table is bounded (64 MB by default, set_table_size).
 *  4. Equivalent cards: only the top card of each run of a hand's cards with no other card in play
 *     between them is generated (cards on the table count as in play).
 *  5. Quick tricks (the leader's side cashes cards above every other hand, side suits in a trump
 *     contract only after its master trumps have drawn all other trumps) and later tricks (the holder
 *     of the top trump makes a trick), used when each side wants tricks (not in Mizerka).  The last
 *     trick is scored without search.
 *  6. Move ordering: cheap winners first for a side that wants tricks, high ducks first for a side
 *     that avoids them, low cards under a partner's winner; the killer move of each depth (the card
 *     that caused the last cut-off there) first of all.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

typedef uint64_t u64;

#define SUIT_BITS 0x1FFFULL
#define SUIT(s) (SUIT_BITS << (13 * (s)))
#define LANES 0x0001000100010001ULL

static inline int popc(u64 x) { return __builtin_popcountll(x); }
static inline int top_bit(u64 x) { return 63 - __builtin_clzll(x); }

/* ---------------------------------------------------------------- transposition table -------- */

typedef struct {
    u64 k0, k1, k2;
    uint32_t gen;
    int8_t lower, upper;
    uint8_t left;
    uint8_t pad;
} Entry; /* 32 bytes */

#define BUCKET 4
static Entry *table = NULL;
static size_t n_buckets = 0; /* a power of two */
static uint32_t generation = 1;
static u64 total_nodes = 0;

static int table_alloc(size_t bytes) {
    size_t buckets = 1;
    while (buckets * 2 * BUCKET * sizeof(Entry) <= bytes) buckets *= 2;
    size_t size = buckets * BUCKET * sizeof(Entry);
    void *memory = NULL;
    /* 2 MB alignment + transparent huge pages: a 64 MB table probed at random otherwise costs a TLB
       miss (and, the first time, a page fault) per probe, which halved the node rate */
    if (posix_memalign(&memory, 1 << 21, size) != 0) return -1;
#ifdef MADV_HUGEPAGE
    madvise(memory, size, MADV_HUGEPAGE);
#endif
    memset(memory, 0, size);
    Entry *fresh = (Entry *)memory;
    free(table);
    table = fresh;
    n_buckets = buckets;
    generation = 1;
    return 0;
}

static inline Entry *bucket_of(u64 k0, u64 k1, u64 k2) {
    u64 h = k0 * 0x9E3779B97F4A7C15ULL ^ (k1 + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL ^
            k2 * 0x165667B19E3779F9ULL;
    h ^= h >> 29;
    return table + ((h & (n_buckets - 1)) * BUCKET);
}

/* ---------------------------------------------------------------- search state --------------- */

typedef struct {
    u64 hands[4];
    int n, trump, count_mask, max_mask, must_trump, wants;
    int leader, tlen;
    int trick[4];
    int win_off[4]; /* win_off[k]: offset of the winning card after k+1 cards */
    int killer[64];
    u64 nodes;
} State;

static inline u64 in_hands(const State *s) {
    u64 m = 0;
    for (int p = 0; p < s->n; p++) m |= s->hands[p];
    return m;
}

static inline u64 legal_of(const State *s, int player) {
    u64 hand = s->hands[player];
    if (s->tlen == 0) return hand;
    u64 follow = hand & SUIT(s->trick[0] / 13);
    if (follow) return follow;
    if (s->must_trump && s->trump >= 0 && (hand & SUIT(s->trump))) return hand & SUIT(s->trump);
    return hand;
}

/* does `card` beat `best` (the current winning card) under trump `trump`? */
static inline int beats(int card, int best, int trump) {
    if (card / 13 == best / 13) return card > best;
    return card / 13 == trump;
}

/* play the card; returns counted tricks gained (0/1); -1 when the trick is not complete */
static inline int push(State *s, int card, int *saved_leader) {
    int player = (s->leader + s->tlen) % s->n;
    s->hands[player] &= ~(1ULL << card);
    if (s->tlen == 0) {
        s->win_off[0] = 0;
    } else {
        int w = s->win_off[s->tlen - 1];
        s->win_off[s->tlen] = beats(card, s->trick[w], s->trump) ? s->tlen : w;
    }
    s->trick[s->tlen++] = card;
    *saved_leader = s->leader;
    if (s->tlen == s->n) {
        int winner = (s->leader + s->win_off[s->n - 1]) % s->n;
        s->leader = winner;
        s->tlen = 0;
        return (s->count_mask >> winner) & 1;
    }
    return -1;
}

/* undo push(); `saved_trick` restores the trick a completed trick's successors overwrote */
static inline void pop(State *s, int card, int saved_leader, int gained, const int *saved_trick) {
    if (gained >= 0) {
        s->tlen = s->n;
        for (int i = 0; i < s->n - 1; i++) s->trick[i] = saved_trick[i];
        s->trick[s->n - 1] = card;
    }
    s->leader = saved_leader;
    s->tlen--;
    int player = (s->leader + s->tlen) % s->n;
    s->hands[player] |= 1ULL << card;
}

/* the relative-rank-normalised key of a trick-boundary position */
static void make_key(const State *s, u64 *k0, u64 *k1, u64 *k2) {
    u64 k[4] = {0, 0, 0, 0};
    u64 lens = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 lanes = 0, r = 0;
        for (int p = 0; p < s->n; p++) {
            u64 h = (s->hands[p] >> (13 * suit)) & SUIT_BITS;
            lanes |= h << (16 * p);
            r |= h;
        }
        lens |= (u64)popc(r) << (4 * suit);
        u64 gaps = ~r & SUIT_BITS;
        /* close the gaps from the bottom up: everything below a gap moves up one rank */
        while (gaps) {
            int q = __builtin_ctzll(gaps);
            gaps &= gaps - 1;
            u64 low = ((1ULL << q) - 1) * LANES;
            lanes = (lanes & ~low) | ((lanes & low) << 1);
        }
        for (int p = 0; p < s->n - 1; p++) k[p] |= ((lanes >> (16 * p)) & SUIT_BITS) << (13 * suit);
    }
    *k0 = k[0] | (lens & 0xFFF) << 52;
    *k1 = k[1] | ((lens >> 12) | (u64)s->leader << 4) << 52;
    *k2 = k[2];
}

/* ---------------------------------------------------------------- bounds --------------------- */

/* cards of `mine` (one suit) above every card of `others` (same suit) */
static inline int above_all(u64 mine, u64 others) {
    if (!others) return popc(mine);
    int t = top_bit(others);
    if (t >= 63) return 0;
    return popc(mine & ~((2ULL << t) - 1));
}

/* tighten [lower, upper] on future counted tricks with quick tricks and the top trump */
static void sure_trick_bounds(const State *s, int left, int *lower, int *upper) {
    int leader = s->leader;
    u64 hand = s->hands[leader];
    u64 others = 0;
    for (int p = 0; p < s->n; p++)
        if (p != leader) others |= s->hands[p];
    int quick = 0, drawn = 1;
    if (s->trump >= 0) {
        u64 m = SUIT(s->trump);
        int top = above_all(hand & m, others & m);
        quick += top;
        int longest = 0;
        for (int p = 0; p < s->n; p++)
            if (p != leader && popc(s->hands[p] & m) > longest) longest = popc(s->hands[p] & m);
        drawn = top >= longest;
    }
    if (drawn)
        for (int suit = 0; suit < 4; suit++)
            if (suit != s->trump) quick += above_all(hand & SUIT(suit), others & SUIT(suit));
    if (quick > left) quick = left;
    if ((s->count_mask >> leader) & 1) {
        if (quick > *lower) *lower = quick;
    } else if (left - quick < *upper) {
        *upper = left - quick;
    }
    if (s->trump >= 0) {
        u64 all_trumps = (hand | others) & SUIT(s->trump);
        if (all_trumps) {
            u64 top = 1ULL << top_bit(all_trumps);
            int holder = 0;
            while (!(s->hands[holder] & top)) holder++;
            if ((s->count_mask >> holder) & 1) {
                if (*lower < 1) *lower = 1;
            } else if (*upper > left - 1) {
                *upper = left - 1;
            }
        }
    }
}

/* ---------------------------------------------------------------- move generation ------------ */

/* top card of each run of `legal` with no other card of `in_play` between; sorted best-first */
static int gen_moves(const State *s, int player, int *moves) {
    u64 legal = legal_of(s, player);
    u64 in_play = in_hands(s);
    for (int i = 0; i < s->tlen; i++) in_play |= 1ULL << s->trick[i];
    int scores[13 * 4];
    int count = 0;
    int maximising = (s->max_mask >> player) & 1;
    int win_card = -1, partner_wins = 0;
    if (s->tlen) {
        int w = s->win_off[s->tlen - 1];
        win_card = s->trick[w];
        int winner = (s->leader + w) % s->n;
        partner_wins = ((s->max_mask >> winner) & 1) == maximising;
    }
    u64 others = in_play & ~s->hands[player];
    int killer = s->killer[popc(in_play) - s->tlen];
    u64 rest = legal;
    while (rest) {
        int card = __builtin_ctzll(rest);
        rest &= rest - 1;
        int suit = card / 13;
        u64 above = in_play & SUIT(suit) & ~((2ULL << card) - 1);
        if (above && (legal & (above & -above))) continue; /* an equivalent higher card exists */
        int rank = card % 13, score;
        if (s->tlen == 0) {
            if (s->wants) {
                int winner = !(others & SUIT(suit) & ~((2ULL << card) - 1));
                score = winner ? 100 + rank : 40 - rank;
            } else {
                score = 50 - rank;
            }
        } else {
            int b = beats(card, win_card, s->trump);
            int follows = suit == win_card / 13 || suit == s->trick[0] / 13;
            if (s->wants) {
                if (partner_wins) score = b ? 10 - rank : 60 - rank + (follows ? 0 : 5);
                else score = b ? 100 - rank : 40 - rank;
            } else {
                score = b ? rank : 100 + rank;
            }
        }
        if (card == killer) score += 1000;
        int i = count++;
        while (i > 0 && scores[i - 1] < score) {
            scores[i] = scores[i - 1];
            moves[i] = moves[i - 1];
            i--;
        }
        scores[i] = score;
        moves[i] = card;
    }
    return count;
}

/* ---------------------------------------------------------------- the search ----------------- */

static int reach(State *s, int won, int target);

static int search_moves(State *s, int won, int target) {
    int player = (s->leader + s->tlen) % s->n;
    int maximising = (s->max_mask >> player) & 1;
    int moves[52];
    int depth = popc(in_hands(s)) & 63;
    int count = gen_moves(s, player, moves);
    int saved_trick[4], saved_win[4];
    memcpy(saved_trick, s->trick, sizeof saved_trick);
    memcpy(saved_win, s->win_off, sizeof saved_win);
    for (int i = 0; i < count; i++) {
        int card = moves[i], saved;
        int gained = push(s, card, &saved);
        int result = reach(s, won + (gained > 0 ? gained : 0), target);
        pop(s, card, saved, gained, saved_trick);
        if (gained >= 0) memcpy(s->win_off, saved_win, sizeof saved_win);
        if (result == maximising) {
            s->killer[depth] = card;
            return result;
        }
    }
    return !maximising;
}

static int reach(State *s, int won, int target) {
    s->nodes++;
    if (s->tlen) return search_moves(s, won, target);
    int left = popc(s->hands[s->leader]);
    if (won >= target) return 1;
    if (won + left < target) return 0;
    if (left == 1) { /* the last trick plays itself */
        int best = 0, best_card = __builtin_ctzll(s->hands[s->leader]);
        for (int i = 1; i < s->n; i++) {
            int p = (s->leader + i) % s->n;
            int c = __builtin_ctzll(s->hands[p]);
            if (beats(c, best_card, s->trump)) best = i, best_card = c;
        }
        int winner = (s->leader + best) % s->n;
        return won + ((s->count_mask >> winner) & 1) >= target;
    }
    u64 k0, k1, k2;
    make_key(s, &k0, &k1, &k2);
    Entry *b = bucket_of(k0, k1, k2);
    Entry *hit = NULL;
    for (int i = 0; i < BUCKET; i++)
        if (b[i].gen == generation && b[i].k0 == k0 && b[i].k1 == k1 && b[i].k2 == k2) {
            hit = &b[i];
            break;
        }
    int lower = hit ? hit->lower : 0, upper = hit ? hit->upper : left;
    if (won + lower >= target) return 1;
    if (won + upper < target) return 0;
    if (s->wants) {
        sure_trick_bounds(s, left, &lower, &upper);
        if (won + lower >= target) return 1;
        if (won + upper < target) return 0;
    }
    int result = search_moves(s, won, target);
    if (result) {
        if (target - won > lower) lower = target - won;
    } else if (target - won - 1 < upper) {
        upper = target - won - 1;
    }
    /* re-find: the bucket may have changed during the search */
    hit = NULL;
    for (int i = 0; i < BUCKET; i++)
        if (b[i].gen == generation && b[i].k0 == k0 && b[i].k1 == k1 && b[i].k2 == k2) {
            hit = &b[i];
            break;
        }
    if (hit) {
        if (lower < hit->lower) lower = hit->lower;
        if (upper > hit->upper) upper = hit->upper;
    } else {
        hit = &b[0];
        for (int i = 0; i < BUCKET; i++) {
            if (b[i].gen != generation) {
                hit = &b[i];
                break;
            }
            if (b[i].left < hit->left) hit = &b[i];
        }
        hit->k0 = k0, hit->k1 = k1, hit->k2 = k2, hit->gen = generation;
        hit->left = (uint8_t)left;
    }
    hit->lower = (int8_t)lower;
    hit->upper = (int8_t)upper;
    return result;
}

static int tricks_left(const State *s) { return popc(s->hands[(s->leader + s->tlen) % s->n]); }

static int solve_value(State *s, int lower, int upper) {
    while (lower < upper) {
        int target = (lower + upper + 1) / 2;
        if (reach(s, 0, target)) lower = target;
        else upper = target - 1;
    }
    return lower;
}

/* ---------------------------------------------------------------- Python glue ---------------- */

static int parse_state(PyObject *args, State *s) {
    PyObject *hands, *trick;
    int leader, trump, count_mask, max_mask, must_trump;
    if (!PyArg_ParseTuple(args, "OiOiiip", &hands, &leader, &trick, &trump, &count_mask, &max_mask,
                          &must_trump))
        return -1;
    memset(s, 0, sizeof(State));
    for (int i = 0; i < 64; i++) s->killer[i] = -1;
    PyObject *hseq = PySequence_Fast(hands, "hands must be a sequence");
    if (!hseq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(hseq);
    if (n < 2 || n > 4) {
        Py_DECREF(hseq);
        PyErr_SetString(PyExc_ValueError, "the kernel takes 2 to 4 hands");
        return -1;
    }
    s->n = (int)n;
    for (Py_ssize_t i = 0; i < n; i++) {
        s->hands[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(hseq, i));
        if (PyErr_Occurred()) {
            Py_DECREF(hseq);
            return -1;
        }
    }
    Py_DECREF(hseq);
    PyObject *tseq = PySequence_Fast(trick, "trick must be a sequence");
    if (!tseq) return -1;
    Py_ssize_t tlen = PySequence_Fast_GET_SIZE(tseq);
    if (tlen >= n || leader < 0 || leader >= n) {
        Py_DECREF(tseq);
        PyErr_SetString(PyExc_ValueError, "bad trick or leader");
        return -1;
    }
    s->leader = leader;
    s->trump = trump;
    s->count_mask = count_mask;
    s->max_mask = max_mask;
    s->must_trump = must_trump;
    s->wants = count_mask == max_mask;
    for (Py_ssize_t i = 0; i < tlen; i++) {
        long c = PyLong_AsLong(PySequence_Fast_GET_ITEM(tseq, i));
        if (c < 0 || c > 51) {
            Py_DECREF(tseq);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad card in trick");
            return -1;
        }
        s->trick[i] = (int)c;
        if (i == 0) s->win_off[0] = 0;
        else {
            int w = s->win_off[i - 1];
            s->win_off[i] = beats((int)c, s->trick[w], trump) ? (int)i : w;
        }
    }
    s->tlen = (int)tlen;
    Py_DECREF(tseq);
    if (!table && table_alloc(64u << 20) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    generation++;
    if (generation == 0) generation = 1;
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *args) {
    State s;
    if (parse_state(args, &s) < 0) return NULL;
    int value;
    Py_BEGIN_ALLOW_THREADS value = solve_value(&s, 0, tricks_left(&s));
    Py_END_ALLOW_THREADS total_nodes += s.nodes;
    return PyLong_FromLong(value);
}

static PyObject *py_solve_all(PyObject *self, PyObject *args) {
    State s;
    if (parse_state(args, &s) < 0) return NULL;
    int player = (s.leader + s.tlen) % s.n;
    u64 legal = legal_of(&s, player);
    int values[52];
    u64 in_play = in_hands(&s);
    for (int i = 0; i < s.tlen; i++) in_play |= 1ULL << s.trick[i];
    Py_BEGIN_ALLOW_THREADS
    /* top cards first (high to low), each lower equivalent card copies the one above it */
    for (int card = 51; card >= 0; card--) {
        if (!((legal >> card) & 1)) continue;
        u64 above = in_play & SUIT(card / 13) & ~((2ULL << card) - 1);
        if (above && (legal & (above & -above))) {
            values[card] = values[__builtin_ctzll(above)];
            continue;
        }
        int saved, saved_trick[4], saved_win[4];
        memcpy(saved_trick, s.trick, sizeof saved_trick);
        memcpy(saved_win, s.win_off, sizeof saved_win);
        int gained = push(&s, card, &saved);
        values[card] = (gained > 0 ? gained : 0) + solve_value(&s, 0, tricks_left(&s));
        pop(&s, card, saved, gained, saved_trick);
        memcpy(s.win_off, saved_win, sizeof saved_win);
    }
    Py_END_ALLOW_THREADS total_nodes += s.nodes;
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    for (int card = 0; card < 52; card++) {
        if (!((legal >> card) & 1)) continue;
        PyObject *pair = Py_BuildValue("(ii)", card, values[card]);
        if (!pair || PyList_Append(out, pair) < 0) {
            Py_XDECREF(pair);
            Py_DECREF(out);
            return NULL;
        }
        Py_DECREF(pair);
    }
    return out;
}

static PyObject *py_set_table_size(PyObject *self, PyObject *args) {
    Py_ssize_t bytes;
    if (!PyArg_ParseTuple(args, "n", &bytes)) return NULL;
    if (bytes < (Py_ssize_t)(BUCKET * sizeof(Entry))) {
        PyErr_SetString(PyExc_ValueError, "table too small");
        return NULL;
    }
    if (table_alloc((size_t)bytes) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static PyObject *py_table_bytes(PyObject *self, PyObject *noargs) {
    return PyLong_FromSize_t(n_buckets * BUCKET * sizeof(Entry));
}

static PyObject *py_nodes(PyObject *self, PyObject *noargs) { return PyLong_FromUnsignedLongLong(total_nodes); }

static PyMethodDef methods[] = {
    {"solve", py_solve, METH_VARARGS,
     "solve(hands, leader, trick, trump, count_mask, max_mask, must_trump) -> counted tricks"},
    {"solve_all", py_solve_all, METH_VARARGS, "solve_all(...same...) -> [(card, value)] for every legal card"},
    {"set_table_size", py_set_table_size, METH_VARARGS, "set_table_size(bytes): reallocate the table"},
    {"table_bytes", py_table_bytes, METH_NOARGS, "bytes of the transposition table"},
    {"nodes", py_nodes, METH_NOARGS, "search nodes since load"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_kernel",
                                    "Accelerated double-dummy search; see mizerka.solver.", -1, methods};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
