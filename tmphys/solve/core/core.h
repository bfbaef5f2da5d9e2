/* What the set-up hands the search, inside the core (the bindings see tm.h only). */
#ifndef TMPHYS_CORE_H
#define TMPHYS_CORE_H

#include "tm.h"

struct tm_setup {
    tm_problem problem;
    int n, K, nmasks;
    int32_t *code;    /* K, ascending */
    int64_t *weight;  /* K */
    int32_t *crit;    /* K x n: each verifier's criterion, an index into masks */
    tm_codes *masks;  /* nmasks, ascending as 125-bit numbers */
    uint8_t *pattern; /* K x TM_CODES: bit v when verifier v passes the proposal */
    uint64_t *hashes; /* 2 x K: split-signature hashes of the classes */
    /* Nightmare's relabellings: a class's key is the sum of crit[k][v] * digit[v]; the keys sorted, with their
     * classes, and each class's criteria's hashes per verifier */
    int symmetric;
    int64_t digit[TM_MAX_VERIFIERS];
    int64_t *sorted_keys; /* K */
    int32_t *key_order;   /* K */
    uint64_t *pos_hash;   /* K x n */
    /* the code symmetries (``tmphys.solve.deduction.Deduction._code_symmetries``) */
    int nmaps;
    int32_t *map_code;  /* nmaps x TM_CODES */
    int32_t *map_class; /* nmaps x K */
    /* Nightmare: each criteria card's distinct truth tables, for the pairings */
    int card_number[TM_MAX_VERIFIERS];
    int card_count[TM_MAX_VERIFIERS];
    tm_codes card_masks[TM_MAX_VERIFIERS][TM_CARD_CRITERIA];
};

/* Set tm_error()'s message and return the status. */
int tm_fail(const char *why, int status);

#endif
