/* Deep bounds, expected case (core.h): a proposal's bound a round deeper than its ranked bound, found as it comes up
 * in the search, and a round start's deep floor, the least of its proposals' deep bounds. */
#include "core.h"

#include <string.h>

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
void deepen_at(Engine *E, const uint32_t *s, int m, ranked_t *ranked, int i, int nr, cost_t cap, uint64_t h,
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
        /* ruled out by the least bound over all proposals: no ranking to keep (as ``round_sum``) */
        lb = result = cmax(lb, expected_round_floor(E, s, m, &filled));
        if (lb >= cap) {
            *whole = 0;
            store(E, K_ROUND, s, m, h, 0, lb, -1);
            goto done;
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
