/* test_threads.c: the thread and lifetime contract: threads with their own contexts, threads sharing one context with their own plans, contexts destroyed before their plans and simulations, and one plan or simulation used by two threads at once (HB_ERR_BUSY). */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "hb_oracle_runner.h"

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
    make_jobs(oracle);
    test_own_contexts(3);
    test_shared_context(3);
    hb_context_destroy(oracle);
    free_jobs();
    return hb_test_finish();
}
