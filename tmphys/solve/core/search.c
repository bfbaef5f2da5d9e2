/* The exact search (core.h): a problem's optimum for one objective from a round start or inside a round.
 *
 * The search follows the rules as tmphys/solve/reference.py states them (a round's proposal, up to three questions
 * each chosen after the earlier answers, the proposals' question-tree bounds, the proposals that can end the game,
 * one proposal per split signature, Nightmare's canonical forms under relabelling the verifiers) and returns the same
 * optimal values; which of two equally good moves it picks, and how many steps it takes, may differ.
 *
 * One departure, in the worst case: a budgeted search only has to tell whether the value is under the budget, so
 * it stops at the first move that is (a proposal, a question, going on rather than a new round) and returns what
 * that move reaches, an upper bound; the memo keeps it apart from the lower bounds, and the value is exact once
 * they meet. The tests "is the value under b?" (``deepen``) then end on an exact value all the same.
 */
#include "core.h"

#include <stdlib.h>

/* A search found a move reaching `best`: can it stop? At the state's floor, yes; in the worst case, already under the
 * budget (the caller only asks whether the value is). */
static inline int found_enough(const Engine *E, cost_t best, cost_t floor, cost_t budget) {
    return best <= floor || (!E->expected && best < budget);
}

static cost_t inside_sum(Engine *E, const uint32_t *s, int m, int p, int left, cost_t budget, uint64_t sum);

/* ``round_search`` of a state whose class sum the caller may know (0: not known). */
static cost_t round_sum(Engine *E, const uint32_t *s, int m, cost_t budget, cost_t known_floor, uint64_t sum) {
    if (m == 0 || known(E, s, m)) return 0;
    const uint64_t began = effort(E);
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
                E->since = began;
                store(E, K_ROUND, s, m, h, 1, ranked[0].bound, ranked[0].p);
                result = ranked[0].bound;
                goto done;
            }
        } else if (floor < later) {
            if (finish_here(E, s, m, h, &result, &filled)) goto done;
            floor = later;
            if (floor >= budget) {
                E->since = began;
                store(E, K_ROUND, s, m, h, 0, floor, -1);
                result = floor;
                goto done;
            }
        }
        /* the least bound over all proposals first: most new round starts are ruled out by it, without the work of
         * ranking their proposals (their split signatures, the code symmetries) and keeping the list (the worst case
         * ranks them from the bounds found here) */
        if (!has_ranked) {
            floor = cmax(floor, E->expected ? expected_round_floor(E, s, m, &filled) : worst_round_floor(E, s, m, &filled));
            if (floor >= budget) {
                E->since = began;
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
            E->since = began;
            store_found(E, K_ROUND, s, m, h, best, best_p, floor);
            result = best;
            goto done;
        }
        cost_t low = cmax(floor, cmin(best, fail));
        E->since = began;
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
    const uint64_t began = effort(E);
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
    E->since = began;
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
 * bounds down to round starts of `wider_codes` codes); worst case: tests "is the value under b?", each found strategy lowering the least value found (up), each failed test raising the floor, until
 * they meet: first with b the next round (any strategy within the floor's rounds?), then halving the questions
 * between the floor and up (fewer steps on every Nightmare problem measured than raising the floor a question at a
 * time: benchmarks/RESULTS.md, "Nightmare in a minute"). */
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
    cost_t up = INF; /* the least value a strategy found reaches */
    while (1) {
        /* first: a strategy within the floor's rounds? then, the floor and a strategy found in the same round, the
         * test halfway between them, or under the strategy found when they are a question or two apart */
        cost_t budget = up < INF ? up : pack((floor >> 32) + 1, 0);
        if (up < INF && up >> 32 == floor >> 32 && up - floor > 2) budget = floor + 1 + (up - floor) / 2;
        cost_t v = search(E, s, m, p, left, budget);
        if (E->stopped) return v;
        if (v < budget) {
            up = v;
            if (up <= floor) return up;
        } else {
            floor = cmax(floor, v);
            if (floor >= up) return up;
        }
    }
}

cost_t deepen_round(Engine *E, const uint32_t *s, int m) {
    return deepen(E, round_at, s, m, 0, 0, round_floor(E, s, m));
}

cost_t deepen_inside(Engine *E, const uint32_t *s, int m, int p, int left) {
    uint32_t head = inside_head(p, left);
    entry_t *e = memo_find(E, head, s, m, hash_key(E, head, s, m));
    return deepen(E, inside_search, s, m, p, left, e ? e->value : 0);
}
