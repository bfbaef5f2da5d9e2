/* The memo (core.h): exact values, learnt lower bounds and (worst case) upper bounds per state, in one open-addressing
 * hash table whose keys live in an arena; when it passes its limit the memo is forgotten but for its dearest entries
 * (``memo_forget``; exactness is unaffected). No pointer into the memo is held across a recursive call, so forgetting it
 * mid-search is safe. Its lookups (memo_find) are in core.h, inline. */
#include "core.h"

#include <stdlib.h>
#include <string.h>

/* The memo's entries lie in one array (ent, in the order made), found through a table of slots (at most half full,
 * linear probing): each slot holds the top half of its entry's hash beside the entry's number + 1 (0: empty), so a
 * lookup reads the entries only of slots whose half hash matches. An entry's key and extra data lie in the arena. */

static inline uint64_t slot_of(uint64_t h, uint64_t i) { return (h >> 32 << 32) | (i + 1); }

void put_set(const Engine *E, uint32_t *dst, const uint32_t *s, int m) {
    if (!as_bitmap(E, m)) {
        memcpy(dst, s, (size_t)m * 4);
        return;
    }
    memset(dst, 0, (size_t)set_words(E, m) * 4);
    for (int i = 0; i < m; i++) dst[s[i] >> 5] |= 1u << (s[i] & 31);
}

/* The m classes of a set kept, in order, into out. */
void get_set(const Engine *E, const uint32_t *kept, int m, uint32_t *out) {
    if (!as_bitmap(E, m)) {
        memcpy(out, kept, (size_t)m * 4);
        return;
    }
    int k = 0;
    for (uint64_t w = 0, n = set_words(E, m); w < n; w++)
        for (uint32_t x = kept[w]; x; x &= x - 1) out[k++] = (uint32_t)(w * 32 + (uint64_t)__builtin_ctz(x));
}

/* Words an entry's key (its kind, then its state: key_len - 1 classes) takes in the arena. */
static inline uint64_t key_words(const Engine *E, const entry_t *e) { return 1 + set_words(E, (int)e->key_len - 1); }

/* Words an entry's key and extra data (ranked proposals, canonical form) take in the arena. */
static uint64_t entry_words(const Engine *E, const entry_t *e) {
    uint64_t w = key_words(E, e);
    if (e->aux_off >= 0)
        w += e->kind == K_ROUND ? (uint64_t)e->aux_len * sizeof(ranked_t) / 4 : set_words(E, e->aux_len);
    return w;
}

/* A table of `cap` slots for the first n entries; NULL when out of memory. */
static uint64_t *slots_for(const Engine *E, uint64_t cap, uint64_t n) {
    uint64_t *t = calloc(cap, 8);
    if (!t) return NULL;
    for (uint64_t i = 0; i < n; i++) {
        uint64_t j = E->ent[i].hash & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = slot_of(E->ent[i].hash, i);
    }
    return t;
}

/* Bit length of a count of steps: an entry's ``work``. */
static inline uint16_t work_of(uint64_t steps) { return steps ? (uint16_t)(64 - __builtin_clzll(steps)) : 0; }

/* What ``memo_forget`` ranks an entry by: its work, or its state's size. */
static inline uint64_t dearness(const entry_t *e, int by_work) { return by_work ? e->work : e->key_len - 1; }

/* The memo is full: forget it, but for its dearest entries, up to a quarter of the limit. In the worst case the
 * dearest are those whose values took the most work to search (``work``); in the expected case, the entries of the
 * biggest states (the start and the round starts near it, with their ranked proposals and deep bounds, and the floors
 * and canonical forms the deep bounds read, which take no steps to find). The entries kept move to the front of the
 * array, their keys and data to the front of the arena (both keep their size: growing them again would copy them and
 * fault in new pages). */
static void memo_forget(Engine *E) {
    E->forgets++;
    const int by_work = !E->expected;
    const uint64_t budget = E->memo_limit / 4, nb = by_work ? 66 : (uint64_t)E->K + 2;
    uint64_t *bytes = calloc((size_t)nb, 8);
    uint64_t keep_from = nb, kept = 0, kept_words = 0;
    if (bytes) { /* bytes by work or by state size (an entry's share of the table counted as two slots); keep the
                  * dearest that fit in the budget */
        for (uint64_t i = 0; i < E->ent_len; i++)
            bytes[dearness(&E->ent[i], by_work)] +=
                entry_words(E, &E->ent[i]) * 4 + sizeof(entry_t) + 16;
        uint64_t total = 0;
        for (int64_t m = (int64_t)nb - 1; m >= (by_work ? 1 : 2) && total + bytes[m] <= budget; m--) {
            total += bytes[m];
            keep_from = (uint64_t)m;
        }
        free(bytes);
    }
    for (uint64_t i = 0; i < E->ent_len; i++)
        if (dearness(&E->ent[i], by_work) >= keep_from) {
            kept++;
            kept_words += entry_words(E, &E->ent[i]);
        }
    uint32_t *a = kept ? malloc((kept_words + 1) * 4) : NULL;
    if (kept && !a) kept = 0; /* no room to copy: forget everything */
    uint64_t len = 0, k = 0;
    if (kept) {
        for (uint64_t i = 0; i < E->ent_len; i++) {
            entry_t e = E->ent[i];
            if (dearness(&e, by_work) < keep_from) continue;
            const uint64_t kw = key_words(E, &e);
            memcpy(a + len, E->arena + e.key_off, (size_t)kw * 4);
            e.key_off = len;
            len += kw;
            if (e.aux_off >= 0) {
                uint64_t w = entry_words(E, &e) - kw;
                memcpy(a + len, E->arena + e.aux_off, (size_t)w * 4);
                e.aux_off = (int64_t)len;
                len += w;
            }
            E->ent[k++] = e;
        }
        memcpy(E->arena, a, (size_t)len * 4);
        free(a);
    }
    E->ent_len = k;
    E->arena_len = len;
    uint64_t cap = TAB_START;
    while (cap < 2 * (k + 1)) cap *= 2;
    uint64_t *t = slots_for(E, cap, k);
    if (t) {
        free(E->tab);
        E->tab = t;
        E->tab_cap = cap;
    } else { /* keep the old table, emptied, and forget every entry */
        memset(E->tab, 0, E->tab_cap * 8);
        E->ent_len = 0;
        E->arena_len = 0;
    }
}

/* The table twice as big. */
static int memo_grow(Engine *E) {
    uint64_t cap = E->tab_cap * 2, *t = slots_for(E, cap, E->ent_len);
    if (!t) return -1;
    free(E->tab);
    E->tab = t;
    E->tab_cap = cap;
    return 0;
}

/* Room in a growing array (arena words or entries) for `want` in all: its capacity doubled as often as needed, but
 * never past `most` when that will do (the memo is forgotten before it would be). */
static int grow_array(void **p, uint64_t *cap, uint64_t want, uint64_t most, size_t size) {
    if (want <= *cap) return 0;
    uint64_t c = *cap;
    while (want > c) c *= 2;
    if (c > most && want <= most) c = most;
    void *q = realloc(*p, (size_t)(c * size));
    if (!q) return -1;
    *p = q;
    *cap = c;
    return 0;
}

int64_t arena_alloc(Engine *E, uint64_t words) {
    if (grow_array((void **)&E->arena, &E->arena_cap, E->arena_len + words, E->memo_limit / 4 + 4096, 4) < 0)
        return -1;
    int64_t off = (int64_t)E->arena_len;
    E->arena_len += words;
    return off;
}

/* The entry for this key (its hash h), created (empty) if new; NULL when out of memory. May forget the memo first
 * (``memo_forget``): entries found before may have moved. */
entry_t *memo_slot(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h) {
    entry_t *e = memo_find(E, head, s, m, h);
    if (e) return e;
    const int grow = (E->ent_len + 1) * 2 > E->tab_cap;
    if (memo_bytes(E) + (2 * (uint64_t)m + 514) * 4 + sizeof(entry_t) + (grow ? E->tab_cap * 8 : 0) > E->memo_limit ||
        E->ent_len + 1 >= UINT32_MAX) /* a slot numbers its entry in 32 bits */
        memo_forget(E);
    if ((E->ent_len + 1) * 2 > E->tab_cap && memo_grow(E) < 0) return NULL;
    if (grow_array((void **)&E->ent, &E->ent_cap, E->ent_len + 1, E->memo_limit / sizeof(entry_t) / 2 + 1024,
                   sizeof(entry_t)) < 0)
        return NULL;
    int64_t off = arena_alloc(E, 1 + set_words(E, m));
    if (off < 0) return NULL;
    E->arena[off] = head;
    put_set(E, E->arena + off + 1, s, m);
    uint64_t j = h & (E->tab_cap - 1);
    while (E->tab[j]) j = (j + 1) & (E->tab_cap - 1);
    E->tab[j] = slot_of(h, E->ent_len);
    e = &E->ent[E->ent_len++];
    memset(e, 0, sizeof(*e));
    e->kind = (uint8_t)(head & 15);
    e->hash = h;
    e->key_off = (uint64_t)off;
    e->key_len = (uint32_t)m + 1;
    e->best = -1;
    e->upper = INF;
    e->aux_off = -1;
    return e;
}

/* The work of the value about to be stored, from ``since`` (set by the search that found it, else now) to now. */
static inline void note_work(Engine *E, entry_t *e) {
    const uint64_t now = effort(E);
    const uint16_t w = work_of(now - E->since);
    if (w > e->work) e->work = w;
    E->since = now;
}

void store(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, int exact, cost_t v, int best) {
    entry_t *e = memo_slot(E, head, s, m, h);
    if (!e) return;
    note_work(E, e);
    if (exact) {
        e->exact = 1;
        e->value = v;
        e->best = best;
    } else if (!e->exact && v > e->value) {
        e->value = v;
        if (!E->expected && v >= e->upper) { /* the bounds met */
            e->exact = 1;
            e->value = e->upper;
        }
    }
}

/* Worst case: a move reaches u (at most), the state's value being at least `floor`; exact when they meet. */
static void store_upper(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, cost_t u, int best,
                        cost_t floor) {
    entry_t *e = memo_slot(E, head, s, m, h);
    if (!e || e->exact) return;
    note_work(E, e);
    if (u < e->upper) {
        e->upper = u;
        e->best = best;
    }
    if (cmax(floor, e->value) >= e->upper) {
        e->exact = 1;
        e->value = e->upper;
    }
}

/* Expected case: a round start's proposal whose exact value is v, the best found so far there. The search never reads
 * it (the expected case's values stay as the Python search's); a search stopped part way still has a strategy known
 * in full to play (``known_move``), and the least value it reaches. */
void store_incumbent(Engine *E, const uint32_t *s, int m, uint64_t h, cost_t v, int best) {
    entry_t *e = memo_slot(E, K_ROUND, s, m, h);
    if (e && !e->exact && v < e->upper) {
        e->upper = v;
        e->best = best;
    }
}

/* What a search found under its budget: exact in the expected case (it searched every move), an upper bound in the
 * worst case. */
void store_found(Engine *E, uint32_t head, const uint32_t *s, int m, uint64_t h, cost_t best, int move,
                        cost_t floor) {
    if (E->expected) store(E, head, s, m, h, 1, best, move);
    else store_upper(E, head, s, m, h, best, move, floor);
}
