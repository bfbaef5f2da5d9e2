/* What went wrong (tm.h): the message of the last call that failed, set by every file of the core. */
#include "core.h"

static const char *last_error = "";

const char *tm_error(void) { return last_error; }

int tm_fail(const char *why, int status) {
    last_error = why;
    return status;
}
