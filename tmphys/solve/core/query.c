/* What a binding asks an engine (tm.h): a state's value and best move, searched to the end; its proposals' bounds;
 * what the memo knows of it without searching. */
#include "core.h"

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
    E->root_raw = left || !memcmp(E->root, s, (size_t)m * 4);
    E->root_hash = hash_key(E, E->root_head, E->root, m);
    E->progress_low = left ? 0 : lower_bound(E, s, m);
    E->progress_up = INF;
    E->progress_move = E->progress_question = -1;
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
        E->progress_move = best;
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
