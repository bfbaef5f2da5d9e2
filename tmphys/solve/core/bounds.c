/* The bounds that need no search (core.h): the state bound (Huffman lengths of its code groups), and each proposal's
 * one-round bound from the state's answer cells (the question tree's dynamic program), with which proposals end the
 * game and which split the state alike. */
#include "core.h"

#include <string.h>

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

/* The state bound (``Solver.lower_bound``): Huffman lengths of the code groups (8 outcomes a round, 2 a question),
 * or _worst_floor(k, 0). */
cost_t lower_bound(Engine *E, const uint32_t *s, int m) {
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

cells_t SCRATCH;

/* SCRATCH with this state's cells, filled unless *filled says it holds them already (a round start ranks, looks for
 * a finishing proposal and takes the least bound on one state, with nothing else filling SCRATCH in between). */
cells_t *scratch_cells(Engine *E, const uint32_t *s, int m, int *filled) {
    if (!*filled) {
        fill_cells(E, s, m, &SCRATCH);
        *filled = 1;
    }
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

void fill_cells(Engine *E, const uint32_t *s, int m, cells_t *c) {
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

void proposal_bound(Engine *E, const cells_t *c, int p, cost_t *bound, int64_t *order) {
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
void expected_bounds(Engine *E, const cells_t *c, cost_t *bound, int64_t *order) {
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
int ALL_PROPOSALS[NPROP];

/* ``proposal_bound`` of the proposals ps[0..np), into bound[p] and order[p] (NPAD entries): all at once where
 * ``expected_bounds`` or ``worst_bounds`` can, else one by one. */
void some_bounds(Engine *E, const cells_t *c, const int *ps, int np, cost_t *bound, int64_t *order) {
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
int finishers(Engine *E, const uint32_t *s, int m, int *ok) {
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

/* Sort up to NPROP ranked proposals by cmp_ranked (a total order, so any sort agrees): a merge sort, as fast on
 * every C library (some qsorts are several times slower on these short lists). */
void sort_ranked(ranked_t *a, int n) {
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
int distinct_proposals(Engine *E, const uint32_t *s, int m, int *live, const int *twins, int ntw) {
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
