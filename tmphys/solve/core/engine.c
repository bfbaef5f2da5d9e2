/* An engine (tm.h): a set-up's problem copied as the search reads it, its question tree, its tuning and memory. */
#include "core.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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
    E->progress_move = E->progress_question = -1;
    *status = TM_OK;
    return E;
}
