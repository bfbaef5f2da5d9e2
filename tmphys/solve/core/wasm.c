/* The WebAssembly binding of the search core (tm.h): what a page's script calls, in numbers and pointers.
 *
 * The module imports two functions from its host (`env`): tm_now() -> milliseconds on a monotonic clock (a page's
 * performance.now()), and tm_poll(engine) -> nonzero to stop the search under way, called every POLL_STEPS steps
 * (the host reports progress there). Costs cross as doubles (exact: totals stay far below 2**53). tmphys/web/static/
 * search.js wraps these calls; build-wasm.sh builds the module.
 */
#include "tm.h"

#include <stdlib.h>

#define EXPORT(name) __attribute__((export_name(#name)))

__attribute__((import_module("env"), import_name("tm_now"))) double host_now(void);
__attribute__((import_module("env"), import_name("tm_poll"))) int host_poll(tm_engine *engine);

/* Steps between two calls of the host's tm_poll. */
#define POLL_STEPS 4096

static tm_card LIBRARY[TM_CARDS];

EXPORT(tm_malloc) void *wasm_malloc(size_t n) { return malloc(n ? n : 1); }
EXPORT(tm_free) void wasm_free(void *p) { free(p); }
EXPORT(tm_error_text) const char *wasm_error(void) { return tm_error(); }

/* The criteria cards, 48 x (1 + 9 x 4) uint32: a card's count of criteria, then each criterion's truth table as four
 * words (codes 0..31, 32..63, 64..95, 96..124), zeros past the card's last. */
EXPORT(tm_library) void wasm_library(const uint32_t *words) {
    for (int c = 0; c < TM_CARDS; c++) {
        const uint32_t *card = words + c * (1 + TM_CARD_CRITERIA * 4);
        LIBRARY[c].count = card[0] <= TM_CARD_CRITERIA ? (int)card[0] : TM_CARD_CRITERIA;
        for (int i = 0; i < TM_CARD_CRITERIA; i++) {
            const uint32_t *w = card + 1 + i * 4;
            LIBRARY[c].criteria[i].lo = (uint64_t)w[0] | (uint64_t)w[1] << 32;
            LIBRARY[c].criteria[i].hi = (uint64_t)w[2] | (uint64_t)w[3] << 32;
        }
    }
}

static int last_status;
EXPORT(tm_status) int wasm_status(void) { return last_status; }

/* A problem from 14 int32: mode, verifiers, then two card numbers per verifier (the second 0 unless Extreme). */
EXPORT(tm_setup) tm_setup *wasm_setup(const int32_t *p) {
    tm_problem problem = {.mode = p[0], .verifiers = p[1]};
    for (int v = 0; v < TM_MAX_VERIFIERS; v++) {
        problem.cards[v][0] = p[2 + 2 * v];
        problem.cards[v][1] = p[3 + 2 * v];
    }
    return tm_setup_new(&problem, LIBRARY, &last_status);
}

EXPORT(tm_setup_free) void wasm_setup_free(tm_setup *su) { tm_setup_free(su); }
EXPORT(tm_setup_classes) int wasm_setup_classes(const tm_setup *su) { return tm_setup_classes(su); }
EXPORT(tm_setup_codes) const int32_t *wasm_setup_codes(const tm_setup *su) { return tm_setup_codes(su); }
EXPORT(tm_setup_weights) const int64_t *wasm_setup_weights(const tm_setup *su) { return tm_setup_weights(su); }
EXPORT(tm_setup_criteria) const int32_t *wasm_setup_criteria(const tm_setup *su) { return tm_setup_criteria(su); }
EXPORT(tm_setup_pattern) const uint8_t *wasm_setup_pattern(tm_setup *su) { return tm_setup_pattern(su); }
EXPORT(tm_setup_pairings) int wasm_setup_pairings(const tm_setup *su, int k, int32_t *out) {
    return tm_setup_pairings(su, k, out);
}

/* The distinct truth tables, four uint32 words each, into out (room for 4 x count); their count. */
EXPORT(tm_setup_masks) int wasm_setup_masks(const tm_setup *su, uint32_t *out) {
    int n;
    const tm_codes *m = tm_setup_masks(su, &n);
    if (out)
        for (int i = 0; i < n; i++) {
            out[4 * i] = (uint32_t)m[i].lo;
            out[4 * i + 1] = (uint32_t)(m[i].lo >> 32);
            out[4 * i + 2] = (uint32_t)m[i].hi;
            out[4 * i + 3] = (uint32_t)(m[i].hi >> 32);
        }
    return n;
}

static double now_seconds(void *ctx) {
    (void)ctx;
    return host_now() / 1000.0;
}

static int poll_host(tm_engine *engine, void *ctx) {
    (void)ctx;
    return host_poll(engine);
}

/* An engine for one objective; memo and table limits in bytes (the module's memory is capped: see build-wasm.sh). */
EXPORT(tm_engine) tm_engine *wasm_engine(tm_setup *su, int expected, double memo_bytes, double table_bytes) {
    tm_tuning t = tm_default_tuning();
    t.memo_bytes = (uint64_t)memo_bytes;
    t.table_bytes = (uint64_t)table_bytes;
    tm_engine *E = tm_engine_new(su, expected, &t, &last_status);
    if (E) {
        tm_set_clock(E, now_seconds, NULL);
        tm_set_poll(E, poll_host, NULL, POLL_STEPS);
    }
    return E;
}

EXPORT(tm_engine_free) void wasm_engine_free(tm_engine *E) { tm_engine_free(E); }
EXPORT(tm_set_deadline) void wasm_set_deadline(tm_engine *E, int has, double seconds) {
    tm_set_deadline(E, has, seconds);
}
EXPORT(tm_set_step_limit) void wasm_set_step_limit(tm_engine *E, double steps) {
    tm_set_step_limit(E, (uint64_t)steps);
}
EXPORT(tm_set_memo_limit) void wasm_set_memo_limit(tm_engine *E, double bytes) { tm_set_memo_limit(E, (uint64_t)bytes); }
EXPORT(tm_steps) double wasm_steps(const tm_engine *E) { return (double)tm_steps(E); }
EXPORT(tm_memo_held) double wasm_memo_held(const tm_engine *E) { return (double)tm_memo_held(E); }

static void put_value(const tm_value *v, double *out) {
    out[0] = (double)v->rounds;
    out[1] = (double)v->questions;
    out[2] = v->move;
}

/* out: rounds, questions, move. */
EXPORT(tm_round_value) int wasm_round_value(tm_engine *E, const uint32_t *s, int m, double *out) {
    tm_value v;
    int status = tm_round_value(E, s, m, &v);
    if (status == TM_OK) put_value(&v, out);
    return status;
}

EXPORT(tm_inside_value) int wasm_inside_value(tm_engine *E, const uint32_t *s, int m, int p, int left, double *out) {
    tm_value v;
    int status = tm_inside_value(E, s, m, p, left, &v);
    if (status == TM_OK) put_value(&v, out);
    return status;
}

/* out: low rounds, low questions, up rounds, up questions, has up, move. */
EXPORT(tm_known_move) int wasm_known_move(tm_engine *E, const uint32_t *s, int m, int p, int left, double *out) {
    tm_value low, up;
    int has_up;
    int status = tm_known_move(E, s, m, p, left, &low, &up, &has_up);
    if (status == TM_OK) {
        out[0] = (double)low.rounds;
        out[1] = (double)low.questions;
        out[2] = (double)up.rounds;
        out[3] = (double)up.questions;
        out[4] = has_up;
        out[5] = up.move;
    }
    return status;
}

/* out: rounds, questions, exact. */
EXPORT(tm_floor) int wasm_floor(tm_engine *E, const uint32_t *s, int m, double *out) {
    tm_value v;
    int exact;
    int status = tm_floor(E, s, m, &v, &exact);
    if (status == TM_OK) {
        out[0] = (double)v.rounds;
        out[1] = (double)v.questions;
        out[2] = exact;
    }
    return status;
}

/* out: 125 x (rounds, questions, tie-break). */
EXPORT(tm_round_bounds) int wasm_round_bounds(tm_engine *E, const uint32_t *s, int m, int tie_breaks, double *out) {
    tm_value b[TM_CODES];
    int64_t o[TM_CODES];
    int status = tm_round_bounds(E, s, m, tie_breaks, b, o);
    if (status == TM_OK)
        for (int p = 0; p < TM_CODES; p++) {
            out[3 * p] = (double)b[p].rounds;
            out[3 * p + 1] = (double)b[p].questions;
            out[3 * p + 2] = (double)o[p];
        }
    return status;
}

/* out: steps, low rounds, low questions, up rounds, up questions, has up, the best found's move and first question. */
EXPORT(tm_progress) void wasm_progress(const tm_engine *E, double *out) {
    tm_progress p;
    tm_progress_of(E, &p);
    out[0] = (double)p.steps;
    out[1] = (double)p.low_rounds;
    out[2] = (double)p.low_questions;
    out[3] = (double)p.up_rounds;
    out[4] = (double)p.up_questions;
    out[5] = p.has_up;
    out[6] = p.move;
    out[7] = p.question;
}
