/* fuzz_swc.c: libFuzzer target: the SWC reader (hb_morph_parse_swc) on arbitrary bytes, and the reader's promises on every file it accepts. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hinesbatch_morph.h"

/* Test code: a broken promise stops the run, so libFuzzer keeps the input. */
#define REQUIRE(cond, ...)                                                    \
    do {                                                                      \
        if (!(cond)) {                                                        \
            fprintf(stderr, "fuzz_swc: %s: ", #cond);                         \
            fprintf(stderr, __VA_ARGS__);                                     \
            fputc('\n', stderr);                                              \
            abort();                                                          \
        }                                                                     \
    } while (0)

/* What an accepted morphology promises: samples sorted parents first, one
 * root, finite coordinates, positive finite radii, a finite total length. */
static void check_morph(const hb_morph *m, int repair)
{
    hb_morph_info info;
    REQUIRE(hb_morph_get_info(m, &info) == HB_SUCCESS, "%s", hb_last_error());
    REQUIRE(info.samples >= 1 && info.repaired >= 0 && (repair || info.repaired == 0),
            "%lld samples, %lld repaired", (long long)info.samples, (long long)info.repaired);
    REQUIRE(isfinite(info.total_length) && info.total_length >= 0, "total length %g",
            info.total_length);
    REQUIRE(info.soma >= HB_SOMA_NONE && info.soma <= HB_SOMA_SAMPLES, "soma %d", (int)info.soma);
    REQUIRE(isfinite(info.soma_radius) && info.soma_radius >= 0, "soma radius %g",
            info.soma_radius);
    for (int64_t k = 0; k < info.samples; ++k) {
        hb_swc_sample s;
        REQUIRE(hb_morph_sample(m, k, &s) == HB_SUCCESS, "%s", hb_last_error());
        REQUIRE(k == 0 ? s.parent == -1 : s.parent >= 0 && s.parent < k, "sample %lld parent %lld",
                (long long)k, (long long)s.parent);
        REQUIRE(isfinite(s.x) && isfinite(s.y) && isfinite(s.z), "sample %lld not finite",
                (long long)k);
        REQUIRE(s.radius > 0 && isfinite(s.radius), "sample %lld radius %g", (long long)k,
                s.radius);
        REQUIRE(s.id >= 0 && s.type >= 0 && s.line >= 1, "sample %lld", (long long)k);
    }
    hb_swc_sample s;
    REQUIRE(hb_morph_sample(m, info.samples, &s) == HB_ERR_INVALID_ARGUMENT, "k past the end");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int accepted = 0;
    for (int repair = 0; repair < 2; ++repair) {
        hb_swc_options so;
        hb_swc_options_init(&so);
        so.repair_radii = repair;
        /* A third of the inputs are read first at a scale at an edge of
         * double (1e300 or 1e-300, as the size picks). */
        if (repair == 0 && size % 3 == 0)
            so.scale = size % 2 ? 1e300 : 1e-300;
        hb_morph *sentinel = (hb_morph *)&so, *m = sentinel;
        hb_status st = hb_morph_parse_swc((const char *)data, size, "fuzz", &so, &m);
        if (st != HB_SUCCESS) {
            /* A bad file is a parse error with a message, the output untouched. */
            REQUIRE(st == HB_ERR_PARSE || st == HB_ERR_OUT_OF_MEMORY, "status %s: %s",
                    hb_status_string(st), hb_last_error());
            REQUIRE(m == sentinel, "output written on error");
            REQUIRE(strncmp(hb_last_error(), "fuzz", 4) == 0, "message '%s' does not name the input",
                    hb_last_error());
            /* Repair accepts every file that passes without it. */
            REQUIRE(!accepted, "accepted without repair, refused with: %s", hb_last_error());
            continue;
        }
        accepted = so.scale == 1; /* another scale accepts other files */
        check_morph(m, repair);
        hb_morph_destroy(m);
    }
    return 0;
}
