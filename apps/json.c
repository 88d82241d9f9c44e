/* json.c: a small strict JSON parser (recursive descent with a depth limit, positions for messages). */
#include "json.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s;
    size_t      len, at;
    int         line, col;
    char       *err;
    size_t      errcap;
    int         failed;
} parser;

static int fail(parser *p, const char *fmt, ...)
{
    if (p->failed)
        return 0;
    p->failed = 1;
    int n = snprintf(p->err, p->errcap, "%d:%d: ", p->line, p->col);
    if (n < 0 || (size_t)n >= p->errcap)
        return 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err + n, p->errcap - (size_t)n, fmt, ap);
    va_end(ap);
    return 0;
}

static int peek(const parser *p) { return p->at < p->len ? (unsigned char)p->s[p->at] : -1; }

static void advance(parser *p)
{
    if (p->s[p->at] == '\n')
        p->line++, p->col = 1;
    else
        p->col++;
    p->at++;
}

static void skip_space(parser *p)
{
    for (int c; (c = peek(p)) == ' ' || c == '\t' || c == '\n' || c == '\r';)
        advance(p);
}

static int literal(parser *p, const char *word)
{
    size_t n = strlen(word);
    if (p->len - p->at < n || memcmp(p->s + p->at, word, n) != 0)
        return fail(p, "expected a value (\"%s\"?)", word);
    for (size_t i = 0; i < n; ++i)
        advance(p);
    return 1;
}

static int hex4(parser *p, unsigned *u)
{
    *u = 0;
    for (int i = 0; i < 4; ++i) {
        int c = peek(p);
        int d = c >= '0' && c <= '9' ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
        if (d < 0)
            return fail(p, "\\u needs four hex digits");
        *u = *u * 16 + (unsigned)d;
        advance(p);
    }
    return 1;
}

static size_t put_utf8(char *o, unsigned u)
{
    if (u < 0x80)
        return o[0] = (char)u, 1;
    if (u < 0x800)
        return o[0] = (char)(0xC0 | u >> 6), o[1] = (char)(0x80 | (u & 63)), 2;
    if (u < 0x10000)
        return o[0] = (char)(0xE0 | u >> 12), o[1] = (char)(0x80 | (u >> 6 & 63)),
               o[2] = (char)(0x80 | (u & 63)), 3;
    return o[0] = (char)(0xF0 | u >> 18), o[1] = (char)(0x80 | (u >> 12 & 63)),
           o[2] = (char)(0x80 | (u >> 6 & 63)), o[3] = (char)(0x80 | (u & 63)), 4;
}

/* A string at the opening quote; *out malloc'd. Escapes never lengthen the
 * text (\uXXXX: at most 4 bytes of UTF-8 from 6 of input), so the raw span
 * to the closing quote bounds the result. Sized by that span, not by the rest
 * of the input: a file of a million short strings would otherwise ask for a
 * million times its own size. */
static int string(parser *p, char **out)
{
    advance(p); /* " */
    size_t start = p->at, span = 0;
    while (start + span < p->len && p->s[start + span] != '"')
        span += p->s[start + span] == '\\' ? 2 : 1;
    if (span > p->len - start)
        span = p->len - start;
    char *o = malloc(span + 1);
    if (!o)
        return fail(p, "out of memory");
    size_t n = 0;
    for (;;) {
        int c = peek(p);
        if (c < 0) {
            free(o);
            return fail(p, "unterminated string");
        }
        if (c == '"') {
            advance(p);
            break;
        }
        if (c < 0x20) {
            free(o);
            return fail(p, "control character 0x%02x in a string (escape it)", c);
        }
        if (c != '\\') {
            o[n++] = (char)c;
            advance(p);
            continue;
        }
        advance(p);
        c = peek(p);
        const char *from = "\"\\/bfnrt", *to = "\"\\/\b\f\n\r\t";
        const char *hit = c > 0 ? strchr(from, c) : NULL;
        if (hit) {
            o[n++] = to[hit - from];
            advance(p);
            continue;
        }
        if (c != 'u') {
            free(o);
            return fail(p, "bad escape in a string");
        }
        advance(p);
        unsigned u;
        if (!hex4(p, &u)) {
            free(o);
            return 0;
        }
        if (u >= 0xD800 && u < 0xDC00) { /* a high surrogate: its low half must follow */
            unsigned lo;
            if (peek(p) != '\\' || (advance(p), peek(p)) != 'u') {
                free(o);
                return fail(p, "lone UTF-16 high surrogate in a \\u escape");
            }
            advance(p);
            if (!hex4(p, &lo)) {
                free(o);
                return 0;
            }
            if (lo < 0xDC00 || lo >= 0xE000) {
                free(o);
                return fail(p, "bad UTF-16 low surrogate in a \\u escape");
            }
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        } else if (u >= 0xDC00 && u < 0xE000) {
            free(o);
            return fail(p, "lone UTF-16 low surrogate in a \\u escape");
        } else if (u == 0) {
            free(o);
            return fail(p, "\\u0000 in a string");
        }
        n += put_utf8(o + n, u);
    }
    o[n] = '\0';
    *out = o;
    return 1;
}

/* RFC 8259's number grammar, then strtod; a value past double's range is an
 * error, not infinity. */
static int number(parser *p, double *out)
{
    size_t s = p->at;
    if (peek(p) == '-')
        advance(p);
    if (peek(p) == '0')
        advance(p);
    else if (peek(p) >= '1' && peek(p) <= '9')
        while (peek(p) >= '0' && peek(p) <= '9')
            advance(p);
    else
        return fail(p, "bad number");
    if (peek(p) == '.') {
        advance(p);
        if (!(peek(p) >= '0' && peek(p) <= '9'))
            return fail(p, "bad number: a digit must follow '.'");
        while (peek(p) >= '0' && peek(p) <= '9')
            advance(p);
    }
    if (peek(p) == 'e' || peek(p) == 'E') {
        advance(p);
        if (peek(p) == '+' || peek(p) == '-')
            advance(p);
        if (!(peek(p) >= '0' && peek(p) <= '9'))
            return fail(p, "bad number: a digit must follow the exponent");
        while (peek(p) >= '0' && peek(p) <= '9')
            advance(p);
    }
    size_t n = p->at - s;
    char buf[512];
    if (n >= sizeof buf)
        return fail(p, "number of %zu characters", n);
    memcpy(buf, p->s + s, n);
    buf[n] = '\0';
    errno = 0;
    *out = strtod(buf, NULL);
    if (!isfinite(*out) || (errno == ERANGE && fabs(*out) > 1))
        return fail(p, "number %s is out of range", buf);
    return 1;
}

static int value(parser *p, json_value *v, int depth);

static int grow(parser *p, json_value *v, size_t *cap)
{
    if (v->n < *cap)
        return 1;
    size_t nc = *cap ? 2 * *cap : 8;
    json_value *it = realloc(v->items, nc * sizeof *it);
    if (!it)
        return fail(p, "out of memory");
    v->items = it, *cap = nc;
    return 1;
}

/* The keys of one object, an open-addressing hash set of member indices
 * (slot = index + 1, 0 = empty): a duplicate is found in constant time, where
 * comparing each key with every earlier one took hours on an object of a
 * million keys (the 16 MiB limit allows that many). */
typedef struct {
    size_t *slot, cap; /* cap: 0 or a power of two, at least twice the keys */
} key_set;

static size_t key_hash(const char *k)
{
    size_t h = (size_t)14695981039346656037ULL; /* FNV-1a (truncated where size_t is 32-bit) */
    for (; *k; ++k)
        h = (h ^ (unsigned char)*k) * (size_t)1099511628211ULL;
    return h;
}

/* Adds member i of v (keys 0 .. i-1 already in); returns the index of an
 * earlier member with the same key, i itself when none, or (size_t)-1 when
 * out of memory. */
static size_t key_set_add(key_set *ks, const json_value *v, size_t i)
{
    if (2 * (i + 1) > ks->cap) {
        size_t nc = ks->cap ? 2 * ks->cap : 16;
        size_t *ns = nc <= (size_t)-1 / sizeof *ns ? calloc(nc, sizeof *ns) : NULL;
        if (!ns)
            return (size_t)-1;
        for (size_t j = 0; j < i; ++j) {
            size_t h = key_hash(v->items[j].key) & (nc - 1);
            while (ns[h])
                h = (h + 1) & (nc - 1);
            ns[h] = j + 1;
        }
        free(ks->slot);
        ks->slot = ns, ks->cap = nc;
    }
    size_t h = key_hash(v->items[i].key) & (ks->cap - 1);
    for (; ks->slot[h]; h = (h + 1) & (ks->cap - 1))
        if (!strcmp(v->items[ks->slot[h] - 1].key, v->items[i].key))
            return ks->slot[h] - 1;
    ks->slot[h] = i + 1;
    return i;
}

static int members(parser *p, json_value *v, int depth, key_set *keys);

static int container(parser *p, json_value *v, int depth)
{
    const int obj = peek(p) == '{';
    const int close = obj ? '}' : ']';
    if (depth >= JSON_MAX_DEPTH)
        return fail(p, "nesting deeper than %d", JSON_MAX_DEPTH);
    v->type = obj ? JSON_OBJECT : JSON_ARRAY;
    advance(p);
    skip_space(p);
    if (peek(p) == close) {
        advance(p);
        return 1;
    }
    key_set keys = {NULL, 0};
    int ok = members(p, v, depth, &keys);
    free(keys.slot);
    return ok;
}

/* The members or elements of container v, after its first byte. */
static int members(parser *p, json_value *v, int depth, key_set *keys)
{
    const int obj = v->type == JSON_OBJECT;
    const int close = obj ? '}' : ']';
    size_t cap = 0;
    for (;;) {
        if (!grow(p, v, &cap))
            return 0;
        json_value *it = &v->items[v->n];
        memset(it, 0, sizeof *it);
        skip_space(p);
        if (obj) {
            if (peek(p) != '"')
                return fail(p, "expected a key (a string) in an object");
            it->key_line = p->line, it->key_col = p->col;
            char *k = NULL;
            if (!string(p, &k))
                return 0;
            it->key = k;
            v->n++; /* counted now so that json_free frees the key on error */
            size_t first = key_set_add(keys, v, v->n - 1);
            if (first == (size_t)-1)
                return fail(p, "out of memory");
            if (first != v->n - 1)
                return fail(p, "duplicate key \"%s\" (first at %d:%d)", k,
                            v->items[first].key_line, v->items[first].key_col);
            skip_space(p);
            if (peek(p) != ':')
                return fail(p, "expected ':' after key \"%s\"", k);
            advance(p);
        } else
            v->n++;
        if (!value(p, it, depth + 1))
            return 0;
        skip_space(p);
        if (peek(p) == ',') {
            advance(p);
            continue;
        }
        if (peek(p) == close) {
            advance(p);
            return 1;
        }
        if (peek(p) < 0)
            return fail(p, "unexpected end of input in %s", obj ? "an object" : "an array");
        return fail(p, "expected ',' or '%c' in %s", close, obj ? "an object" : "an array");
    }
}

static int value(parser *p, json_value *v, int depth)
{
    skip_space(p);
    v->line = p->line, v->col = p->col;
    int c = peek(p);
    switch (c) {
    case -1: return fail(p, "unexpected end of input (expected a value)");
    case '{':
    case '[': return container(p, v, depth);
    case '"': v->type = JSON_STRING; return string(p, &v->str);
    case 't': v->type = JSON_BOOL, v->num = 1; return literal(p, "true");
    case 'f': v->type = JSON_BOOL, v->num = 0; return literal(p, "false");
    case 'n': v->type = JSON_NULL; return literal(p, "null");
    default:
        if (c == '-' || (c >= '0' && c <= '9')) {
            v->type = JSON_NUMBER;
            return number(p, &v->num);
        }
        return fail(p, c >= 0x20 && c < 0x7f ? "unexpected '%c' (expected a value; NaN and "
                                               "Infinity are not JSON)"
                                             : "unexpected byte 0x%02x (expected a value)",
                    c);
    }
}

static void free_inner(json_value *v)
{
    for (size_t i = 0; i < v->n; ++i)
        free_inner(&v->items[i]);
    free(v->items);
    free(v->key);
    free(v->str);
}

void json_free(json_value *v)
{
    if (!v)
        return;
    free_inner(v);
    free(v);
}

int json_parse(const char *text, size_t len, json_value **out, char *err, size_t errcap)
{
    parser p = {text, len, 0, 1, 1, err, errcap, 0};
    *out = NULL;
    if (errcap)
        err[0] = '\0';
    if (len > JSON_MAX_BYTES)
        return fail(&p, "%zu bytes, more than the %zu a model file may have", len,
                    JSON_MAX_BYTES);
    json_value *v = calloc(1, sizeof *v);
    if (!v)
        return fail(&p, "out of memory");
    int ok = value(&p, v, 0);
    if (ok) {
        skip_space(&p);
        if (peek(&p) >= 0)
            ok = fail(&p, "content after the top-level value");
    }
    if (!ok) {
        json_free(v);
        return 0;
    }
    *out = v;
    return 1;
}

const json_value *json_get(const json_value *v, const char *key)
{
    if (!v || v->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < v->n; ++i)
        if (!strcmp(v->items[i].key, key))
            return &v->items[i];
    return NULL;
}

const char *json_type_name(json_type t)
{
    static const char *const names[] = {"null", "true/false", "a number", "a string",
                                        "an array", "an object"};
    return (unsigned)t < 6 ? names[t] : "?";
}
