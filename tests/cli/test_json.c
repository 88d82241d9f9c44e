/* test_json.c: the model files' JSON parser (apps/json.c) on hostile sizes: memory and key comparisons grow with the input, not with its square. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parser is compiled in here with counting malloc and strcmp, so that
 * the test measures its work instead of timing it. */
static size_t malloc_bytes, malloc_budget, strcmp_calls;

static void *counting_malloc(size_t n)
{
    malloc_bytes += n;
    /* Past the budget the test has failed anyway: refuse, as a full machine
     * would, instead of allocating what the old parser asked for. */
    return malloc_bytes > malloc_budget ? NULL : malloc(n);
}

static int counting_strcmp(const char *a, const char *b)
{
    ++strcmp_calls;
    return strcmp(a, b);
}

#define malloc counting_malloc
#define strcmp counting_strcmp
#include "json.c"
#undef malloc
#undef strcmp

static int fails;

#define CHECK(cond, ...)                                                 \
    do {                                                                 \
        if (!(cond)) {                                                   \
            ++fails;                                                     \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);         \
            fprintf(stderr, __VA_ARGS__);                                \
            fputc('\n', stderr);                                         \
        }                                                                \
    } while (0)

/* {"k0": 0, "k1": 0, ...} with n keys; dup >= 0 repeats key "k<dup>" last. */
static char *object_of_keys(size_t n, long dup, size_t *len)
{
    size_t cap = n * 24 + 64, o = 0;
    char *t = malloc(cap);
    if (!t)
        exit(2);
    t[o++] = '{';
    for (size_t i = 0; i < n; ++i)
        o += (size_t)snprintf(t + o, cap - o, "%s\"k%zu\": 0", i ? ", " : "", i);
    if (dup >= 0)
        o += (size_t)snprintf(t + o, cap - o, ", \"k%ld\": 1", dup);
    t[o++] = '}';
    *len = o;
    return t;
}

int main(void)
{
    char err[256];
    json_value *v = NULL;

    /* A million short strings: each string's buffer is its own length, not
     * the rest of the file (which made 1.2 MB of input ask for 8.8 GB). */
    size_t n = 1000000, len = 0, cap = 4 * n + 64;
    char *t = malloc(cap);
    if (!t)
        return 2;
    len += (size_t)snprintf(t, cap, "{\"s\": [");
    for (size_t i = 0; i < n; ++i)
        len += (size_t)snprintf(t + len, cap - len, "%s\"a\"", i ? "," : "");
    len += (size_t)snprintf(t + len, cap - len, "]}");
    malloc_bytes = 0, malloc_budget = 64 * len;
    int ok = json_parse(t, len, &v, err, sizeof err);
    CHECK(ok, "1e6 strings: refused: %s", err);
    CHECK(malloc_bytes <= 16 * len, "1e6 strings in %zu bytes: malloc asked for %zu bytes", len,
          malloc_bytes);
    if (ok) {
        const json_value *s = json_get(v, "s");
        CHECK(s && s->type == JSON_ARRAY && s->n == n && !strcmp(s->items[n - 1].str, "a"),
              "1e6 strings: not read back");
    }
    json_free(v);
    free(t);

    /* Escapes in a short string amid a long input: still sized by the span. */
    const char *esc = "[\"\\\"\\\\\\u00e9\\ud83d\\ude00\", \"x\"]";
    char big[4096];
    snprintf(big, sizeof big, "%s%*s", esc, 3000, "");
    malloc_bytes = 0, malloc_budget = (size_t)-1;
    ok = json_parse(big, strlen(big), &v, err, sizeof err);
    CHECK(ok && v->n == 2 && !strcmp(v->items[0].str, "\"\\\xc3\xa9\xf0\x9f\x98\x80") &&
              !strcmp(v->items[1].str, "x"),
          "escapes: %s", ok ? "wrong text" : err);
    CHECK(malloc_bytes < 1024, "escapes: malloc asked for %zu bytes", malloc_bytes);
    json_free(v);
    v = NULL;
    ok = json_parse("[\"ab\\", 5, &v, err, sizeof err);
    CHECK(!ok && strstr(err, "1:6: bad escape") && !v, "a string ending in a backslash: %s", err);

    /* Duplicate keys in an object of 20000: found by hashing, not by
     * comparing each key with every earlier one (2e8 comparisons here, and
     * hours for the million keys a 16 MiB file can hold). */
    n = 20000;
    t = object_of_keys(n, -1, &len);
    strcmp_calls = 0, malloc_budget = (size_t)-1;
    ok = json_parse(t, len, &v, err, sizeof err);
    CHECK(ok && v->n == n, "20000 keys: %s", ok ? "wrong count" : err);
    CHECK(strcmp_calls <= 4 * n, "20000 distinct keys: %zu key comparisons", strcmp_calls);
    json_free(v);
    free(t);
    /* The duplicate is still found, with the first one's place. */
    t = object_of_keys(n, 12345, &len);
    v = NULL;
    ok = json_parse(t, len, &v, err, sizeof err);
    char first[64];
    snprintf(first, sizeof first, "duplicate key \"k12345\" (first at 1:%zu)",
             (size_t)(strstr(t, "\"k12345\"") - t) + 1);
    CHECK(!ok && !v && strstr(err, first), "duplicate among 20000 keys: '%s', wanted '%s'", err,
          first);
    free(t);
    const char *nested = "{\"a\": {\"a\": 1}, \"b\": 2, \"a\": 3}";
    ok = json_parse(nested, strlen(nested), &v, err, sizeof err);
    CHECK(!ok && strstr(err, "1:28: duplicate key \"a\" (first at 1:2)"), "nested: '%s'", err);

    printf("test_json: %s\n", fails ? "FAILED" : "passed");
    return fails ? 1 : 0;
}
