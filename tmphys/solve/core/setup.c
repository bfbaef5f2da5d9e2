/* The set-up (tm.h): a problem's valid hidden assignments, merged into classes, and what the search reads of them.
 *
 * The rules, as tmphys.game.problems states them (and the tests hold this to on every book problem):
 * - a verifier checks one criterion: one of its criteria card's (Classic), of its two cards' (Extreme), or, in
 *   Nightmare, of the card a hidden one-to-one pairing gives it; a truth table printed twice counts once;
 * - a hidden assignment is valid when exactly one code passes every verifier and none is redundant (leaving any one
 *   verifier out leaves at least two codes);
 * - assignments that give every verifier the same truth table are one class, weighing as many as it merges (in
 *   Nightmare, the pairings that agree on every verifier's table);
 * - classes come in code order, then by their truth tables (as 125-bit numbers), verifier by verifier.
 */
#include "core.h"

#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- code sets */

static inline tm_codes meet(tm_codes a, tm_codes b) { return (tm_codes){a.lo & b.lo, a.hi & b.hi}; }
static inline int count(tm_codes a) { return __builtin_popcountll(a.lo) + __builtin_popcountll(a.hi); }
static inline int same(tm_codes a, tm_codes b) { return a.lo == b.lo && a.hi == b.hi; }
static inline int has(tm_codes a, int c) { return c < 64 ? (int)(a.lo >> c & 1) : (int)(a.hi >> (c - 64) & 1); }
static inline int lowest(tm_codes a) { return a.lo ? __builtin_ctzll(a.lo) : 64 + __builtin_ctzll(a.hi); }
static inline int below(tm_codes a, tm_codes b) { return a.hi != b.hi ? a.hi < b.hi : a.lo < b.lo; }
static const tm_codes EVERY = {~(uint64_t)0, ((uint64_t)1 << (TM_CODES - 64)) - 1};

static int cmp_codes(const void *a, const void *b) {
    const tm_codes *x = a, *y = b;
    return below(*x, *y) ? -1 : below(*y, *x) ? 1 : 0;
}

/* splitmix64: the hashes' generator (any fixed one will do; the search only needs them spread). */
static uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t random_hash(uint64_t *state) { return (next_random(state) >> 1) | 1; }

/* ---------------------------------------------------------------- a card's criteria, and valid choices */

/* The distinct truth tables of these cards' criteria, first printed first; how many. */
static int distinct(const tm_card *library, const int *numbers, int cards, tm_codes *out) {
    int n = 0;
    for (int i = 0; i < cards; i++) {
        const tm_card *card = &library[numbers[i] - 1];
        for (int c = 0; c < card->count; c++) {
            int seen = 0;
            for (int j = 0; j < n && !seen; j++) seen = same(out[j], card->criteria[c]);
            if (!seen) out[n++] = card->criteria[c];
        }
    }
    return n;
}

/* The slots (verifiers, or Nightmare's cards) and their candidate truth tables. */
typedef struct {
    int n, count[TM_MAX_VERIFIERS];
    tm_codes cand[TM_MAX_VERIFIERS][2 * TM_CARD_CRITERIA];
} slots_t;

/* A growing list of valid choices, one candidate index a slot. */
typedef struct {
    uint8_t *at; /* len x n */
    size_t len, cap;
    int failed;
} choices_t;

static void keep_choice(choices_t *out, const int *pick, int n) {
    if (out->failed) return;
    if (out->len == out->cap) {
        size_t cap = out->cap ? out->cap * 2 : 256;
        uint8_t *at = realloc(out->at, cap * (size_t)n);
        if (!at) {
            out->failed = 1;
            return;
        }
        out->at = at;
        out->cap = cap;
    }
    for (int v = 0; v < n; v++) out->at[out->len * (size_t)n + (size_t)v] = (uint8_t)pick[v];
    out->len++;
}

/* Every choice of a candidate a slot with exactly one code in common and no slot redundant, in lexicographic order of
 * the candidates' indices (``tmphys.game.problems.valid_choices``). A part of a choice is dropped as soon as it keeps
 * fewer than two codes: a valid choice keeps two or more with any slot left out. */
static void choose(const slots_t *sl, int v, tm_codes acc, int *pick, choices_t *out) {
    const int n = sl->n;
    for (int i = 0; i < sl->count[v]; i++) {
        tm_codes next = meet(acc, sl->cand[v][i]);
        int c = count(next);
        pick[v] = i;
        if (v < n - 1) {
            if (c >= 2) choose(sl, v + 1, next, pick, out);
            continue;
        }
        if (c != 1) continue;
        int redundant = 0;
        for (int leave = 0; leave < n && !redundant && n > 1; leave++) {
            tm_codes rest = EVERY;
            for (int j = 0; j < n; j++)
                if (j != leave) rest = meet(rest, sl->cand[j][pick[j]]);
            redundant = count(rest) < 2;
        }
        if (!redundant) keep_choice(out, pick, n);
    }
}

/* ---------------------------------------------------------------- classes */

/* A class while merging: its truth tables as indices into the problem's distinct ones (9 bits each, packed), and
 * how many assignments it merges. */
typedef struct {
    uint64_t key;
    int64_t weight;
    int code;
} merged_t;

typedef struct {
    merged_t *at;
    size_t len, cap;
    uint32_t *slot; /* open addressing: index + 1, 0 empty */
    size_t slots;
    int failed;
} merge_t;

static uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    return x;
}

static int merge_grow(merge_t *mg) {
    size_t slots = mg->slots ? mg->slots * 2 : 1024;
    uint32_t *slot = calloc(slots, sizeof(uint32_t));
    if (!slot) return -1;
    for (size_t i = 0; i < mg->len; i++) {
        size_t j = mix(mg->at[i].key) & (slots - 1);
        while (slot[j]) j = (j + 1) & (slots - 1);
        slot[j] = (uint32_t)(i + 1);
    }
    free(mg->slot);
    mg->slot = slot;
    mg->slots = slots;
    return 0;
}

/* Count one more assignment of the class with this key (and code). */
static void merge_in(merge_t *mg, uint64_t key, int code) {
    if (mg->failed) return;
    if ((mg->len + 1) * 2 > mg->slots && merge_grow(mg) < 0) {
        mg->failed = 1;
        return;
    }
    size_t j = mix(key) & (mg->slots - 1);
    for (; mg->slot[j]; j = (j + 1) & (mg->slots - 1))
        if (mg->at[mg->slot[j] - 1].key == key) {
            mg->at[mg->slot[j] - 1].weight++;
            return;
        }
    if (mg->len == mg->cap) {
        size_t cap = mg->cap ? mg->cap * 2 : 256;
        merged_t *at = realloc(mg->at, cap * sizeof(merged_t));
        if (!at) {
            mg->failed = 1;
            return;
        }
        mg->at = at;
        mg->cap = cap;
    }
    mg->slot[j] = (uint32_t)(mg->len + 1);
    mg->at[mg->len++] = (merged_t){key, 1, code};
}

#define KEY_BITS 9 /* a truth table's index in a class key: fewer than 2**9 distinct tables in a problem */

static int key_at(uint64_t key, int v) { return (int)(key >> (KEY_BITS * v) & ((1u << KEY_BITS) - 1)); }

static int SORT_N; /* the verifiers, for cmp_merged (qsort takes no context) */

/* Code order, then the truth tables verifier by verifier (their indices ascend with the tables). */
static int cmp_merged(const void *a, const void *b) {
    const merged_t *x = a, *y = b;
    if (x->code != y->code) return x->code < y->code ? -1 : 1;
    for (int v = 0; v < SORT_N; v++) {
        int p = key_at(x->key, v), q = key_at(y->key, v);
        if (p != q) return p < q ? -1 : 1;
    }
    return 0;
}

/* The next permutation of a[0..n) in lexicographic order; 0 after the last. */
static int next_permutation(int *a, int n) {
    int i = n - 2;
    while (i >= 0 && a[i] >= a[i + 1]) i--;
    if (i < 0) return 0;
    int j = n - 1;
    while (a[j] <= a[i]) j--;
    int t = a[i];
    a[i] = a[j];
    a[j] = t;
    for (int l = i + 1, r = n - 1; l < r; l++, r--) {
        t = a[l];
        a[l] = a[r];
        a[r] = t;
    }
    return 1;
}

/* ---------------------------------------------------------------- the search's inputs */

static int cmp_i64_at(const void *a, const void *b, const int64_t *keys) {
    int64_t x = keys[*(const int32_t *)a], y = keys[*(const int32_t *)b];
    return x < y ? -1 : x > y;
}

static const int64_t *SORT_KEYS;

static int cmp_key_order(const void *a, const void *b) { return cmp_i64_at(a, b, SORT_KEYS); }

/* The class holding these keyed criteria, by binary search over the sorted keys; -1 if none. */
static int class_of_key(const tm_setup *su, int64_t key) {
    int lo = 0, hi = su->K - 1;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (su->sorted_keys[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return su->sorted_keys[lo] == key ? su->key_order[lo] : -1;
}

/* The maps of codes that send the problem's classes onto themselves (``Deduction._code_symmetries``): each permutation
 * of the three colours, alone or with every digit d read as 6 - d, kept when it sends every truth table the classes use
 * onto another of them, every class onto a class, and keeps every class's weight. */
static int code_symmetries(tm_setup *su) {
    static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    const int K = su->K, n = su->n;
    su->map_code = malloc((size_t)12 * TM_CODES * sizeof(int32_t));
    su->map_class = malloc((size_t)12 * (size_t)K * sizeof(int32_t));
    int32_t *image = malloc((size_t)su->nmasks * sizeof(int32_t));
    if (!su->map_code || !su->map_class || !image) {
        free(image);
        return -1;
    }
    su->nmaps = 0;
    for (int flip = 0; flip < 2; flip++)
        for (int t = 0; t < 6; t++) {
            if (!flip && t == 0) continue;
            int32_t *code_map = su->map_code + (size_t)su->nmaps * TM_CODES;
            int32_t *class_map = su->map_class + (size_t)su->nmaps * (size_t)K;
            for (int c = 0; c < TM_CODES; c++) {
                int d[3] = {c / 25, c / 5 % 5, c % 5};
                if (flip)
                    for (int j = 0; j < 3; j++) d[j] = 4 - d[j];
                code_map[c] = d[PERMS[t][0]] * 25 + d[PERMS[t][1]] * 5 + d[PERMS[t][2]];
            }
            int ok = 1;
            for (int i = 0; i < su->nmasks && ok; i++) {
                tm_codes to = {0, 0};
                for (int c = 0; c < TM_CODES; c++)
                    if (has(su->masks[i], c)) {
                        int x = code_map[c];
                        if (x < 64) to.lo |= (uint64_t)1 << x;
                        else to.hi |= (uint64_t)1 << (x - 64);
                    }
                tm_codes *hit = bsearch(&to, su->masks, (size_t)su->nmasks, sizeof(tm_codes), cmp_codes);
                image[i] = hit ? (int32_t)(hit - su->masks) : -1;
                ok = hit != NULL;
            }
            for (int k = 0; k < K && ok; k++) {
                int64_t key = 0;
                for (int v = 0; v < n; v++) key += image[su->crit[(size_t)k * n + v]] * su->digit[v];
                int to = class_of_key(su, key);
                ok = to >= 0 && su->weight[to] == su->weight[k];
                class_map[k] = to;
            }
            if (ok) su->nmaps++;
        }
    free(image);
    return 0;
}

/* Keys, hashes and symmetries, once the classes are known. */
static int search_inputs(tm_setup *su) {
    const int K = su->K, n = su->n;
    uint64_t rng = 20240611;
    free(su->hashes); /* a first attempt that ran out of memory may have left some */
    free(su->sorted_keys);
    free(su->key_order);
    free(su->pos_hash);
    free(su->map_code);
    free(su->map_class);
    su->hashes = NULL;
    su->sorted_keys = NULL;
    su->pos_hash = NULL;
    su->map_code = su->map_class = NULL;
    su->key_order = NULL;
    su->pattern = calloc((size_t)K, TM_CODES);
    su->hashes = malloc((size_t)K * 2 * sizeof(uint64_t));
    su->sorted_keys = malloc((size_t)K * sizeof(int64_t));
    su->key_order = malloc((size_t)K * sizeof(int32_t));
    int64_t *keys = malloc((size_t)K * sizeof(int64_t));
    if (!su->pattern || !su->hashes || !su->sorted_keys || !su->key_order || !keys) {
        free(keys);
        return -1;
    }
    uint8_t *passes = malloc((size_t)su->nmasks * TM_CODES); /* each truth table, a byte a code */
    if (!passes) {
        free(keys);
        return -1;
    }
    for (int i = 0; i < su->nmasks; i++)
        for (int c = 0; c < TM_CODES; c++) passes[i * TM_CODES + c] = (uint8_t)has(su->masks[i], c);
    for (int k = 0; k < K; k++) {
        uint8_t *row = su->pattern + (size_t)k * TM_CODES;
        for (int v = 0; v < n; v++) {
            const uint8_t *m = passes + (size_t)su->crit[(size_t)k * n + v] * TM_CODES;
            for (int c = 0; c < TM_CODES; c++) row[c] |= (uint8_t)(m[c] << v);
        }
    }
    free(passes);
    for (int i = 0; i < 2 * K; i++) su->hashes[i] = random_hash(&rng);
    int64_t d = 1;
    for (int v = 0; v < TM_MAX_VERIFIERS; v++) {
        su->digit[v] = v < n ? d : 0;
        d *= su->nmasks;
    }
    for (int k = 0; k < K; k++) {
        keys[k] = 0;
        for (int v = 0; v < n; v++) keys[k] += su->crit[(size_t)k * n + v] * su->digit[v];
        su->key_order[k] = k;
    }
    SORT_KEYS = keys;
    qsort(su->key_order, (size_t)K, sizeof(int32_t), cmp_key_order); /* the keys are distinct: any sort agrees */
    for (int k = 0; k < K; k++) su->sorted_keys[k] = keys[su->key_order[k]];
    free(keys);
    su->symmetric = su->problem.mode == TM_NIGHTMARE && n > 1;
    if (su->symmetric) {
        uint64_t *mask_hash = malloc((size_t)su->nmasks * sizeof(uint64_t));
        su->pos_hash = malloc((size_t)K * (size_t)n * sizeof(uint64_t));
        if (!mask_hash || !su->pos_hash) {
            free(mask_hash);
            return -1;
        }
        for (int i = 0; i < su->nmasks; i++) mask_hash[i] = random_hash(&rng);
        for (size_t i = 0; i < (size_t)K * (size_t)n; i++) su->pos_hash[i] = mask_hash[su->crit[i]];
        free(mask_hash);
    }
    return code_symmetries(su);
}

/* ---------------------------------------------------------------- the set-up */

void tm_setup_free(tm_setup *su) {
    if (!su) return;
    free(su->code);
    free(su->weight);
    free(su->crit);
    free(su->masks);
    free(su->pattern);
    free(su->hashes);
    free(su->sorted_keys);
    free(su->key_order);
    free(su->pos_hash);
    free(su->map_code);
    free(su->map_class);
    free(su);
}

/* Refuse a problem the rules cannot read; TM_OK if they can. */
static int check_problem(const tm_problem *p) {
    if (p->mode < TM_CLASSIC || p->mode > TM_NIGHTMARE) return tm_fail("mode: classic, extreme or nightmare", TM_ERROR);
    if (p->verifiers < 1 || p->verifiers > TM_MAX_VERIFIERS) return tm_fail("a problem has 1..6 verifiers", TM_ERROR);
    const int per = p->mode == TM_EXTREME ? 2 : 1;
    for (int v = 0; v < p->verifiers; v++)
        for (int i = 0; i < per; i++) {
            int c = p->cards[v][i];
            if (c < 1 || c > TM_CARDS) return tm_fail("criteria cards are numbered 1..48", TM_ERROR);
            for (int w = 0; w <= v; w++)
                for (int j = 0; j < per; j++)
                    if ((w < v || j < i) && p->cards[w][j] == c)
                        return tm_fail("a problem's criteria cards all differ", TM_ERROR);
        }
    return TM_OK;
}

static int cmp_int(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

tm_setup *tm_setup_new(const tm_problem *given, const tm_card *library, int *status) {
    if ((*status = check_problem(given)) != TM_OK) return NULL;
    tm_problem sorted = *given, *problem = &sorted;
    if (sorted.mode == TM_NIGHTMARE) { /* the set of cards, in ascending order */
        int numbers[TM_MAX_VERIFIERS];
        for (int v = 0; v < sorted.verifiers; v++) numbers[v] = sorted.cards[v][0];
        qsort(numbers, (size_t)sorted.verifiers, sizeof(int), cmp_int);
        for (int v = 0; v < sorted.verifiers; v++) sorted.cards[v][0] = numbers[v];
    }
    tm_setup *su = calloc(1, sizeof(tm_setup));
    if (!su) {
        *status = tm_fail("no memory for the set-up", TM_NO_MEMORY);
        return NULL;
    }
    su->problem = *problem;
    const int n = problem->verifiers, nightmare = problem->mode == TM_NIGHTMARE;
    slots_t sl = {.n = n};
    for (int v = 0; v < n; v++) {
        int cards = problem->mode == TM_EXTREME ? 2 : 1;
        sl.count[v] = distinct(library, problem->cards[v], cards, sl.cand[v]);
        if (nightmare) {
            su->card_number[v] = problem->cards[v][0];
            su->card_count[v] = sl.count[v];
            memcpy(su->card_masks[v], sl.cand[v], (size_t)sl.count[v] * sizeof(tm_codes));
        }
    }
    /* every truth table a slot may take, numbered in ascending order */
    tm_codes all[TM_MAX_VERIFIERS * 2 * TM_CARD_CRITERIA];
    int nall = 0;
    for (int v = 0; v < n; v++)
        for (int i = 0; i < sl.count[v]; i++) all[nall++] = sl.cand[v][i];
    qsort(all, (size_t)nall, sizeof(tm_codes), cmp_codes);
    int nd = 0;
    for (int i = 0; i < nall; i++)
        if (!nd || !same(all[nd - 1], all[i])) all[nd++] = all[i];
    int number[TM_MAX_VERIFIERS][2 * TM_CARD_CRITERIA];
    for (int v = 0; v < n; v++)
        for (int i = 0; i < sl.count[v]; i++) {
            tm_codes *hit = bsearch(&sl.cand[v][i], all, (size_t)nd, sizeof(tm_codes), cmp_codes);
            number[v][i] = (int)(hit - all);
        }
    choices_t ch = {0};
    int pick[TM_MAX_VERIFIERS];
    choose(&sl, 0, EVERY, pick, &ch);
    merge_t mg = {0};
    for (size_t c = 0; c < ch.len && !ch.failed; c++) {
        const uint8_t *at = ch.at + c * (size_t)n;
        tm_codes acc = EVERY;
        for (int v = 0; v < n; v++) acc = meet(acc, sl.cand[v][at[v]]);
        const int code = lowest(acc);
        if (!nightmare) {
            uint64_t key = 0;
            for (int v = 0; v < n; v++) key |= (uint64_t)number[v][at[v]] << (KEY_BITS * v);
            merge_in(&mg, key, code);
            continue;
        }
        int perm[TM_MAX_VERIFIERS];
        for (int v = 0; v < n; v++) perm[v] = v;
        do { /* verifier v checks the criterion chosen on card perm[v] */
            uint64_t key = 0;
            for (int v = 0; v < n; v++) key |= (uint64_t)number[perm[v]][at[perm[v]]] << (KEY_BITS * v);
            merge_in(&mg, key, code);
        } while (next_permutation(perm, n));
    }
    free(ch.at);
    free(mg.slot);
    if (ch.failed || mg.failed) {
        free(mg.at);
        tm_setup_free(su);
        *status = tm_fail("no memory for the hidden assignments", TM_NO_MEMORY);
        return NULL;
    }
    if (mg.len == 0) {
        free(mg.at);
        tm_setup_free(su);
        /* the published game's problems have 4-6 verifiers: a smaller set with no game says so (game/problems.py) */
        static const char *const too_few[] = {
            "a problem has 4\u20136 verifiers, not 1: no valid game uses these criteria cards",
            "a problem has 4\u20136 verifiers, not 2: no valid game uses these criteria cards",
            "a problem has 4\u20136 verifiers, not 3: no valid game uses these criteria cards"};
        *status = tm_fail(n < 4 ? too_few[n - 1]
                                : "no valid game uses these criteria cards: no choice of criteria gives exactly one "
                                  "code without a redundant verifier",
                          TM_ERROR);
        return NULL;
    }
    SORT_N = n;
    qsort(mg.at, mg.len, sizeof(merged_t), cmp_merged);
    /* the truth tables the classes use, renumbered among themselves */
    int used[TM_MAX_VERIFIERS * 2 * TM_CARD_CRITERIA] = {0}, renumber[TM_MAX_VERIFIERS * 2 * TM_CARD_CRITERIA];
    for (size_t k = 0; k < mg.len; k++)
        for (int v = 0; v < n; v++) used[key_at(mg.at[k].key, v)] = 1;
    su->n = n;
    su->K = (int)mg.len;
    su->masks = malloc((size_t)nd * sizeof(tm_codes));
    su->code = malloc(mg.len * sizeof(int32_t));
    su->weight = malloc(mg.len * sizeof(int64_t));
    su->crit = malloc(mg.len * (size_t)n * sizeof(int32_t));
    if (!su->masks || !su->code || !su->weight || !su->crit) {
        free(mg.at);
        tm_setup_free(su);
        *status = tm_fail("no memory for the hidden assignments", TM_NO_MEMORY);
        return NULL;
    }
    for (int i = 0; i < nd; i++)
        if (used[i]) {
            renumber[i] = su->nmasks;
            su->masks[su->nmasks++] = all[i];
        }
    for (size_t k = 0; k < mg.len; k++) {
        su->code[k] = mg.at[k].code;
        su->weight[k] = mg.at[k].weight;
        for (int v = 0; v < n; v++) su->crit[k * (size_t)n + (size_t)v] = renumber[key_at(mg.at[k].key, v)];
    }
    free(mg.at);
    *status = TM_OK;
    return su;
}

int tm_setup_prepare(tm_setup *su) {
    if (su->pattern) return TM_OK;
    if (search_inputs(su) == 0) return TM_OK;
    free(su->pattern); /* not ready: try again next time */
    su->pattern = NULL;
    return tm_fail("no memory for the search's inputs", TM_NO_MEMORY);
}

int tm_setup_classes(const tm_setup *su) { return su->K; }
int tm_setup_verifiers(const tm_setup *su) { return su->n; }
const int32_t *tm_setup_codes(const tm_setup *su) { return su->code; }
const int64_t *tm_setup_weights(const tm_setup *su) { return su->weight; }
const int32_t *tm_setup_criteria(const tm_setup *su) { return su->crit; }
const uint8_t *tm_setup_pattern(tm_setup *su) { return tm_setup_prepare(su) == TM_OK ? su->pattern : NULL; }

const tm_codes *tm_setup_masks(const tm_setup *su, int *n) {
    *n = su->nmasks;
    return su->masks;
}

int tm_setup_symmetries(tm_setup *su, const int32_t **code_maps, const int32_t **class_maps) {
    if (tm_setup_prepare(su) != TM_OK) return -1;
    *code_maps = su->map_code;
    *class_maps = su->map_class;
    return su->nmaps;
}

/* A class's pairings: every one-to-one pairing of the cards to the verifiers under which each verifier's truth table
 * is on its card (the class is valid whatever the pairing, so each is one of its assignments), in lexicographic
 * order of the card numbers. */
int tm_setup_pairings(const tm_setup *su, int k, int32_t *out) {
    if (su->problem.mode != TM_NIGHTMARE || k < 0 || k >= su->K) return 0;
    const int n = su->n;
    int on[TM_MAX_VERIFIERS][TM_MAX_VERIFIERS]; /* on[v][slot]: verifier v's table is on the card in that slot */
    for (int v = 0; v < n; v++) {
        const tm_codes m = su->masks[su->crit[(size_t)k * n + v]];
        for (int c = 0; c < n; c++) {
            on[v][c] = 0;
            for (int i = 0; i < su->card_count[c]; i++) on[v][c] |= same(su->card_masks[c][i], m);
        }
    }
    /* the slots hold the cards in ascending order, so permutations of the slots in lexicographic order give the card
     * numbers' pairings in lexicographic order */
    int perm[TM_MAX_VERIFIERS], found = 0;
    for (int v = 0; v < n; v++) perm[v] = v;
    do {
        int fits = 1;
        for (int v = 0; v < n && fits; v++) fits = on[v][perm[v]];
        if (!fits) continue;
        for (int v = 0; v < n; v++) out[(size_t)found * n + (size_t)v] = su->card_number[perm[v]];
        found++;
    } while (next_permutation(perm, n));
    return found;
}
