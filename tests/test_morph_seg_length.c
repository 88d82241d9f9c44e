/* test_morph_seg_length.c: the seg_length rule (nseg = 1 + 2 floor(L / seg_length) per section) in both conventions against hand-computed counts; bad values refused. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hb_test_util.h"

/* Compartments of the cell of SWC text under the rule (-1: refused, with
 * the status in *st). */
static int64_t count(const char *text, hb_conventions conv, int32_t nseg, double seg_length,
                     hb_status *st)
{
    hb_morph *m = NULL;
    HB_CHECK_STATUS(hb_morph_parse_swc(text, strlen(text), "case", NULL, &m), HB_SUCCESS);
    hb_discretize_options o;
    hb_discretize_options_init(&o);
    o.policy = HB_POLICY_SECTION, o.nseg = nseg, o.seg_length = seg_length;
    o.conventions = conv;
    hb_morph_cell *c = NULL;
    *st = hb_morph_cell_create(m, &o, NULL, &c);
    int64_t n = -1;
    hb_morph_cell_view v;
    if (*st == HB_SUCCESS && hb_morph_cell_get_view(c, &v) == HB_SUCCESS)
        n = v.n;
    hb_morph_cell_destroy(c);
    hb_morph_destroy(m);
    return n;
}

static int64_t odd(double L, double s) { return 1 + 2 * (int64_t)floor(L / s); }

static void expect(const char *what, const char *text, hb_conventions conv, double s,
                   int64_t want)
{
    hb_status st;
    int64_t n = count(text, conv, 0, s, &st);
    printf("%s, seg_length %g: %lld compartments (expected %lld)\n", what, s, (long long)n,
           (long long)want);
    HB_CHECK(st == HB_SUCCESS && n == want, "%s, seg_length %g: %lld compartments, expected %lld",
             what, s, (long long)n, (long long)want);
}

int main(void)
{
    hb_test_begin("test_morph_seg_length");
    /* A fork without a soma (hinesbatch's conventions): sections of 60 um
     * (root to the branch point), 90 and 30 um. */
    const char *fork = "1 3 0 0 0 1 -1\n2 3 60 0 0 1 1\n3 3 60 90 0 1 2\n4 3 60 -30 0 1 2\n";
    /* NEURON's: a 3-point soma (a 10 um section) and a 100 um dendrite. */
    const char *soma3 =
        "1 1 0 0 0 5 -1\n2 1 0 -5 0 5 1\n3 1 0 5 0 5 1\n4 3 10 0 0 1 1\n5 3 110 0 0 1 4\n";
    const hb_conventions HBC = HB_CONVENTIONS_HINESBATCH, NRN = HB_CONVENTIONS_NEURON;
    expect("fork", fork, HBC, 40, 3 + 5 + 1);
    expect("fork", fork, HBC, 25, 5 + 7 + 3);
    expect("fork", fork, HBC, 1000, 3);
    expect("soma + dendrite (NEURON)", soma3, NRN, 40, 1 + 5);
    expect("soma + dendrite (NEURON)", soma3, NRN, 7, 3 + 29);
    for (int i = 0; i < 4; ++i) {
        /* Away from the exact multiples, where L / s rounds either way. */
        double s = 3 + 70 * hb_test_unit();
        if (fabs(60 / s - round(60 / s)) < 1e-6 || fabs(90 / s - round(90 / s)) < 1e-6 ||
            fabs(30 / s - round(30 / s)) < 1e-6 || fabs(100 / s - round(100 / s)) < 1e-6 ||
            fabs(10 / s - round(10 / s)) < 1e-6)
            continue;
        expect("fork", fork, HBC, s, odd(60, s) + odd(90, s) + odd(30, s));
        expect("soma + dendrite (NEURON)", soma3, NRN, s, odd(10, s) + odd(100, s));
    }
    /* nseg > 0 wins over the rule; the rule needs no cable cm. */
    hb_status st;
    HB_CHECK(count(fork, HBC, 2, 25, &st) == 6 && st == HB_SUCCESS, "nseg 2 wins over seg_length");
    {
        hb_morph *m = NULL;
        HB_CHECK_STATUS(hb_morph_parse_swc(fork, strlen(fork), "case", NULL, &m), HB_SUCCESS);
        hb_discretize_options o;
        hb_discretize_options_init(&o);
        o.policy = HB_POLICY_SECTION, o.nseg = 0, o.seg_length = 40;
        hb_cable cab;
        hb_cable_init(&cab);
        cab.cm = 0;
        hb_morph_cell *c = NULL;
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, &cab, &c), HB_SUCCESS);
        hb_morph_cell_destroy(c);
        /* Bad values: refused, naming the option. */
        const double bad[] = {-1.0, NAN, INFINITY};
        for (int i = 0; i < 3; ++i) {
            o.seg_length = bad[i];
            c = NULL;
            HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_ERR_INVALID_ARGUMENT);
            HB_CHECK(!c && strstr(hb_last_error(), "seg_length"), "seg_length %g: %s", bad[i],
                     hb_last_error());
        }
        /* A count past the cap is refused before allocating, naming the rule. */
        o.seg_length = 1e-300;
        HB_CHECK_STATUS(hb_morph_cell_create(m, &o, NULL, &c), HB_ERR_INVALID_ARGUMENT);
        HB_CHECK(strstr(hb_last_error(), "seg_length") != NULL, "names the rule: %s",
                 hb_last_error());
        hb_morph_destroy(m);
    }
    return hb_test_finish();
}
