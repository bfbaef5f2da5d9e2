/* A round start before its search (core.h): its floor, its ranked proposals, a proposal that ends the game. */
#include "core.h"

#include <string.h>

/* ``Solver._cheap_floor``: the state bound, or what a deep bound of a round before found for it. */
cost_t cheap_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum) {
    if (E->deep) {
        entry_t *e = memo_find(E, K_FLOOR, s, m, hash_of(K_FLOOR, m, sum));
        if (e && e->value > lb) lb = e->value;
    }
    return lb;
}

/* ``Solver._round_floor``: exact if memoised, else what the search learnt, else the cheap floor; `lb`, the state's
 * bound (``lower_bound``), and `sum`, its class sum (``class_sum``). */
cost_t round_floor_sum(Engine *E, const uint32_t *s, int m, cost_t lb, uint64_t sum) {
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

cost_t round_floor(Engine *E, const uint32_t *s, int m) {
    return round_floor_sum(E, s, m, lower_bound(E, s, m), class_sum(E, s, m));
}

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

/* Every proposal's bound and tie-break on the round start whose `filled` is FILLED_BOUNDS (``worst_round_floor``):
 * its ranking reads them rather than work them out again. */
#define FILLED_BOUNDS 2
static cost_t ROUND_BOUND[NPAD];
static int64_t ROUND_ORDER[NPAD];

/* The ranked proposals of a round start (``Solver._ranked_proposals``), into out; their count. */
static int ranked_proposals(Engine *E, const uint32_t *s, int m, ranked_t *out, int *filled) {
    int live[NPROP], twins[64] = {0}; /* only the first ntw are read (gcc cannot tell) */
    int ntw = automorphisms(E, s, m, twins);
    int nl = distinct_proposals(E, s, m, live, twins, ntw);
    cells_t *c = scratch_cells(E, s, m, filled);
    cost_t lb0 = lower_bound(E, s, m);
    int64_t r0 = lb0 >> 32, q0 = lb0 & (SC - 1);
    cost_t bs[NPAD];
    int64_t os[NPAD];
    if (*filled == FILLED_BOUNDS) {
        memcpy(bs, ROUND_BOUND, sizeof(bs));
        memcpy(os, ROUND_ORDER, sizeof(os));
    } else {
        some_bounds(E, c, live, nl, bs, os);
    }
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
cost_t worst_round_floor(Engine *E, const uint32_t *s, int m, int *filled) {
    cost_t least = INF;
    some_bounds(E, scratch_cells(E, s, m, filled), ALL_PROPOSALS, NPROP, ROUND_BOUND, ROUND_ORDER);
    *filled = FILLED_BOUNDS; /* kept for the ranking */
    for (int p = 0; p < NPROP; p++) least = cmin(least, ROUND_BOUND[p]);
    return least;
}

/* The expected case's least one-round bound over all 125 proposals, joined with the state bound as
 * ``ranked_proposals`` joins each (so it is the first ranked proposal's bound: proposals alike in their splits, or
 * sent onto each other by a code symmetry, have the same bound, and one that splits nothing none lower than one that
 * does); 0 for a state of more than 64 codes (its bounds are not found all at once). */
cost_t expected_round_floor(Engine *E, const uint32_t *s, int m, int *filled) {
    cells_t *c = scratch_cells(E, s, m, filled);
    if (c->words != 1) return 0;
    cost_t b[NPAD], least = INF;
    expected_bounds(E, c, b, NULL);
    for (int p = 0; p < NPROP; p++) least = cmin(least, b[p]);
    cost_t lb0 = lower_bound(E, s, m);
    int64_t r = least >> 32, q = least & (SC - 1), r0 = lb0 >> 32, q0 = lb0 & (SC - 1);
    return r < r0 ? lb0 : pack(r, q > q0 ? q : q0);
}

/* A round start's proposal that ends the game this round (``finish_move``), its exact value memoised (h: the state's
 * key's hash) and put in *value: 1, or 0 if none does. */
int finish_here(Engine *E, const uint32_t *s, int m, uint64_t h, cost_t *value, int *filled) {
    int fp = finish_move(E, s, m, value, filled);
    if (fp < 0) return 0;
    store(E, K_ROUND, s, m, h, 1, *value, fp);
    return 1;
}

/* A round start's ranked proposals (``ranked_proposals``) into `ranked`, kept in its memo entry (h: its key's hash);
 * their count, or 0 with the search stopped on an error when no proposal tells its assignments apart. */
int rank_and_keep(Engine *E, const uint32_t *s, int m, uint64_t h, ranked_t *ranked, int *filled) {
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
