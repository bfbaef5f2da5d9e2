/* The core's inside: what its files share beyond tm.h (the bindings see tm.h only).
 *
 * The files, each calling functions of the files above it only (tests/test_core_layout.py holds them to it):
 *   util.c      tm_error's message, set by tm_fail
 *   setup.c     the set-up (tm.h): a problem's classes and what the search reads of them (struct tm_setup)
 *   memo.c      the memo: exact values, learnt bounds and data per state, forgotten but for its dearest entries
 *   bounds.c    the state bound and the proposals' one-round bounds over a state's answer cells
 *   canon.c     Nightmare's canonical forms under relabelling the verifiers
 *   limits.c    the hooks and limits (tm.h): clock, deadline, steps, memory, polls, progress, counters
 *   ranking.c   a round start's floor, its ranked proposals and a proposal that ends the game
 *   deep.c      deep bounds (expected case): a proposal's bound a round deeper, a round start's deep floor
 *   search.c    the search: from a round start, inside a round, and the deepening to an exact value
 *   engine.c    an engine made for a set-up and an objective (tm.h): its copy of the problem, the question tree
 *   query.c     what a binding asks an engine (tm.h): values, best moves, bounds, what the memo knows
 * The helpers every step of the search calls are static inline here, for every file's compiler to see them.
 *
 * A state is a sorted list of hidden-assignment classes (the classes come in code order, so a state's codes are
 * runs). A cost is a (rounds, questions) pair packed into one int64 as rounds * 2**32 + questions: packing is
 * linear, so sums and differences of pairs are exact, and it keeps the lexicographic order while the questions
 * part stays within +-2**31 (totals here are far smaller).
 */
#ifndef TMPHYS_CORE_H
#define TMPHYS_CORE_H

#include "tm.h"

#include <stdint.h>
#include <string.h>

/* ---------------------------------------------------------------- setup.c */

/* A problem's classes and what the search reads of them: made by tm_setup_new, completed by tm_setup_prepare. */
struct tm_setup {
    tm_problem problem;
    int n, K, nmasks;
    int32_t *code;    /* K, ascending */
    int64_t *weight;  /* K */
    int32_t *crit;    /* K x n: each verifier's criterion, an index into masks */
    tm_codes *masks;  /* nmasks, ascending as 125-bit numbers */
    uint8_t *pattern; /* K x TM_CODES: bit v when verifier v passes the proposal */
    uint64_t *hashes; /* 2 x K: split-signature hashes of the classes */
    /* Nightmare's relabellings: a class's key is the sum of crit[k][v] * digit[v]; the keys sorted, with their
     * classes, and each class's criteria's hashes per verifier */
    int symmetric;
    int64_t digit[TM_MAX_VERIFIERS];
    int64_t *sorted_keys; /* K */
    int32_t *key_order;   /* K */
    uint64_t *pos_hash;   /* K x n */
    /* the code symmetries (``tmphys.solve.deduction.Deduction._code_symmetries``) */
    int nmaps;
    int32_t *map_code;  /* nmaps x TM_CODES */
    int32_t *map_class; /* nmaps x K */
    /* Nightmare: each criteria card's distinct truth tables, for the pairings */
    int card_number[TM_MAX_VERIFIERS];
    int card_count[TM_MAX_VERIFIERS];
    tm_codes card_masks[TM_MAX_VERIFIERS][TM_CARD_CRITERIA];
};

/* The rest is the search's, and hidden from other modules linked with the core. */
#pragma GCC visibility push(hidden)

/* ---------------------------------------------------------------- util.c */

/* Set tm_error()'s message and return the status. */
int tm_fail(const char *why, int status);
#define fail tm_fail

/* ---------------------------------------------------------------- costs, memo entries, the engine */

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

/* A memo entry: its key (kind and state) and data in the arena, its values. */
typedef struct {
    uint64_t hash;
    uint64_t key_off;   /* offset of the key (words) in the arena */
    uint32_t key_len;   /* its state's classes + 1 (key_words: the words it takes) */
    uint8_t kind, exact; /* kind: the key's (K_ROUND, ...) */
    uint16_t work;      /* the steps its values took to search, as their bit length (``note_work``): what forgetting
                         * the entry would cost, which ``memo_forget`` keeps the dearest of */
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

/* An engine: the problem as the search reads it (copied from the set-up), the question tree's nodes, the memo, the
 * search's stack and limits, its counters. */
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
    int root_raw; /* the key is the state as given (no relabelling): its moves are the caller's */
    volatile int64_t progress_low, progress_up; /* read by other threads while the search runs */
    volatile int progress_move, progress_question; /* the best found's move, and at a round start its first question */
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
    uint64_t since;   /* the step at which the value about to be stored began to be searched (``note_work``) */
    uint64_t deep_bounds; /* deep bounds computed (``deepen_at``), memoised ones not counted again */
    int deeper_codes;     /* the fewest codes a round start holds for its deep bounds to go a round deeper (0: never) */
    int deeper_now;       /* a deeper bound is under way (the round starts it looks at take plain deep bounds) */
    uint64_t deep_floors; /* round starts a deeper bound took the deep floor of (``deep_floor``) */
};

/* ---------------------------------------------------------------- limits.c */

/* The clock of an engine given none (its deadlines are not kept). */
double no_clock(void *ctx);
/* The poll hook, every poll_mask + 1 steps (and every 64 deep bounds): it may stop the search. */
__attribute__((noinline, cold)) void look_at_signals(Engine *E);
/* The progress of the value being searched, from its memo entry, for tm_progress_of. */
void note_progress(Engine *E);

static inline double now(const Engine *E) { return E->clock(E->clock_ctx); }

static inline int past_deadline(const Engine *E) { return E->has_deadline && E->clock && now(E) > E->deadline; }

/* The search's work so far, in steps: its steps, and each deep bound computed counted as DEEP_STEPS (a deep bound
 * takes no step, and about as long as that many steps of the worst case). */
#define DEEP_STEPS 128
static inline uint64_t effort(const Engine *E) { return E->ticks + E->deep_bounds * DEEP_STEPS; }

static inline void tick(Engine *E) {
    E->ticks++;
    if (E->ticks == E->deep_at) E->stopped = STOP_DEEPER;
    if (E->step_limit && E->ticks >= E->step_limit) E->stopped = STOP_TIME;
    if (!(E->ticks & 15) && past_deadline(E)) E->stopped = STOP_TIME;
    if (!(E->ticks & E->poll_mask)) look_at_signals(E);
}

/* ---------------------------------------------------------------- small helpers */

static inline uint32_t *stk_push(Engine *E, uint64_t n) {
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

static inline int depth2(int64_t k) {
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

static inline int code_count(Engine *E, const uint32_t *s, int m) {
    int c = 0;
    for (int i = 0; i < m; i++)
        if (i == 0 || E->code[s[i]] != E->code[s[i - 1]]) c++;
    return c;
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

static inline uint64_t hash_key(const Engine *E, uint32_t head, const uint32_t *s, int m) {
    return hash_of(head, m, class_sum(E, s, m));
}

/* ---------------------------------------------------------------- memo.c */

#define TAB_START ((uint64_t)1 << 12)

/* A state of m classes lies in the arena as its list of classes, or as a bitmap of the K classes where that is
 * shorter (a worst-case memo of Nightmare's big states took several times less): set_words(m) words. */
static inline int as_bitmap(const Engine *E, int m) { return (uint64_t)m > ((uint64_t)E->K + 31) / 32; }
static inline uint64_t set_words(const Engine *E, int m) {
    return as_bitmap(E, m) ? ((uint64_t)E->K + 31) / 32 : (uint64_t)m;
}

/* Whether the set kept holds the m classes of s (it holds m: a bitmap holding them all is theirs). */
static inline int same_set(const Engine *E, const uint32_t *kept, const uint32_t *s, int m) {
    if (!as_bitmap(E, m)) return memcmp(kept, s, (size_t)m * 4) == 0;
    for (int i = 0; i < m; i++)
        if (!((kept[s[i] >> 5] >> (s[i] & 31)) & 1)) return 0;
    return 1;
}

/* The memo's bytes: what its arena and entries use, and its table. */
static inline uint64_t memo_bytes(const Engine *E) {
    return E->arena_len * 4 + E->ent_len * sizeof(entry_t) + E->tab_cap * 8;
}

static inline int key_equal(Engine *E, entry_t *e, uint32_t head, const uint32_t *s, int m) {
    if (e->key_len != (uint32_t)m + 1) return 0;
    const uint32_t *k = E->arena + e->key_off;
    return k[0] == head && same_set(E, k + 1, s, m);
}

/* Start fetching the memo's slot for the hash h (a later memo_find of it need not wait for memory). */
static inline void prefetch_slot(const Engine *E, uint64_t h) { __builtin_prefetch(&E->tab[h & (E->tab_cap - 1)]); }

static inline entry_t *memo_find(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h) {
    const uint64_t mask = E->tab_cap - 1, top = h >> 32;
    for (uint64_t j = h & mask, v; (v = E->tab[j]); j = (j + 1) & mask)
        if (v >> 32 == top) {
            entry_t *e = &E->ent[(uint32_t)v - 1];
            if (e->hash == h && key_equal(E, e, head, s, m)) return e;
        }
    return NULL;
}

/* memo_find of a state of m classes as the memo keeps it (``put_set``): a canonical form kept in the memo. */
static inline entry_t *memo_find_kept(Engine *E, uint32_t head, const uint32_t *kept, int m, uint64_t h) {
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

static inline uint32_t inside_head(int p, int left) { return K_INSIDE | ((uint32_t)p << 4) | ((uint32_t)left << 12); }

/* The state (m classes) of a set kept in the arena (``put_set``) into dst, and back into out. */
void put_set(const Engine *E, uint32_t *dst, const uint32_t *s, int m);
void get_set(const Engine *E, const uint32_t *kept, int m, uint32_t *out);
/* Room for `words` more in the arena: their offset, or -1 when out of memory. */
int64_t arena_alloc(Engine *E, uint64_t words);
/* The entry for a key (its hash h), created if new; NULL when out of memory. May forget the memo first. */
entry_t *memo_slot(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h);
/* An exact value (exact 1) or a learnt lower bound, and its move. */
void store(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, int exact, cost_t v, int best);
/* Expected case: a round start's best proposal found so far, and the value it reaches. */
void store_incumbent(Engine *E, const uint32_t *s, int m, uint64_t h, cost_t v, int best);
/* What a search found under its budget (exact, expected case; an upper bound, worst case). */
void store_found(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, cost_t best, int move,
                 cost_t floor);

/* ---------------------------------------------------------------- bounds.c */

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

/* The answer cells of the state last filled by scratch_cells (or by a caller that fills it itself). */
extern cells_t SCRATCH;
/* The proposals 0..NPROP-1 (filled by tm_engine_new). */
extern int ALL_PROPOSALS[NPROP];

/* The ranked proposals' order: bound, then tie-break, then number. */
static inline int cmp_ranked(const void *a, const void *b) {
    const ranked_t *x = a, *y = b;
    if (x->bound != y->bound) return x->bound < y->bound ? -1 : 1;
    if (x->order != y->order) return x->order < y->order ? -1 : 1;
    return x->p - y->p;
}

/* The state bound (``Solver.lower_bound``). */
cost_t lower_bound(Engine *E, const uint32_t *s, int m);
/* A state's answer cells under every proposal, into c; into SCRATCH unless *filled says it holds them already. */
void fill_cells(Engine *E, const uint32_t *s, int m, cells_t *c);
cells_t *scratch_cells(Engine *E, const uint32_t *s, int m, int *filled);
/* One proposal's bound and tie-break; every proposal's at once (expected_bounds: at most 64 codes; order NULL: no
 * tie-breaks); those of the proposals ps[0..np), all at once where that can be done. */
void proposal_bound(Engine *E, const cells_t *c, int p, cost_t *bound, int64_t *order);
VECTOR_CLONES void expected_bounds(Engine *E, const cells_t *c, cost_t *bound, int64_t *order);
void some_bounds(Engine *E, const cells_t *c, const int *ps, int np, cost_t *bound, int64_t *order);
/* The proposals that end the game this round, into ok; their count. */
int finishers(Engine *E, const uint32_t *s, int m, int *ok);
void sort_ranked(ranked_t *a, int n);
/* One proposal per split signature (with twins: per set of kinds the code symmetries send onto each other). */
int distinct_proposals(Engine *E, const uint32_t *s, int m, int *live, const int *twins, int ntw);

/* ---------------------------------------------------------------- canon.c */

/* Sort m distinct class indices in place. */
void sort_classes(Engine *E, uint32_t *a, int m);
/* The canonical form of s into out (tmp: room for m classes). */
void canonical(Engine *E, const uint32_t *s, int m, uint32_t *out, uint32_t *tmp);
/* The canonical form through the memo, on the stack, with its class sum; ``canon_sum`` of a state's sum unknown. */
uint32_t *canon_sum(Engine *E, const uint32_t *s, int m, uint64_t sum, uint64_t *form_sum);
uint32_t *canon_of(Engine *E, const uint32_t *s, int m);

/* ---------------------------------------------------------------- ranking.c */

static inline cost_t round_cost(Engine *E, const uint32_t *s, int m) {
    return E->expected ? pack(weight(E, s, m), 0) : pack(1, 0);
}

static inline cost_t question_cost(Engine *E, const uint32_t *s, int m) {
    return E->expected ? weight(E, s, m) : 1;
}

/* A round start's floors: the state bound raised by deep bounds (cheap), and by what the memo knows (lb: the state
 * bound, sum: the class sum). */
cost_t cheap_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum);
cost_t round_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum);
cost_t round_floor(Engine *E, const uint32_t *s, int m);
/* The least worst-case bound over all proposals. */
cost_t worst_round_floor(Engine *E, const uint32_t *s, int m, int *filled);
/* The least expected-case bound over all proposals (the first ranked one's), 0 past 64 codes. */
cost_t expected_round_floor(Engine *E, const uint32_t *s, int m, int *filled);
/* A proposal ending the game this round, memoised exact: 1 with its value, or 0. */
int finish_here(Engine *E, const uint32_t *s, int m, uint64_t h, cost_t *value, int *filled);
/* The ranked proposals into `ranked`, kept in the memo entry; their count (0: none, the search stopped). */
int rank_and_keep(Engine *E, const uint32_t *s, int m, uint64_t h, ranked_t *ranked, int *filled);

/* ---------------------------------------------------------------- deep.c */

/* ranked[i] with its bound raised a round deeper, moved to its place among ranked[i..nr) again. */
void deepen_at(Engine *E, const uint32_t *s, int m, ranked_t *ranked, int i, int nr, cost_t cap, uint64_t h,
               const int16_t *at, int *nexts, int *nn);

/* ---------------------------------------------------------------- search.c */

/* The exact value of a round start, and of a state inside a round with proposal p and `left` questions left. */
cost_t deepen_round(Engine *E, const uint32_t *s, int m);
cost_t deepen_inside(Engine *E, const uint32_t *s, int m, int p, int left);

#pragma GCC visibility pop

#endif
