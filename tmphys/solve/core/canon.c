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

/* The relabellings a canonical form compares: every order of each group of tied positions (``canonical``), each with
 * its table of images (NULL: none, found by ``relabelled``). */
typedef struct {
    Engine *E;
    int n, count;
    int order[MAXN], group_end[MAXN], used[MAXN], perm[MAXN];
    int fixed[MAXN]; /* by a group's first place: the state is sent onto itself by every order of the group */
    int perms[MAXPERMS][MAXN];
    const int32_t *tabs[MAXPERMS];
    int identity[MAXPERMS];
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

/* The table of images under the order `perm` (its code: sum of perm[i] * n**(n - 1 - i)), built the first time the
 * order is used while the tables take at most table_limit bytes; NULL where there is none (``relabelled`` then). */
static const int32_t *table_of(Engine *E, const int *perm) {
    if (!E->tables) return NULL;
    int code = 0;
    for (int i = 0; i < E->n; i++) code = code * E->n + perm[i];
    int32_t *tab = E->tables[code];
    uint64_t size = (uint64_t)E->K * 4;
    if (!tab && E->table_bytes + size <= E->table_limit && (tab = malloc(size))) {
        for (int k = 0; k < E->K; k++) tab[k] = (int32_t)relabelled(E, (uint32_t)k, perm);
        E->tables[code] = tab;
        E->table_bytes += size;
    }
    return tab;
}

/* The relabelling of c->perm added to the list, with its table. */
static void canon_add(canon_ctx *c) {
    int n = c->n, identity = 1, t = c->count++;
    for (int i = 0; i < n; i++) {
        if (c->perm[i] != i) identity = 0;
        c->perms[t][i] = c->perm[i];
    }
    c->identity[t] = identity;
    c->tabs[t] = identity ? NULL : table_of(c->E, c->perm);
}

/* The state s (m classes, sorted) marked in E->bitmap, a word at a time; ``unmark`` clears it again. */
static void mark(Engine *E, const uint32_t *s, int m) {
    uint64_t w = s[0] >> 6, bits = 0;
    for (int i = 0; i < m; i++) {
        if (s[i] >> 6 != w) {
            E->bitmap[w] = bits;
            w = s[i] >> 6;
            bits = 0;
        }
        bits |= (uint64_t)1 << (s[i] & 63);
    }
    E->bitmap[w] = bits;
}

static void unmark(Engine *E, const uint32_t *s, int m) {
    memset(E->bitmap + (s[0] >> 6), 0, (size_t)((s[m - 1] >> 6) - (s[0] >> 6) + 1) * 8);
}

/* Whether relabelling by the order `perm` sends the state s (m classes, marked in E->bitmap) onto itself: each
 * class's image among its classes. */
static int sends_onto_itself(Engine *E, const uint32_t *s, int m, const int *perm) {
    const int32_t *tab = table_of(E, perm);
    for (int i = 0; i < m; i++) {
        uint32_t k = tab ? (uint32_t)tab[s[i]] : relabelled(E, s[i], perm);
        if (!((E->bitmap[k >> 6] >> (k & 63)) & 1)) return 0;
    }
    return 1;
}

/* all orders of each group of tied positions, in itertools.product(permutations) order */
static void canon_rec(canon_ctx *c, int pos) {
    int n = c->n;
    if (pos >= n || pos >= MAXN) {
        canon_add(c);
        return;
    }
    int end = c->group_end[pos];
    int gstart = pos;
    while (gstart > 0 && c->group_end[gstart - 1] == end) gstart--;
    if (c->fixed[gstart]) { /* every order of the group gives the same images: the first one only */
        c->perm[pos] = c->order[pos];
        canon_rec(c, pos + 1);
        return;
    }
    for (int i = gstart; i < end; i++) {
        int v = c->order[i];
        if (c->used[v]) continue;
        c->used[v] = 1;
        c->perm[pos] = v;
        canon_rec(c, pos + 1);
        c->used[v] = 0;
    }
}

/* The images of the classes a[0..len) under relabelling t, sorted, into out. */
static void canon_image(const canon_ctx *c, int t, const uint32_t *a, int len, uint32_t *out) {
    const int32_t *tab = c->tabs[t];
    if (c->identity[t]) memcpy(out, a, (size_t)len * 4);
    else if (tab)
        for (int i = 0; i < len; i++) out[i] = (uint32_t)tab[a[i]];
    else
        for (int i = 0; i < len; i++) out[i] = relabelled(c->E, a[i], c->perms[t]);
    sort_classes(c->E, out, len);
}

/* The canonical form of s (m classes) into out: the least image over the relabellings that sort the positions'
 * hashes (as Deduction.canonical; any fixed order of the images gives a canonical form).
 *
 * A relabelling keeps each assignment's criteria, so its code: it maps each code's run of classes onto the same
 * code's, and a sorted image is its runs' sorted images one after another, in the state's code order. So the images
 * are compared a run at a time, the first run first: a relabelling is dropped at the first run whose image is greater
 * than the least one's, and once one is left the rest of its image is made alone. Most relabellings fall at the first
 * run or two, where each used to be imaged and sorted whole. */
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
    static canon_ctx c; /* 26 kB, kept off the stack: one search at a time in a process, as SCRATCH (bounds.c) */
    c.E = E;
    c.n = n;
    c.count = 0;
    for (int v = 0; v < n; v++) {
        c.order[v] = v;
        c.used[v] = 0;
    }
    for (int i = 1; i < n; i++) { /* stable insertion sort by hash */
        int v = c.order[i], j = i - 1;
        while (j >= 0 && h[c.order[j]] > h[v]) {
            c.order[j + 1] = c.order[j];
            j--;
        }
        c.order[j + 1] = v;
    }
    int marked = 0;
    for (int i = 0; i < n;) {
        int j = i;
        while (j < n && h[c.order[j]] == h[c.order[i]]) j++;
        if (j - i > 1 && !marked) {
            mark(E, s, m);
            marked = 1;
        }
        for (int t = i; t < j; t++) c.group_end[t] = j;
        /* A group of tied positions whose every swap of two neighbours (so every order) sends the state onto itself:
         * an order of the whole that differs from another only within this group gives the same image (the state
         * reordered within the group first is the state), so one order of the group is enough. Such groups are the
         * common case: positions no answer has told apart yet. */
        int fixed = j - i > 1;
        for (int t = i; t + 1 < j && fixed; t++) {
            int swap[MAXN];
            for (int v = 0; v < n; v++) swap[v] = v;
            swap[c.order[t]] = c.order[t + 1];
            swap[c.order[t + 1]] = c.order[t];
            fixed = sends_onto_itself(E, s, m, swap);
        }
        c.fixed[i] = fixed;
        i = j;
    }
    if (marked) unmark(E, s, m);
    canon_rec(&c, 0);
    int16_t cand[MAXPERMS]; /* the relabellings whose image is the least so far */
    int nc = c.count;
    for (int t = 0; t < nc; t++) cand[t] = (int16_t)t;
    for (int pos = 0; pos < m;) {
        int end = pos + 1;
        while (end < m && E->code[s[end]] == E->code[s[pos]]) end++;
        if (nc == 1) { /* one left: the rest of its image (sorted whole, its runs are sorted one after another) */
            canon_image(&c, cand[0], s + pos, m - pos, out + pos);
            break;
        }
        const int len = end - pos;
        canon_image(&c, cand[0], s + pos, len, out + pos);
        int kept = 1;
        for (int i = 1; i < nc; i++) {
            canon_image(&c, cand[i], s + pos, len, tmp);
            int d = memcmp(tmp, out + pos, (size_t)len * 4);
            if (d > 0) continue;
            if (d < 0) {
                memcpy(out + pos, tmp, (size_t)len * 4);
                kept = 0;
            }
            cand[kept++] = cand[i];
        }
        nc = kept;
        pos = end;
    }
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
