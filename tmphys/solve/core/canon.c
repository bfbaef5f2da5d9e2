/* Nightmare's canonical forms (core.h): a state's least image under the relabellings of the verifiers. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

/* Sort m distinct class indices in place: by insertion when few, else through a bitmap of the K classes. */
void sort_classes(Engine *E, uint32_t *a, int m) {
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
void canonical(Engine *E, const uint32_t *s, int m, uint32_t *out, uint32_t *tmp) {
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
uint32_t *canon_sum(Engine *E, const uint32_t *s, int m, uint64_t sum, uint64_t *form_sum) {
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
uint32_t *canon_of(Engine *E, const uint32_t *s, int m) {
    uint64_t form_sum;
    return canon_sum(E, s, m, class_sum(E, s, m), &form_sum);
}
