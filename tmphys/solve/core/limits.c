/* An engine's hooks and limits (tm.h): its clock and deadline, its budget of steps and memory, the poll hook, the
 * progress of a search, its counters. */
#include "core.h"

double no_clock(void *ctx) {
    (void)ctx;
    return 0.0;
}

/* The poll hook, every poll_mask + 1 steps: it may stop the search (Ctrl-C, a cancel). */
__attribute__((noinline, cold)) void look_at_signals(Engine *E) {
    note_progress(E);
    if (E->poll && E->poll(E, E->poll_ctx)) E->stopped = STOP_ERROR;
}

void tm_set_clock(tm_engine *E, tm_clock_fn clock, void *ctx) {
    E->clock = clock ? clock : no_clock;
    E->clock_ctx = ctx;
    if (!clock) E->has_deadline = 0;
}

void tm_set_poll(tm_engine *E, tm_poll_fn poll, void *ctx, uint64_t every) {
    E->poll = poll;
    E->poll_ctx = ctx;
    uint64_t mask = 1;
    while (mask < every && mask < ((uint64_t)1 << 40)) mask <<= 1;
    E->poll_mask = mask - 1;
}

void tm_set_deadline(tm_engine *E, int has, double deadline) {
    E->has_deadline = has && E->clock != no_clock;
    E->deadline = deadline;
}

void tm_set_step_limit(tm_engine *E, uint64_t steps) { E->step_limit = steps; }

void tm_set_memo_limit(tm_engine *E, uint64_t bytes) {
    if (bytes) E->memo_limit = bytes;
}

uint64_t tm_steps(const tm_engine *E) { return E->ticks; }

uint64_t tm_memo_held(const tm_engine *E) { return E->arena_cap * 4 + E->ent_cap * sizeof(entry_t) + E->tab_cap * 8; }

/* The progress of the value being searched (``searched``), from its memo entry: read at the poll points. */
void note_progress(Engine *E) {
    if (!E->root) return;
    entry_t *e = memo_find(E, E->root_head, E->root, E->root_m, E->root_hash);
    if (!e) return;
    if (e->value > E->progress_low) E->progress_low = e->value;
    cost_t up = e->exact ? e->value : e->upper;
    if (up < E->progress_up || (up == E->progress_up && E->progress_move < 0 && e->best >= 0)) {
        E->progress_up = up;
        E->progress_move = e->best;
        E->progress_question = -1;
    }
    if (E->root_head != K_ROUND || !E->root_raw || E->progress_move < 0 || E->progress_question >= 0) return;
    /* the first question of the best found proposal, from its round's memo entry (keyed by the state as given) */
    const uint32_t head = inside_head(E->progress_move, QPR);
    entry_t *f = memo_find(E, head, E->root, E->root_m, hash_key(E, head, E->root, E->root_m));
    if (f && (f->exact || f->upper < INF)) E->progress_question = f->best;
}

void tm_progress_of(const tm_engine *E, tm_progress *out) {
    cost_t low = E->progress_low, up = E->progress_up;
    out->steps = E->ticks;
    out->low_rounds = low >> 32;
    out->low_questions = low & (SC - 1);
    out->has_up = up < INF;
    out->up_rounds = out->has_up ? up >> 32 : 0;
    out->up_questions = out->has_up ? up & (SC - 1) : 0;
    out->move = out->has_up ? E->progress_move : -1;
    out->question = out->has_up ? E->progress_question : -1;
}

void tm_stats_of(const tm_engine *E, tm_stats *out) {
    uint64_t rounds = 0;
    for (uint64_t i = 0; i < E->ent_len; i++)
        if (E->ent[i].kind == K_ROUND) rounds++;
    out->steps = E->ticks;
    out->entries = E->ent_len;
    out->round_starts = rounds;
    out->memo_bytes = memo_bytes(E);
    out->memo_limit = E->memo_limit;
    out->forgets = E->forgets;
    out->deep_bounds = E->deep_bounds;
    out->deep_floors = E->deep_floors;
    out->deep = E->deep;
    out->deep_codes = E->deep_codes;
}
