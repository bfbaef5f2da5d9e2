/* tmphys's search core: the exact optimal play of a Turing Machine problem, in plain C.
 *
 * Two parts, one header, with a section below for each file a binding calls:
 * - the set-up (setup.c): from a problem (its mode, the criteria cards before each verifier) and the criteria cards'
 *   truth tables, every valid hidden assignment, merged into classes no question tells apart, and what the search
 *   reads of them (answer patterns, weights, hashes, Nightmare's relabelling keys, the code symmetries);
 * - the search: a problem's optimum for one objective from any state, by branch and bound with a memo, held to a
 *   deadline, a budget of steps and a memory limit, and interruptible through a poll hook. A binding makes an engine
 *   (engine.c), sets its hooks and limits (limits.c) and asks it for values (query.c); the search itself lies in
 *   files no binding calls (memo.c, bounds.c, canon.c, ranking.c, deep.c, search.c), declared in core.h, which
 *   lists every file of the core in the order they call each other.
 * Every file sets the message tm_error() reads (util.c).
 * Bindings are thin: CPython (tmphys/solve/_engine.c) and WebAssembly (wasm.c). Nothing here knows either.
 *
 * A state is an ascending list of class indices. A cost is a pair (rounds, questions), compared lexicographically:
 * totals over the hidden assignments (the expected objective) or the worst game's (the worst objective).
 *
 * The search shares scratch memory between engines: a process runs one engine's work at a time (the CPython
 * binding takes a lock; a WebAssembly instance is single-threaded).
 */
#ifndef TMPHYS_TM_H
#define TMPHYS_TM_H

#include <stddef.h>
#include <stdint.h>

#define TM_CODES 125        /* codes, and so proposals: ▲■● digits 1..5, index (▲-1)*25 + (■-1)*5 + (●-1) */
#define TM_QUESTIONS 3      /* questions a round at most */
#define TM_MAX_VERIFIERS 6  /* verifiers A..F */
#define TM_CARDS 48         /* criteria cards */
#define TM_CARD_CRITERIA 9  /* criteria a card holds at most */

/* ---------------------------------------------------------------- what every file shares */

/* What a call returns. */
enum {
    TM_OK = 0,
    TM_STOPPED = 1,     /* the deadline or the step budget came first */
    TM_NO_MEMORY = 2,   /* an allocation failed, or the memory budget is too small for the problem */
    TM_INTERRUPTED = 3, /* the poll hook asked to stop */
    TM_ERROR = 4        /* bad input or an impossible state: tm_error() says what */
};

enum { TM_CLASSIC = 0, TM_EXTREME = 1, TM_NIGHTMARE = 2 };

/* A set of codes, as a criterion's truth table is one (the codes passing it): bit c of (lo, hi) for code c, lo
 * holding codes 0..63. */
typedef struct {
    uint64_t lo, hi;
} tm_codes;

/* A criteria card: its `count` criteria's truth tables, in printed order. The 48 cards come as one array (the
 * library), card i (0..47) being card number i + 1; tmphys's Python model is their source. */
typedef struct {
    int count;
    tm_codes criteria[TM_CARD_CRITERIA];
} tm_card;

/* A problem: `verifiers` verifiers; Classic: one criteria card each (cards[v][0]); Extreme: two each; Nightmare: the
 * set of criteria cards, one a verifier in ascending order, their pairing to the verifiers hidden. Card numbers
 * 1..48. */
typedef struct {
    int mode, verifiers;
    int cards[TM_MAX_VERIFIERS][2];
} tm_problem;

/* ---------------------------------------------------------------- util.c */

/* What went wrong in the last call that returned TM_ERROR or TM_NO_MEMORY on this thread (a static message). */
const char *tm_error(void);

/* ---------------------------------------------------------------- setup.c */

/* A set-up: a problem's classes of valid hidden assignments (each class's code, weight and criteria, the truth tables
 * they use) and what the search reads of them, worked out on first need (tm_setup_prepare). Opaque: a binding reads
 * it through the functions below, and an engine copies what it needs of it. */
typedef struct tm_setup tm_setup;

/* The classes of a problem's valid hidden assignments (library: the 48 cards); NULL with *status and tm_error() set
 * when the problem cannot be read (a card out of range, the same card twice) or no valid game uses its cards. */
tm_setup *tm_setup_new(const tm_problem *problem, const tm_card *library, int *status);
void tm_setup_free(tm_setup *setup);

/* Its classes, in code order then by their criteria's truth tables (as Python's hidden assignments come). */
int tm_setup_classes(const tm_setup *setup);
int tm_setup_verifiers(const tm_setup *setup);
/* Per class: its code (0..124), its weight (how many hidden assignments it stands for), and per verifier its
 * criterion as an index into tm_setup_masks (K x verifiers). */
const int32_t *tm_setup_codes(const tm_setup *setup);
const int64_t *tm_setup_weights(const tm_setup *setup);
const int32_t *tm_setup_criteria(const tm_setup *setup);
/* The distinct truth tables the classes use, ascending as 125-bit numbers; how many. */
const tm_codes *tm_setup_masks(const tm_setup *setup, int *count);
/* What the search reads of the classes (patterns, hashes, keys, symmetries), worked out on first need: TM_OK, or
 * TM_NO_MEMORY. The accessors below and tm_engine_new call it. */
int tm_setup_prepare(tm_setup *setup);
/* The answer patterns: K x 125 bytes, bit v set when verifier v passes proposal p in class k (NULL: no memory). */
const uint8_t *tm_setup_pattern(tm_setup *setup);
/* Nightmare: the pairings of class k, the criteria card (its number) before each verifier, into out (room for
 * weight(k) x verifiers); their count, which is the class's weight. Classic and Extreme: 0. */
int tm_setup_pairings(const tm_setup *setup, int k, int32_t *out);
/* The code symmetries kept (code maps: where each sends every code, TM_CODES each; class maps: every class, K each);
 * -1 on no memory. */
int tm_setup_symmetries(tm_setup *setup, const int32_t **code_maps, const int32_t **class_maps);

/* ---------------------------------------------------------------- engine.c */

/* An engine: one objective's search of one problem, with its own copy of the problem, its memo, its hooks and limits.
 * Opaque; engines share scratch memory, so a process runs one engine's work at a time. */
typedef struct tm_engine tm_engine;

/* The search's tuning: every value changes speed and memory only, never a value found (tmphys.solve.engine's
 * EngineConfig says what each does). */
typedef struct {
    int64_t deep_after, wider_after;
    double deep_share, wider_share, deeper_share, probe_share;
    int deep_verifiers, wider_verifiers, deeper_verifiers;
    uint64_t memo_bytes;  /* the memo's memory limit (forgotten but for its dearest entries when full) */
    uint64_t table_bytes; /* Nightmare's relabelling tables' */
    int relabel;          /* Nightmare: search each state once under relabelling the verifiers (0: every state) */
} tm_tuning;

/* The tuning tmphys uses by default. */
tm_tuning tm_default_tuning(void);

/* An engine searching this set-up for one objective (expected: 1, worst: 0); it keeps no pointer into `setup`.
 * NULL with *status and tm_error() set on bad tuning or no memory. */
tm_engine *tm_engine_new(tm_setup *setup, int expected, const tm_tuning *tuning, int *status);
void tm_engine_free(tm_engine *engine);

/* ---------------------------------------------------------------- limits.c */

/* Hooks: a clock (seconds, any origin, for deadlines; without one deadlines are not kept) and a poll, called every
 * `every` steps and returning nonzero to stop the search (TM_INTERRUPTED). */
typedef double (*tm_clock_fn)(void *ctx);
typedef int (*tm_poll_fn)(tm_engine *engine, void *ctx);

void tm_set_clock(tm_engine *engine, tm_clock_fn clock, void *ctx);
void tm_set_poll(tm_engine *engine, tm_poll_fn poll, void *ctx, uint64_t every);
/* Stop searching once the clock passes `deadline` (has 0: no deadline). */
void tm_set_deadline(tm_engine *engine, int has, double deadline);
/* Stop searching once `steps` steps have been taken in all since the engine was made (0: no limit). */
void tm_set_step_limit(tm_engine *engine, uint64_t steps);
/* The memo's memory limit from now on (what it holds stays held). */
void tm_set_memo_limit(tm_engine *engine, uint64_t bytes);

/* While a search runs (from the poll hook, or read from another thread): steps taken, and the best lower and upper
 * bounds known on the value being searched (has_up 0: no move found yet); the move of the best found (a proposal at a
 * round start, a verifier inside a round; -1: none known) and, at a round start, the verifier it asks first (-1: not
 * known). A search stopped part way keeps them: what a player told to stop is shown. */
typedef struct {
    uint64_t steps;
    int64_t low_rounds, low_questions, up_rounds, up_questions;
    int has_up;
    int move, question;
} tm_progress;
void tm_progress_of(const tm_engine *engine, tm_progress *out);

uint64_t tm_steps(const tm_engine *engine);
/* The bytes the memo holds (table, entries and arena as allocated). */
uint64_t tm_memo_held(const tm_engine *engine);
/* Counters for benchmarks and tests: steps, the memo's entries (round starts among them), bytes, limit and times
 * forgotten, deep bounds found, deep floors taken, and whether deep bounds are in use (from how many codes). */
typedef struct {
    uint64_t steps, entries, round_starts, memo_bytes, memo_limit, forgets, deep_bounds, deep_floors;
    int deep, deep_codes;
} tm_stats;
void tm_stats_of(const tm_engine *engine, tm_stats *out);

/* ---------------------------------------------------------------- query.c */

/* A cost and a move: a proposal (0..124), a verifier (0..5), or -1 when there is none. */
typedef struct {
    int64_t rounds, questions;
    int move;
} tm_value;

/* The exact value of a round start in state s (m classes) and its best proposal. */
int tm_round_value(tm_engine *engine, const uint32_t *s, int m, tm_value *out);
/* The exact value inside a round with proposal p and `left` questions left (1..3), and the verifier to ask. */
int tm_inside_value(tm_engine *engine, const uint32_t *s, int m, int p, int left, tm_value *out);
/* What the memo knows of a round start (left 0) or of a state inside a round with proposal p, without searching:
 * `low` the learnt lower bound, `up` the least value a known move reaches (has_up 0: none known) and that move. */
int tm_known_move(tm_engine *engine, const uint32_t *s, int m, int p, int left, tm_value *low, tm_value *up,
                  int *has_up);
/* The best lower bound known on a round start without searching; *exact when it is the value. */
int tm_floor(tm_engine *engine, const uint32_t *s, int m, tm_value *out, int *exact);
/* Each proposal's one-round bound on a round start (TM_CODES costs and tie-breaks, raw); with tie_breaks 0 the
 * expected case's as a deep bound takes them. */
int tm_round_bounds(tm_engine *engine, const uint32_t *s, int m, int tie_breaks, tm_value *bounds, int64_t *orders);

#endif
