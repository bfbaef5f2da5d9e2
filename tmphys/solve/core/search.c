/* The exact search (tm.h): a problem's optimum for one objective, in plain C, for every binding.
 *
 * A state is a sorted list of hidden-assignment classes (the classes come in code order, so a state's codes are
 * runs). A cost is a (rounds, questions) pair packed into one int64 as rounds * 2**32 + questions: packing is
 * linear, so sums and differences of pairs are exact, and it keeps the lexicographic order while the questions
 * part stays within +-2**31 (totals here are far smaller).
 *
 * The search follows the rules as tmphys/solve/reference.py states them (a round's proposal, up to three questions
 * each chosen after the earlier answers, the proposals' question-tree bounds, the proposals that can end the game,
 * one proposal per split signature, Nightmare's canonical forms under relabelling the verifiers) and returns the same
 * optimal values; which of two equally good moves it picks, and how many steps it takes, may differ.
 *
 * One departure, in the worst case: a budgeted search only has to tell whether the value is under the budget, so
 * it stops at the first move that is (a proposal, a question, going on rather than a new round) and returns what
 * that move reaches, an upper bound; the memo keeps it apart from the lower bounds, and the value is exact once
 * they meet. The tests "is the value its lower bound?" (``deepen``) then end on an exact value all the same.
 *
 * Memo: exact values, learnt lower bounds and (worst case) upper bounds per state, in one open-addressing hash
 * table whose keys live in an arena; when it passes its limit the memo is forgotten but for its biggest states'
 * entries (exactness is unaffected). No pointer into the memo is held across a recursive call, so forgetting it
 * mid-search is safe.
 */
#include "core.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NPROP 125
#define QPR 3
#define MAXN 6
#define MAXCELLS 64
#define MAXNODES 256
_Static_assert(MAXNODES <= 256, "a node's number fits a byte (cell_nodes)");
#define MAXPERMS 720
#define SC ((int64_t)1 << 32)
#define INF ((int64_t)1 << 60)

typedef int64_t cost_t;

static inline cost_t pack(int64_t r, int64_t q) { return r * SC + q; }
static inline cost_t cmin(cost_t a, cost_t b) { return a < b ? a : b; }
static inline cost_t cmax(cost_t a, cost_t b) { return a > b ? a : b; }

enum { K_ROUND = 1, K_INSIDE = 2, K_CANON = 3, K_FLOOR = 4 };

/* why a search stopped */
enum { RUNNING = 0, STOP_TIME = 1, STOP_MEMORY = 2, STOP_ERROR = 3, STOP_DEEPER = 4, STOP_FAILED = 5 };
/* STOP_ERROR: the poll hook stopped it; STOP_FAILED: an impossible state (tm_error says why) */


typedef struct {
    uint64_t hash;
    uint64_t key_off;   /* offset of the key (words) in the arena */
    uint32_t key_len;   /* its state's classes + 1 (key_words: the words it takes) */
    uint8_t kind, exact; /* kind: the key's (K_ROUND, ...) */
    int32_t best;       /* best proposal / verifier: the exact value's, or the upper bound's */
    int32_t aux_len;
    cost_t value;       /* exact value, or learnt lower bound; K_CANON: the canonical form's class sum */
    cost_t upper;       /* the least value a move was found to reach (INF if none): worst case, any state; expected
                         * case, round starts only (``store_incumbent``), kept apart from the search's values */
    int64_t aux_off;    /* K_ROUND: ranked list (ranked_t) in the arena, -1 if none; K_CANON: canonical key */
} entry_t;
_Static_assert(sizeof(entry_t) == 56, "a memo entry takes 56 bytes");

/* A ranked proposal: its bound, tie-break and number; kept in its round start's memo entry (in the order ranked) with
 * its deep bound once found (``deepen_at``): the bound, and whether it is whole (DEEP_NONE: none yet). */
enum { DEEP_NONE = 0, DEEP_PART = 1, DEEP_WHOLE = 2 };
typedef struct {
    int64_t bound;
    int64_t order;
    int32_t p;
    int32_t deep_state;
    int64_t deep;
} ranked_t;
_Static_assert(sizeof(ranked_t) == 32, "a ranked proposal takes 32 bytes");

typedef struct tm_engine Engine;
struct tm_engine {
    /* the hooks (tm_set_clock, tm_set_poll) */
    tm_clock_fn clock;
    void *clock_ctx;
    tm_poll_fn poll;
    void *poll_ctx;
    uint64_t poll_mask;
    /* the value being searched (``searched``): its memo key, for tm_progress_of */
    uint32_t root_head;
    const uint32_t *root;
    int root_m;
    uint64_t root_hash;
    volatile int64_t progress_low, progress_up; /* read by other threads while the search runs */
    /* the problem */
    int K, n, ncells, expected, symmetric;
    uint8_t *pat;       /* K x 125: bit v set when verifier v passes proposal p in class k */
    uint8_t *pat_t;     /* 125 x K, the same transposed: inside a round the proposal is fixed, its row is contiguous */
    uint64_t cells_with[MAXN]; /* the answer cells (of 2 ** n) in which verifier v passes */
    int32_t *code;      /* K, ascending */
    int64_t *wt;        /* K */
    uint64_t *h1, *h2;  /* split-signature hashes per class */
    /* Nightmare's relabellings: a class's image under an order of the verifiers is found by its key (below), and
     * kept in a table per order, built the first time the order is used, while the tables take at most
     * table_limit bytes */
    int32_t **tables;   /* n**n, by the order's code, sum of perm[i] * n**(n - 1 - i) (symmetric engines only) */
    int ntables;
    uint64_t table_bytes, table_limit;
    int32_t *mask_ids;  /* K x n: each class's criteria, numbered; a class's key is their sum weighted by digit */
    int64_t digit[MAXN];
    int64_t *sorted_keys; /* K, ascending, and the class of each (key_order) */
    int32_t *key_order;
    uint64_t *pos_hash; /* K x n */
    int nmaps;          /* the code symmetries: where each sends every code and every class */
    int32_t *map_code;  /* nmaps x 125 */
    int32_t *map_class; /* nmaps x K */
    int deep, deep_codes; /* deep bounds in use; the fewest codes a round start holds to get them (0: never) */
    int wider_codes;      /* ... once widened (``deepen``) */
    uint64_t deep_at, deep_after, wider_after;
    double probe_share;
    /* the question tree */
    int nnodes, depth, ndeep;
    uint64_t node_cells[MAXNODES];
    uint8_t cell_nodes[MAXCELLS][MAXNODES]; /* the nodes holding each answer cell, cell_nnodes[x] of them */
    int cell_nnodes[MAXCELLS];
    int deep_nodes[MAXNODES];
    int deep_ncells;                   /* cells a deepest node holds (2 ** (n - depth)), listed in deep_cell */
    uint8_t deep_cell[MAXNODES][1 << (MAXN - QPR)];
    int nlevel_nodes;                  /* inner nodes, deepest level first */
    int level_node[MAXNODES];
    int nkids[MAXNODES];
    int kid_yes[MAXNODES][MAXN], kid_no[MAXNODES][MAXN];
    cost_t worst_leaf[128];
    /* memo */
    entry_t *ent;       /* the memo's entries (``memo_slot``) */
    uint64_t ent_len, ent_cap;
    uint64_t *tab;      /* its table of slots */
    uint64_t tab_cap;
    uint32_t *arena;
    uint64_t arena_len, arena_cap, memo_limit;
    /* a stack for the states of the search */
    uint32_t *stk;
    uint64_t stk_top, stk_cap;
    /* time */
    double deadline;
    int has_deadline, stopped;
    uint64_t ticks, step_limit;
    uint64_t *bitmap; /* K bits of scratch, all clear between uses (``sort_classes``) */
    uint64_t forgets;
    uint64_t deep_bounds; /* deep bounds computed (``deepen_at``), memoised ones not counted again */
    int deeper_codes;     /* the fewest codes a round start holds for its deep bounds to go a round deeper (0: never) */
    int deeper_now;       /* a deeper bound is under way (the round starts it looks at take plain deep bounds) */
    uint64_t deep_floors; /* round starts a deeper bound took the deep floor of (``deep_floor``) */
};

/* ---------------------------------------------------------------- small helpers */

static const char *last_error = "";

const char *tm_error(void) { return last_error; }

int tm_fail(const char *why, int status) {
    last_error = why;
    return status;
}

#define fail tm_fail

static inline double now(const Engine *E) { return E->clock(E->clock_ctx); }

static inline int past_deadline(const Engine *E) { return E->has_deadline && E->clock && now(E) > E->deadline; }

static void note_progress(Engine *E);

/* The poll hook, every poll_mask + 1 steps: it may stop the search (Ctrl-C, a cancel). */
static __attribute__((noinline, cold)) void look_at_signals(Engine *E) {
    note_progress(E);
    if (E->poll && E->poll(E, E->poll_ctx)) E->stopped = STOP_ERROR;
}

static inline void tick(Engine *E) {
    E->ticks++;
    if (E->ticks == E->deep_at) E->stopped = STOP_DEEPER;
    if (E->step_limit && E->ticks >= E->step_limit) E->stopped = STOP_TIME;
    if (!(E->ticks & 15) && past_deadline(E)) E->stopped = STOP_TIME;
    if (!(E->ticks & E->poll_mask)) look_at_signals(E);
}

static uint32_t *stk_push(Engine *E, uint64_t n) {
    if (E->stk_top + n > E->stk_cap) return NULL;
    uint32_t *p = E->stk + E->stk_top;
    E->stk_top += n;
    return p;
}

static inline int known(Engine *E, const uint32_t *s, int m) {
    return m > 0 && E->code[s[0]] == E->code[s[m - 1]];
}

static inline int64_t weight(Engine *E, const uint32_t *s, int m) {
    int64_t w = 0;
    for (int i = 0; i < m; i++) w += E->wt[s[i]];
    return w;
}

/* Sort n values of type T in place by insertion: the lists it serves are short. */
#define INSERTION_SORT(T, a, n)                                                                                        \
    for (int i_ = 1; i_ < (n); i_++) {                                                                                 \
        T x_ = (a)[i_];                                                                                                \
        int j_ = i_ - 1;                                                                                               \
        while (j_ >= 0 && (a)[j_] > x_) {                                                                              \
            (a)[j_ + 1] = (a)[j_];                                                                                     \
            j_--;                                                                                                      \
        }                                                                                                              \
        (a)[j_ + 1] = x_;                                                                                              \
    }

static inline int popcount2(uint64_t a, uint64_t b) { return __builtin_popcountll(a) + __builtin_popcountll(b); }

/* Minimum total weighted depth of a tree with `arity` children a node over these leaf weights (sorted). */
static int64_t huffman(const int64_t *w, int k, int arity) {
    if (k <= arity) {
        int64_t s = 0;
        for (int i = 0; i < k; i++) s += w[i];
        return k > 1 ? s : 0;
    }
    int64_t heap[256];
    int pad = 0;
    while ((k + pad - 1) % (arity - 1)) pad++;
    int len = 0;
    for (int i = 0; i < pad; i++) heap[len++] = 0; /* zeros first: the list stays sorted */
    for (int i = 0; i < k; i++) heap[len++] = w[i];
    /* two queues: the sorted leaves and the sums (which come out in order) */
    int64_t sums[256];
    int a = 0, b0 = 0, b1 = 0;
    int64_t total = 0;
    int remaining = len;
    while (remaining > 1) {
        int take = remaining < arity ? remaining : arity;
        int64_t s = 0;
        for (int t = 0; t < take; t++) {
            if (a < len && (b0 == b1 || heap[a] <= sums[b0])) s += heap[a++];
            else s += sums[b0++];
        }
        total += s;
        sums[b1++] = s;
        remaining -= take - 1;
    }
    return total;
}

static int depth2(int64_t k) {
    int d = 0;
    while (((int64_t)1 << d) < k) d++;
    return d;
}

/* _worst_floor_at_depth(deep, left) */
static inline cost_t worst_floor_at_depth(int deep, int left) {
    int r = deep - left;
    r = r <= 0 ? 0 : (r + QPR - 1) / QPR;
    return pack(r, deep);
}

static int code_count(Engine *E, const uint32_t *s, int m) {
    int c = 0;
    for (int i = 0; i < m; i++)
        if (i == 0 || E->code[s[i]] != E->code[s[i - 1]]) c++;
    return c;
}

/* The state bound (``Solver.lower_bound``): Huffman lengths of the code groups (8 outcomes a round, 2 a question),
 * or _worst_floor(k, 0). */
static cost_t lower_bound(Engine *E, const uint32_t *s, int m) {
    if (!E->expected) return worst_floor_at_depth(depth2(code_count(E, s, m)), 0);
    int64_t w[128];
    int k = 0;
    for (int i = 0; i < m; i++) {
        if (i == 0 || E->code[s[i]] != E->code[s[i - 1]]) w[k++] = 0;
        w[k - 1] += E->wt[s[i]];
    }
    if (k <= 1) return 0;
    INSERTION_SORT(int64_t, w, k);
    return pack(huffman(w, k, 8), huffman(w, k, 2));
}

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

/* A state's classes' hashes summed: the part of a memo key's hash that a split's sides get from their cells' sums,
 * without reading their classes again. */
static inline uint64_t class_sum(const Engine *E, const uint32_t *s, int m) {
    uint64_t a = 0, b = 0;
    int i = 0;
    for (; i + 1 < m; i += 2) {
        a += E->h1[s[i]];
        b += E->h1[s[i + 1]];
    }
    if (i < m) a += E->h1[s[i]];
    return a + b;
}

/* A memo key's hash from its kind (head), length and class sum. */
static inline uint64_t hash_of(uint32_t head, int m, uint64_t sum) {
    uint64_t r = mix64(sum ^ mix64(((uint64_t)head << 32) ^ (uint64_t)(uint32_t)m));
    return r ? r : 1;
}

static uint64_t hash_key(const Engine *E, uint32_t head, const uint32_t *s, int m) {
    return hash_of(head, m, class_sum(E, s, m));
}

/* ---------------------------------------------------------------- memo */

/* The memo's entries lie in one array (ent, in the order made), found through a table of slots (at most half full,
 * linear probing): each slot holds the top half of its entry's hash beside the entry's number + 1 (0: empty), so a
 * lookup reads the entries only of slots whose half hash matches. An entry's key and extra data lie in the arena. */
#define TAB_START ((uint64_t)1 << 12)

static inline uint64_t slot_of(uint64_t h, uint64_t i) { return (h >> 32 << 32) | (i + 1); }

/* A state of m classes lies in the arena as its list of classes, or as a bitmap of the K classes where that is
 * shorter (a worst-case memo of Nightmare's big states took several times less): set_words(m) words. */
static inline int as_bitmap(const Engine *E, int m) { return (uint64_t)m > ((uint64_t)E->K + 31) / 32; }
static inline uint64_t set_words(const Engine *E, int m) {
    return as_bitmap(E, m) ? ((uint64_t)E->K + 31) / 32 : (uint64_t)m;
}

static void put_set(const Engine *E, uint32_t *dst, const uint32_t *s, int m) {
    if (!as_bitmap(E, m)) {
        memcpy(dst, s, (size_t)m * 4);
        return;
    }
    memset(dst, 0, (size_t)set_words(E, m) * 4);
    for (int i = 0; i < m; i++) dst[s[i] >> 5] |= 1u << (s[i] & 31);
}

/* Whether the set kept holds the m classes of s (it holds m: a bitmap holding them all is theirs). */
static int same_set(const Engine *E, const uint32_t *kept, const uint32_t *s, int m) {
    if (!as_bitmap(E, m)) return memcmp(kept, s, (size_t)m * 4) == 0;
    for (int i = 0; i < m; i++)
        if (!((kept[s[i] >> 5] >> (s[i] & 31)) & 1)) return 0;
    return 1;
}

/* The m classes of a set kept, in order, into out. */
static void get_set(const Engine *E, const uint32_t *kept, int m, uint32_t *out) {
    if (!as_bitmap(E, m)) {
        memcpy(out, kept, (size_t)m * 4);
        return;
    }
    int k = 0;
    for (uint64_t w = 0, n = set_words(E, m); w < n; w++)
        for (uint32_t x = kept[w]; x; x &= x - 1) out[k++] = (uint32_t)(w * 32 + (uint64_t)__builtin_ctz(x));
}

/* The memo's bytes: what its arena and entries use, and its table. */
static inline uint64_t memo_bytes(const Engine *E) {
    return E->arena_len * 4 + E->ent_len * sizeof(entry_t) + E->tab_cap * 8;
}

/* Words an entry's key (its kind, then its state: key_len - 1 classes) takes in the arena. */
static inline uint64_t key_words(const Engine *E, const entry_t *e) { return 1 + set_words(E, (int)e->key_len - 1); }

/* Words an entry's key and extra data (ranked proposals, canonical form) take in the arena. */
static uint64_t entry_words(const Engine *E, const entry_t *e) {
    uint64_t w = key_words(E, e);
    if (e->aux_off >= 0)
        w += e->kind == K_ROUND ? (uint64_t)e->aux_len * sizeof(ranked_t) / 4 : set_words(E, e->aux_len);
    return w;
}

/* A table of `cap` slots for the first n entries; NULL when out of memory. */
static uint64_t *slots_for(const Engine *E, uint64_t cap, uint64_t n) {
    uint64_t *t = calloc(cap, 8);
    if (!t) return NULL;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t j = E->ent[i].hash & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = slot_of(E->ent[i].hash, i);
    }
    return t;
}

/* The memo is full: forget it, but for the entries of the biggest states (the start and the round starts near it,
 * with their ranked proposals and deep bounds: the dearest to find again), up to a quarter of the limit. The entries
 * kept move to the front of the array, their keys and data to the front of the arena (both keep their size: growing
 * them again would copy them and fault in new pages). */
static void memo_forget(Engine *E) {
    E->forgets++;
    uint64_t budget = E->memo_limit / 4, *bytes = calloc((size_t)E->K + 2, 8);
    uint64_t keep_from = (uint64_t)E->K + 1, kept = 0, kept_words = 0;
    if (bytes) { /* bytes by the state's size (an entry's share of the table counted as two slots); keep the biggest
                  * sizes that fit in the budget */
        for (uint64_t i = 0; i < E->ent_len; i++)
            bytes[E->ent[i].key_len - 1] += entry_words(E, &E->ent[i]) * 4 + sizeof(entry_t) + 16;
        uint64_t total = 0;
        for (int64_t m = E->K; m >= 2 && total + bytes[m] <= budget; m--) {
            total += bytes[m];
            keep_from = (uint64_t)m;
        }
        free(bytes);
    }
    for (uint64_t i = 0; i < E->ent_len; i++)
        if (E->ent[i].key_len - 1 >= keep_from) {
            kept++;
            kept_words += entry_words(E, &E->ent[i]);
        }
    uint32_t *a = kept ? malloc((kept_words + 1) * 4) : NULL;
    if (kept && !a) kept = 0; /* no room to copy: forget everything */
    uint64_t len = 0, k = 0;
    if (kept) {
        for (uint64_t i = 0; i < E->ent_len; i++) {
            entry_t e = E->ent[i];
            if (e.key_len - 1 < keep_from) continue;
            const uint64_t kw = key_words(E, &e);
            memcpy(a + len, E->arena + e.key_off, (size_t)kw * 4);
            e.key_off = len;
            len += kw;
            if (e.aux_off >= 0) {
                uint64_t w = entry_words(E, &e) - kw;
                memcpy(a + len, E->arena + e.aux_off, (size_t)w * 4);
                e.aux_off = (int64_t)len;
                len += w;
            }
            E->ent[k++] = e;
        }
        memcpy(E->arena, a, (size_t)len * 4);
        free(a);
    }
    E->ent_len = k;
    E->arena_len = len;
    uint64_t cap = TAB_START;
    while (cap < 2 * (k + 1)) cap *= 2;
    uint64_t *t = slots_for(E, cap, k);
    if (t) {
        free(E->tab);
        E->tab = t;
        E->tab_cap = cap;
    } else { /* keep the old table, emptied, and forget every entry */
        memset(E->tab, 0, E->tab_cap * 8);
        E->ent_len = 0;
        E->arena_len = 0;
    }
}

/* The table twice as big. */
static int memo_grow(Engine *E) {
    uint64_t cap = E->tab_cap * 2, *t = slots_for(E, cap, E->ent_len);
    if (!t) return -1;
    free(E->tab);
    E->tab = t;
    E->tab_cap = cap;
    return 0;
}

static int key_equal(Engine *E, entry_t *e, uint32_t head, const uint32_t *s, int m) {
    if (e->key_len != (uint32_t)m + 1) return 0;
    const uint32_t *k = E->arena + e->key_off;
    return k[0] == head && same_set(E, k + 1, s, m);
}

/* Start fetching the memo's slot for the hash h (a later memo_find of it need not wait for memory). */
static inline void prefetch_slot(const Engine *E, uint64_t h) { __builtin_prefetch(&E->tab[h & (E->tab_cap - 1)]); }

static entry_t *memo_find(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h) {
    const uint64_t mask = E->tab_cap - 1, top = h >> 32;
    for (uint64_t j = h & mask, v; (v = E->tab[j]); j = (j + 1) & mask)
        if (v >> 32 == top) {
            entry_t *e = &E->ent[(uint32_t)v - 1];
            if (e->hash == h && key_equal(E, e, head, s, m)) return e;
        }
    return NULL;
}

/* memo_find of a state of m classes as the memo keeps it (``put_set``): a canonical form kept in the memo. */
static entry_t *memo_find_kept(Engine *E, uint32_t head, const uint32_t *kept, int m, uint64_t h) {
    const uint64_t mask = E->tab_cap - 1, top = h >> 32;
    for (uint64_t j = h & mask, v; (v = E->tab[j]); j = (j + 1) & mask)
        if (v >> 32 == top) {
            entry_t *e = &E->ent[(uint32_t)v - 1];
            if (e->hash == h && e->key_len == (uint32_t)m + 1 && E->arena[e->key_off] == head &&
                memcmp(E->arena + e->key_off + 1, kept, (size_t)set_words(E, m) * 4) == 0)
                return e;
        }
    return NULL;
}

/* Room in a growing array (arena words or entries) for `want` in all: its capacity doubled as often as needed, but
 * never past `most` when that will do (the memo is forgotten before it would be). */
static int grow_array(void **p, uint64_t *cap, uint64_t want, uint64_t most, size_t size) {
    if (want <= *cap) return 0;
    uint64_t c = *cap;
    while (want > c) c *= 2;
    if (c > most && want <= most) c = most;
    void *q = realloc(*p, (size_t)(c * size));
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

static int64_t arena_alloc(Engine *E, uint64_t words) {
    if (grow_array((void **)&E->arena, &E->arena_cap, E->arena_len + words, E->memo_limit / 4 + 4096, 4) < 0)
        return -1;
    int64_t off = (int64_t)E->arena_len;
    E->arena_len += words;
    return off;
}

/* The entry for this key (its hash h), created (empty) if new; NULL when out of memory. May forget the memo first
 * (``memo_forget``): entries found before may have moved. */
static entry_t *memo_slot(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h) {
    entry_t *e = memo_find(E, head, s, m, h);
    if (e) return e;
    const int grow = (E->ent_len + 1) * 2 > E->tab_cap;
    if (memo_bytes(E) + (2 * (uint64_t)m + 514) * 4 + sizeof(entry_t) + (grow ? E->tab_cap * 8 : 0) > E->memo_limit ||
        E->ent_len + 1 >= UINT32_MAX) /* a slot numbers its entry in 32 bits */
        memo_forget(E);
    if ((E->ent_len + 1) * 2 > E->tab_cap && memo_grow(E) < 0) return NULL;
    if (grow_array((void **)&E->ent, &E->ent_cap, E->ent_len + 1, E->memo_limit / sizeof(entry_t) / 2 + 1024,
                   sizeof(entry_t)) < 0)
        return NULL;
    int64_t off = arena_alloc(E, 1 + set_words(E, m));
    if (off < 0) return NULL;
    E->arena[off] = head;
    put_set(E, E->arena + off + 1, s, m);
    uint64_t j = h & (E->tab_cap - 1);
    while (E->tab[j]) j = (j + 1) & (E->tab_cap - 1);
    E->tab[j] = slot_of(h, E->ent_len);
    e = &E->ent[E->ent_len++];
    memset(e, 0, sizeof(*e));
    e->kind = (uint8_t)(head & 15);
    e->hash = h;
    e->key_off = (uint64_t)off;
    e->key_len = (uint32_t)m + 1;
    e->best = -1;
    e->upper = INF;
    e->aux_off = -1;
    return e;
}

static inline uint32_t inside_head(int p, int left) { return K_INSIDE | ((uint32_t)p << 4) | ((uint32_t)left << 12); }

static void store(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, int exact, cost_t v, int best) {
    entry_t *e = memo_slot(E, head, s, m, h);
    if (!e) return;
    if (exact) {
        e->exact = 1;
        e->value = v;
        e->best = best;
    } else if (!e->exact && v > e->value) {
        e->value = v;
        if (!E->expected && v >= e->upper) { /* the bounds met */
            e->exact = 1;
            e->value = e->upper;
        }
    }
}

/* Worst case: a move reaches u (at most), the state's value being at least `floor`; exact when they meet. */
static void store_upper(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, cost_t u, int best,
                        cost_t floor) {
    entry_t *e = memo_slot(E, head, s, m, h);
    if (!e || e->exact) return;
    if (u < e->upper) {
        e->upper = u;
        e->best = best;
    }
    if (cmax(floor, e->value) >= e->upper) {
        e->exact = 1;
        e->value = e->upper;
    }
}

/* Expected case: a round start's proposal whose exact value is v, the best found so far there. The search never reads
 * it (the expected case's values stay as the Python search's); a search stopped part way still has a strategy known
 * in full to play (``known_move``), and the least value it reaches. */
static void store_incumbent(Engine *E, const uint32_t *s, int m, uint64_t h, cost_t v, int best) {
    entry_t *e = memo_slot(E, K_ROUND, s, m, h);
    if (e && !e->exact && v < e->upper) {
        e->upper = v;
        e->best = best;
    }
}

/* A search found a move reaching `best`: can it stop? At the state's floor, yes; in the worst case, already under the
 * budget (the caller only asks whether the value is). */
static inline int found_enough(const Engine *E, cost_t best, cost_t floor, cost_t budget) {
    return best <= floor || (!E->expected && best < budget);
}

/* What a search found under its budget: exact in the expected case (it searched every move), an upper bound in the
 * worst case. */
static void store_found(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, cost_t best, int move,
                        cost_t floor) {
    if (E->expected) store(E, head, s, m, h, 1, best, move);
    else store_upper(E, head, s, m, h, best, move, floor);
}

/* ---------------------------------------------------------------- canonical forms (Nightmare) */

/* Sort m distinct class indices in place: by insertion when few, else through a bitmap of the K classes. */
static void sort_classes(Engine *E, uint32_t *a, int m) {
    if (m <= 32) {
        INSERTION_SORT(uint32_t, a, m);
        return;
    }
    uint64_t lo = a[0] >> 6, hi = lo;
    for (int i = 0; i < m; i++) {
        uint64_t w = a[i] >> 6;
        E->bitmap[w] |= (uint64_t)1 << (a[i] & 63);
        if (w < lo) lo = w;
        if (w > hi) hi = w;
    }
    int k = 0;
    for (uint64_t w = lo; w <= hi; w++) {
        uint64_t bits = E->bitmap[w];
        E->bitmap[w] = 0;
        while (bits) {
            a[k++] = (uint32_t)(w << 6 | (uint64_t)__builtin_ctzll(bits));
            bits &= bits - 1;
        }
    }
}

typedef struct {
    Engine *E;
    const uint32_t *s;
    int m;
    uint32_t *best, *tmp;
    int have, perm[MAXN];
    int order[MAXN], group_end[MAXN];
    int used[MAXN];
} canon_ctx;

/* The class whose position i holds what position perm[i] of class k held, found by its key (as
 * ``Deduction._relabelled``): a binary search over the sorted keys. */
static uint32_t relabelled(const Engine *E, uint32_t k, const int *perm) {
    const int32_t *ids = E->mask_ids + (int64_t)k * E->n;
    int64_t key = 0;
    for (int v = 0; v < E->n; v++) key += ids[perm[v]] * E->digit[v];
    int lo = 0, hi = E->K - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (E->sorted_keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return (uint32_t)E->key_order[lo];
}

static void canon_try(canon_ctx *c) {
    Engine *E = c->E;
    int n = E->n, identity = 1, code = 0;
    for (int i = 0; i < n; i++) {
        if (c->perm[i] != i) identity = 0;
        code = code * n + c->perm[i];
    }
    const uint32_t *img;
    if (identity) {
        img = c->s;
    } else {
        int32_t *tab = E->tables ? E->tables[code] : NULL;
        uint64_t size = (uint64_t)E->K * 4;
        if (!tab && E->tables && E->table_bytes + size <= E->table_limit && (tab = malloc(size))) {
            for (int k = 0; k < E->K; k++) tab[k] = relabelled(E, (uint32_t)k, c->perm);
            E->tables[code] = tab;
            E->table_bytes += size;
        }
        for (int i = 0; i < c->m; i++) c->tmp[i] = tab ? (uint32_t)tab[c->s[i]] : relabelled(E, c->s[i], c->perm);
        sort_classes(E, c->tmp, c->m);
        img = c->tmp;
    }
    if (!c->have || memcmp(img, c->best, (size_t)c->m * 4) < 0) {
        memcpy(c->best, img, (size_t)c->m * 4);
        c->have = 1;
    }
}

/* all orders of each group of tied positions, in itertools.product(permutations) order */
static void canon_rec(canon_ctx *c, int pos) {
    int n = c->E->n;
    if (pos >= n || pos >= MAXN) {
        canon_try(c);
        return;
    }
    int end = c->group_end[pos];
    int gstart = pos;
    while (gstart > 0 && c->group_end[gstart - 1] == end) gstart--;
    for (int i = gstart; i < end; i++) {
        int v = c->order[i];
        if (c->used[v]) continue;
        c->used[v] = 1;
        c->perm[pos] = v;
        canon_rec(c, pos + 1);
        c->used[v] = 0;
    }
}

/* The canonical form of s (m classes) into out: the least image over the relabellings that sort the positions'
 * hashes (as Deduction.canonical; any fixed order of the images gives a canonical form). */
static void canonical(Engine *E, const uint32_t *s, int m, uint32_t *out, uint32_t *tmp) {
    if (!E->symmetric || m == 0 || m == E->K) {
        memcpy(out, s, (size_t)m * 4);
        return;
    }
    int n = E->n;
    uint64_t h[MAXN] = {0};
    for (int i = 0; i < m; i++) {
        const uint64_t *ph = E->pos_hash + (int64_t)s[i] * n;
        for (int v = 0; v < n; v++) h[v] += ph[v];
    }
    canon_ctx c;
    memset(&c, 0, sizeof(c));
    c.E = E;
    c.s = s;
    c.m = m;
    c.best = out;
    c.tmp = tmp;
    for (int v = 0; v < n; v++) c.order[v] = v;
    for (int i = 1; i < n; i++) { /* stable insertion sort by hash */
        int v = c.order[i], j = i - 1;
        while (j >= 0 && h[c.order[j]] > h[v]) {
            c.order[j + 1] = c.order[j];
            j--;
        }
        c.order[j + 1] = v;
    }
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && h[c.order[j]] == h[c.order[i]]) j++;
        for (int t = i; t < j; t++) c.group_end[t] = j;
        i = j;
    }
    canon_rec(&c, 0);
}

/* The canonical form of a state (its class sum `sum`), through the memo (raw state -> canonical), and the form's own
 * class sum. Returns a pointer into the stack. */
static uint32_t *canon_sum(Engine *E, const uint32_t *s, int m, uint64_t sum, uint64_t *form_sum) {
    uint32_t *out = stk_push(E, (uint64_t)m);
    if (!out) return NULL;
    if (!E->symmetric || m == 0 || m == E->K) {
        memcpy(out, s, (size_t)m * 4);
        *form_sum = sum;
        return out;
    }
    uint64_t h = hash_of(K_CANON, m, sum);
    entry_t *e = memo_find(E, K_CANON, s, m, h);
    if (e && e->aux_off >= 0) {
        get_set(E, E->arena + e->aux_off, m, out);
        *form_sum = (uint64_t)e->value; /* a canonical form's entry keeps the form's class sum as its value */
        return out;
    }
    uint32_t *tmp = stk_push(E, (uint64_t)m);
    if (!tmp) return NULL;
    canonical(E, s, m, out, tmp);
    E->stk_top -= (uint64_t)m; /* tmp */
    *form_sum = class_sum(E, out, m);
    e = memo_slot(E, K_CANON, s, m, h);
    if (e) {
        int64_t off = arena_alloc(E, set_words(E, m));
        if (off >= 0) {
            put_set(E, E->arena + off, out, m);
            e->aux_off = off;
            e->aux_len = m;
            e->value = (cost_t)*form_sum;
        }
    }
    return out;
}

/* ``canon_sum`` of a state whose class sum is not known yet. */
static uint32_t *canon_of(Engine *E, const uint32_t *s, int m) {
    uint64_t form_sum;
    return canon_sum(E, s, m, class_sum(E, s, m), &form_sum);
}

/* ---------------------------------------------------------------- the proposals' bounds */

/* A state's answer cells under every proposal: the weight of each cell (expected case only: the worst case reads no
 * weights, its tie-break counts codes) and the codes it holds. A state of at most 64 codes numbers them 0.. in order
 * (its classes come in code order) and keeps one word a cell (`cc1`); a bigger one keeps the codes themselves in two
 * words (`cc`). Either way a cell's count of codes is its popcount. `cw` and `cc1` are by cell, then proposal (padded
 * to NPAD), so that ``expected_bounds`` and ``worst_bounds`` take the proposals a block at a time. */
#define NPAD 128
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__)) && !defined(__clang__)
#define VECTOR_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define VECTOR_CLONES
#endif
typedef struct {
    int words, codes; /* codes: how many the state holds (its cells number them 0.. while at most 64) */
    int64_t cw[MAXCELLS][NPAD];
    uint64_t cc1[MAXCELLS][NPAD];
    uint64_t cc[NPROP][MAXCELLS][2];
} cells_t;

static cells_t SCRATCH;
static void fill_cells(Engine *E, const uint32_t *s, int m, cells_t *c);

/* SCRATCH with this state's cells, filled unless *filled says it holds them already (a round start ranks, looks for
 * a finishing proposal and takes the least bound on one state, with nothing else filling SCRATCH in between). */
static cells_t *scratch_cells(Engine *E, const uint32_t *s, int m, int *filled) {
    if (!*filled) fill_cells(E, s, m, &SCRATCH);
    *filled = 1;
    return &SCRATCH;
}

/* The answer cells of a class (row: its cell under each proposal) marked in lo[p] (cells 0-31) and hi[p] (32-63),
 * for every proposal p at once (vector instructions); hi only with six verifiers. */
VECTOR_CLONES
static void mark_low(const uint8_t *restrict row, uint32_t *restrict lo) {
    for (int p = 0; p < NPROP; p++) lo[p] |= 1u << row[p];
}

VECTOR_CLONES
static void mark_both(const uint8_t *restrict row, uint32_t *restrict lo, uint32_t *restrict hi) {
    for (int p = 0; p < NPROP; p++) {
        uint32_t x = row[p], bit = 1u << (x & 31);
        lo[p] |= bit & (0u - (uint32_t)(x < 32));
        hi[p] |= bit & (0u - (uint32_t)(x >= 32));
    }
}

/* The cells under every proposal of the code whose classes start at s[i], as masks (lo: cells 0-31, hi: 32-63, only
 * with more than 32 cells); the index past its classes. */
static int code_cells(const Engine *E, const uint32_t *s, int m, int i, uint32_t *lo, uint32_t *hi) {
    const int both = E->ncells > 32, cd = E->code[s[i]];
    memset(lo, 0, NPROP * sizeof(uint32_t));
    if (both) memset(hi, 0, NPROP * sizeof(uint32_t));
    for (; i < m && E->code[s[i]] == cd; i++) {
        const uint8_t *row = E->pat + (int64_t)s[i] * NPROP;
        if (both) mark_both(row, lo, hi);
        else mark_low(row, lo);
    }
    return i;
}

/* ``fill_cells`` without the weights, for a state of at most 64 codes: code by code, the cells its classes fall in
 * under every proposal, as masks; then the code's bit set in each of those cells. */
static void fill_codes(Engine *E, const uint32_t *s, int m, cells_t *c) {
    memset(c->cc1, 0, (size_t)E->ncells * sizeof(c->cc1[0]));
    uint32_t lo[NPROP], hi[NPROP];
    const int both = E->ncells > 32;
    for (int i = 0, local = 0; i < m; local++) {
        i = code_cells(E, s, m, i, lo, hi);
        uint64_t bit = (uint64_t)1 << local;
        for (int p = 0; p < NPROP; p++) {
            for (uint32_t x = lo[p]; x; x &= x - 1) c->cc1[__builtin_ctz(x)][p] |= bit;
            if (both)
                for (uint32_t x = hi[p]; x; x &= x - 1) c->cc1[32 + __builtin_ctz(x)][p] |= bit;
        }
    }
}

static void fill_cells(Engine *E, const uint32_t *s, int m, cells_t *c) {
    int nc = E->ncells;
    c->codes = code_count(E, s, m);
    c->words = c->codes <= 64 ? 1 : 2;
    const int weighed = E->expected; /* the worst case reads no weights (cw left as it was) */
    if (c->words == 1 && !weighed) {
        fill_codes(E, s, m, c);
        return;
    }
    if (weighed) memset(c->cw, 0, (size_t)nc * sizeof(c->cw[0]));
    if (c->words == 1) {
        memset(c->cc1, 0, (size_t)nc * sizeof(c->cc1[0]));
        int local = -1;
        for (int i = 0; i < m; i++) {
            int k = (int)s[i];
            if (i == 0 || E->code[k] != E->code[s[i - 1]]) local++;
            const uint8_t *row = E->pat + (int64_t)k * NPROP;
            int64_t w = E->wt[k];
            uint64_t bit = (uint64_t)1 << local;
            for (int p = 0; p < NPROP; p++) {
                int x = row[p];
                c->cw[x][p] += w;
                c->cc1[x][p] |= bit;
            }
        }
        return;
    }
    for (int p = 0; p < NPROP; p++) memset(c->cc[p], 0, nc * 2 * sizeof(uint64_t));
    for (int i = 0; i < m; i++) {
        int k = (int)s[i];
        const uint8_t *row = E->pat + (int64_t)k * NPROP;
        int64_t w = E->wt[k];
        int cd = E->code[k];
        uint64_t bit = (uint64_t)1 << (cd & 63);
        int word = cd >> 6;
        if (weighed)
            for (int p = 0; p < NPROP; p++) c->cw[row[p]][p] += w;
        for (int p = 0; p < NPROP; p++) c->cc[p][row[p]][word] |= bit;
    }
}

/* A proposal's bound from its cells (``Deduction.round_bounds``), raw (not joined with the state bound), and its
 * tie-break (smaller is more promising). */
static inline __attribute__((always_inline)) void proposal_bound_in(Engine *E, const cells_t *c, int p, cost_t *bound,
                                                                      int64_t *order, const int words) {
    int64_t nw[MAXNODES];
    uint64_t n0[MAXNODES], n1[MAXNODES];
    int nc = E->ncells;
    int64_t maxcw = 0;
    const int ex = E->expected;
    for (int x = 0; x < nc; x++) { /* the worst case: the most codes in a cell */
        int64_t w = ex ? c->cw[x][p]
                  : words == 1 ? __builtin_popcountll(c->cc1[x][p]) : popcount2(c->cc[p][x][0], c->cc[p][x][1]);
        if (w > maxcw) maxcw = w;
    }
    for (int d = 0; d < E->ndeep; d++) {
        int j = E->deep_nodes[d];
        const uint8_t *cells = E->deep_cell[d];
        int64_t w = 0;
        uint64_t a = 0, b = 0;
        for (int t = 0; t < E->deep_ncells; t++) {
            int x = cells[t];
            if (ex) w += c->cw[x][p];
            if (words == 1) {
                a |= c->cc1[x][p];
            } else {
                a |= c->cc[p][x][0];
                b |= c->cc[p][x][1];
            }
        }
        nw[j] = w;
        n0[j] = a;
        n1[j] = b;
    }
    for (int i = 0; i < E->nlevel_nodes; i++) {
        int j = E->level_node[i];
        int y = E->kid_yes[j][0], z = E->kid_no[j][0];
        if (ex) nw[j] = nw[y] + nw[z];
        n0[j] = n0[y] | n0[z];
        if (words == 2) n1[j] = n1[y] | n1[z];
    }
    cost_t value[MAXNODES];
    if (E->expected) {
        for (int j = 0; j < E->nnodes; j++) { /* two codes or more: another round and a question at least */
            int mixed = words == 1 ? (n0[j] & (n0[j] - 1)) != 0 : popcount2(n0[j], n1[j]) > 1;
            value[j] = mixed ? nw[j] * (SC + 1) : 0;
        }
        for (int i = 0; i < E->nlevel_nodes; i++) {
            int j = E->level_node[i];
            cost_t best = value[j];
            if (!best) continue; /* one code or none: nothing more to pay, no question does better */
            for (int t = 0; t < E->nkids[j]; t++) {
                cost_t a = value[E->kid_yes[j][t]] + value[E->kid_no[j][t]] + nw[j];
                if (a < best) best = a;
            }
            value[j] = best;
        }
        *bound = value[0] + nw[0] * SC;
        *order = maxcw;
    } else {
        int64_t kv[MAXNODES];
        for (int j = 0; j < E->nnodes; j++) {
            int k = words == 1 ? __builtin_popcountll(n0[j]) : popcount2(n0[j], n1[j]);
            value[j] = E->worst_leaf[k];
            kv[j] = k;
        }
        for (int i = 0; i < E->nlevel_nodes; i++) {
            int j = E->level_node[i];
            cost_t best = value[j];
            int64_t bk = kv[j];
            if (bk <= 1) continue; /* one code or none: worth nothing more, and its answers hold at most as many */
            for (int t = 0; t < E->nkids[j]; t++) {
                int y = E->kid_yes[j][t], z = E->kid_no[j][t];
                cost_t a = cmax(value[y], value[z]) + 1;
                if (a < best) best = a;
                int64_t b = kv[y] > kv[z] ? kv[y] : kv[z];
                if (b < bk) bk = b;
            }
            value[j] = best;
            kv[j] = bk;
        }
        *bound = value[0] + SC;
        *order = kv[0] * ((int64_t)1 << 40) + maxcw;
    }
}

static void proposal_bound(Engine *E, const cells_t *c, int p, cost_t *bound, int64_t *order) {
    if (c->words == 1) proposal_bound_in(E, c, p, bound, order, 1);
    else proposal_bound_in(E, c, p, bound, order, 2);
}

#define PB 32 /* proposals a block in the batched bounds below */

/* Each proposal's biggest cell, for the block of PB proposals from p0 (a tie-break): by weight in the expected case,
 * by its codes in the worst case (which fills no weights). */
static inline __attribute__((always_inline)) void block_most(const Engine *E, const cells_t *c, int p0, int64_t *most) {
    for (int k = 0; k < PB; k++) most[k] = 0;
    for (int x = 0; x < E->ncells; x++)
        for (int k = 0; k < PB; k++) {
            int64_t n = E->expected ? c->cw[x][p0 + k] : __builtin_popcountll(c->cc1[x][p0 + k]);
            most[k] = n > most[k] ? n : most[k];
        }
}

/* The expected case's question tree over the block of PB proposals from p0 (``proposal_bound``'s dynamic program),
 * in lanes of type T: each node's weights `nw`, codes `codes` (one word) and values `val`, a value rounds << SHIFT
 * plus questions; the root's are nw[0] and val[0]. A statement, in a function with E, c, p0 and those arrays. */
#define EXPECTED_TREE(T, U, SHIFT, CW, CC)                                                                                        \
    const int nd = E->ndeep, dc = E->deep_ncells;                                                                      \
    for (int d = 0; d < nd; d++) {                                                                                     \
        int j = E->deep_nodes[d];                                                                                      \
        T *w = nw[j], *v = val[j];                                                                                     \
        U *a = codes[j];                                                                                        \
        for (int k = 0; k < PB; k++) {                                                                                 \
            w[k] = 0;                                                                                                  \
            a[k] = 0;                                                                                                  \
        }                                                                                                              \
        for (int t = 0; t < dc; t++) {                                                                                 \
            int x = E->deep_cell[d][t];                                                                                \
            for (int k = 0; k < PB; k++) {                                                                             \
                w[k] += (T)CW[x][p0 + k];                                                                           \
                a[k] |= (U)CC[x][p0 + k];                                                                             \
            }                                                                                                          \
        }                                                                                                              \
        /* two codes or more: another round and a question at least (a mask of lanes, so the values stay in T) */   \
        T mixed[PB];                                                                                                   \
        for (int k = 0; k < PB; k++) mixed[k] = (T)0 - (T)((a[k] & (a[k] - 1)) != 0);                                  \
        for (int k = 0; k < PB; k++) v[k] = mixed[k] & ((w[k] << (SHIFT)) + w[k]);                                     \
    }                                                                                                                  \
    for (int i = 0; i < E->nlevel_nodes; i++) {                                                                        \
        int j = E->level_node[i];                                                                                      \
        T *w = nw[j], *v = val[j];                                                                                     \
        U *a = codes[j];                                                                                        \
        const T *wy = nw[E->kid_yes[j][0]], *wz = nw[E->kid_no[j][0]];                                                 \
        const U *ay = codes[E->kid_yes[j][0]], *az = codes[E->kid_no[j][0]];                                    \
        for (int k = 0; k < PB; k++) {                                                                                 \
            w[k] = wy[k] + wz[k];                                                                                      \
            a[k] = ay[k] | az[k];                                                                                      \
            v[k] = (w[k] << (SHIFT)) + w[k];                                                                           \
        }                                                                                                              \
        for (int t = 0; t < E->nkids[j]; t++) {                                                                        \
            const T *vy = val[E->kid_yes[j][t]], *vz = val[E->kid_no[j][t]];                                           \
            for (int k = 0; k < PB; k++) {                                                                             \
                T ask = vy[k] + vz[k] + w[k];                                                                          \
                v[k] = ask < v[k] ? ask : v[k];                                                                        \
            }                                                                                                          \
        }                                                                                                              \
        T mixed[PB];                                                                                                   \
        for (int k = 0; k < PB; k++) mixed[k] = (T)0 - (T)((a[k] & (a[k] - 1)) != 0);                                  \
        for (int k = 0; k < PB; k++) v[k] &= mixed[k];                                                                 \
    }

#define NARROW_WEIGHT 16384 /* states lighter than this fit expected_bounds' values in 32 bits (see below) */

/* ``expected_bounds`` in 32-bit lanes, twice as many a vector, for a state of weight under NARROW_WEIGHT: a value is
 * rounds * 2**16 + questions, and within one round's question tree no part pays over 4 questions an assignment
 * (three, then one where the tree stops), so questions stay under 2**16 and rounds under 2**15. No tie-breaks.
 * A state of at most 32 codes keeps its codes' masks in 32 bits too (its cells copied once into CW32 and CC32), so
 * that every lane of the tree is 32 bits wide: four a vector in WebAssembly, eight in AVX2. */
static int32_t CW32[MAXCELLS][NPAD];
static uint32_t CC32[MAXCELLS][NPAD];

VECTOR_CLONES
static void narrow_cells(const Engine *E, const cells_t *c) {
    for (int x = 0; x < E->ncells; x++)
        for (int p = 0; p < NPAD; p++) {
            CW32[x][p] = (int32_t)c->cw[x][p];
            CC32[x][p] = (uint32_t)c->cc1[x][p];
        }
}

VECTOR_CLONES
static void expected_bounds_narrow(Engine *E, const cells_t *c, cost_t *bound) {
    static int32_t nw[MAXNODES][PB], val[MAXNODES][PB];
    if (c->codes <= 32) {
        static uint32_t codes[MAXNODES][PB];
        narrow_cells(E, c);
        for (int p0 = 0; p0 < NPAD; p0 += PB) {
            EXPECTED_TREE(int32_t, uint32_t, 16, CW32, CC32)
            for (int k = 0; k < PB; k++)
                bound[p0 + k] = pack((int64_t)nw[0][k] + (val[0][k] >> 16), val[0][k] & 0xFFFF);
        }
        return;
    }
    static uint64_t codes[MAXNODES][PB];
    for (int p0 = 0; p0 < NPAD; p0 += PB) {
        EXPECTED_TREE(int32_t, uint64_t, 16, c->cw, c->cc1)
        for (int k = 0; k < PB; k++)
            bound[p0 + k] = pack((int64_t)nw[0][k] + (val[0][k] >> 16), val[0][k] & 0xFFFF);
    }
}

/* The expected case's ``proposal_bound`` of every proposal at once, for a state of at most 64 codes: the same
 * dynamic program over the question tree, node by node, for a block of PB proposals at a time (each node's weights,
 * codes and values one short array, which the compiler turns into vector instructions: AVX-512 or AVX2 where the
 * processor has them, chosen when the module loads). bound and order: NPAD entries, the last NPAD - NPROP not
 * meaningful; order NULL: no tie-breaks wanted. */
VECTOR_CLONES
static void expected_bounds(Engine *E, const cells_t *c, cost_t *bound, int64_t *order) {
    int64_t total = 0;
    for (int x = 0; x < E->ncells; x++) total += c->cw[x][0];
    if (total < NARROW_WEIGHT) { /* the same bounds in lanes twice as many; the tie-breaks on their own */
        expected_bounds_narrow(E, c, bound);
        if (order)
            for (int p0 = 0; p0 < NPAD; p0 += PB) block_most(E, c, p0, order + p0);
        return;
    }
    static int64_t nw[MAXNODES][PB], val[MAXNODES][PB];
    static uint64_t codes[MAXNODES][PB];
    for (int p0 = 0; p0 < NPAD; p0 += PB) {
        int64_t most[PB];
        if (order) block_most(E, c, p0, most);
        EXPECTED_TREE(int64_t, uint64_t, 32, c->cw, c->cc1)
        for (int k = 0; k < PB; k++) bound[p0 + k] = val[0][k] + (nw[0][k] << 32);
        if (order)
            for (int k = 0; k < PB; k++) order[p0 + k] = most[k];
    }
}

/* The worst case's ``proposal_bound`` of every proposal at once, for a state of at most 64 codes, as
 * ``expected_bounds`` does the expected case's: a node's value is the least over its questions of the worse answer's
 * plus one question, or its own codes' floor; with it, the fewest codes its worse answer can be left with (the
 * tie-break, then the most codes a cell holds). A node of one code or none keeps its own floor and count. */
VECTOR_CLONES
static void worst_bounds(Engine *E, const cells_t *c, cost_t *bound, int64_t *order) {
    static int64_t val[MAXNODES][PB], kv[MAXNODES][PB];
    static uint64_t codes[MAXNODES][PB];
    const int nd = E->ndeep, dc = E->deep_ncells;
    const cost_t *leaf = E->worst_leaf;
    for (int p0 = 0; p0 < NPAD; p0 += PB) {
        int64_t most[PB];
        block_most(E, c, p0, most);
        for (int d = 0; d < nd; d++) {
            int j = E->deep_nodes[d];
            uint64_t *a = codes[j];
            for (int k = 0; k < PB; k++) a[k] = 0;
            for (int t = 0; t < dc; t++) {
                const uint64_t *cx = c->cc1[E->deep_cell[d][t]] + p0;
                for (int k = 0; k < PB; k++) a[k] |= cx[k];
            }
            for (int k = 0; k < PB; k++) {
                int n = __builtin_popcountll(a[k]);
                kv[j][k] = n;
                val[j][k] = leaf[n];
            }
        }
        for (int i = 0; i < E->nlevel_nodes; i++) {
            int j = E->level_node[i];
            int64_t *v = val[j], *n = kv[j];
            uint64_t *a = codes[j];
            const uint64_t *ay = codes[E->kid_yes[j][0]], *az = codes[E->kid_no[j][0]];
            int64_t own[PB];
            for (int k = 0; k < PB; k++) {
                a[k] = ay[k] | az[k];
                own[k] = __builtin_popcountll(a[k]);
                v[k] = leaf[own[k]];
                n[k] = own[k];
            }
            for (int t = 0; t < E->nkids[j]; t++) {
                int y = E->kid_yes[j][t], z = E->kid_no[j][t];
                const int64_t *vy = val[y], *vz = val[z], *ny = kv[y], *nz = kv[z];
                for (int k = 0; k < PB; k++) {
                    int64_t ask = (vy[k] > vz[k] ? vy[k] : vz[k]) + 1;
                    int64_t worse = ny[k] > nz[k] ? ny[k] : nz[k];
                    v[k] = ask < v[k] ? ask : v[k];
                    n[k] = worse < n[k] ? worse : n[k];
                }
            }
            for (int k = 0; k < PB; k++)
                if (own[k] <= 1) {
                    v[k] = leaf[own[k]];
                    n[k] = own[k];
                }
        }
        for (int k = 0; k < PB; k++) {
            bound[p0 + k] = val[0][k] + SC;
            order[p0 + k] = kv[0][k] * ((int64_t)1 << 40) + most[k];
        }
    }
}

/* The proposals 0..NPROP-1, for ``some_bounds`` of them all (filled by the first tm_engine_new). */
static int ALL_PROPOSALS[NPROP];

/* ``proposal_bound`` of the proposals ps[0..np), into bound[p] and order[p] (NPAD entries): all at once where
 * ``expected_bounds`` or ``worst_bounds`` can, else one by one. */
static void some_bounds(Engine *E, const cells_t *c, const int *ps, int np, cost_t *bound, int64_t *order) {
    if (c->words == 1) {
        (E->expected ? expected_bounds : worst_bounds)(E, c, bound, order);
        return;
    }
    for (int i = 0; i < np; i++) proposal_bound(E, c, ps[i], &bound[ps[i]], &order[ps[i]]);
}

VECTOR_CLONES
static int meet_cells(const uint32_t *restrict cells, uint32_t *restrict seen, uint32_t *restrict clash) {
    uint32_t open = 0;
    for (int p = 0; p < NPROP; p++) {
        clash[p] |= seen[p] & cells[p];
        seen[p] |= cells[p];
        open |= ~clash[p];
    }
    return open != 0;
}

/* The proposals under which no answer cell of s holds two codes (all answers known, they end the game this round),
 * into ok; their count. Code by code, the cells its classes fall in under every proposal, as masks: a proposal is
 * out once a code's cells meet an earlier code's. Cheaper than filling the cells, which most round starts that
 * look for a finishing proposal then need no more. */
static int finishers(Engine *E, const uint32_t *s, int m, int *ok) {
    uint32_t seen[2][NPROP], clash[2][NPROP], lo[NPROP], hi[NPROP];
    const int both = E->ncells > 32;
    memset(seen, 0, sizeof(seen));
    memset(clash, 0, sizeof(clash));
    for (int i = 0; i < m;) {
        i = code_cells(E, s, m, i, lo, hi);
        int open = meet_cells(lo, seen[0], clash[0]);
        if (both) open = meet_cells(hi, seen[1], clash[1]) | open;
        if (!open) return 0;
    }
    int n = 0;
    for (int p = 0; p < NPROP; p++)
        if (!clash[0][p] && !clash[1][p]) ok[n++] = p;
    return n;
}

static int cmp_ranked(const void *a, const void *b) {
    const ranked_t *x = a, *y = b;
    if (x->bound != y->bound) return x->bound < y->bound ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->p - y->p;
}

/* Sort up to NPROP ranked proposals by cmp_ranked (a total order, so any sort agrees): a merge sort, as fast on
 * every C library (some qsorts are several times slower on these short lists). */
static void sort_ranked(ranked_t *a, int n) {
    ranked_t tmp[NPROP];
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n, hi = lo + 2 * width < n ? lo + 2 * width : n;
            int i = lo, j = mid, k = lo;
            while (i < mid && j < hi) tmp[k++] = cmp_ranked(&a[j], &a[i]) < 0 ? a[j++] : a[i++];
            while (i < mid) tmp[k++] = a[i++];
            while (j < hi) tmp[k++] = a[j++];
        }
        memcpy(a, tmp, (size_t)n * sizeof(ranked_t));
    }
}

/* Each verifier's pass side's hashes summed over the classes of s, under every proposal (t1, t2: [v][p]); vector
 * instructions where the processor has them. */
VECTOR_CLONES
static void side_sums(const Engine *E, const uint32_t *s, int m, uint64_t (*restrict t1)[NPROP],
                      uint64_t (*restrict t2)[NPROP]) {
    const int n = E->n;
    for (int i = 0; i < m; i++) {
        int k = (int)s[i];
        const uint8_t *row = E->pat + (int64_t)k * NPROP;
        uint64_t x1 = E->h1[k], x2 = E->h2[k];
        for (int v = 0; v < n; v++) {
            uint64_t *restrict u1 = t1[v], *restrict u2 = t2[v];
            for (int p = 0; p < NPROP; p++) {
                uint64_t on = (uint64_t)0 - (uint64_t)((row[p] >> v) & 1);
                u1[p] += x1 & on;
                u2[p] += x2 & on;
            }
        }
    }
}

/* One proposal per split signature, leaving out those that divide nothing (``distinct_proposals``); with twins
 * (indices of code symmetries that send the state onto itself), one per set of kinds they send onto each other. */
static int distinct_proposals(Engine *E, const uint32_t *s, int m, int *live, const int *twins, int ntw) {
    int n = E->n;
    uint64_t t1[MAXN][NPROP], t2[MAXN][NPROP];
    memset(t1, 0, sizeof(t1));
    memset(t2, 0, sizeof(t2));
    uint64_t a1 = 0, a2 = 0;
    for (int i = 0; i < m; i++) {
        a1 += E->h1[s[i]];
        a2 += E->h2[s[i]];
    }
    side_sums(E, s, m, t1, t2);
    const uint8_t *first = E->pat + (int64_t)s[0] * NPROP;
    uint64_t keys[NPROP];
    int nl = 0;
    for (int p = 0; p < NPROP; p++) {
        uint64_t k1 = 0, k2 = 0;
        for (int v = 0; v < n; v++) {
            uint64_t s1 = t1[v][p], s2 = t2[v][p];
            if (first[p] >> v & 1) { /* the canonical side is the one without the first class */
                s1 = a1 - s1;
                s2 = a2 - s2;
            }
            uint64_t hv = (s1 == 0 && s2 == 0) ? 0 : mix64(s1) + mix64(s2) * 0x9E3779B97F4A7C15ULL;
            k1 += hv;
            k2 += hv * hv;
        }
        uint64_t key = k1 ^ (k2 * 0xC2B2AE3D27D4EB4FULL);
        keys[p] = key;
    }
    int rep[NPROP]; /* each proposal's kind, as the kind's first proposal (a small hash table of the keys) */
    int16_t slot[256];
    memset(slot, -1, sizeof(slot));
    for (int p = 0; p < NPROP; p++) {
        unsigned j = (unsigned)(mix64(keys[p]) & 255);
        while (slot[j] >= 0 && keys[slot[j]] != keys[p]) j = (j + 1) & 255;
        if (slot[j] < 0) slot[j] = (int16_t)p;
        rep[p] = slot[j];
    }
    for (int p = 0; p < NPROP; p++) {
        if (rep[p] != p || keys[p] == 0) continue;
        int keep = 1;
        for (int t = 0; t < ntw && keep; t++)
            if (rep[E->map_code[twins[t] * NPROP + p]] < p) keep = 0;
        if (keep) live[nl++] = p;
    }
    return nl;
}


/* ---------------------------------------------------------------- deep bounds (expected case) */

static cost_t round_search(Engine *E, const uint32_t *s, int m, cost_t budget, cost_t known_floor);
static cost_t inside_search(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget);
static cost_t inside_sum(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget, uint64_t sum);
static cost_t round_floor(Engine *E, const uint32_t *s, int m);
static cost_t round_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum);
static cost_t deep_floor(Engine *E, const uint32_t *s, int m, cost_t cap, int *whole);
#define PREFETCH_AHEAD 4 /* nodes whose memo slots a deep bound fetches ahead */

/* A state's floor (K_FLOOR) is at least lb (sum: its class sum); `least`: lb holds the state's least one-round bound
 * over all proposals (marked in the entry's `best`, so a deep bound meeting the state again need not find it again). */
static void raise_floor(Engine *E, const uint32_t *s, int m, uint64_t sum, cost_t lb, int least) {
    entry_t *e = memo_slot(E, K_FLOOR, s, m, hash_of(K_FLOOR, m, sum));
    if (!e) return;
    if (e->value < lb) e->value = lb;
    if (least) e->best = 1;
}

/* A deep bound's question tree over what is known of its nodes: `dstop`, each deepest node's bound (its floor until
 * its least next-round bound is found), `own`, each node's floor, `wt`, its weight (0: empty or known). Stopping above
 * the deepest nodes costs at least both answers' together; then the best question tree over these. */
static cost_t deep_tree(const Engine *E, const cost_t *dstop, const cost_t *own, const cost_t *wt) {
    cost_t stop[MAXNODES];
    for (int j = 0; j < E->nnodes; j++) stop[j] = 0;
    for (int d = 0; d < E->ndeep; d++) stop[E->deep_nodes[d]] = dstop[E->deep_nodes[d]];
    for (int i = 0; i < E->nlevel_nodes; i++) {
        int j = E->level_node[i];
        cost_t both = 0;
        for (int t = 0; t < E->nkids[j]; t++) both = cmax(both, stop[E->kid_yes[j][t]] + stop[E->kid_no[j][t]]);
        if (wt[j]) stop[j] = cmax(both, own[j]);
    }
    for (int i = 0; i < E->nlevel_nodes; i++) {
        int j = E->level_node[i];
        cost_t best = stop[j];
        for (int t = 0; t < E->nkids[j]; t++) {
            cost_t a = stop[E->kid_yes[j][t]] + stop[E->kid_no[j][t]] + wt[j];
            if (a < best) best = a;
        }
        stop[j] = best;
    }
    return stop[0];
}

/* ``Solver._deep_bound``: a lower bound on a proposal's cost from this round start, a round deeper than its ranked
 * bound. Where the round stops at a deepest node of the question tree (every question asked), the node's assignments
 * get the least next-round bound over the proposals `nexts` (``Deduction.deepest_floors``); stopping higher up costs
 * at least the two answers' together. The deepest nodes' bounds are kept for the search below (``raise_floor``).
 * The nodes are taken heaviest first, and the bound stops as soon as it reaches `cap` (the proposal is ruled out):
 * *complete says whether every node was taken. A round start holding deeper_codes codes or more then goes a round
 * deeper still: each deepest node, heaviest first, gets its deep floor (``deep_floor``, the least of its own
 * proposals' deep bounds), again until the bound reaches `cap`. */
static cost_t deep_bound(Engine *E, const uint32_t *s, int m, int p, const int *nexts, int nn, cost_t cap,
                         int *complete) {
    uint64_t mark = E->stk_top;
    int N = E->nnodes;
    uint32_t *node[MAXNODES];
    int mn[MAXNODES];
    *complete = 0;
    for (int j = 0; j < N; j++) {
        node[j] = stk_push(E, (uint64_t)m);
        if (!node[j]) {
            E->stopped = STOP_MEMORY;
            E->stk_top = mark;
            return 0;
        }
        mn[j] = 0;
    }
    for (int i = 0; i < m; i++) {
        int x = E->pat[(int64_t)s[i] * NPROP + p];
        for (int t = 0; t < E->cell_nnodes[x]; t++) {
            int j = E->cell_nodes[x][t];
            node[j][mn[j]++] = s[i];
        }
    }
    cost_t own[MAXNODES], dstop[MAXNODES], wt[MAXNODES];
    uint64_t sum[MAXNODES];
    int todo[MAXNODES], nt = 0, live[MAXNODES], nl = 0;
    for (int j = 0; j < N; j++) {
        own[j] = dstop[j] = wt[j] = 0;
        if (!mn[j] || known(E, node[j], mn[j])) continue;
        sum[j] = class_sum(E, node[j], mn[j]);
        live[nl++] = j;
    }
    /* each node's memo slots fetched a few nodes ahead (a lookup would wait for memory) */
    for (int i = 0; i < nl + PREFETCH_AHEAD; i++) {
        if (i < nl) {
            int j = live[i];
            prefetch_slot(E, hash_of(K_FLOOR, mn[j], sum[j]));
            if (E->symmetric) prefetch_slot(E, hash_of(K_CANON, mn[j], sum[j]));
        }
        if (i < PREFETCH_AHEAD) continue;
        int j = live[i - PREFETCH_AHEAD];
        own[j] = dstop[j] = round_floor_sum(E, node[j], mn[j], lower_bound(E, node[j], mn[j]), sum[j]);
        wt[j] = weight(E, node[j], mn[j]);
    }
    for (int d = 0; d < E->ndeep; d++) {
        int j = E->deep_nodes[d];
        if (!wt[j]) continue;
        /* a node's state met before (its least next-round bound found) has it in its floor already */
        entry_t *f = memo_find(E, K_FLOOR, node[j], mn[j], hash_of(K_FLOOR, mn[j], sum[j]));
        if (!(f && f->best == 1)) todo[nt++] = j;
    }
    for (int a = 1; a < nt; a++) { /* heaviest first */
        int j = todo[a], b = a;
        for (; b > 0 && wt[todo[b - 1]] < wt[j]; b--) todo[b] = todo[b - 1];
        todo[b] = j;
    }
    const cost_t start = pack(weight(E, s, m), 0);
    cost_t total = deep_tree(E, dstop, own, wt) + start;
    cells_t *c = &SCRATCH;
    int i = 0;
    for (; i < nt && total < cap; i++) {
        int j = todo[i];
        /* the least next-round bound, but no lower than the node's own floor: the first proposal that reaches the
         * floor settles it */
        cost_t least = INF;
        fill_cells(E, node[j], mn[j], c);
        if (c->words == 1) {
            cost_t b[NPAD];
            expected_bounds(E, c, b, NULL); /* no tie-breaks */
            for (int t = 0; t < nn; t++) least = cmin(least, b[nexts[t]]);
        } else {
            for (int t = 0; t < nn && least > own[j]; t++) {
                cost_t b;
                int64_t o;
                proposal_bound(E, c, nexts[t], &b, &o);
                if (b < least) least = b;
            }
        }
        dstop[j] = cmax(least, own[j]);
        raise_floor(E, node[j], mn[j], sum[j], dstop[j], 1);
        total = deep_tree(E, dstop, own, wt) + start;
    }
    *complete = i == nt;
    if (*complete && total < cap && !E->deeper_now && E->deeper_codes && code_count(E, s, m) >= E->deeper_codes) {
        int all[MAXNODES], na = 0, whole_all = 1, k = 0;
        for (int d = 0; d < E->ndeep; d++)
            if (wt[E->deep_nodes[d]]) all[na++] = E->deep_nodes[d];
        for (int a = 1; a < na; a++) { /* heaviest first, as above */
            int j = all[a], b = a;
            for (; b > 0 && wt[all[b - 1]] < wt[j]; b--) all[b] = all[b - 1];
            all[b] = j;
        }
        E->deeper_now = 1;
        for (; k < na && total < cap; k++) {
            /* raising one node's bound raises the whole by as much at most: past what is missing, no need */
            int j = all[k], whole;
            cost_t f = deep_floor(E, node[j], mn[j], dstop[j] + (cap - total), &whole);
            if (E->stopped) break;
            whole_all &= whole;
            if (f > dstop[j]) {
                dstop[j] = f;
                total = deep_tree(E, dstop, own, wt) + start;
            }
        }
        E->deeper_now = 0;
        *complete = k == na && whole_all;
    }
    E->stk_top = mark;
    return total;
}

/* A proposal's deep bound (r, with its state) into the ranked list memoised with its round start (s, m; h, its key's
 * hash) at position `at`, if the entry is still there: the deep bound may have forgotten the memo. */
static void keep_deep(Engine *E, const uint32_t *s, int m, uint64_t h, int at, const ranked_t *r) {
    entry_t *e = memo_find(E, K_ROUND, s, m, h);
    if (!e || e->aux_off < 0 || at < 0 || at >= e->aux_len) return;
    ranked_t *kept = (ranked_t *)(void *)(E->arena + e->aux_off) + at;
    ranked_t k;
    memcpy(&k, kept, sizeof(k));
    if (k.p != r->p) return;
    k.deep = r->deep;
    k.deep_state = r->deep_state;
    memcpy(kept, &k, sizeof(k));
}

/* ``Solver._deepen_at``: ranked[i], the first of the ranked proposals left to search, with its bound raised a round
 * deeper and moved to its place among ranked[i..nr) again. The deep bound is memoised in the round start's ranked list
 * (``keep_deep``; `h`, its key's hash, `at[p]`, each proposal's place in it), with whether it is whole. The search
 * deepens a proposal only when it comes up, so one whose ranked bound already reaches the best found (or the budget)
 * is never deepened; the deep bound stops once it reaches `cap`, and one stopped below a later cap is taken further.
 * The time limit is checked before each deep bound, and signals every 64. `nexts` / *nn: the state's distinct
 * proposals, found on first need (*nn < 0 until then). */
static void deepen_at(Engine *E, const uint32_t *s, int m, ranked_t *ranked, int i, int nr, cost_t cap, uint64_t h,
                      const int16_t *at, int *nexts, int *nn) {
    ranked_t r = ranked[i];
    if (!(r.deep_state == DEEP_WHOLE || (r.deep_state == DEEP_PART && r.deep >= cap))) {
        if (past_deadline(E)) {
            E->stopped = STOP_TIME;
            return;
        }
        if (!(E->deep_bounds & 63)) { /* deep floors take many deep bounds between two steps */
            look_at_signals(E);
            if (E->stopped) return;
        }
        if (*nn < 0) *nn = distinct_proposals(E, s, m, nexts, NULL, 0);
        int complete;
        cost_t d = cmax(r.bound, deep_bound(E, s, m, r.p, nexts, *nn, cap, &complete));
        if (E->stopped) return;
        if (r.deep_state == DEEP_NONE) E->deep_bounds++;
        r.deep = cmax(d, r.deep); /* with what a deep bound stopped before found */
        r.deep_state = complete ? DEEP_WHOLE : DEEP_PART;
        keep_deep(E, s, m, h, at[r.p], &r);
    }
    r.bound = r.deep;
    int j = i;
    for (; j + 1 < nr && cmp_ranked(&ranked[j + 1], &r) < 0; j++) ranked[j] = ranked[j + 1];
    ranked[j] = r;
}

/* ---------------------------------------------------------------- the search */


static inline cost_t round_cost(Engine *E, const uint32_t *s, int m) {
    return E->expected ? pack(weight(E, s, m), 0) : pack(1, 0);
}

static inline cost_t question_cost(Engine *E, const uint32_t *s, int m) {
    return E->expected ? weight(E, s, m) : 1;
}

/* ``Solver._cheap_floor``: the state bound, or what a deep bound of a round before found for it. */
static cost_t cheap_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum) {
    if (E->deep) {
        entry_t *e = memo_find(E, K_FLOOR, s, m, hash_of(K_FLOOR, m, sum));
        if (e && e->value > lb) lb = e->value;
    }
    return lb;
}

/* ``Solver._round_floor``: exact if memoised, else what the search learnt, else the cheap floor; `lb`, the state's
 * bound (``lower_bound``), and `sum`, its class sum (``class_sum``). */
static cost_t round_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum) {
    lb = cheap_floor_sum(E, s, m, lb, sum);
    entry_t *e;
    if (E->symmetric && m != 0 && m != E->K) { /* the canonical form only if already known */
        entry_t *c = memo_find(E, K_CANON, s, m, hash_of(K_CANON, m, sum));
        if (!c || c->aux_off < 0) return lb;
        e = memo_find_kept(E, K_ROUND, E->arena + c->aux_off, m, hash_of(K_ROUND, m, (uint64_t)c->value));
    } else {
        e = memo_find(E, K_ROUND, s, m, hash_of(K_ROUND, m, sum));
    }
    if (!e) return lb;
    if (e->exact) return e->value;
    return cmax(lb, e->value);
}

static cost_t round_floor(Engine *E, const uint32_t *s, int m) {
    return round_floor_sum(E, s, m, lower_bound(E, s, m), class_sum(E, s, m));
}

/* The ranked proposals of a round start (``Solver._ranked_proposals``), into out; their count. */
/* ``Deduction.automorphisms``: the code symmetries that send this (canonical) state onto itself, Nightmare: onto
 * a relabelling of it. */
static int automorphisms(Engine *E, const uint32_t *s, int m, int *out) {
    if (!E->nmaps) return 0;
    int64_t wc[NPROP] = {0};
    for (int i = 0; i < m; i++) wc[E->code[s[i]]] += E->wt[s[i]];
    uint64_t mark = E->stk_top;
    uint32_t *img = stk_push(E, (uint64_t)m), *form = stk_push(E, (uint64_t)m), *tmp = stk_push(E, (uint64_t)m);
    if (!img || !form || !tmp) {
        E->stk_top = mark;
        return 0;
    }
    int n = 0;
    for (int t = 0; t < E->nmaps; t++) {
        const int32_t *cm = E->map_code + t * NPROP;
        int same = 1;
        for (int c = 0; c < NPROP && same; c++) same = wc[cm[c]] == wc[c];
        if (!same) continue; /* the codes' weights already differ */
        const int32_t *km = E->map_class + (int64_t)t * E->K;
        for (int i = 0; i < m; i++) img[i] = (uint32_t)km[s[i]];
        sort_classes(E, img, m);
        const uint32_t *cmp = img;
        if (E->symmetric) {
            canonical(E, img, m, form, tmp);
            cmp = form;
        }
        if (memcmp(cmp, s, (size_t)m * 4) == 0) out[n++] = t;
    }
    E->stk_top = mark;
    return n;
}

static int ranked_proposals(Engine *E, const uint32_t *s, int m, ranked_t *out, int *filled) {
    int live[NPROP], twins[64] = {0}; /* only the first ntw are read (gcc cannot tell) */
    int ntw = automorphisms(E, s, m, twins);
    int nl = distinct_proposals(E, s, m, live, twins, ntw);
    cells_t *c = scratch_cells(E, s, m, filled);
    cost_t lb0 = lower_bound(E, s, m);
    int64_t r0 = lb0 >> 32, q0 = lb0 & (SC - 1);
    cost_t bs[NPAD];
    int64_t os[NPAD];
    some_bounds(E, c, live, nl, bs, os);
    for (int i = 0; i < nl; i++) {
        cost_t b = bs[live[i]];
        int64_t o = os[live[i]];
        if (E->expected) {
            int64_t r = b >> 32, q = b & (SC - 1);
            if (r < r0) b = pack(r0, q0);
            else b = pack(r, q > q0 ? q : q0);
        } else if (b < lb0) {
            b = lb0;
        }
        out[i].bound = b;
        out[i].order = o;
        out[i].p = live[i];
        out[i].deep_state = DEEP_NONE;
        out[i].deep = 0;
    }
    sort_ranked(out, nl);
    return nl;
}

/* ``Solver._finishing``: the best proposal that ends the game in this round, or -1. */
#define FINISH_BATCH 24 /* finishing proposals from which their bounds are worked out all at once (``some_bounds``) */
static int finish_move(Engine *E, const uint32_t *s, int m, cost_t *value, int *filled) {
    int ok[NPROP], nf = finishers(E, s, m, ok);
    if (!nf) return -1;
    cells_t *c = scratch_cells(E, s, m, filled);
    ranked_t best = {INF, INF, -1, DEEP_NONE, 0};
    cost_t bs[NPAD];
    int64_t os[NPAD];
    const int batch = c->words == 1 && nf >= FINISH_BATCH; /* many: all 125 bounds at once cost less */
    if (batch) some_bounds(E, c, ALL_PROPOSALS, NPROP, bs, os);
    for (int i = 0; i < nf; i++) {
        int p = ok[i];
        ranked_t r;
        if (batch) {
            r.bound = bs[p];
            r.order = os[p];
        } else {
            proposal_bound(E, c, p, &r.bound, &r.order);
        }
        r.p = p;
        if (best.p < 0 || cmp_ranked(&r, &best) < 0) best = r;
    }
    if (best.p < 0) return -1;
    int64_t rounds = best.bound >> 32;
    if (rounds != (E->expected ? weight(E, s, m) : 1)) return -1;
    *value = best.bound;
    return best.p;
}

/* ``Deduction.worst_round_floor``: the least worst-case bound over all 125 proposals. */
static cost_t worst_round_floor(Engine *E, const uint32_t *s, int m, int *filled) {
    cost_t b[NPAD], least = INF;
    int64_t o[NPAD];
    some_bounds(E, scratch_cells(E, s, m, filled), ALL_PROPOSALS, NPROP, b, o);
    for (int p = 0; p < NPROP; p++) least = cmin(least, b[p]);
    return least;
}

/* A round start's proposal that ends the game this round (``finish_move``), its exact value memoised (h: the state's
 * key's hash) and put in *value: 1, or 0 if none does. */
static int finish_here(Engine *E, const uint32_t *s, int m, uint64_t h, cost_t *value, int *filled) {
    int fp = finish_move(E, s, m, value, filled);
    if (fp < 0) return 0;
    store(E, K_ROUND, s, m, h, 1, *value, fp);
    return 1;
}

/* A round start's ranked proposals (``ranked_proposals``) into `ranked`, kept in its memo entry (h: its key's hash);
 * their count, or 0 with the search stopped on an error when no proposal tells its assignments apart. */
static int rank_and_keep(Engine *E, const uint32_t *s, int m, uint64_t h, ranked_t *ranked, int *filled) {
    int nr = ranked_proposals(E, s, m, ranked, filled);
    if (nr == 0) {
        fail("no proposal tells the remaining assignments apart", TM_ERROR);
        E->stopped = STOP_FAILED;
        return 0;
    }
    entry_t *slot = memo_slot(E, K_ROUND, s, m, h);
    if (slot) {
        int64_t off = arena_alloc(E, (uint64_t)nr * sizeof(ranked_t) / 4);
        if (off >= 0) {
            memcpy(E->arena + off, ranked, (size_t)nr * sizeof(ranked_t));
            slot->aux_off = off;
            slot->aux_len = nr;
        }
    }
    return nr;
}

/* ``round_search`` of a state whose class sum the caller may know (0: not known). */
static cost_t round_sum(Engine *E, const uint32_t *s, int m, cost_t budget, cost_t known_floor, uint64_t sum) {
    if (m == 0 || known(E, s, m)) return 0;
    cost_t lb = lower_bound(E, s, m);
    if (E->deep) {
        if (!sum) sum = class_sum(E, s, m);
        lb = cheap_floor_sum(E, s, m, lb, sum);
    }
    cost_t floor = cmax(lb, known_floor);
    if (floor >= budget) return floor;
    uint64_t mark = E->stk_top;
    if (!sum) sum = class_sum(E, s, m);
    uint64_t form_sum;
    uint32_t *form = canon_sum(E, s, m, sum, &form_sum);
    if (!form) {
        E->stopped = STOP_MEMORY;
        return floor;
    }
    s = form;
    cost_t result;
    int best_p = -1;
    {
        uint64_t h = hash_of(K_ROUND, m, form_sum);
        entry_t *e = memo_find(E, K_ROUND, s, m, h);
        if (e && (e->exact || (!E->expected && e->upper < budget))) {
            result = e->exact ? e->value : e->upper;
            goto done;
        }
        tick(E);
        if (E->stopped) {
            result = floor;
            goto done;
        }
        if (e) floor = cmax(floor, e->value);
        if (floor >= budget) {
            result = floor;
            goto done;
        }
        int64_t has_ranked = e && e->aux_off >= 0;
        cost_t cost = round_cost(E, s, m);
        cost_t later = E->expected ? cost + pack(2, 0) : pack(2, 1);
        int filled = 0; /* SCRATCH holds this state's cells (one fill for the three uses below) */
        ranked_t ranked[NPROP];
        int nr = 0;
        if (has_ranked) {
            nr = e->aux_len;
            memcpy(ranked, E->arena + e->aux_off, (size_t)nr * sizeof(ranked_t));
            if ((ranked[0].bound >> 32) == (cost >> 32)) {
                store(E, K_ROUND, s, m, h, 1, ranked[0].bound, ranked[0].p);
                result = ranked[0].bound;
                goto done;
            }
        } else if (floor < later) {
            if (finish_here(E, s, m, h, &result, &filled)) goto done;
            floor = later;
            if (floor >= budget) {
                store(E, K_ROUND, s, m, h, 0, floor, -1);
                result = floor;
                goto done;
            }
        }
        if (!has_ranked && !E->expected && known_floor > 0) {
            floor = cmax(floor, worst_round_floor(E, s, m, &filled));
            if (floor >= budget) {
                store(E, K_ROUND, s, m, h, 0, floor, -1);
                result = floor;
                goto done;
            }
        }
        if (!has_ranked && !(nr = rank_and_keep(E, s, m, h, ranked, &filled))) {
            result = floor;
            goto done;
        }
        /* deep bounds: each proposal's raised when it comes up (deepen_at) */
        const int codes = code_count(E, s, m);
        int deep = E->deep && E->deep_codes && codes >= E->deep_codes, nn = -1, nexts[NPROP];
        const int lazy = deep && E->deeper_codes && codes >= E->deeper_codes;
        uint8_t deepened[NPROP] = {0};
        int16_t at[NPROP]; /* each proposal's place in the memoised ranked list */
        if (deep) {
            for (int p = 0; p < NPROP; p++) at[p] = -1;
            for (int k = 0; k < nr; k++) at[ranked[k].p] = (int16_t)k;
        }
        cost_t best = INF, fail = INF;
        for (int i = 0; i < nr; i++) {
            cost_t cap = cmin(best, budget);
            if (ranked[i].bound >= cap) {
                fail = cmin(fail, ranked[i].bound);
                break;
            }
            const int p = ranked[i].p;
            if (deep && (!deepened[p] || (deepened[p] == 1 && ranked[i].deep_state == DEEP_PART))) {
                /* where deep bounds go deeper, a proposal's first one is taken only as far as the bound of the next
                 * proposal deepened already: enough to rank it (taken further should it come first again) */
                cost_t dcap = cap;
                if (lazy && !deepened[p])
                    for (int j = i + 1; j < nr; j++)
                        if (deepened[ranked[j].p]) {
                            dcap = cmin(cap, ranked[j].bound);
                            break;
                        }
                deepened[p]++;
                deepen_at(E, s, m, ranked, i, nr, dcap, h, at, nexts, &nn);
                if (E->stopped) {
                    result = floor;
                    goto done;
                }
                i--; /* ranked[i] is the next to search again */
                continue;
            }
            cost_t inner = inside_sum(E, s, m, ranked[i].p, QPR, cap - cost, form_sum);
            if (E->stopped) {
                result = floor;
                goto done;
            }
            cost_t val = cost + inner;
            if (val < best) {
                if (E->expected && val < budget) store_incumbent(E, s, m, h, val, ranked[i].p);
                best = val;
                best_p = ranked[i].p;
                if (found_enough(E, best, floor, budget)) break;
            }
        }
        if (best < budget) {
            store_found(E, K_ROUND, s, m, h, best, best_p, floor);
            result = best;
            goto done;
        }
        cost_t low = cmax(floor, cmin(best, fail));
        store(E, K_ROUND, s, m, h, 0, low, -1);
        result = low;
    }
done:
    E->stk_top = mark;
    return result;
}

static cost_t round_search(Engine *E, const uint32_t *s, int m, cost_t budget, cost_t known_floor) {
    return round_sum(E, s, m, budget, known_floor, 0);
}

/* ``Solver._deep_floor``: a round start's least bound over its proposals, each deep bound found as its proposal comes
 * first (``deepen_at``), memoised as the state's learnt bound with its ranked proposals; a lower bound on its value a
 * round deeper than the least one-round bound, but no search. It stops once the least reaches `cap`: *whole says
 * whether it is the least of them all (not stopped there). */
static cost_t deep_floor(Engine *E, const uint32_t *s, int m, cost_t cap, int *whole) {
    *whole = 1;
    if (m == 0 || known(E, s, m)) return 0;
    uint64_t mark = E->stk_top, sum = class_sum(E, s, m), form_sum;
    cost_t lb = cheap_floor_sum(E, s, m, lower_bound(E, s, m), sum), result = lb;
    uint32_t *form = canon_sum(E, s, m, sum, &form_sum);
    if (!form) {
        E->stopped = STOP_MEMORY;
        return lb;
    }
    E->deep_floors++;
    s = form;
    uint64_t h = hash_of(K_ROUND, m, form_sum);
    entry_t *e = memo_find(E, K_ROUND, s, m, h);
    if (e && e->exact) {
        result = e->value;
        goto done;
    }
    if (e) lb = result = cmax(lb, e->value);
    if (lb >= cap) {
        *whole = 0;
        goto done;
    }
    cost_t cost = round_cost(E, s, m), later = cost + pack(2, 0);
    ranked_t ranked[NPROP];
    int nr;
    if (e && e->aux_off >= 0) {
        nr = e->aux_len;
        memcpy(ranked, E->arena + e->aux_off, (size_t)nr * sizeof(ranked_t));
        if ((ranked[0].bound >> 32) == (cost >> 32)) { /* a proposal ends the game this round */
            store(E, K_ROUND, s, m, h, 1, ranked[0].bound, ranked[0].p);
            result = ranked[0].bound;
            goto done;
        }
    } else {
        int filled = 0;
        if (lb < later) {
            if (finish_here(E, s, m, h, &result, &filled)) goto done;
            lb = result = later;
            if (lb >= cap) {
                *whole = 0;
                store(E, K_ROUND, s, m, h, 0, lb, -1);
                goto done;
            }
        }
        if (!(nr = rank_and_keep(E, s, m, h, ranked, &filled))) goto done;
    }
    int16_t at[NPROP];
    for (int p = 0; p < NPROP; p++) at[p] = -1;
    for (int k = 0; k < nr; k++) at[ranked[k].p] = (int16_t)k;
    uint8_t deepened[NPROP] = {0};
    int nn = -1, nexts[NPROP];
    while (ranked[0].bound < cap && !deepened[ranked[0].p]) {
        deepened[ranked[0].p] = 1;
        deepen_at(E, s, m, ranked, 0, nr, cap, h, at, nexts, &nn);
        if (E->stopped) goto done;
    }
    result = cmax(lb, ranked[0].bound);
    if (result >= cap) *whole = 0;
    store(E, K_ROUND, s, m, h, 0, result, -1);
done:
    E->stk_top = mark;
    return result;
}

/* The cells of `present` in which verifier v's answer differs from its answer in cell `last`: verifier v's side
 * that does not hold the cell of the state's last class (the canonical y). */
static inline uint64_t other_side(const Engine *E, uint64_t present, int last, int v) {
    return present & ((last >> v) & 1 ? ~E->cells_with[v] : E->cells_with[v]);
}

/* The distinct non-trivial verifiers of proposal p on a state filling the answer cells `present` (first of each
 * split), the state's last class in cell `last`, and each one's side without it (ys: its cells). */
static int splits_in(const Engine *E, uint64_t present, int last, int *vs, uint64_t *ys) {
    int nv = 0;
    for (int v = 0; v < E->n; v++) {
        uint64_t y = other_side(E, present, last, v);
        if (!y) continue;
        int dup = 0;
        for (int t = 0; t < nv && !dup; t++) dup = ys[t] == y;
        if (!dup) {
            ys[nv] = y;
            vs[nv++] = v;
        }
    }
    return nv;
}

/* The classes of s (their cells in xs) in the cells `y`, and the rest. */
static void split_cells(const uint32_t *s, const uint8_t *xs, int m, uint64_t y, uint32_t *ys, int *my, uint32_t *zs,
                        int *mz) {
    int a = 0, b = 0;
    for (int i = 0; i < m; i++) {
        if ((y >> xs[i]) & 1) ys[a++] = s[i];
        else zs[b++] = s[i];
    }
    *my = a;
    *mz = b;
}

/* The side of verifier v's split that does not hold the state's last class (the canonical y), and the rest. */
static void split_sides(Engine *E, const uint32_t *s, int m, int p, int v, uint32_t *y, int *my, uint32_t *z,
                        int *mz) {
    const uint8_t *row = E->pat_t + (int64_t)p * E->K;
    uint8_t last = (row[s[m - 1]] >> v) & 1;
    int a = 0, b = 0;
    for (int i = 0; i < m; i++) {
        if (((row[s[i]] >> v) & 1) != last) y[a++] = s[i];
        else z[b++] = s[i];
    }
    *my = a;
    *mz = b;
}

/* ``Solver._after``: the cost after an answer left s with `left` questions (go on, or a new round). */
static cost_t after(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget, uint64_t cells, uint64_t sum) {
    if (known(E, s, m)) return 0;
    int vs[MAXN];
    uint64_t ys[MAXN];
    int nv = left ? splits_in(E, cells, E->pat_t[(int64_t)p * E->K + s[m - 1]], vs, ys) : 0;
    if (!nv) return round_sum(E, s, m, budget, 0, sum);
    cost_t go_on = inside_sum(E, s, m, p, left, budget, sum);
    if (E->stopped) return go_on;
    if (!E->expected && go_on < budget) return go_on; /* the worst case takes the first under the budget */
    cost_t least = go_on - question_cost(E, s, m);
    if (E->expected) {
        /* _parts_floor: each answer's round floor together, a known answer still paying its round */
        uint64_t mark = E->stk_top;
        uint32_t *y = stk_push(E, (uint64_t)m), *z = stk_push(E, (uint64_t)m);
        if (!y || !z) {
            E->stopped = STOP_MEMORY;
            return go_on;
        }
        cost_t best = 0;
        for (int t = 0; t < nv; t++) {
            int my, mz;
            split_sides(E, s, m, p, vs[t], y, &my, z, &mz);
            cost_t a = known(E, y, my) ? pack(weight(E, y, my), 0) : round_floor(E, y, my);
            cost_t b = known(E, z, mz) ? pack(weight(E, z, mz), 0) : round_floor(E, z, mz);
            best = cmax(best, a + b);
        }
        E->stk_top = mark;
        least = cmax(least, best);
    }
    cost_t new_round = round_sum(E, s, m, cmin(budget, go_on), least, sum);
    return cmin(go_on, new_round);
}

typedef struct {
    cost_t bound, la, lb;
    int64_t lean_abs, lean;
    int v;
} option_t;

static int cmp_option(const void *a, const void *b) {
    const option_t *x = a, *y = b;
    if (x->bound != y->bound) return x->bound < y->bound ? -1 : 1;
    if (x->lean_abs != y->lean_abs) return x->lean_abs < y->lean_abs ? -1 : 1;
    return x->v - y->v;
}

/* ``Solver._probe`` */
static int probe_budget(Engine *E, cost_t room, cost_t first_lb, cost_t second_lb, cost_t *at) {
    if (room > INF / 2) return 0;
    double slack = (double)(room - first_lb - second_lb);
    if (slack * E->probe_share < 1) return 0;
    *at = first_lb + (int64_t)(slack * E->probe_share);
    return 1;
}

/* ``Solver._tree_floor``: a lower bound on `left` more questions to the round's proposal over the answer cells
 * `cells` of a state (each cell's weight and codes; `ask`: at least one), then, where the tree stops, another round
 * and a question for each assignment of a part of two codes or more (expected case), or its codes' floor (worst
 * case): ``proposal_bound``'s dynamic program from inside the round, counting what the questions left can tell
 * apart. */
static cost_t tree_floor(const Engine *E, uint64_t cells, int left, int ask, const int64_t *cell_w,
                         uint64_t (*cell_c)[2]) {
    int64_t w = 0;
    uint64_t ca = 0, cb = 0;
    for (uint64_t r = cells; r; r &= r - 1) {
        int x = __builtin_ctzll(r);
        w += cell_w[x];
        ca |= cell_c[x][0];
        cb |= cell_c[x][1];
    }
    int k = popcount2(ca, cb);
    if (k <= 1) return 0;
    cost_t best = ask ? INF : E->expected ? w * (SC + 1) : E->worst_leaf[k];
    if (!left) return best;
    for (int v = 0; v < E->n; v++) {
        uint64_t y = cells & E->cells_with[v], z = cells & ~E->cells_with[v];
        if (!y || !z) continue;
        cost_t a = tree_floor(E, y, left - 1, 0, cell_w, cell_c), b = tree_floor(E, z, left - 1, 0, cell_w, cell_c);
        a = E->expected ? w + a + b : 1 + cmax(a, b);
        if (a < best) best = a;
    }
    return best;
}

/* ``inside_search`` of a state whose class sum the caller may know (0: not known). */
static cost_t inside_sum(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget, uint64_t sum) {
    uint32_t head = inside_head(p, left);
    cost_t floor = 0;
    uint64_t h = hash_of(head, m, sum ? sum : class_sum(E, s, m));
    {
        entry_t *e = memo_find(E, head, s, m, h);
        if (e) {
            if (e->exact) return e->value;
            if (e->upper < budget) return e->upper;
            floor = e->value;
        }
    }
    if (floor >= budget) return floor;
    tick(E);
    if (E->stopped) return floor;
    uint64_t mark = E->stk_top;
    /* one pass over the classes: each one's answer cell (xs), each cell's weight and codes; _child_bounds: the parts
     * the proposal cannot tell apart are its answer cells within the state, a cell of two codes or more is stuck */
    const uint8_t *row = E->pat_t + (int64_t)p * E->K;
    uint8_t *xs = (uint8_t *)stk_push(E, ((uint64_t)m + 3) / 4);
    if (!xs) {
        E->stopped = STOP_MEMORY;
        E->stk_top = mark;
        return floor;
    }
    const int nc = E->ncells;
    int64_t cell_w[MAXCELLS];
    uint64_t cell_c[MAXCELLS][2], cell_h[MAXCELLS];
    for (int x = 0; x < nc; x++) {
        cell_w[x] = 0;
        cell_c[x][0] = cell_c[x][1] = cell_h[x] = 0;
    }
    uint64_t present = 0, stuck = 0;
    for (int i = 0; i < m; i++) {
        int x = row[s[i]], c = E->code[s[i]];
        xs[i] = (uint8_t)x;
        present |= (uint64_t)1 << x;
        cell_w[x] += E->wt[s[i]];
        cell_h[x] += E->h1[s[i]];
        cell_c[x][c >> 6] |= (uint64_t)1 << (c & 63);
    }
    int64_t total = 0;
    for (int x = 0; x < nc; x++) {
        total += cell_w[x];
        if (popcount2(cell_c[x][0], cell_c[x][1]) > 1) stuck |= (uint64_t)1 << x;
    }
    int vs[MAXN];
    uint64_t ys[MAXN];
    int nv = splits_in(E, present, xs[m - 1], vs, ys);
    cost_t q = E->expected ? total : 1; /* question_cost */
    /* the sides of every split, kept on the stack, each split's classes parted when first needed */
    uint32_t *side_y[MAXN], *side_z[MAXN];
    int my[MAXN], mz[MAXN], parted[MAXN];
    for (int t = 0; t < nv; t++) {
        side_y[t] = stk_push(E, (uint64_t)m);
        side_z[t] = stk_push(E, (uint64_t)m);
        if (!side_y[t] || !side_z[t]) {
            E->stopped = STOP_MEMORY;
            E->stk_top = mark;
            return floor;
        }
        parted[t] = 0;
    }
#define PART(t)                                                                                                        \
    if (!parted[t]) {                                                                                                  \
        split_cells(s, xs, m, ys[t], side_y[t], &my[t], side_z[t], &mz[t]);                                            \
        parted[t] = 1;                                                                                                 \
    }
    option_t opts[MAXN];
    uint64_t side_sum[MAXN][2]; /* each side's class sum (its memo keys' hashes) */
    for (int t = 0; t < nv; t++) {
        cost_t sides[2];
        int64_t wy = 0; /* side y's weight (the lean) */
        for (int side = 0; side < 2; side++) {
            uint64_t cells = side ? present & ~ys[t] : ys[t], ca = 0, cb = 0, hs = 0;
            int64_t w = 0;
            for (uint64_t r = cells; r; r &= r - 1) {
                int x = __builtin_ctzll(r);
                ca |= cell_c[x][0];
                cb |= cell_c[x][1];
                hs += cell_h[x];
                w += cell_w[x];
            }
            side_sum[t][side] = hs;
            if (!side) wy = w;
            int k = popcount2(ca, cb);
            if (k == 1) { /* known */
                sides[side] = 0;
                continue;
            }
            if (left - 1 == 0 || E->expected) PART(t);
            const uint32_t *ss = side ? side_z[t] : side_y[t];
            int ms = side ? mz[t] : my[t];
            if (left - 1 == 0) {
                cost_t lbs = E->expected ? lower_bound(E, ss, ms) : worst_floor_at_depth(depth2(k), 0);
                sides[side] = round_floor_sum(E, ss, ms, lbs, hs);
            } else if (E->expected) {
                /* going on: the assignments in stuck parts need another round, and so do those the questions
                 * left cannot tell apart */
                int64_t stuck_w = 0;
                for (uint64_t r = cells & stuck; r; r &= r - 1) stuck_w += cell_w[__builtin_ctzll(r)];
                cost_t lbs = lower_bound(E, ss, ms), rf = round_floor_sum(E, ss, ms, lbs, hs);
                int64_t hq = lbs & (SC - 1);
                cost_t going_on = pack(stuck_w, hq);
                if (going_on < rf) { /* the question tree may raise it (else the round floor is the lesser) */
                    cost_t tree = tree_floor(E, cells, left - 1, 1, cell_w, cell_c);
                    int64_t tr = tree >> 32, tq = tree & (SC - 1);
                    going_on = pack(tr > stuck_w ? tr : stuck_w, tq > hq ? tq : hq);
                }
                sides[side] = cmin(rf, going_on);
            } else {
                cost_t going_on = worst_floor_at_depth(depth2(k), left - 1); /* lower_bound's depth */
                if ((going_on >> 32) == 0 && (cells & stuck)) going_on = pack(1, 1);
                /* or stopping here: no question first */
                going_on = cmax(going_on, tree_floor(E, cells, left - 1, 0, cell_w, cell_c));
                sides[side] = going_on;
            }
        }
        option_t *o = &opts[t];
        o->la = sides[0];
        o->lb = sides[1];
        o->bound = q + (E->expected ? sides[0] + sides[1] : cmax(sides[0], sides[1]));
        o->lean = wy * 2 - total;
        o->lean_abs = o->lean < 0 ? -o->lean : o->lean;
        o->v = t; /* index into vs / sides */
    }
    qsort(opts, nv, sizeof(option_t), cmp_option);
    if (nv) floor = cmax(floor, opts[0].bound);
    cost_t best = INF, fail = INF;
    int best_v = -1;
    for (int i = 0; i < nv; i++) {
        option_t *o = &opts[i];
        cost_t cap = cmin(best, budget);
        if (o->bound >= cap) {
            fail = cmin(fail, o->bound);
            break;
        }
        cost_t room = cap - q;
        int t = o->v;
        const uint32_t *first, *second;
        int mf, ms2;
        cost_t first_lb, second_lb;
        PART(t);
        int y_first = E->expected ? (o->la <= o->lb)
                                  : (o->la > o->lb || (o->la == o->lb && o->lean >= 0));
        uint64_t fc, sc, fs, ss2; /* the two sides' cells and class sums */
        if (y_first) {
            first = side_y[t]; mf = my[t]; second = side_z[t]; ms2 = mz[t];
            first_lb = o->la; second_lb = o->lb;
            fc = ys[t]; sc = present & ~ys[t]; fs = side_sum[t][0]; ss2 = side_sum[t][1];
        } else {
            first = side_z[t]; mf = mz[t]; second = side_y[t]; ms2 = my[t];
            first_lb = o->lb; second_lb = o->la;
            fc = present & ~ys[t]; sc = ys[t]; fs = side_sum[t][1]; ss2 = side_sum[t][0];
        }
        cost_t val;
        if (E->expected) {
            int have_a = 0, have_b = 0;
            cost_t a = 0, b = 0, at;
            if (probe_budget(E, room, first_lb, second_lb, &at)) {
                a = after(E, first, mf, p, left - 1, at, fc, fs);
                if (E->stopped) goto stopped;
                have_a = 1;
                if (a >= at) {
                    b = after(E, second, ms2, p, left - 1, room - a, sc, ss2);
                    if (E->stopped) goto stopped;
                    have_b = 1;
                    if (b >= room - a) {
                        fail = cmin(fail, q + a + b);
                        continue;
                    }
                    have_a = 0;
                }
            }
            if (!have_a) {
                cost_t other = have_b ? b : second_lb;
                a = after(E, first, mf, p, left - 1, room - other, fc, fs);
                if (E->stopped) goto stopped;
                if (a >= room - other) {
                    fail = cmin(fail, q + a + other);
                    continue;
                }
            }
            if (!have_b) {
                b = after(E, second, ms2, p, left - 1, room - a, sc, ss2);
                if (E->stopped) goto stopped;
            }
            val = q + a + b;
        } else {
            cost_t a = after(E, first, mf, p, left - 1, room, fc, fs);
            if (E->stopped) goto stopped;
            if (a >= room) {
                fail = cmin(fail, q + a);
                continue;
            }
            cost_t b = after(E, second, ms2, p, left - 1, room, sc, ss2);
            if (E->stopped) goto stopped;
            val = q + cmax(a, b);
        }
        if (val < best) {
            best = val;
            best_v = vs[t];
            if (found_enough(E, best, floor, budget)) break;
        } else if (val >= cap) {
            fail = cmin(fail, val);
        }
    }
    E->stk_top = mark;
    if (best < budget) {
        store_found(E, head, s, m, h, best, best_v, floor);
        return best;
    }
    {
        cost_t low = cmax(floor, cmin(best, fail));
        store(E, head, s, m, h, 0, low, -1);
        return low;
    }
stopped:
    E->stk_top = mark;
    return floor;
}
#undef PART

static cost_t inside_search(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget) {
    return inside_sum(E, s, m, p, left, budget, 0);
}

/* A search from a round start (p, left unused) or inside a round, under a budget. */
typedef cost_t (*search_fn)(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget);

static cost_t round_at(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget) {
    (void)p;
    (void)left;
    return round_search(E, s, m, budget, 0);
}

/* ``Solver._search_for``: an unbounded search stopped (STOP_DEEPER, cleared) after `steps` more steps: 1 with its
 * value in *v if it finished first, else 0. */
static int search_for(Engine *E, search_fn search, const uint32_t *s, int m, int p, int left, uint64_t steps,
                      cost_t *v) {
    E->deep_at = E->ticks + steps;
    *v = search(E, s, m, p, left, INF);
    E->deep_at = 0;
    if (E->stopped != STOP_DEEPER) return 1;
    E->stopped = RUNNING;
    return 0;
}

/* ``Solver._deepen``: the exact value of a budgeted search. Expected case: one unbounded search (the plain one
 * first; past `deep_after` steps, again with deep bounds, keeping the memo; past `wider_after` more, again with deep
 * bounds down to round starts of `wider_codes` codes); worst case: tests "is the value its
 * lower bound?", starting from `floor`, each failed one raising the bound by a question at least. */
static cost_t deepen(Engine *E, search_fn search, const uint32_t *s, int m, int p, int left, cost_t floor) {
    if (E->expected) {
        cost_t v;
        if (!E->deep && E->deep_codes) {
            if (search_for(E, search, s, m, p, left, E->deep_after, &v)) return v;
            E->deep = 1;
        }
        if (E->deep_codes && E->wider_codes < E->deep_codes) {
            if (search_for(E, search, s, m, p, left, E->wider_after, &v)) return v;
            E->deep_codes = E->wider_codes;
        }
        return search(E, s, m, p, left, INF);
    }
    while (1) {
        cost_t budget = floor + 1;
        cost_t v = search(E, s, m, p, left, budget);
        if (E->stopped || v < budget) return v;
        floor = cmax(floor, v);
    }
}

static cost_t deepen_round(Engine *E, const uint32_t *s, int m) {
    return deepen(E, round_at, s, m, 0, 0, round_floor(E, s, m));
}

static cost_t deepen_inside(Engine *E, const uint32_t *s, int m, int p, int left) {
    uint32_t head = inside_head(p, left);
    entry_t *e = memo_find(E, head, s, m, hash_key(E, head, s, m));
    return deepen(E, inside_search, s, m, p, left, e ? e->value : 0);
}

/* ---------------------------------------------------------------- the question tree's nodes */

static void build_nodes(Engine *E) {
    int n = E->n, depth = n < QPR ? n : QPR;
    E->depth = depth;
    /* nodes as (asked mask, answers mask), numbered as _question_nodes does */
    int asked_of[MAXNODES], ans_of[MAXNODES], nn = 0;
    int size_of[MAXNODES];
    for (int k = 0; k <= depth; k++) {
        /* combinations of k verifiers in lexicographic order */
        int comb[MAXN];
        for (int i = 0; i < k; i++) comb[i] = i;
        while (1) {
            int amask = 0;
            for (int i = 0; i < k; i++) amask |= 1 << comb[i];
            /* answers in itertools.product order: the first asked verifier is the most significant */
            for (int a = 0; a < (1 << k); a++) {
                int ans = 0;
                for (int i = 0; i < k; i++)
                    if ((a >> (k - 1 - i)) & 1) ans |= 1 << comb[i];
                asked_of[nn] = amask;
                ans_of[nn] = ans;
                size_of[nn] = k;
                nn++;
            }
            int i = k - 1;
            while (i >= 0 && comb[i] == n - k + i) i--;
            if (i < 0) break;
            comb[i]++;
            for (int j = i + 1; j < k; j++) comb[j] = comb[j - 1] + 1;
        }
    }
    E->nnodes = nn;
    for (int j = 0; j < nn; j++) {
        uint64_t cells = 0;
        for (int x = 0; x < (1 << n); x++)
            if ((x & asked_of[j]) == ans_of[j]) cells |= (uint64_t)1 << x;
        E->node_cells[j] = cells;
    }
    for (int x = 0; x < (1 << n); x++) {
        E->cell_nnodes[x] = 0;
        for (int j = 0; j < nn; j++)
            if (E->node_cells[j] >> x & 1) E->cell_nodes[x][E->cell_nnodes[x]++] = (uint8_t)j;
    }
    E->ndeep = 0;
    E->nlevel_nodes = 0;
    for (int j = 0; j < nn; j++)
        if (size_of[j] == depth) {
            int t = 0;
            for (uint64_t cells = E->node_cells[j]; cells; cells &= cells - 1)
                E->deep_cell[E->ndeep][t++] = (uint8_t)__builtin_ctzll(cells);
            E->deep_ncells = t;
            E->deep_nodes[E->ndeep++] = j;
        }
    for (int k = depth - 1; k >= 0; k--)
        for (int j = 0; j < nn; j++) {
            if (size_of[j] != k) continue;
            E->level_node[E->nlevel_nodes++] = j;
            int t = 0;
            for (int v = 0; v < n; v++) {
                if (asked_of[j] >> v & 1) continue;
                int am = asked_of[j] | 1 << v;
                for (int i = 0; i < nn; i++) {
                    if (asked_of[i] != am) continue;
                    if (ans_of[i] == (ans_of[j] | 1 << v)) E->kid_yes[j][t] = i;
                    if (ans_of[i] == ans_of[j]) E->kid_no[j][t] = i;
                }
                t++;
            }
            E->nkids[j] = t;
        }
    for (int k = 0; k < 128; k++) E->worst_leaf[k] = worst_floor_at_depth(depth2(k), 0);
}

/* ---------------------------------------------------------------- the engine */

static double no_clock(void *ctx) {
    (void)ctx;
    return 0.0;
}

tm_tuning tm_default_tuning(void) {
    tm_tuning t = {.deep_after = 15000, .wider_after = 50000, .deep_share = 0.5, .wider_share = 0.15,
                   .deeper_share = 0.9, .probe_share = 0.25, .deep_verifiers = 5, .wider_verifiers = 4,
                   .deeper_verifiers = 4, .memo_bytes = 1400000000ULL, .table_bytes = 256000000ULL, .relabel = 1};
    return t;
}

void tm_engine_free(tm_engine *E) {
    if (!E) return;
    free(E->pat);
    free(E->pat_t);
    free(E->code);
    free(E->wt);
    free(E->h1);
    free(E->h2);
    for (int i = 0; i < E->ntables; i++) free(E->tables[i]);
    free(E->tables);
    free(E->pos_hash);
    free(E->map_code);
    free(E->map_class);
    free(E->mask_ids);
    free(E->sorted_keys);
    free(E->key_order);
    free(E->tab);
    free(E->ent);
    free(E->arena);
    free(E->stk);
    free(E->bitmap);
    free(E);
}

/* A copy of n bytes of src (NULL on no memory; 1 byte for none, so that NULL always means no memory). */
static void *copy_of(const void *src, size_t n) {
    void *out = malloc(n ? n : 1);
    if (out && n) memcpy(out, src, n);
    return out;
}

tm_engine *tm_engine_new(tm_setup *setup, int expected, const tm_tuning *tuning, int *status) {
    const tm_tuning t = tuning ? *tuning : tm_default_tuning();
    if (t.deep_after < 1 || t.wider_after < 1) {
        *status = fail("deep_after, wider_after: at least one step", TM_ERROR);
        return NULL;
    }
    if (t.memo_bytes < 1) {
        *status = fail("a memo limit of no bytes", TM_ERROR);
        return NULL;
    }
    if ((*status = tm_setup_prepare(setup)) != TM_OK) return NULL;
    for (int p = 0; p < NPROP; p++) ALL_PROPOSALS[p] = p;
    Engine *E = calloc(1, sizeof(Engine));
    if (!E) {
        *status = fail("no memory for the engine", TM_NO_MEMORY);
        return NULL;
    }
    const int K = setup->K, n = setup->n;
    E->clock = no_clock;
    E->poll_mask = 255;
    E->deep_after = (uint64_t)t.deep_after;
    E->wider_after = (uint64_t)t.wider_after;
    E->probe_share = t.probe_share;
    E->K = K;
    E->n = n;
    E->ncells = 1 << n;
    E->expected = expected != 0;
    E->symmetric = setup->symmetric && t.relabel;
    E->table_limit = t.table_bytes;
    E->nmaps = setup->nmaps;
    const size_t k8 = (size_t)K * 8, k4 = (size_t)K * 4, kn = (size_t)K * (size_t)n;
    E->pat = copy_of(setup->pattern, (size_t)K * NPROP);
    E->pat_t = malloc((size_t)K * NPROP);
    E->code = copy_of(setup->code, k4);
    E->wt = copy_of(setup->weight, k8);
    E->h1 = copy_of(setup->hashes, k8);
    E->h2 = copy_of(setup->hashes + K, k8);
    int ok = E->pat && E->pat_t && E->code && E->wt && E->h1 && E->h2;
    if (ok && E->symmetric) {
        E->mask_ids = copy_of(setup->crit, kn * 4);
        E->sorted_keys = copy_of(setup->sorted_keys, k8);
        E->key_order = copy_of(setup->key_order, k4);
        E->pos_hash = copy_of(setup->pos_hash, kn * 8);
        memcpy(E->digit, setup->digit, sizeof(E->digit));
        E->ntables = 1;
        for (int v = 0; v < n; v++) E->ntables *= n;
        E->tables = calloc((size_t)E->ntables, sizeof(int32_t *));
        ok = E->mask_ids && E->sorted_keys && E->key_order && E->pos_hash && E->tables;
    }
    if (ok && E->nmaps) {
        E->map_code = copy_of(setup->map_code, (size_t)E->nmaps * NPROP * 4);
        E->map_class = copy_of(setup->map_class, (size_t)E->nmaps * k4);
        ok = E->map_code && E->map_class;
    }
    if (!ok) {
        tm_engine_free(E);
        *status = fail("no memory for the engine's problem", TM_NO_MEMORY);
        return NULL;
    }
    for (int k = 0; k < K; k++)
        for (int q = 0; q < NPROP; q++) E->pat_t[(int64_t)q * K + k] = E->pat[(int64_t)k * NPROP + q];
    for (int v = 0; v < n; v++) {
        E->cells_with[v] = 0;
        for (int x = 0; x < E->ncells; x++)
            if ((x >> v) & 1) E->cells_with[v] |= (uint64_t)1 << x;
    }
    int ncodes = 0;
    for (int k = 0; k < K; k++) ncodes += k == 0 || E->code[k] != E->code[k - 1];
    /* with more verifiers than wider_verifiers, no widening: the wider share is the deep share */
    const double wider_share = n > t.wider_verifiers ? t.deep_share : t.wider_share;
    E->deep_codes = expected && n <= t.deep_verifiers ? (int)ceil(t.deep_share * ncodes) : 0;
    if (expected && n <= t.deep_verifiers && E->deep_codes == 0) E->deep_codes = 1; /* a share of 0: everywhere */
    E->wider_codes = (int)ceil(wider_share * ncodes);
    if (E->wider_codes < 1) E->wider_codes = 1;
    if (E->wider_codes > E->deep_codes) E->wider_codes = E->deep_codes;
    const int deeper = E->deep_codes && E->symmetric && n <= t.deeper_verifiers;
    E->deeper_codes = deeper ? (int)ceil(t.deeper_share * ncodes) : 0;
    if (deeper && E->deeper_codes == 0) E->deeper_codes = 1;
    build_nodes(E);
    E->tab_cap = TAB_START;
    E->tab = calloc(E->tab_cap, 8);
    E->ent_cap = TAB_START;
    E->ent = malloc(E->ent_cap * sizeof(entry_t));
    E->arena_cap = 1 << 20;
    E->arena = malloc(E->arena_cap * 4);
    E->memo_limit = t.memo_bytes;
    E->stk_cap = (uint64_t)K * 256 + (1 << 20);
    E->stk = malloc(E->stk_cap * 4);
    E->bitmap = calloc((size_t)K / 64 + 1, 8);
    if (!E->tab || !E->ent || !E->arena || !E->stk || !E->bitmap) {
        tm_engine_free(E);
        *status = fail("no memory for the engine's memo", TM_NO_MEMORY);
        return NULL;
    }
    E->progress_up = INF;
    *status = TM_OK;
    return E;
}

void tm_set_clock(tm_engine *E, tm_clock_fn clock, void *ctx) {
    E->clock = clock ? clock : no_clock;
    E->clock_ctx = ctx;
    if (!clock) E->has_deadline = 0;
}

void tm_set_poll(tm_engine *E, tm_poll_fn poll, void *ctx, uint64_t every) {
    E->poll = poll;
    E->poll_ctx = ctx;
    uint64_t mask = 1;
    while (mask < every && mask < ((uint64_t)1 << 40)) mask <<= 1;
    E->poll_mask = mask - 1;
}

void tm_set_deadline(tm_engine *E, int has, double deadline) {
    E->has_deadline = has && E->clock != no_clock;
    E->deadline = deadline;
}

void tm_set_step_limit(tm_engine *E, uint64_t steps) { E->step_limit = steps; }

void tm_set_memo_limit(tm_engine *E, uint64_t bytes) {
    if (bytes) E->memo_limit = bytes;
}

uint64_t tm_steps(const tm_engine *E) { return E->ticks; }

uint64_t tm_memo_held(const tm_engine *E) { return E->arena_cap * 4 + E->ent_cap * sizeof(entry_t) + E->tab_cap * 8; }

static inline void unpack(cost_t v, int move, tm_value *out) {
    out->rounds = v >> 32;
    out->questions = v & (SC - 1);
    out->move = move;
}

/* A state given by a caller: an ascending list of class indices, copied onto the stack; TM_ERROR if it is not. */
static int state_in(Engine *E, const uint32_t *given, int m, uint32_t **s) {
    if (m < 0 || m > E->K) return fail("a state holds at most every class", TM_ERROR);
    uint32_t *out = stk_push(E, (uint64_t)m);
    if (!out) return fail("no room on the search's stack for the state", TM_NO_MEMORY);
    for (int i = 0; i < m; i++) {
        if (given[i] >= (uint32_t)E->K || (i && given[i] <= given[i - 1])) {
            E->stk_top -= (uint64_t)m;
            return fail("a state is an ascending list of class indices", TM_ERROR);
        }
        out[i] = given[i];
    }
    *s = out;
    return TM_OK;
}

/* Why the search stopped, as a status. */
static int status_of(const Engine *E) {
    switch (E->stopped) {
    case RUNNING: return TM_OK;
    case STOP_TIME: return TM_STOPPED;
    case STOP_MEMORY: return fail("the search ran out of memory", TM_NO_MEMORY);
    case STOP_ERROR: return TM_INTERRUPTED;
    default: return TM_ERROR;
    }
}

/* The progress of the value being searched (``searched``), from its memo entry: read at the poll points. */
static void note_progress(Engine *E) {
    if (!E->root) return;
    entry_t *e = memo_find(E, E->root_head, E->root, E->root_m, E->root_hash);
    if (!e) return;
    if (e->value > E->progress_low) E->progress_low = e->value;
    cost_t up = e->exact ? e->value : e->upper;
    if (up < E->progress_up) E->progress_up = up;
}

void tm_progress_of(const tm_engine *E, tm_progress *out) {
    cost_t low = E->progress_low, up = E->progress_up;
    out->steps = E->ticks;
    out->low_rounds = low >> 32;
    out->low_questions = low & (SC - 1);
    out->has_up = up < INF;
    out->up_rounds = out->has_up ? up >> 32 : 0;
    out->up_questions = out->has_up ? up & (SC - 1) : 0;
}

/* The memo's entry of a round start (left 0: under its canonical form) or of a state inside a round with proposal p;
 * NULL if it has none, or (*no_room set) when there was no room to work out the canonical form. */
static entry_t *entry_of(Engine *E, const uint32_t *s, int m, int p, int left, int *no_room) {
    uint32_t head = left ? inside_head(p, left) : K_ROUND;
    const uint32_t *key = left ? s : canon_of(E, s, m);
    *no_room = !key;
    return key ? memo_find(E, head, key, m, hash_key(E, head, key, m)) : NULL;
}

/* The exact value and best move from a round start (left 0) or inside a round with proposal p, searched to the end;
 * the move is read from the memo, and if the memo had to forget it just then, the search runs once more (cheap: what
 * it needs is memoised again). */
static int searched(Engine *E, const uint32_t *s, int m, int p, int left, tm_value *out) {
    cost_t v = 0;
    int best = -1;
    E->stopped = RUNNING;
    E->root_head = left ? inside_head(p, left) : K_ROUND;
    E->root = left ? s : canon_of(E, s, m);
    if (!E->root) return fail("no room on the search's stack for the state", TM_NO_MEMORY);
    E->root_m = m;
    E->root_hash = hash_key(E, E->root_head, E->root, m);
    E->progress_low = left ? 0 : lower_bound(E, s, m);
    E->progress_up = INF;
    for (int attempt = 0; attempt < 2 && best < 0 && !E->stopped; attempt++) {
        v = left ? deepen_inside(E, s, m, p, left) : deepen_round(E, s, m);
        if (E->stopped) break;
        int no_room;
        entry_t *e = entry_of(E, s, m, p, left, &no_room);
        if (e && (e->exact || e->upper <= v)) best = e->best; /* worst case: a move reaching the least bound */
    }
    note_progress(E);
    E->root = NULL;
    int status = status_of(E);
    if (status == TM_OK) {
        unpack(v, best, out);
        E->progress_low = E->progress_up = v;
    }
    return status;
}

int tm_round_value(tm_engine *E, const uint32_t *given, int m, tm_value *out) {
    uint64_t mark = E->stk_top;
    uint32_t *s = NULL;
    int status = state_in(E, given, m, &s);
    if (status != TM_OK) return status;
    if (m == 0 || known(E, s, m)) {
        unpack(0, -1, out);
        status = TM_OK;
    } else {
        status = searched(E, s, m, 0, 0, out);
    }
    E->stk_top = mark;
    return status;
}

int tm_inside_value(tm_engine *E, const uint32_t *given, int m, int p, int left, tm_value *out) {
    if (p < 0 || p >= NPROP || left < 1 || left > QPR) return fail("proposal 0..124, 1 to 3 questions left", TM_ERROR);
    uint64_t mark = E->stk_top;
    uint32_t *s = NULL;
    int status = state_in(E, given, m, &s);
    if (status == TM_OK) status = searched(E, s, m, p, left, out);
    E->stk_top = mark;
    return status;
}

int tm_round_bounds(tm_engine *E, const uint32_t *given, int m, int tie_breaks, tm_value *bounds, int64_t *orders) {
    uint64_t mark = E->stk_top;
    uint32_t *s = NULL;
    int status = state_in(E, given, m, &s);
    if (status != TM_OK) return status;
    cells_t *c = &SCRATCH;
    fill_cells(E, s, m, c);
    E->stk_top = mark;
    cost_t bs[NPAD];
    int64_t os[NPAD] = {0};
    if (!tie_breaks && E->expected && c->words == 1) expected_bounds(E, c, bs, NULL); /* as a deep bound takes them */
    else some_bounds(E, c, ALL_PROPOSALS, NPROP, bs, os);
    for (int p = 0; p < NPROP; p++) {
        unpack(bs[p], p, &bounds[p]);
        if (orders) orders[p] = os[p];
    }
    return TM_OK;
}

int tm_floor(tm_engine *E, const uint32_t *given, int m, tm_value *out, int *exact) {
    uint64_t mark = E->stk_top;
    uint32_t *s = NULL;
    int status = state_in(E, given, m, &s);
    if (status != TM_OK) return status;
    cost_t v = 0;
    *exact = 1;
    if (!known(E, s, m) && m) {
        *exact = 0;
        uint32_t *form = canon_of(E, s, m);
        if (!form) {
            E->stk_top = mark;
            return fail("no room on the search's stack for the state", TM_NO_MEMORY);
        }
        v = lower_bound(E, form, m);
        entry_t *e = memo_find(E, K_ROUND, form, m, hash_key(E, K_ROUND, form, m));
        if (e && e->exact) {
            v = e->value;
            *exact = 1;
        } else if (e) {
            v = cmax(v, e->value);
            if (e->aux_off >= 0) {
                int nr = e->aux_len;
                ranked_t ranked[NPROP];
                memcpy(ranked, E->arena + e->aux_off, (size_t)nr * sizeof(ranked_t));
                cost_t cost = round_cost(E, form, m), least = INF;
                for (int i = 0; i < nr; i++) {
                    uint32_t head = inside_head(ranked[i].p, QPR);
                    entry_t *f = memo_find(E, head, form, m, hash_key(E, head, form, m));
                    cost_t inner = f ? f->value : 0;
                    cost_t known_bound = cmax(ranked[i].bound, ranked[i].deep);
                    least = cmin(least, cmax(known_bound, cost + inner));
                }
                v = cmax(v, least);
            }
        }
    }
    E->stk_top = mark;
    unpack(v, -1, out);
    return TM_OK;
}

int tm_known_move(tm_engine *E, const uint32_t *given, int m, int p, int left, tm_value *low, tm_value *up,
                  int *has_up) {
    if (left < 0 || left > QPR || (left && (p < 0 || p >= NPROP)))
        return fail("proposal 0..124 with 1 to 3 questions left, or a round start (left 0)", TM_ERROR);
    uint64_t mark = E->stk_top;
    uint32_t *s = NULL;
    int status = state_in(E, given, m, &s);
    if (status != TM_OK) return status;
    cost_t lo = 0, u = INF;
    int move = -1;
    if (m && !known(E, s, m)) {
        int no_room;
        entry_t *e = entry_of(E, s, m, p, left, &no_room);
        if (no_room) {
            E->stk_top = mark;
            return fail("no room on the search's stack for the state", TM_NO_MEMORY);
        }
        if (e) {
            lo = e->value;
            if (e->exact) u = e->value;
            else if (e->upper < INF) u = e->upper;
            if (u < INF) move = e->best;
        }
    } else {
        u = 0;
    }
    E->stk_top = mark;
    unpack(lo, -1, low);
    *has_up = u < INF;
    unpack(*has_up ? u : 0, move, up);
    return TM_OK;
}

void tm_stats_of(const tm_engine *E, tm_stats *out) {
    uint64_t rounds = 0;
    for (uint64_t i = 0; i < E->ent_len; i++)
        if (E->ent[i].kind == K_ROUND) rounds++;
    out->steps = E->ticks;
    out->entries = E->ent_len;
    out->round_starts = rounds;
    out->memo_bytes = memo_bytes(E);
    out->memo_limit = E->memo_limit;
    out->forgets = E->forgets;
    out->deep_bounds = E->deep_bounds;
    out->deep_floors = E->deep_floors;
    out->deep = E->deep;
    out->deep_codes = E->deep_codes;
}
