/* auto_measure.c: AUTO's tie-break: the strategies its cost model cannot tell apart, timed on the batch's shape when the plan is made. */
#include "hb_plan.h"

#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* A diagonally dominant matrix of the tree whatever its shape (a node of k
 * children keeps a pivot of at least 1 - k / 2^20): couplings -1/1024 (0 at
 * roots), diagonal and right-hand side 1. The solve's time does not depend
 * on the values; these keep every pivot and solution finite. */
static void fill_values(hb_precision p, const int32_t *tree, int64_t rows, int64_t nrows,
                        void *coup, void *ones)
{
    for (int64_t k = 0; k < nrows; ++k) {
        const double c = tree[k % rows] < 0 ? 0.0 : -1.0 / 1024;
        if (p == HB_DOUBLE) {
            ((double *)coup)[k] = c;
            ((double *)ones)[k] = 1.0;
        } else {
            ((float *)coup)[k] = (float)c;
            ((float *)ones)[k] = 1.0f;
        }
    }
}

/* One candidate: its plan made, set, solved once, then timed; *ms its
 * median and *out the plan. HB_ERR_OUT_OF_MEMORY (host or device) is the
 * caller's cue to make room or skip it. */
static hb_status time_one(hb_context *ctx, hb_precision p, int64_t nsys, int64_t rows,
                          const int32_t *tree, const hb_plan_options *o, hb_strategy s,
                          const void *coup, const void *ones, double *ms, hb_plan **out)
{
    hb_plan_options oc = *o;
    oc.strategy = s;
    oc.auto_estimate = 1; /* forced anyway: no AUTO inside */
    hb_plan *plan = NULL;
    HB_FORWARD(hb_plan_create_hines_uniform(ctx, p, nsys, rows, tree, &oc, &plan));
    double t[HB_AUTO_MEASURE_REPS];
    hb_status st = HB_SUCCESS;
    if ((st = hb_plan_set(plan, HB_ARRAY_U, coup)) || (st = hb_plan_set(plan, HB_ARRAY_L, coup)) ||
        (st = hb_plan_set(plan, HB_ARRAY_D, ones)) || (st = hb_plan_set(plan, HB_ARRAY_RHS, ones)))
        goto fail;
    for (int r = -1; r < HB_AUTO_MEASURE_REPS; ++r) {
        /* The solve leaves D eliminated and RHS solved: finite values, as
         * good for timing as the first, so asking for the buffers re-arms
         * the plan without a copy. */
        void *h;
        if (r >= 0 && ((st = hb_plan_buffer(plan, HB_ARRAY_D, &h)) ||
                       (st = hb_plan_buffer(plan, HB_ARRAY_RHS, &h))))
            goto fail;
        if ((st = hb_plan_synchronize(plan)))
            goto fail;
        const double t0 = hb__now_ms();
        if ((st = hb_plan_solve(plan)) || (st = hb_plan_synchronize(plan)))
            goto fail;
        if (r >= 0)
            t[r] = hb__now_ms() - t0;
    }
    qsort(t, HB_AUTO_MEASURE_REPS, sizeof *t, cmp_double);
    *ms = t[HB_AUTO_MEASURE_REPS / 2];
    *out = plan;
    return HB_SUCCESS;
fail:
    hb_plan_destroy(plan);
    return st;
}

hb_status hb__auto_measure(hb_context *ctx, hb_precision p, int64_t nsys, int64_t rows,
                           const int32_t *tree, const hb_plan_options *o, const hb_strategy *cand,
                           int n, hb_strategy *best, double *ms, hb_plan **keep)
{
    if (keep)
        *keep = NULL;
    for (int i = 0; i < n; ++i)
        ms[i] = -1;
    int64_t nrows;
    if (n < 2 || !hb__mul_i64(nsys, rows, &nrows) || nrows > HB_AUTO_MEASURE_MAX_ROWS) {
        hb__log("AUTO: %lld cells of %lld rows not timed (%d candidates; at most %lld rows)",
                (long long)nsys, (long long)rows, n, (long long)HB_AUTO_MEASURE_MAX_ROWS);
        return HB_SUCCESS;
    }
    const size_t esize = p == HB_DOUBLE ? sizeof(double) : sizeof(float);
    void *coup = hb__malloc_n(nrows, esize), *ones = hb__malloc_n(nrows, esize);
    if (!coup || !ones) {
        free(coup);
        free(ones);
        hb__log("AUTO: no host memory to time %lld rows; the model's choice stands",
                (long long)nrows);
        return HB_SUCCESS;
    }
    fill_values(p, tree, rows, nrows, coup, ones);
    hb_status st = HB_SUCCESS;
    hb_plan *held = NULL; /* the choice so far, kept: it is the plan if it stays */
    double fastest = -1;
    for (int i = 0; i < n && st == HB_SUCCESS; ++i) {
        hb_plan *plan = NULL;
        st = time_one(ctx, p, nsys, rows, tree, o, cand[i], coup, ones, &ms[i], &plan);
        if (st == HB_ERR_OUT_OF_MEMORY && held) { /* room for one plan at a time */
            hb_plan_destroy(held);
            held = NULL;
            st = time_one(ctx, p, nsys, rows, tree, o, cand[i], coup, ones, &ms[i], &plan);
        }
        if (st == HB_ERR_OUT_OF_MEMORY) { /* this one does not fit beside the caller's */
            hb__log("AUTO: %s not timed: %s", hb_strategy_name(cand[i]), hb_last_error());
            ms[i] = -1;
            st = HB_SUCCESS;
            continue;
        }
        if (st != HB_SUCCESS)
            break;
        /* The model's choice (cand[0]) stands unless another is faster by
         * more than HB_AUTO_MEASURE_MARGIN: a near tie keeps the same choice
         * from run to run; among the others, the fastest. */
        const int model = fastest >= 0 && *best == cand[0];
        if (fastest < 0 || ms[i] < fastest * (model ? 1 - HB_AUTO_MEASURE_MARGIN : 1)) {
            fastest = ms[i];
            *best = cand[i];
            hb_plan_destroy(held);
            held = keep ? plan : NULL;
            if (!keep)
                hb_plan_destroy(plan);
        } else {
            hb_plan_destroy(plan);
        }
    }
    free(coup);
    free(ones);
    if (st != HB_SUCCESS) {
        hb_plan_destroy(held);
        return st;
    }
    hb__clear_error(); /* the skipped candidates' messages are not the caller's */
    if (held) {
        /* As new: every array to be set before the first solve. */
        held->set_mask = 0;
        held->rhs_ready = held->d_ready = held->solved = 0;
        *keep = held;
    }
    return HB_SUCCESS;
}
