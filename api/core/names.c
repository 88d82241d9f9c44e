/* names.c: the one table of names of backends, layouts, paddings and strategies, both ways. */
#include "hb_error.h"

#include <ctype.h>

typedef struct {
    int         value;
    const char *name;
} name_entry;

#define HB_COUNT(t) ((int)(sizeof t / sizeof t[0]))

static const name_entry backends[] = {{HB_BACKEND_AUTO, "auto"},     {HB_BACKEND_SERIAL, "serial"},
                                      {HB_BACKEND_OPENMP, "openmp"}, {HB_BACKEND_OPENCL, "opencl"},
                                      {HB_BACKEND_CUDA, "cuda"}};
static const name_entry layouts[] = {{HB_LAYOUT_AUTO, "auto"},
                                     {HB_LAYOUT_FLAT, "flat"},
                                     {HB_LAYOUT_INTERLEAVED, "full-interleaved"},
                                     {HB_LAYOUT_BLOCK_INTERLEAVED, "block-interleaved"},
                                     {HB_LAYOUT_BLOCK_SHARED, "block-shared"}};
static const name_entry paddings[] = {
    {HB_PADDING_AUTO, "auto"}, {HB_PADDING_COMPUTE, "compute"}, {HB_PADDING_SKIP, "skip"}};
static const name_entry strategies[] = {{HB_STRATEGY_AUTO, "auto"},
                                        {HB_STRATEGY_PER_SYSTEM, "per-system"},
                                        {HB_STRATEGY_BRANCH_LEVEL, "branch-level"},
                                        {HB_STRATEGY_FINE_TREE, "fine-tree"},
                                        {HB_STRATEGY_COOPERATIVE, "cooperative"},
                                        {HB_STRATEGY_CELL_GROUP, "cell-group"}};

static const char *name_of(const name_entry *t, int n, int value)
{
    for (int i = 0; i < n; ++i)
        if (t[i].value == value)
            return t[i].name;
    return "unknown";
}

static int same_nocase(const char *a, const char *b)
{
    for (; *a && *b; ++a, ++b)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return 0;
    return *a == *b;
}

/* The value named, or -1. */
static int value_of(const name_entry *t, int n, const char *name)
{
    for (int i = 0; name && i < n; ++i)
        if (same_nocase(name, t[i].name))
            return t[i].value;
    return -1;
}

#define HB_NAME_FUNCTIONS(TYPE, WHAT, TABLE)                                                   \
    const char *hb_##WHAT##_name(TYPE v) { return name_of(TABLE, HB_COUNT(TABLE), (int)v); }  \
    hb_status hb_##WHAT##_from_name(const char *name, TYPE *out)                               \
    {                                                                                          \
        if (!out)                                                                              \
            return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_" #WHAT "_from_name: output is NULL"); \
        int v = value_of(TABLE, HB_COUNT(TABLE), name);                                        \
        if (v < 0)                                                                             \
            return hb__error(HB_ERR_INVALID_ARGUMENT, "hb_" #WHAT "_from_name: '%s' is not a " \
                             #WHAT " name", name ? name : "(null)");                          \
        *out = (TYPE)v;                                                                        \
        return HB_SUCCESS;                                                                     \
    }

HB_NAME_FUNCTIONS(hb_backend, backend, backends)
HB_NAME_FUNCTIONS(hb_layout, layout, layouts)
HB_NAME_FUNCTIONS(hb_padding, padding, paddings)
HB_NAME_FUNCTIONS(hb_strategy, strategy, strategies)
