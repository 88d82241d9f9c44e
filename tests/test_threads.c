/* test_threads.c: the thread and lifetime contract: threads with their own contexts, threads sharing one context with their own plans, contexts destroyed before their plans and simulations, and one plan or simulation used by two threads at once (HB_ERR_BUSY). */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "hb_oracle_runner.h"
/* (d) sets a plan's busy flag by hand: a white-box look at the core. */
#define HB_CORE_INTERNALS
#include "hb_plan.h"

#define NTHREADS 4

/* ---- A barrier (pthread_barrier_t is optional in POSIX) ------------------- */
typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int n, waiting;
    unsigned gen;
} barrier;

static void barrier_init(barrier *b, int n)
{
    pthread_mutex_init(&b->mu, NULL);
    pthread_cond_init(&b->cv, NULL);
    b->n = n;
    b->waiting = 0;
    b->gen = 0;
}

static void barrier_destroy(barrier *b)
{
    pthread_mutex_destroy(&b->mu);
    pthread_cond_destroy(&b->cv);
}

static void barrier_wait(barrier *b)
{
    pthread_mutex_lock(&b->mu);
    unsigned gen = b->gen;
    if (++b->waiting == b->n) {
        b->waiting = 0;
        b->gen++;
        pthread_cond_broadcast(&b->cv);
    } else {
        while (gen == b->gen)
            pthread_cond_wait(&b->cv, &b->mu);
    }
    pthread_mutex_unlock(&b->mu);
}

/* ---- Jobs: one plan, solved step after step against the oracle ------------- */
/* The kinds of plan every thread runs: between them they use every kernel
 * family (conversions, Thomas, Hines per system, block-shared, both branch
 * strategies) in both precisions, so threads sharing a context launch the same
 * kernels at the same time. */
typedef struct {
    const char *name;
    const hb_oracle_kind *kind;
    hb_precision p;
    hb_oracle_shape shape;
    hb_layout layout;
    int32_t block_size;
    hb_strategy strategy;
} job_spec;

static const job_spec specs[] = {
    {"tridiagonal double full-interleaved", &hb_oracle_tridiag, HB_DOUBLE,
     {"64x40", 64, 40, 40, 0}, HB_LAYOUT_INTERLEAVED, 0, HB_STRATEGY_AUTO},
    {"tridiagonal float block-shared", &hb_oracle_tridiag, HB_FLOAT, {"48 of 1..60", 48, 1, 60, 0},
     HB_LAYOUT_BLOCK_SHARED, 8, HB_STRATEGY_AUTO},
    {"hines double block-interleaved", &hb_oracle_hines, HB_DOUBLE,
     {"40 of 1..80", 40, 1, 80, HB_TREE_KINDS}, HB_LAYOUT_BLOCK_INTERLEAVED, 4,
     HB_STRATEGY_PER_SYSTEM},
    {"hines double branch-level", &hb_oracle_hines, HB_DOUBLE,
     {"16x120 neuron", 16, 120, 120, HB_TREE_NEURON}, HB_LAYOUT_AUTO, 0,
     HB_STRATEGY_BRANCH_LEVEL},
    {"hines float fine-tree", &hb_oracle_hines, HB_FLOAT, {"24 of 1..100", 24, 1, 100, HB_TREE_KINDS},
     HB_LAYOUT_AUTO, 0, HB_STRATEGY_FINE_TREE},
};
#define NJOBS ((int)(sizeof specs / sizeof specs[0]))

/* One job of one thread: the batch with two right-hand sides (steps alternate,
 * so a stale or foreign result shows) and the oracle's solution of each. */
typedef struct {
    const job_spec *spec;
    hb_plan_options opts;
    hb_oracle_batch v[2];
} job;

/* What a thread saw; read by the main thread after the join. */
typedef struct {
    int failures;
    int64_t solves;
    char first[640];
} result;

static void fail(result *r, const char *fmt, ...)
{
    if (r->failures++ == 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first, sizeof r->first, fmt, ap);
        va_end(ap);
    }
}

static job jobs[NTHREADS][NJOBS];
static hb_context *oracle_ctx; /* the serial oracle of main */
static int on_host; /* the backend under test runs the oracle's loops */

static void make_jobs(hb_context *oracle)
{
    for (int t = 0; t < NTHREADS; ++t)
        for (int j = 0; j < NJOBS; ++j) {
            job *jb = &jobs[t][j];
            const job_spec *s = &specs[j];
            jb->spec = s;
            hb_plan_options_init(&jb->opts);
            jb->opts.layout = s->layout;
            jb->opts.block_size = s->block_size;
            jb->opts.strategy = s->strategy;
            hb_oracle_make(&jb->v[0], s->kind, s->p, &s->shape, 1.0);
            const hb_oracle_batch *b = &jb->v[0];
            hb_oracle_init(&jb->v[1], s->kind, s->p, b->nsys, b->off, b->parent, b->m[0], b->m[1],
                           b->m[2], NULL);
            for (int64_t k = 0; k < b->nrows; ++k)
                hb_test_put(s->p, jb->v[1].rhs, k, 2.0 * hb_test_unit() - 1.0);
            char what[200];
            for (int v = 0; v < 2; ++v) {
                snprintf(what, sizeof what, "thread %d %s rhs %d", t, s->name, v);
                hb_oracle_reference(&jb->v[v], oracle, &jb->opts, what);
            }
        }
}

static void free_jobs(void)
{
    for (int t = 0; t < NTHREADS; ++t)
        for (int j = 0; j < NJOBS; ++j)
            for (int v = 0; v < 2; ++v)
                hb_oracle_free(&jobs[t][j].v[v]);
}

/* x against the oracle's solution: the same strategy on both sides, so the
 * host backends are bit-identical and the GPU ones within the normwise bound. */
static int matches(const hb_oracle_batch *b, const void *x, double *diff)
{
    *diff = hb_test_max_rel_diff(b->p, b->nsys, b->off, x, b->xref);
    if (on_host)
        return hb_test_bitequal(x, b->xref, (size_t)b->nrows * hb_test_esize(b->p));
    return *diff <= hb_test_diff_bound(b->p);
}

#define TRY(r, call, ...)                                                                    \
    do {                                                                                     \
        hb_status st_ = (call);                                                              \
        if (st_ != HB_SUCCESS) {                                                             \
            fail(r, __VA_ARGS__);                                                            \
            size_t len_ = strlen((r)->first);                                                \
            if ((r)->failures == 1)                                                          \
                snprintf((r)->first + len_, sizeof (r)->first - len_, ": %s: %s", #call,     \
                         hb_last_error());                                                   \
            goto done;                                                                       \
        }                                                                                    \
    } while (0)

/* The plan's arrays set once (the matrix) ... */
static hb_status set_matrix(hb_plan *plan, const job *jb)
{
    const hb_oracle_batch *b = &jb->v[0];
    hb_status st = HB_SUCCESS;
    for (int i = 0; i < 3 && st == HB_SUCCESS; ++i)
        st = hb_plan_set(plan, b->kind->arrays[i], b->m[i]);
    return st;
}

/* ... and per step: D (Hines: the solve consumed it) and a right-hand side,
 * solve, read back, compare. */
static void steps(hb_plan *plan, const job *jb, int first, int nsteps, void *x, result *r,
                  int tid)
{
    for (int s = first; s < first + nsteps; ++s) {
        const hb_oracle_batch *b = &jb->v[s % 2];
        if (b->kind->hines)
            TRY(r, hb_plan_set(plan, HB_ARRAY_D, b->m[2]), "thread %d %s step %d", tid,
                jb->spec->name, s);
        TRY(r, hb_plan_set(plan, HB_ARRAY_RHS, b->rhs), "thread %d %s step %d", tid,
            jb->spec->name, s);
        TRY(r, hb_plan_solve(plan), "thread %d %s step %d", tid, jb->spec->name, s);
        hb_test_poison(b->p, x, b->nrows);
        TRY(r, hb_plan_get_solution(plan, x), "thread %d %s step %d", tid, jb->spec->name, s);
        double diff;
        r->solves++;
        if (!matches(b, x, &diff))
            fail(r, "thread %d %s step %d: wrong solution, max rel diff %g from the oracle", tid,
                 jb->spec->name, s, diff);
    }
done:
    return;
}

/* Every job of thread tid on ctx: a plan each, nsteps steps. */
static void run_jobs(hb_context *ctx, int tid, int nsteps, result *r)
{
    for (int j = 0; j < NJOBS; ++j) {
        /* Threads start on different jobs, then all of them meet on each. */
        const job *jb = &jobs[tid][(j + tid) % NJOBS];
        const hb_oracle_batch *b = &jb->v[0];
        hb_plan *plan = NULL;
        void *x = hb_test_alloc(b->p, b->nrows);
        TRY(r, b->kind->create(ctx, b, &jb->opts, 0, &plan), "thread %d create %s", tid,
            jb->spec->name);
        TRY(r, set_matrix(plan, jb), "thread %d set %s", tid, jb->spec->name);
        steps(plan, jb, 0, nsteps, x, r, tid);
    done:
        hb_plan_destroy(plan);
        free(x);
    }
}

/* Runs fn(&args[t]) on NTHREADS threads and waits for them. */
static void run_threads(void *(*fn)(void *), void *args, size_t size)
{
    pthread_t th[NTHREADS];
    for (int t = 0; t < NTHREADS; ++t)
        if (pthread_create(&th[t], NULL, fn, (char *)args + (size_t)t * size) != 0) {
            fprintf(stderr, "pthread_create failed\n");
            exit(1);
        }
    for (int t = 0; t < NTHREADS; ++t)
        pthread_join(th[t], NULL);
}

/* Reports what the threads of a phase saw. */
static void report(const char *phase, const result *r, int n)
{
    int64_t solves = 0;
    for (int t = 0; t < n; ++t) {
        solves += r[t].solves;
        HB_CHECK(r[t].failures == 0, "%s: %d failures in thread %d, the first: %s", phase,
                 r[t].failures, t, r[t].first);
    }
    printf("%s: %lld solves checked against the oracle on %d threads\n", phase, (long long)solves,
           n);
}

/* ---- (a) threads creating their own contexts at the same moment ----------- */
typedef struct {
    barrier *start;
    int tid;
    result r;
    hb_status create_status;
} own_arg;

static void *own_context_thread(void *p)
{
    own_arg *a = p;
    hb_context *ctx = NULL;
    barrier_wait(a->start);
    /* The first contexts of the process, all at once: platform discovery
     * happens here. */
    a->create_status = hb_context_create(HB_BACKEND_AUTO, &ctx);
    if (a->create_status != HB_SUCCESS) {
        fail(&a->r, "thread %d: hb_context_create: %s: %s", a->tid,
             hb_status_string(a->create_status), hb_last_error());
        return NULL;
    }
    run_jobs(ctx, a->tid, 4, &a->r);
    hb_context_destroy(ctx);
    return NULL;
}

static void test_own_contexts(int rounds)
{
    for (int round = 0; round < rounds; ++round) {
        barrier start;
        barrier_init(&start, NTHREADS);
        own_arg args[NTHREADS];
        memset(args, 0, sizeof args);
        for (int t = 0; t < NTHREADS; ++t) {
            args[t].start = &start;
            args[t].tid = t;
        }
        run_threads(own_context_thread, args, sizeof args[0]);
        barrier_destroy(&start);
        /* A backend that does not open here: hb_test_context decides (a skip
         * for cuda without a device, else a failure with the reason). */
        for (int t = 0; t < NTHREADS; ++t)
            if (args[t].create_status == HB_ERR_BACKEND_UNAVAILABLE) {
                hb_context *probe = hb_test_context();
                hb_context_destroy(probe);
                break;
            }
        result r[NTHREADS];
        for (int t = 0; t < NTHREADS; ++t)
            r[t] = args[t].r;
        char phase[64];
        snprintf(phase, sizeof phase, "own contexts, round %d", round);
        report(phase, r, NTHREADS);
    }
}

/* ---- (b) threads sharing one context, each with its own plans -------------- */
typedef struct {
    barrier *start;
    hb_context *ctx;
    int tid;
    result r;
} shared_arg;

static void *shared_context_thread(void *p)
{
    shared_arg *a = p;
    barrier_wait(a->start);
    run_jobs(a->ctx, a->tid, 12, &a->r);
    return NULL;
}

static void test_shared_context(int rounds)
{
    for (int round = 0; round < rounds; ++round) {
        /* A fresh context each round: its kernels are built lazily, so the
         * first launches of every round race to build them. */
        hb_context *ctx = hb_test_context();
        barrier start;
        barrier_init(&start, NTHREADS);
        shared_arg args[NTHREADS];
        memset(args, 0, sizeof args);
        for (int t = 0; t < NTHREADS; ++t) {
            args[t].start = &start;
            args[t].ctx = ctx;
            args[t].tid = t;
        }
        run_threads(shared_context_thread, args, sizeof args[0]);
        barrier_destroy(&start);
        hb_context_destroy(ctx);
        result r[NTHREADS];
        for (int t = 0; t < NTHREADS; ++t)
            r[t] = args[t].r;
        char phase[64];
        snprintf(phase, sizeof phase, "shared context, round %d", round);
        report(phase, r, NTHREADS);
    }
}

/* ---- (b') callers that are OpenMP threads themselves ----------------------- */
/* The threads of an OpenMP parallel region share one context, each with its
 * own plans: the OpenMP backend's regions then run nested, inactive (one
 * thread each, OpenMP's default) or active (max_active_levels 2). The same
 * results either way. Tests are built with OpenMP when the library is. */
static void test_openmp_callers(void)
{
#ifdef _OPENMP
    int saved = omp_get_max_active_levels();
    for (int levels = 1; levels <= 2; ++levels) {
        hb_context *ctx = hb_test_context();
        result r[NTHREADS];
        memset(r, 0, sizeof r);
        omp_set_max_active_levels(levels);
#pragma omp parallel num_threads(NTHREADS)
        {
            int t = omp_get_thread_num();
            if (t < NTHREADS)
                run_jobs(ctx, t, 4, &r[t]);
        }
        hb_context_destroy(ctx);
        char phase[80];
        snprintf(phase, sizeof phase, "callers in an OpenMP parallel region, max active levels %d",
                 levels);
        report(phase, r, NTHREADS);
    }
    omp_set_max_active_levels(saved);
#endif
}

/* ---- (c) contexts destroyed before their plans and simulations ----------- */

/* A small simulation: ncells copies of a 40-compartment cable, a clamp on
 * cell 0, cell 0 recorded. */
static hb_status make_sim(hb_context *ctx, hb_morph_cell *cell, hb_sim **sim)
{
    const hb_morph_cell *cells[8];
    for (int c = 0; c < 8; ++c)
        cells[c] = cell;
    hb_status st = hb_sim_create(ctx, cells, 8, NULL, sim);
    if (st == HB_SUCCESS)
        st = hb_sim_add_iclamp(*sim, 0, -1, 1.0, 3.0, 0.5);
    if (st == HB_SUCCESS)
        st = hb_sim_record(*sim, 0);
    return st;
}

static hb_morph_cell *cable(void)
{
    int32_t parent[40];
    hb_test_tree(parent, 40, HB_TREE_CHAIN);
    hb_morph_cell *cell = NULL;
    if (hb_morph_cell_from_parent(40, parent, 400.0, 2.0, NULL, &cell) != HB_SUCCESS) {
        fprintf(stderr, "cannot make a cable: %s\n", hb_last_error());
        exit(1);
    }
    return cell;
}

/* The soma trace of cell 0 over 5 ms; NULL (and a failed check) on error. */
static double *sim_trace(hb_sim *sim, int64_t *n, const char *what)
{
    HB_CHECK_STATUS(hb_sim_run(sim, 5.0), HB_SUCCESS);
    int64_t nrec = 0;
    *n = 0;
    HB_CHECK_STATUS(hb_sim_trace_count(sim, &nrec, n), HB_SUCCESS);
    HB_CHECK(nrec == 1 && *n > 100, "%s: %lld traces of %lld samples", what, (long long)nrec,
             (long long)*n);
    if (nrec != 1 || *n <= 0)
        return NULL;
    double *v = hb_test_xalloc((size_t)*n * sizeof *v);
    HB_CHECK_STATUS(hb_sim_get_trace(sim, 0, NULL, v), HB_SUCCESS);
    return v;
}

/* One thread: plans and a simulation used after their context was
 * destroyed, against the oracle and against a simulation whose context
 * lives. Under AddressSanitizer this is the use-after-free check. */
static void test_lifetime(void)
{
    hb_context *ctx = hb_test_context();
    result r = {0};
    const job *tri = &jobs[0][0], *hin = &jobs[0][3];
    hb_plan *pt = NULL, *ph = NULL, *unused = NULL;
    HB_CHECK_STATUS(tri->v[0].kind->create(ctx, &tri->v[0], &tri->opts, 0, &pt), HB_SUCCESS);
    HB_CHECK_STATUS(hin->v[0].kind->create(ctx, &hin->v[0], &hin->opts, 0, &ph), HB_SUCCESS);
    HB_CHECK_STATUS(hin->v[0].kind->create(ctx, &hin->v[0], NULL, 0, &unused), HB_SUCCESS);
    if (pt)
        HB_CHECK_STATUS(set_matrix(pt, tri), HB_SUCCESS);
    hb_morph_cell *cell = cable();
    hb_sim *live = NULL, *orphan = NULL;
    hb_context *live_ctx = hb_test_context();
    HB_CHECK_STATUS(make_sim(live_ctx, cell, &live), HB_SUCCESS);
    HB_CHECK_STATUS(make_sim(ctx, cell, &orphan), HB_SUCCESS);

    hb_context_destroy(ctx); /* the plans and the simulation keep it alive */
    hb_plan_destroy(unused);
    void *xt = hb_test_alloc(tri->spec->p, tri->v[0].nrows);
    void *xh = hb_test_alloc(hin->spec->p, hin->v[0].nrows);
    if (pt)
        steps(pt, tri, 0, 4, xt, &r, 0);
    if (ph && set_matrix(ph, hin) == HB_SUCCESS)
        steps(ph, hin, 0, 4, xh, &r, 0);
    else
        fail(&r, "set the Hines plan after its context was destroyed: %s", hb_last_error());
    hb_plan_destroy(pt);
    hb_plan_destroy(ph);
    free(xt);
    free(xh);
    report("plans after hb_context_destroy", &r, 1);

    int64_t n_live = 0, n_orphan = 0;
    double *v_live = live ? sim_trace(live, &n_live, "simulation, context alive") : NULL;
    double *v_orphan = orphan ? sim_trace(orphan, &n_orphan, "simulation, context destroyed")
                              : NULL;
    if (v_live && v_orphan) {
        double worst = n_live == n_orphan ? 0 : INFINITY;
        for (int64_t k = 0; k < n_live && k < n_orphan; ++k)
            worst = fmax(worst, fabs(v_live[k] - v_orphan[k]));
        HB_CHECK(worst == 0, "simulation after hb_context_destroy: trace differs by %g mV from "
                             "the one whose context lives", worst);
        printf("simulation after hb_context_destroy: %lld samples, identical to the live one\n",
               (long long)n_orphan);
    }
    free(v_live);
    free(v_orphan);
    hb_sim_destroy(orphan); /* closes the backend of ctx */
    hb_sim_destroy(live);
    hb_context_destroy(live_ctx);
    hb_morph_cell_destroy(cell);
}

/* Threads: each makes its plan on a shared context; the main thread then
 * destroys the context while they solve, and they destroy their plans at
 * the same moment: the last of them closes the backend, exactly once. */
typedef struct {
    barrier *made, *go, *end;
    hb_context *ctx;
    int tid;
    result r;
} orphan_arg;

static void *orphan_thread(void *p)
{
    orphan_arg *a = p;
    const job *jb = &jobs[a->tid][(a->tid + 1) % NJOBS];
    const hb_oracle_batch *b = &jb->v[0];
    hb_plan *plan = NULL;
    void *x = hb_test_alloc(b->p, b->nrows);
    hb_status st = b->kind->create(a->ctx, b, &jb->opts, 0, &plan);
    if (st != HB_SUCCESS)
        fail(&a->r, "thread %d create %s: %s", a->tid, jb->spec->name, hb_last_error());
    barrier_wait(a->made);
    barrier_wait(a->go); /* the context is destroyed by now */
    if (plan && set_matrix(plan, jb) == HB_SUCCESS)
        steps(plan, jb, 0, 6, x, &a->r, a->tid);
    else if (plan)
        fail(&a->r, "thread %d set %s: %s", a->tid, jb->spec->name, hb_last_error());
    barrier_wait(a->end);
    hb_plan_destroy(plan);
    free(x);
    return NULL;
}

static void test_lifetime_threads(int rounds)
{
    for (int round = 0; round < rounds; ++round) {
        hb_context *ctx = hb_test_context();
        barrier made, go, end;
        barrier_init(&made, NTHREADS + 1);
        barrier_init(&go, NTHREADS + 1);
        barrier_init(&end, NTHREADS);
        orphan_arg args[NTHREADS];
        memset(args, 0, sizeof args);
        pthread_t th[NTHREADS];
        for (int t = 0; t < NTHREADS; ++t) {
            args[t] = (orphan_arg){&made, &go, &end, ctx, t, {0}};
            if (pthread_create(&th[t], NULL, orphan_thread, &args[t]) != 0) {
                fprintf(stderr, "pthread_create failed\n");
                exit(1);
            }
        }
        barrier_wait(&made);
        hb_context_destroy(ctx);
        barrier_wait(&go);
        for (int t = 0; t < NTHREADS; ++t)
            pthread_join(th[t], NULL);
        barrier_destroy(&made);
        barrier_destroy(&go);
        barrier_destroy(&end);
        result r[NTHREADS];
        for (int t = 0; t < NTHREADS; ++t)
            r[t] = args[t].r;
        char phase[80];
        snprintf(phase, sizeof phase, "plans on threads after hb_context_destroy, round %d", round);
        report(phase, r, NTHREADS);
    }
}

/* ---- (d) one plan or simulation used by two threads at once ---------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The flag itself, deterministically: while it is up every call that uses
 * the plan is refused with HB_ERR_BUSY and changes nothing; once it is down
 * the plan solves what was set before. */
static void test_busy_flag(void)
{
    hb_context *ctx = hb_test_context();
    const job *jb = &jobs[0][2];
    const hb_oracle_batch *b = &jb->v[0];
    hb_plan *plan = NULL;
    if (b->kind->create(ctx, b, &jb->opts, 0, &plan) != HB_SUCCESS) {
        HB_CHECK(0, "busy flag: create: %s", hb_last_error());
        hb_context_destroy(ctx);
        return;
    }
    HB_CHECK_STATUS(set_matrix(plan, jb), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, b->rhs), HB_SUCCESS);
    void *x = hb_test_alloc(b->p, b->nrows), *handle = NULL;
    atomic_store(&plan->busy, 1); /* as if another thread were inside */
    HB_CHECK_STATUS(hb_plan_set(plan, HB_ARRAY_RHS, jobs[0][2].v[1].rhs), HB_ERR_BUSY);
    HB_CHECK(strstr(hb_last_error(), "in use by another thread") != NULL,
             "busy: message '%s'", hb_last_error());
    HB_CHECK_STATUS(hb_plan_solve(plan), HB_ERR_BUSY);
    HB_CHECK_STATUS(hb_plan_synchronize(plan), HB_ERR_BUSY);
    HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_ERR_BUSY);
    HB_CHECK_STATUS(hb_plan_buffer(plan, HB_ARRAY_RHS, &handle), HB_ERR_BUSY);
    HB_CHECK(handle == NULL, "busy: hb_plan_buffer wrote its output");
    hb_plan_info info;
    HB_CHECK_STATUS(hb_plan_get_info(plan, &info), HB_SUCCESS); /* creation facts: no flag */
    atomic_store(&plan->busy, 0);
    /* The refused set left rhs 0 in place; the refused solve consumed nothing. */
    HB_CHECK_STATUS(hb_plan_solve(plan), HB_SUCCESS);
    HB_CHECK_STATUS(hb_plan_get_solution(plan, x), HB_SUCCESS);
    double diff;
    HB_CHECK(matches(b, x, &diff), "busy: solution after the refused calls differs by %g", diff);
    free(x);
    hb_plan_destroy(plan);
    hb_context_destroy(ctx);
}

/* Two threads hammer one plan: every call either runs or is refused with
 * HB_ERR_BUSY (a solve may also find its right-hand side consumed by the
 * other thread: HB_ERR_INVALID_ARGUMENT); never a crash, never anything else. */
typedef struct {
    hb_plan *plan;
    const job *jb;
    atomic_int *busy_seen, *ok_seen;
    barrier *start;
    int64_t calls, busy, stale;
    char bad[400];
} hammer_arg;

static void tally(hammer_arg *a, hb_status st, const char *call)
{
    a->calls++;
    if (st == HB_SUCCESS)
        atomic_fetch_add(a->ok_seen, 1);
    if (st == HB_ERR_BUSY) {
        a->busy++;
        atomic_fetch_add(a->busy_seen, 1);
    } else if (st == HB_ERR_INVALID_ARGUMENT && strcmp(call, "set") != 0) {
        a->stale++;
    } else if (st != HB_SUCCESS && !a->bad[0]) {
        snprintf(a->bad, sizeof a->bad, "%s: %s: %s", call, hb_status_string(st), hb_last_error());
    }
}

static void *hammer_thread(void *p)
{
    hammer_arg *a = p;
    const hb_oracle_batch *b = &a->jb->v[0];
    void *x = hb_test_alloc(b->p, b->nrows);
    barrier_wait(a->start);
    /* Until 60 calls have run and 20 been refused, between the two threads,
     * or 5 s have passed (a loaded machine may hold one thread back). */
    const double deadline = now_s() + 5.0;
    while ((atomic_load(a->ok_seen) < 60 || atomic_load(a->busy_seen) < 20) &&
           now_s() < deadline) {
        if (b->kind->hines)
            tally(a, hb_plan_set(a->plan, HB_ARRAY_D, b->m[2]), "set");
        tally(a, hb_plan_set(a->plan, HB_ARRAY_RHS, b->rhs), "set");
        tally(a, hb_plan_solve(a->plan), "solve");
        tally(a, hb_plan_get_solution(a->plan, x), "get_solution");
    }
    free(x);
    return NULL;
}

static void test_busy_plan(void)
{
    hb_context *ctx = hb_test_context();
    /* Big enough that a call takes a while, so the threads meet inside. */
    const hb_oracle_shape shape = {"1000x40", 1000, 40, 40, HB_TREE_RANDOM};
    job jb = {&specs[2], {0}, {{0}}};
    hb_plan_options_init(&jb.opts);
    hb_oracle_make(&jb.v[0], &hb_oracle_hines, HB_DOUBLE, &shape, 1.0);
    hb_oracle_reference(&jb.v[0], oracle_ctx, &jb.opts, "busy plan");
    hb_plan *plan = NULL;
    HB_CHECK_STATUS(hb_oracle_hines.create(ctx, &jb.v[0], &jb.opts, 0, &plan), HB_SUCCESS);
    if (plan && set_matrix(plan, &jb) == HB_SUCCESS) {
        atomic_int seen = 0, ok = 0;
        barrier start;
        barrier_init(&start, 2);
        hammer_arg a[2];
        pthread_t th[2];
        for (int t = 0; t < 2; ++t) {
            a[t] = (hammer_arg){plan, &jb, &seen, &ok, &start, 0, 0, 0, ""};
            pthread_create(&th[t], NULL, hammer_thread, &a[t]);
        }
        for (int t = 0; t < 2; ++t)
            pthread_join(th[t], NULL);
        barrier_destroy(&start);
        for (int t = 0; t < 2; ++t)
            HB_CHECK(!a[t].bad[0], "one plan on two threads: thread %d got %s", t, a[t].bad);
        HB_CHECK(a[0].busy + a[1].busy > 0,
                 "one plan on two threads: %lld calls and none refused with HB_ERR_BUSY",
                 (long long)(a[0].calls + a[1].calls));
        printf("one plan on two threads: %lld calls, %d ran, %lld refused with HB_ERR_BUSY, %lld "
               "found their data consumed by the other thread\n",
               (long long)(a[0].calls + a[1].calls), atomic_load(&ok),
               (long long)(a[0].busy + a[1].busy), (long long)(a[0].stale + a[1].stale));
        /* The plan is intact: one clean step from here solves correctly. */
        void *x = hb_test_alloc(HB_DOUBLE, jb.v[0].nrows);
        result r = {0};
        steps(plan, &jb, 0, 1, x, &r, 0);
        report("the plan after two threads", &r, 1);
        free(x);
    }
    hb_plan_destroy(plan);
    hb_oracle_free(&jb.v[0]);
    hb_context_destroy(ctx);
}

/* A simulation run on one thread while another asks for its time: the asker
 * is refused with HB_ERR_BUSY while the run is inside. */
typedef struct {
    hb_sim *sim;
    atomic_int *running, started;
    int64_t polls;
    atomic_llong busy; /* read by the running thread while the poller counts */
    char bad[400];
} poll_arg;

static void *poll_thread(void *p)
{
    poll_arg *a = p;
    atomic_store(&a->started, 1);
    while (atomic_load(a->running)) {
        double t;
        hb_status st = hb_sim_get_time(a->sim, &t, NULL);
        a->polls++;
        if (st == HB_ERR_BUSY)
            atomic_fetch_add(&a->busy, 1);
        else if (st != HB_SUCCESS && !a->bad[0])
            snprintf(a->bad, sizeof a->bad, "%s: %s", hb_status_string(st), hb_last_error());
        /* A breath between polls, so the runs are not refused over and over. */
        nanosleep(&(struct timespec){0, 20000}, NULL);
    }
    return NULL;
}

static void test_busy_sim(void)
{
    hb_context *ctx = hb_test_context();
    hb_morph_cell *cell = cable();
    hb_sim *sim = NULL;
    HB_CHECK_STATUS(make_sim(ctx, cell, &sim), HB_SUCCESS);
    if (sim) {
        atomic_int running = 1;
        poll_arg a = {sim, &running, 0, 0, 0, ""};
        atomic_init(&a.started, 0);
        atomic_init(&a.busy, 0);
        pthread_t th;
        pthread_create(&th, NULL, poll_thread, &a);
        while (!atomic_load(&a.started))
            nanosleep(&(struct timespec){0, 100000}, NULL);
        /* Runs of 1 ms (simulated) until the poller has been refused, for at
         * most 5 s (a loaded machine may hold the poller back). A run may
         * itself meet the poller inside: refused, and tried again. */
        int64_t runs = 0, refused = 0;
        double tstop = 0, deadline = now_s() + 5.0;
        hb_status st = HB_SUCCESS;
        while (now_s() < deadline && st == HB_SUCCESS) {
            tstop += 1.0;
            while ((st = hb_sim_run(sim, tstop)) == HB_ERR_BUSY)
                refused++;
            runs++;
            if (atomic_load(&a.busy) > 0 && runs >= 2)
                break;
        }
        atomic_store(&running, 0);
        pthread_join(th, NULL);
        HB_CHECK(st == HB_SUCCESS, "simulation on two threads: hb_sim_run: %s: %s",
                 hb_status_string(st), hb_last_error());
        HB_CHECK(!a.bad[0], "simulation on two threads: hb_sim_get_time: %s", a.bad);
        long long busy = atomic_load(&a.busy);
        HB_CHECK(busy > 0, "simulation on two threads: %lld polls during %lld runs and none "
                 "refused with HB_ERR_BUSY", (long long)a.polls, (long long)runs);
        printf("simulation on two threads: %lld runs (%lld refused), %lld polls, %lld refused "
               "with HB_ERR_BUSY\n",
               (long long)runs, (long long)refused, (long long)a.polls, busy);
    }
    hb_sim_destroy(sim);
    hb_morph_cell_destroy(cell);
    hb_context_destroy(ctx);
}

int main(void)
{
    hb_test_begin("test_threads");
    hb_backend want = HB_BACKEND_AUTO;
    const char *env = getenv("HINESBATCH_BACKEND");
    if (env)
        (void)hb_backend_from_name(env, &want);
    on_host = hb_test_host_backend(want);
    /* The oracle is the serial backend: it touches no device, so the threads
     * of (a) are the first to open the backend under test. */
    hb_context *oracle = hb_test_oracle();
    oracle_ctx = oracle;
    make_jobs(oracle);
    test_own_contexts(3);
    test_shared_context(3);
    test_openmp_callers();
    test_lifetime();
    test_lifetime_threads(3);
    test_busy_flag();
    test_busy_plan();
    test_busy_sim();
    hb_context_destroy(oracle);
    free_jobs();
    return hb_test_finish();
}
