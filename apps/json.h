/* json.h: a small strict JSON (RFC 8259) parser for the CLI's model files: a tree of values, each with its line and column. */
#ifndef HB_APPS_JSON_H
#define HB_APPS_JSON_H

#include <stddef.h>

/* Limits: input size, nesting depth. Larger inputs are refused, not truncated. */
#define JSON_MAX_BYTES ((size_t)16 << 20)
#define JSON_MAX_DEPTH 64

typedef enum { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT } json_type;

typedef struct json_value json_value;
struct json_value {
    json_type   type;
    int         line, col;  /* where the value starts, from 1                    */
    char       *key;        /* member name in an object (NUL-free), else NULL     */
    int         key_line, key_col;
    double      num;        /* NUMBER: finite; BOOL: 0 or 1                       */
    char       *str;        /* STRING: UTF-8, NUL-terminated (a \u0000 is refused) */
    json_value *items;      /* ARRAY elements or OBJECT members, n of them        */
    size_t      n;
};

/* Parses text[0 .. len) into *out (json_free it). On error returns 0, *out
 * NULL, and err holds "LINE:COL: what". Duplicate keys, trailing content,
 * numbers outside double's range, control characters in strings and bad
 * UTF-16 escapes are errors. */
int json_parse(const char *text, size_t len, json_value **out, char *err, size_t errcap);
void json_free(json_value *v);

/* The member `key` of an object (NULL: none, or v is not an object). */
const json_value *json_get(const json_value *v, const char *key);
const char *json_type_name(json_type t);

#endif
