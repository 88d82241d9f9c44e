/* test_hostile_counts.c: cell and system counts whose batch would pass the machine's memory are refused with HB_ERR_OUT_OF_MEMORY by arithmetic, before anything of that size is allocated or written (hb_sim_create, hb_morph_batch_mono/multi, the synthetic cells), the outputs untouched. */
#define _GNU_SOURCE /* RLIMIT_AS */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "hb_backend.h"
#include "hb_test_util.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HB_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || \
    __has_feature(memory_sanitizer)
#define HB_SANITIZED 1
#endif
#endif

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The error names the need and the machine's memory (not an allocation
 * that merely failed: "out of memory for ..." was the old text). */
static void check_refusal(hb_status st, const char *what, const char *must)
{
    const char *msg = hb_last_error();
    HB_CHECK(st == HB_ERR_OUT_OF_MEMORY, "%s: status %s, expected HB_ERR_OUT_OF_MEMORY (%s)", what,
             hb_status_name(st), msg);
    HB_CHECK(strstr(msg, "memory; this machine has") || strstr(msg, "available"),
             "%s: the message names no limit: %s", what, msg);
    HB_CHECK(strstr(msg, must) != NULL, "%s: the message does not name '%s': %s", what, must, msg);
}

int main(void)
{
    hb_test_begin("test_hostile_counts");
    hb_context *ctx = hb_test_context();
    hb_test_require_sim(ctx);
    uint64_t host = hb__host_memory();
    if (host == UINT64_MAX) {
        printf("the machine's memory is unknown: nothing to check\n");
        hb_context_destroy(ctx);
        return hb_test_finish();
    }
#ifndef HB_SANITIZED
    /* On the host backends the address space is capped at 4 GiB: any
     * allocation of a batch's size fails at once instead of swapping, so an
     * implementation that allocated before checking fails here by its
     * message, never by taking the machine. (Sanitizers reserve terabytes.) */
    hb_backend be = hb_context_backend(ctx);
    if ((be == HB_BACKEND_SERIAL || be == HB_BACKEND_OPENMP) && host >= ((uint64_t)8 << 30)) {
        struct rlimit rl = {(rlim_t)4 << 30, (rlim_t)4 << 30};
        HB_CHECK(setrlimit(RLIMIT_AS, &rl) == 0, "setrlimit(RLIMIT_AS, 4 GiB) failed");
    }
#endif
    hb_morph_cell *cell = NULL;
    HB_CHECK_STATUS(hb_morph_synth_levels(1000, 4, NULL, &cell), HB_SUCCESS);
    /* 1000 rows a cell: counts whose batch (44 bytes a row in the batch
     * alone, about 100 in a simulation) is 1.1 to 2.5 times the machine. */
    int64_t nsim = (int64_t)(host / (1000 * 40)) + 1;
    int64_t nbatch = (int64_t)(host / (1000 * 40)) + 1;
    const hb_morph_cell **cells = malloc((size_t)nsim * sizeof *cells);
    HB_CHECK(cells != NULL, "no memory for %lld pointers", (long long)nsim);
    double t0 = now_s();
    if (cell && cells) {
        for (int64_t c = 0; c < nsim; ++c)
            cells[c] = cell;
        hb_sim *sim = (hb_sim *)cells; /* a sentinel: must stay as it was */
        char want[64];
        snprintf(want, sizeof want, "ncells = %lld", (long long)nsim);
        check_refusal(hb_sim_create(ctx, cells, nsim, NULL, &sim), "hb_sim_create", want);
        HB_CHECK(sim == (hb_sim *)cells, "hb_sim_create wrote its output on error");

        hb_morph_batch *b = (hb_morph_batch *)cells;
        check_refusal(hb_morph_batch_mono(cell, nbatch, 0.025, &b), "hb_morph_batch_mono",
                      "hb_morph_batch_mono");
        HB_CHECK(b == (hb_morph_batch *)cells, "hb_morph_batch_mono wrote its output on error");
        check_refusal(hb_morph_batch_multi(cells, nbatch, 0.025, &b), "hb_morph_batch_multi",
                      "hb_morph_batch_multi");
        HB_CHECK(b == (hb_morph_batch *)cells, "hb_morph_batch_multi wrote its output on error");
    }
    /* A synthetic cell near 2^31 nodes: 32 bytes a node at least. */
    if ((uint64_t)INT32_MAX * 32 > host) {
        hb_morph_cell *big = (hb_morph_cell *)cells;
        check_refusal(hb_morph_synth_levels(INT32_MAX, 4, NULL, &big), "hb_morph_synth_levels",
                      "hb_morph_synth_levels");
        HB_CHECK(big == (hb_morph_cell *)cells, "hb_morph_synth_levels wrote its output on error");
        check_refusal(hb_morph_synth_branchy(INT32_MAX, 10.0, 1, NULL, &big),
                      "hb_morph_synth_branchy", "hb_morph_synth_branchy");
    } else {
        printf("this machine holds a cell of 2^31 nodes: synthetic refusal not checked\n");
    }
    double dt = now_s() - t0;
    HB_CHECK(dt < 10.0, "the refusals took %.1f s: something was sized from the counts", dt);
    free(cells);
    hb_morph_cell_destroy(cell);
    hb_context_destroy(ctx);
    return hb_test_finish();
}
