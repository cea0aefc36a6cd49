/*
 * shutthebox.c - a C99 reader of ShutTheBox table files; see shutthebox.h and docs/FORMAT.md.
 *
 * Defensive by construction: the file is read whole into memory; every msgpack length is checked against
 * the bytes left before it is used (a container's count against them too, every element taking a byte at
 * least), nesting is bounded (MAX_DEPTH), sizes and element counts are computed in uint64_t/size_t with
 * explicit overflow checks, and no answer is read from bytes the CRC-32s have not verified. Compiles as C99
 * and as C++.
 */
#include "shutthebox.h"

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH 8            /* msgpack nesting, as the Python reader's decoder */
#define MIN_BLOCK 4096u
#define MAX_BLOCK 65536u
#define MAX_WORDS 64           /* a question of more words is refused (every valid one has at most 5) */
#define SHOWN 60               /* an echoed user text is cut to this many characters */
#define MAX_SET_TEXT 200       /* a position longer than this is refused */
#define MAX_DIGITS 11          /* a number of more characters is "far out of range" */
#define SLACK 1e-9             /* a float value may lie this far outside its range (a solver's rounding) */
#define MAX_TILES 16
#define NAME_LIMIT 100         /* a table's name in messages is cut to this many characters */
#define NAME_CAP (5 * NAME_LIMIT + 16)

static const char MAGIC_PREFIX[] = "\xa5" "magic" "\xb0" "ShutTheBox table";   /* 23 bytes at offset 1 */
#define MAGIC_LEN 23u
static const char CRC_TAIL[] = "\xa5" "crc32" "\xce";                          /* then 4 CRC bytes */
#define TAIL_LEN 7u

/* ------------------------------------------------------------------------------------------------ */
/* messages */

static void say(char *err, size_t errlen, const char *format, ...)
{
    va_list args;
    if (err == NULL || errlen == 0)
        return;
    va_start(args, format);
    vsnprintf(err, errlen, format, args);
    va_end(args);
}

const char *stb_status_name(int status)
{
    static const char *const names[] = {
        "STB_OK", "STB_ERR_IO", "STB_ERR_FORMAT", "STB_ERR_CHECKSUM", "STB_ERR_VERSION", "STB_ERR_NOMEM",
        "STB_ERR_QUERY", "STB_ERR_GAME", "STB_ERR_VALUE", "STB_ERR_NOTFOUND", "STB_ERR_TYPE",
        "STB_ERR_RANGE", "STB_ERR_ARG"};
    if (status < 0 || (size_t)status >= sizeof names / sizeof names[0])
        return "STB_ERR_UNKNOWN";
    return names[status];
}

/* The length of the UTF-8 sequence at s (1 for a byte that starts none). */
static size_t utf8_step(const unsigned char *s, size_t n)
{
    unsigned c = s[0];
    size_t need, k;
    if (c < 0xc2 || c > 0xf4)
        return 1;
    need = c <= 0xdf ? 1 : c <= 0xef ? 2 : 3;
    if (n - 1 < need)
        return 1;
    for (k = 1; k <= need; k++)
        if ((s[k] & 0xc0) != 0x80)
            return 1;
    return need + 1;
}

/* A user's text for a message: cut to `limit` characters ("..." at the cut), control characters and bytes
 * that are no UTF-8 escaped, so that the message stays one line. dst holds at least 5 * limit + 4 bytes. */
static void shown_cut(char *dst, size_t cap, const char *text, size_t limit)
{
    const unsigned char *s = (const unsigned char *)text;
    size_t n = strlen(text), i = 0, chars = 0, total = 0, out = 0;
    size_t keep;
    while (i < n) { /* count the characters */
        i += utf8_step(s + i, n - i);
        total++;
    }
    keep = total > limit ? limit - 3 : total;
    i = 0;
    while (i < n && chars < keep && out + 8 < cap) {
        size_t step = utf8_step(s + i, n - i);
        unsigned c = s[i];
        if (step > 1 && !(c == 0xc2 && s[i + 1] <= 0xa0)) { /* printable beyond ASCII */
            memcpy(dst + out, s + i, step);
            out += step;
        } else if (c == '\n' || c == '\t' || c == '\r') {
            dst[out++] = '\\';
            dst[out++] = c == '\n' ? 'n' : c == '\t' ? 't' : 'r';
        } else if (step > 1 || c < 0x20 || c >= 0x7f) { /* C1 controls, no-break space, stray bytes */
            unsigned value = step > 1 ? s[i + 1] : c;
            out += (size_t)snprintf(dst + out, cap - out, "\\x%02x", value);
        } else {
            dst[out++] = (char)c;
        }
        i += step;
        chars++;
    }
    if (total > limit && out + 4 <= cap) {
        memcpy(dst + out, "...", 3);
        out += 3;
    }
    dst[out < cap ? out : cap - 1] = '\0';
}

#define SHOWN_CAP (5 * SHOWN + 8)
typedef struct { char text[SHOWN_CAP]; } shown_t;

static const char *shown(shown_t *buffer, const char *text)
{
    shown_cut(buffer->text, sizeof buffer->text, text, SHOWN);
    return buffer->text;
}

/* ------------------------------------------------------------------------------------------------ */
/* CRC-32 (zlib's: reflected 0x04C11DB7, initial value and final XOR 0xFFFFFFFF), slicing by 8 */

typedef struct { uint32_t t[8][256]; } crc_tables;

static void crc_init(crc_tables *c)
{
    uint32_t n, k, r;
    for (n = 0; n < 256; n++) {
        r = n;
        for (k = 0; k < 8; k++)
            r = (r & 1) ? 0xEDB88320u ^ (r >> 1) : r >> 1;
        c->t[0][n] = r;
    }
    for (n = 0; n < 256; n++)
        for (k = 1; k < 8; k++)
            c->t[k][n] = (c->t[k - 1][n] >> 8) ^ c->t[0][c->t[k - 1][n] & 0xff];
}

/* crc32(data, seed) as zlib.crc32: the CRC of `n` bytes continued from the CRC `crc`. */
static uint32_t crc_update(const crc_tables *c, uint32_t crc, const unsigned char *p, size_t n)
{
    crc = ~crc;
    while (n >= 8) {
        uint32_t a = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
        uint32_t b = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 | (uint32_t)p[7] << 24;
        crc = c->t[7][a & 0xff] ^ c->t[6][(a >> 8) & 0xff] ^ c->t[5][(a >> 16) & 0xff] ^ c->t[4][a >> 24] ^
              c->t[3][b & 0xff] ^ c->t[2][(b >> 8) & 0xff] ^ c->t[1][(b >> 16) & 0xff] ^ c->t[0][b >> 24];
        p += 8;
        n -= 8;
    }
    while (n--)
        crc = c->t[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return ~crc;
}

/* ------------------------------------------------------------------------------------------------ */
/* the msgpack subset of a table (docs/FORMAT.md: maps, arrays, str, bin, ints, nil, bools, floats) */

enum { MP_NIL, MP_BOOL, MP_UINT, MP_INT, MP_FLOAT, MP_STR, MP_BIN, MP_ARRAY, MP_MAP };

typedef struct {
    int kind;
    int64_t i;       /* MP_INT (negative), MP_BOOL */
    uint64_t u;      /* MP_UINT */
    double f;        /* MP_FLOAT */
    size_t off, len; /* MP_STR, MP_BIN: the payload's offset and length */
    uint64_t count;  /* MP_ARRAY: elements; MP_MAP: entries */
} mp_obj;

typedef struct {
    const unsigned char *b;
    size_t n;        /* bytes of b */
    size_t pos;      /* always <= n */
    const char *why; /* what went wrong */
} mp_cur;

static int utf8_valid(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        unsigned c = s[i];
        size_t need, k;
        uint32_t cp, least;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c >= 0xc2 && c <= 0xdf) {
            need = 1; cp = c & 0x1f; least = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            need = 2; cp = c & 0x0f; least = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            need = 3; cp = c & 0x07; least = 0x10000;
        } else {
            return 0;
        }
        if (n - i - 1 < need)
            return 0;
        for (k = 1; k <= need; k++) {
            if ((s[i + k] & 0xc0) != 0x80)
                return 0;
            cp = cp << 6 | (s[i + k] & 0x3fu);
        }
        if (cp < least || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
            return 0;
        i += need + 1;
    }
    return 1;
}

static uint64_t big_endian(const unsigned char *p, size_t k)
{
    uint64_t v = 0;
    while (k--)
        v = v << 8 | *p++;
    return v;
}

static int mp_take(mp_cur *c, uint64_t k, const unsigned char **p)
{
    if (k > c->n - c->pos) {
        c->why = "the file ends inside its header";
        return 0;
    }
    *p = c->b + c->pos;
    c->pos += (size_t)k;
    return 1;
}

/* Two's complement of the `bits`-bit number v, portably. */
static int64_t signed_of(uint64_t v, unsigned bits)
{
    uint64_t sign = (uint64_t)1 << (bits - 1);
    uint64_t mask = bits == 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
    v &= mask;
    if (v & sign) /* v - 2^bits, as -(2^bits - 1 - v) - 1: every step in range */
        return -(int64_t)(mask - v) - 1;
    return (int64_t)v;
}

/* One object's head: a scalar whole, a str or bin with its payload stepped over, an array's or map's count
 * (its elements follow). 0 with c->why on malformed or truncated input. */
static int mp_head(mp_cur *c, mp_obj *o)
{
    const unsigned char *p;
    unsigned first;
    uint64_t len = 0, remaining;
    memset(o, 0, sizeof *o);
    if (!mp_take(c, 1, &p))
        return 0;
    first = p[0];
    if (first <= 0x7f) {
        o->kind = MP_UINT;
        o->u = first;
        return 1;
    }
    if (first >= 0xe0) {
        o->kind = MP_INT;
        o->i = (int64_t)first - 256;
        return 1;
    }
    if (first <= 0x8f) {
        o->kind = MP_MAP;
        o->count = first & 0x0f;
    } else if (first <= 0x9f) {
        o->kind = MP_ARRAY;
        o->count = first & 0x0f;
    } else if (first <= 0xbf) {
        o->kind = MP_STR;
        len = first & 0x1f;
    } else {
        size_t width;
        switch (first) {
        case 0xc0:
            o->kind = MP_NIL;
            return 1;
        case 0xc2:
        case 0xc3:
            o->kind = MP_BOOL;
            o->i = first == 0xc3;
            return 1;
        case 0xc4: case 0xc5: case 0xc6:
            o->kind = MP_BIN;
            width = (size_t)1 << (first - 0xc4);
            if (!mp_take(c, width, &p))
                return 0;
            len = big_endian(p, width);
            break;
        case 0xd9: case 0xda: case 0xdb:
            o->kind = MP_STR;
            width = (size_t)1 << (first - 0xd9);
            if (!mp_take(c, width, &p))
                return 0;
            len = big_endian(p, width);
            break;
        case 0xdc: case 0xdd:
            o->kind = MP_ARRAY;
            width = first == 0xdc ? 2 : 4;
            if (!mp_take(c, width, &p))
                return 0;
            o->count = big_endian(p, width);
            break;
        case 0xde: case 0xdf:
            o->kind = MP_MAP;
            width = first == 0xde ? 2 : 4;
            if (!mp_take(c, width, &p))
                return 0;
            o->count = big_endian(p, width);
            break;
        case 0xcc: case 0xcd: case 0xce: case 0xcf:
            width = (size_t)1 << (first - 0xcc);
            if (!mp_take(c, width, &p))
                return 0;
            o->kind = MP_UINT;
            o->u = big_endian(p, width);
            return 1;
        case 0xd0: case 0xd1: case 0xd2: case 0xd3:
            width = (size_t)1 << (first - 0xd0);
            if (!mp_take(c, width, &p))
                return 0;
            o->i = signed_of(big_endian(p, width), (unsigned)(8 * width));
            if (o->i >= 0) {
                o->kind = MP_UINT;
                o->u = (uint64_t)o->i;
                o->i = 0;
            } else {
                o->kind = MP_INT;
            }
            return 1;
        case 0xca: {
            float f;
            uint32_t bits;
            if (!mp_take(c, 4, &p))
                return 0;
            bits = (uint32_t)big_endian(p, 4);
            memcpy(&f, &bits, sizeof f);
            o->kind = MP_FLOAT;
            o->f = (double)f;
            return 1;
        }
        case 0xcb: {
            uint64_t bits;
            if (!mp_take(c, 8, &p))
                return 0;
            bits = big_endian(p, 8);
            memcpy(&o->f, &bits, sizeof o->f);
            o->kind = MP_FLOAT;
            return 1;
        }
        default:
            c->why = "an unexpected msgpack type";
            return 0;
        }
    }
    remaining = c->n - c->pos;
    if (o->kind == MP_ARRAY || o->kind == MP_MAP) {
        /* every element takes a byte at least: a count beyond the bytes left is a truncated file */
        if (o->kind == MP_MAP ? o->count > remaining / 2 : o->count > remaining) {
            c->why = "the file ends inside its header";
            return 0;
        }
        return 1;
    }
    if (len > remaining) {
        c->why = o->kind == MP_BIN ? "array data runs past the end of the file" : "the file ends inside its header";
        return 0;
    }
    o->off = c->pos;
    o->len = (size_t)len;
    c->pos += (size_t)len;
    if (o->kind == MP_STR && !utf8_valid(c->b + o->off, o->len)) {
        c->why = "a string is not UTF-8";
        return 0;
    }
    return 1;
}

/* Step over one whole object, nested at most MAX_DEPTH deep. */
static int mp_skip(mp_cur *c, int depth)
{
    mp_obj o;
    uint64_t k, n;
    if (depth > MAX_DEPTH) {
        c->why = "objects nested too deep";
        return 0;
    }
    if (!mp_head(c, &o))
        return 0;
    if (o.kind == MP_ARRAY || o.kind == MP_MAP) {
        n = o.kind == MP_MAP ? 2 * o.count : o.count; /* count <= bytes left / 2: no overflow */
        for (k = 0; k < n; k++)
            if (!mp_skip(c, depth + 1))
                return 0;
    }
    return 1;
}

static int mp_is(const mp_cur *c, const mp_obj *o, const char *text)
{
    size_t n = strlen(text);
    return o->kind == MP_STR && o->len == n && memcmp(c->b + o->off, text, n) == 0;
}

/* ------------------------------------------------------------------------------------------------ */
/* the handle */

typedef struct {
    char *key;       /* NUL-terminated copy */
    size_t keylen;
    stb_value value; /* value.s: `owned` (str, bin) */
    char *owned;
} entry_t;

static const struct { const char *name; size_t size; } DTYPES[] = {
    {"<f8", 8}, {"<f4", 4}, {"<u4", 4}, {"<i4", 4}, {"<u2", 2}, {"<i2", 2}, {"|u1", 1}};
#define DTYPE_COUNT 7

typedef struct {
    char *name;
    size_t namelen;
    int dtype;
    size_t itemsize;
    size_t ndim;
    uint64_t shape[STB_MAX_DIMS];
    uint64_t count;
    size_t data_off, data_len;
    size_t blocks_off, blocks_len;
    size_t block_size;
    uint32_t crc;
} array_t;

enum { ADD = 0, BUST = 1, RESET = 2 }; /* the order docs/FORMAT.md 10 adds a roll's outcomes in */

typedef struct {
    int kind, points;
    unsigned count;
} pig_outcome;

struct stb_table {
    char name[NAME_CAP]; /* the file's name for messages */
    unsigned char *bytes;
    size_t size;
    long long major, minor;
    entry_t *header;
    size_t nheader;
    entry_t *rules;
    size_t nrules;
    array_t *arrays;
    size_t narrays;
    uint32_t header_crc; /* H: the CRC-32 of the bytes before "arrays" */
    int game;            /* enum stb_game_kind */
    struct {
        stb_box_rules rules;
        unsigned positions, scores, rolls; /* P, S, R */
        const array_t *e1, *m1, *e2, *m2;
    } box;
    struct {
        int variant; /* 0 pig, 1 piglet, 2 two-dice, 3 big-pig */
        unsigned goal, sides, denominator;
        double bound;
        uint64_t *unsure; /* sorted */
        size_t nunsure;
        pig_outcome outcomes[40];
        size_t noutcomes;
        const array_t *win, *move;
    } pig;
};

static void free_entries(entry_t *entries, size_t n)
{
    size_t i;
    if (entries == NULL)
        return;
    for (i = 0; i < n; i++) {
        free(entries[i].key);
        free(entries[i].owned);
    }
    free(entries);
}

void stb_close(stb_table *t)
{
    size_t i;
    if (t == NULL)
        return;
    free_entries(t->header, t->nheader);
    free_entries(t->rules, t->nrules);
    if (t->arrays != NULL)
        for (i = 0; i < t->narrays; i++)
            free(t->arrays[i].name);
    free(t->arrays);
    free(t->pig.unsure);
    free(t->bytes);
    free(t);
}

/* The open's context: where messages go and what they call the file. */
typedef struct {
    stb_table *t;
    char name[NAME_CAP];
    char *err;
    size_t errlen;
    crc_tables *crc;
} ctx_t;

static int fail(ctx_t *x, int status, const char *what)
{
    say(x->err, x->errlen, "table file %s %s", x->name, what);
    return status;
}

static int malformed(ctx_t *x, const mp_cur *c)
{
    say(x->err, x->errlen, "table file %s cannot be decoded (%s, near byte %lu)", x->name,
        c->why ? c->why : "malformed", (unsigned long)c->pos);
    return STB_ERR_FORMAT;
}

static char *copy_text(const unsigned char *s, size_t n)
{
    char *copy = (char *)malloc(n + 1);
    if (copy != NULL) {
        if (n)
            memcpy(copy, s, n);
        copy[n] = '\0';
    }
    return copy;
}

static const entry_t *find_entry(const entry_t *entries, size_t n, const char *key)
{
    size_t i, len = strlen(key);
    for (i = 0; i < n; i++)
        if (entries[i].keylen == len && memcmp(entries[i].key, key, len) == 0)
            return &entries[i];
    return NULL;
}

/* Decode the object at `at` (already stepped over once, so well formed) into an entry's value; a str's or
bin's copy goes to *owned. */
static int decode_value(ctx_t *x, size_t at, stb_value *v, char **owned)
{
    mp_cur c;
    mp_obj o;
    c.b = x->t->bytes;
    c.n = x->t->size;
    c.pos = at;
    c.why = NULL;
    memset(v, 0, sizeof *v);
    if (!mp_head(&c, &o))
        return malformed(x, &c);
    switch (o.kind) {
    case MP_NIL: v->kind = STB_V_NIL; break;
    case MP_BOOL: v->kind = STB_V_BOOL; v->i = o.i; break;
    case MP_UINT:
        if (o.u <= (uint64_t)INT64_MAX) {
            v->kind = STB_V_INT;
            v->i = (int64_t)o.u;
        } else {
            v->kind = STB_V_UINT;
            v->u = o.u;
        }
        break;
    case MP_INT: v->kind = STB_V_INT; v->i = o.i; break;
    case MP_FLOAT: v->kind = STB_V_FLOAT; v->f = o.f; break;
    case MP_STR:
    case MP_BIN:
        v->kind = o.kind == MP_STR ? STB_V_STR : STB_V_BIN;
        v->len = o.len;
        *owned = copy_text(c.b + o.off, o.len);
        v->s = *owned;
        if (v->s == NULL)
            return fail(x, STB_ERR_NOMEM, "cannot be read (out of memory)");
        break;
    case MP_ARRAY: v->kind = STB_V_ARRAY; v->len = (size_t)o.count; break;
    default: v->kind = STB_V_MAP; v->len = (size_t)o.count; break;
    }
    return STB_OK;
}

/* A new entry at the end of *entries (grown as needed), key from the str object `key`. */
static int add_entry(ctx_t *x, entry_t **entries, size_t *n, size_t *cap, const mp_cur *c, const mp_obj *key,
                     size_t value_at)
{
    entry_t *e;
    int status;
    if (*n == *cap) {
        size_t more = *cap ? 2 * *cap : 16;
        entry_t *grown = (entry_t *)realloc(*entries, more * sizeof *grown);
        if (grown == NULL)
            return fail(x, STB_ERR_NOMEM, "cannot be read (out of memory)");
        *entries = grown;
        *cap = more;
    }
    e = &(*entries)[*n];
    memset(e, 0, sizeof *e);
    e->key = copy_text(c->b + key->off, key->len);
    if (e->key == NULL)
        return fail(x, STB_ERR_NOMEM, "cannot be read (out of memory)");
    e->keylen = key->len;
    ++*n; /* from here on stb_close frees it */
    status = decode_value(x, value_at, &e->value, &e->owned);
    return status;
}

static int has_key(const entry_t *entries, size_t n, const mp_cur *c, const mp_obj *key)
{
    size_t i;
    for (i = 0; i < n; i++)
        if (entries[i].keylen == key->len && memcmp(entries[i].key, c->b + key->off, key->len) == 0)
            return 1;
    return 0;
}

/* The "rules" map's entries (keys must be strings). */
static int read_rules(ctx_t *x, size_t at)
{
    stb_table *t = x->t;
    mp_cur c;
    mp_obj o, key;
    uint64_t k;
    size_t cap = 0;
    int status;
    c.b = t->bytes;
    c.n = t->size;
    c.pos = at;
    c.why = NULL;
    if (!mp_head(&c, &o))
        return malformed(x, &c);
    for (k = 0; k < o.count; k++) {
        size_t value_at;
        if (!mp_head(&c, &key))
            return malformed(x, &c);
        if (key.kind != MP_STR)
            return fail(x, STB_ERR_FORMAT, "cannot be decoded (a rules key is not a string)");
        if (has_key(t->rules, t->nrules, &c, &key))
            return fail(x, STB_ERR_FORMAT, "cannot be decoded (a rules key is given twice)");
        value_at = c.pos;
        if (!mp_skip(&c, 2))
            return malformed(x, &c);
        status = add_entry(x, &t->rules, &t->nrules, &cap, &c, &key, value_at);
        if (status != STB_OK)
            return status;
    }
    return STB_OK;
}

static int check_version(ctx_t *x, size_t at)
{
    mp_cur c;
    mp_obj o, part[2];
    int k;
    char message[160];
    c.b = x->t->bytes;
    c.n = x->t->size;
    c.pos = at;
    c.why = NULL;
    if (!mp_head(&c, &o) || o.kind != MP_ARRAY || o.count != 2)
        return fail(x, STB_ERR_FORMAT, "has no format version");
    for (k = 0; k < 2; k++) {
        if (!mp_head(&c, &part[k]) || (part[k].kind != MP_UINT && part[k].kind != MP_INT))
            return fail(x, STB_ERR_FORMAT, "has no format version");
    }
    if (part[0].kind != MP_UINT || part[0].u != STB_FORMAT_MAJOR) {
        snprintf(message, sizeof message, "has format version %s%llu.%s%llu; this reader reads %d.x",
                 part[0].kind == MP_INT ? "-" : "",
                 part[0].kind == MP_INT ? (unsigned long long)(-(part[0].i + 1)) + 1 : (unsigned long long)part[0].u,
                 part[1].kind == MP_INT ? "-" : "",
                 part[1].kind == MP_INT ? (unsigned long long)(-(part[1].i + 1)) + 1 : (unsigned long long)part[1].u,
                 STB_FORMAT_MAJOR);
        return fail(x, STB_ERR_VERSION, message);
    }
    x->t->major = STB_FORMAT_MAJOR;
    x->t->minor = part[1].kind == MP_UINT ? (part[1].u > (uint64_t)LLONG_MAX ? LLONG_MAX : (long long)part[1].u)
                                          : (long long)part[1].i;
    return STB_OK;
}

static int check_tail(ctx_t *x)
{
    const unsigned char *b = x->t->bytes;
    size_t n = x->t->size;
    uint32_t stored;
    if (n < TAIL_LEN + 4 || memcmp(b + n - TAIL_LEN - 4, CRC_TAIL, TAIL_LEN) != 0)
        return fail(x, STB_ERR_FORMAT, "is truncated (no checksum at its end)");
    stored = (uint32_t)big_endian(b + n - 4, 4);
    if (crc_update(x->crc, 0, b, n - 4) != stored)
        return fail(x, STB_ERR_CHECKSUM, "is damaged (checksum mismatch)");
    return STB_OK;
}

static int descriptor_error(ctx_t *x, const array_t *a, const char *what)
{
    shown_t name;
    say(x->err, x->errlen, "table file %s has a malformed descriptor for array %s (%s)", x->name,
        shown(&name, a->name), what);
    return STB_ERR_FORMAT;
}

/* The "arrays" map: each descriptor read and checked (section 5), nothing verified yet. */
static int read_arrays(ctx_t *x, mp_cur *c)
{
    stb_table *t = x->t;
    mp_obj o, key, value, dim;
    uint64_t k, f, d;
    if (!mp_head(c, &o))
        return malformed(x, c);
    if (o.kind != MP_MAP)
        return fail(x, STB_ERR_FORMAT, "cannot be decoded (its arrays are not a map)");
    if (o.count) {
        t->arrays = (array_t *)calloc((size_t)o.count, sizeof *t->arrays);
        if (t->arrays == NULL)
            return fail(x, STB_ERR_NOMEM, "cannot be read (out of memory)");
    }
    for (k = 0; k < o.count; k++) {
        array_t *a = &t->arrays[t->narrays];
        int seen_dtype = 0, seen_shape = 0, seen_crc = 0, seen_block = 0, seen_blocks = 0, seen_data = 0;
        size_t i;
        uint64_t count, bytes, blocks;
        if (!mp_head(c, &key))
            return malformed(x, c);
        if (key.kind != MP_STR)
            return fail(x, STB_ERR_FORMAT, "cannot be decoded (an array name is not a string)");
        for (i = 0; i < t->narrays; i++)
            if (t->arrays[i].namelen == key.len && memcmp(t->arrays[i].name, c->b + key.off, key.len) == 0)
                return fail(x, STB_ERR_FORMAT, "cannot be decoded (an array name is given twice)");
        a->name = copy_text(c->b + key.off, key.len);
        if (a->name == NULL)
            return fail(x, STB_ERR_NOMEM, "cannot be read (out of memory)");
        a->namelen = key.len;
        t->narrays++;
        if (!mp_head(c, &value))
            return malformed(x, c);
        if (value.kind != MP_MAP)
            return descriptor_error(x, a, "not a map");
        for (f = 0; f < value.count; f++) {
            mp_obj field, v;
            int *seen = NULL;
            if (!mp_head(c, &field))
                return malformed(x, c);
            if (field.kind != MP_STR)
                return descriptor_error(x, a, "a key is not a string");
            if (mp_is(c, &field, "dtype")) seen = &seen_dtype;
            else if (mp_is(c, &field, "shape")) seen = &seen_shape;
            else if (mp_is(c, &field, "crc32")) seen = &seen_crc;
            else if (mp_is(c, &field, "block_size")) seen = &seen_block;
            else if (mp_is(c, &field, "block_crc32")) seen = &seen_blocks;
            else if (mp_is(c, &field, "data")) seen = &seen_data;
            if (seen == NULL) { /* a field of a later minor version: ignored */
                if (!mp_skip(c, 3))
                    return malformed(x, c);
                continue;
            }
            if (*seen)
                return descriptor_error(x, a, "a key is given twice");
            *seen = 1;
            if (!mp_head(c, &v))
                return malformed(x, c);
            if (seen == &seen_dtype) {
                int found = -1, j;
                for (j = 0; j < DTYPE_COUNT; j++)
                    if (mp_is(c, &v, DTYPES[j].name))
                        found = j;
                if (found < 0)
                    return descriptor_error(x, a, "unknown dtype");
                a->dtype = found;
                a->itemsize = DTYPES[found].size;
            } else if (seen == &seen_shape) {
                if (v.kind != MP_ARRAY || v.count > STB_MAX_DIMS)
                    return descriptor_error(x, a, "bad shape");
                a->ndim = (size_t)v.count;
                for (d = 0; d < v.count; d++) {
                    if (!mp_head(c, &dim))
                        return malformed(x, c);
                    if (dim.kind != MP_UINT)
                        return descriptor_error(x, a, "bad shape");
                    a->shape[d] = dim.u;
                }
            } else if (seen == &seen_crc) {
                if (v.kind != MP_UINT || v.u > 0xffffffffu)
                    return descriptor_error(x, a, "no checksum");
                a->crc = (uint32_t)v.u;
            } else if (seen == &seen_block) {
                if (v.kind != MP_UINT || v.u < MIN_BLOCK || v.u > MAX_BLOCK || (v.u & (v.u - 1)) != 0)
                    return descriptor_error(x, a, "block_size is not a power of two from 4096 to 65536");
                a->block_size = (size_t)v.u;
            } else if (seen == &seen_blocks) {
                if (v.kind != MP_BIN)
                    return descriptor_error(x, a, "no block checksums");
                a->blocks_off = v.off;
                a->blocks_len = v.len;
            } else {
                if (v.kind != MP_BIN)
                    return descriptor_error(x, a, "array data is not a msgpack bin");
                a->data_off = v.off;
                a->data_len = v.len;
            }
        }
        if (!seen_dtype) return descriptor_error(x, a, "no dtype");
        if (!seen_shape) return descriptor_error(x, a, "no shape");
        if (!seen_crc) return descriptor_error(x, a, "no checksum");
        if (!seen_block) return descriptor_error(x, a, "no block_size");
        if (!seen_blocks) return descriptor_error(x, a, "no block checksums");
        if (!seen_data) return descriptor_error(x, a, "no data");
        count = 1;
        for (d = 0; d < a->ndim; d++) {
            if (a->shape[d] != 0 && count > UINT64_MAX / a->shape[d])
                return descriptor_error(x, a, "its shape has too many elements");
            count *= a->shape[d];
        }
        if (count > UINT64_MAX / a->itemsize)
            return descriptor_error(x, a, "its shape has too many elements");
        a->count = count;
        bytes = count * a->itemsize;
        if (bytes != (uint64_t)a->data_len) {
            shown_t name;
            say(x->err, x->errlen, "table file %s has array %s of %lu bytes, expected %llu", x->name,
                shown(&name, a->name), (unsigned long)a->data_len, (unsigned long long)bytes);
            return STB_ERR_FORMAT;
        }
        blocks = a->data_len / a->block_size + (a->data_len % a->block_size != 0);
        if ((uint64_t)a->blocks_len != 4 * blocks) {
            shown_t name;
            say(x->err, x->errlen, "table file %s has %lu block checksums for array %s, expected %llu", x->name,
                (unsigned long)(a->blocks_len / 4), shown(&name, a->name), (unsigned long long)blocks);
            return STB_ERR_FORMAT;
        }
    }
    return STB_OK;
}

static int verify_arrays(ctx_t *x)
{
    stb_table *t = x->t;
    size_t i, block;
    for (i = 0; i < t->narrays; i++) {
        const array_t *a = &t->arrays[i];
        const unsigned char *data = t->bytes + a->data_off, *sums = t->bytes + a->blocks_off;
        shown_t name;
        if (crc_update(x->crc, t->header_crc, data, a->data_len) != a->crc) {
            say(x->err, x->errlen, "table file %s is damaged (checksum mismatch in array %s)", x->name,
                shown(&name, a->name));
            return STB_ERR_CHECKSUM;
        }
        for (block = 0; block * a->block_size < a->data_len; block++) {
            size_t start = block * a->block_size, len = a->data_len - start;
            uint32_t stored = (uint32_t)sums[4 * block] | (uint32_t)sums[4 * block + 1] << 8 |
                              (uint32_t)sums[4 * block + 2] << 16 | (uint32_t)sums[4 * block + 3] << 24;
            if (len > a->block_size)
                len = a->block_size;
            if (crc_update(x->crc, t->header_crc, data + start, len) != stored) {
                say(x->err, x->errlen, "table file %s is damaged (checksum mismatch in array %s, block %lu)",
                    x->name, shown(&name, a->name), (unsigned long)block);
                return STB_ERR_CHECKSUM;
            }
        }
    }
    return STB_OK;
}

static int check_games(ctx_t *x);

/* Walk the map (section 3), checking as it goes; then the whole file and every array (section 4). */
static int read_table(ctx_t *x)
{
    stb_table *t = x->t;
    const unsigned char *b = t->bytes;
    size_t n = t->size, cap = 0;
    mp_cur c;
    mp_obj map, key;
    uint64_t k;
    int status, seen_format = 0, header_checked = 0, arrays_done = 0, seen_crc = 0;
    size_t rules_at = 0;
    int seen_rules = 0;
    if (n == 0)
        return fail(x, STB_ERR_FORMAT, "is empty");
    if (n < 1 + MAGIC_LEN + TAIL_LEN + 4 || b[0] < 0x80 || b[0] > 0x8f || memcmp(b + 1, MAGIC_PREFIX, MAGIC_LEN) != 0)
        return fail(x, STB_ERR_FORMAT, "is not a ShutTheBox table (wrong magic)");
    c.b = b;
    c.n = n;
    c.pos = 0;
    c.why = NULL;
    if (!mp_head(&c, &map))
        return malformed(x, &c);
    for (k = 0; k < map.count; k++) {
        size_t key_at = c.pos, value_at;
        if (!mp_head(&c, &key))
            return malformed(x, &c);
        if (key.kind != MP_STR)
            return fail(x, STB_ERR_FORMAT, "cannot be decoded (a header key is not a string)");
        if (arrays_done) { /* after the arrays: the trailing checksum, or keys of a later minor version */
            if (mp_is(&c, &key, "crc32")) {
                mp_obj v;
                if (key_at != n - TAIL_LEN - 4 || !mp_head(&c, &v) || v.kind != MP_UINT)
                    return fail(x, STB_ERR_FORMAT, "is truncated or malformed (its crc32 is not its last 11 bytes)");
                seen_crc = 1;
            } else if (mp_is(&c, &key, "arrays") || mp_is(&c, &key, "header_crc32") || seen_crc) {
                return fail(x, STB_ERR_FORMAT, "cannot be decoded (a key after its arrays is out of place)");
            } else if (!mp_skip(&c, 1)) {
                return malformed(x, &c);
            }
            continue;
        }
        if (mp_is(&c, &key, "arrays")) {
            if (!seen_format)
                return fail(x, STB_ERR_FORMAT, "has no format version");
            if (!header_checked) { /* a format 1.0 file: no header checksum, so the whole file first */
                status = check_tail(x);
                if (status != STB_OK)
                    return status;
            }
            t->header_crc = crc_update(x->crc, 0, b, key_at);
            status = read_arrays(x, &c);
            if (status != STB_OK)
                return status;
            arrays_done = 1;
            continue;
        }
        if (mp_is(&c, &key, "crc32"))
            return fail(x, STB_ERR_FORMAT, "cannot be decoded (its crc32 comes before its arrays)");
        if (has_key(t->header, t->nheader, &c, &key))
            return fail(x, STB_ERR_FORMAT, "cannot be decoded (a header key is given twice)");
        value_at = c.pos;
        if (!mp_skip(&c, 1))
            return malformed(x, &c);
        status = add_entry(x, &t->header, &t->nheader, &cap, &c, &key, value_at);
        if (status != STB_OK)
            return status;
        if (mp_is(&c, &key, "format")) {
            status = check_version(x, value_at);
            if (status != STB_OK)
                return status;
            seen_format = 1;
        } else if (mp_is(&c, &key, "header_crc32")) {
            const stb_value *v = &t->header[t->nheader - 1].value;
            if (v->kind != STB_V_INT || v->i < 0 || v->i > 0xffffffffLL)
                return fail(x, STB_ERR_FORMAT, "cannot be decoded (its header checksum is not a uint32)");
            if (crc_update(x->crc, 0, b, key_at) != (uint32_t)v->i)
                return fail(x, STB_ERR_CHECKSUM, "is damaged (header checksum mismatch)");
            header_checked = 1;
        } else if (mp_is(&c, &key, "rules") && t->header[t->nheader - 1].value.kind == STB_V_MAP) {
            rules_at = value_at;
            seen_rules = 1;
        }
    }
    if (!arrays_done)
        return fail(x, STB_ERR_FORMAT, "has no arrays");
    if (!seen_crc || c.pos != n)
        return fail(x, STB_ERR_FORMAT, "is truncated (no checksum at its end)");
    status = verify_arrays(x); /* first: its message names the array and block */
    if (status != STB_OK)
        return status;
    status = check_tail(x);
    if (status != STB_OK)
        return status;
    if (seen_rules) {
        status = read_rules(x, rules_at);
        if (status != STB_OK)
            return status;
    }
    return check_games(x);
}

static int open_owned(unsigned char *bytes, size_t size, const char *name, stb_table **out, char *err,
                      size_t errlen)
{
    ctx_t x;
    int status;
    memset(&x, 0, sizeof x);
    x.t = (stb_table *)calloc(1, sizeof *x.t);
    x.crc = (crc_tables *)malloc(sizeof *x.crc);
    x.err = err;
    x.errlen = errlen;
    shown_cut(x.name, sizeof x.name, name, NAME_LIMIT);
    if (x.t == NULL || x.crc == NULL) {
        free(x.t);
        free(x.crc);
        free(bytes);
        say(err, errlen, "table file %s cannot be read (out of memory)", x.name);
        return STB_ERR_NOMEM;
    }
    x.t->bytes = bytes;
    x.t->size = size;
    memcpy(x.t->name, x.name, sizeof x.name);
    crc_init(x.crc);
    status = read_table(&x);
    free(x.crc);
    if (status != STB_OK) {
        stb_close(x.t);
        return status;
    }
    *out = x.t;
    if (err != NULL && errlen > 0)
        err[0] = '\0';
    return STB_OK;
}

int stb_open_memory(const void *bytes, size_t size, stb_table **out, char *err, size_t errlen)
{
    unsigned char *copy;
    if (out == NULL || (bytes == NULL && size > 0)) {
        say(err, errlen, "stb_open_memory: a NULL argument");
        return STB_ERR_ARG;
    }
    *out = NULL;
    copy = (unsigned char *)malloc(size ? size : 1);
    if (copy == NULL) {
        say(err, errlen, "table in memory cannot be read (out of memory)");
        return STB_ERR_NOMEM;
    }
    if (size)
        memcpy(copy, bytes, size);
    return open_owned(copy, size, "(in memory)", out, err, errlen);
}

/* *bytes reallocated to `more` bytes (unchanged when that fails: 0). */
static int grow(unsigned char **bytes, size_t *cap, size_t more)
{
    unsigned char *grown = (unsigned char *)realloc(*bytes, more);
    if (grown == NULL)
        return 0;
    *bytes = grown;
    *cap = more;
    return 1;
}

int stb_open(const char *path, stb_table **out, char *err, size_t errlen)
{
    FILE *file;
    unsigned char *bytes = NULL;
    size_t size = 0, cap = 0, first;
    long hint = -1;
    char name[NAME_CAP];
    if (out == NULL || path == NULL) {
        say(err, errlen, "stb_open: a NULL argument");
        return STB_ERR_ARG;
    }
    *out = NULL;
    shown_cut(name, sizeof name, path, NAME_LIMIT);
    file = fopen(path, "rb");
    if (file == NULL) {
        say(err, errlen, "cannot read table file %s (%s)", name, strerror(errno));
        return STB_ERR_IO;
    }
    if (fseek(file, 0, SEEK_END) == 0) {
        hint = ftell(file);
        if (fseek(file, 0, SEEK_SET) != 0)
            hint = -1;
    }
    clearerr(file);
    /* the size is a hint only (the file may change, or be a stream): read until the end, growing */
    first = hint >= 0 && (unsigned long)hint < (unsigned long)(((size_t)-1) / 2) ? (size_t)hint + 1 : 65536;
    if (!grow(&bytes, &cap, first) && !(first > 65536 && grow(&bytes, &cap, 65536))) { /* a hint that was no size */
        fclose(file);
        say(err, errlen, "table file %s cannot be read (out of memory)", name);
        return STB_ERR_NOMEM;
    }
    for (;;) {
        size_t got;
        if (size == cap) {
            size_t more = cap > ((size_t)-1) / 2 ? (size_t)-1 : 2 * cap;
            if (more == cap || !grow(&bytes, &cap, more)) {
                free(bytes);
                fclose(file);
                say(err, errlen, "table file %s cannot be read (out of memory)", name);
                return STB_ERR_NOMEM;
            }
        }
        got = fread(bytes + size, 1, cap - size, file);
        size += got;
        if (got == 0 || size < cap) {
            if (ferror(file)) {
                int code = errno;
                free(bytes);
                fclose(file);
                say(err, errlen, "cannot read table file %s (%s)", name, code ? strerror(code) : "read error");
                return STB_ERR_IO;
            }
            if (feof(file))
                break;
            if (got == 0) {
                free(bytes);
                fclose(file);
                say(err, errlen, "cannot read table file %s (read error)", name);
                return STB_ERR_IO;
            }
        }
    }
    fclose(file);
    return open_owned(bytes, size, path, out, err, errlen);
}

/* ------------------------------------------------------------------------------------------------ */
/* accessors */

const char *stb_game(const stb_table *t)
{
    const entry_t *e;
    if (t == NULL)
        return NULL;
    e = find_entry(t->header, t->nheader, "game");
    return e != NULL && e->value.kind == STB_V_STR ? e->value.s : NULL;
}

int stb_game_kind(const stb_table *t)
{
    return t == NULL ? STB_GAME_OTHER : t->game;
}

int stb_format_version(const stb_table *t, long long *major, long long *minor)
{
    if (t == NULL || major == NULL || minor == NULL)
        return STB_ERR_ARG;
    *major = t->major;
    *minor = t->minor;
    return STB_OK;
}

int stb_header_value(const stb_table *t, const char *key, stb_value *out)
{
    const entry_t *e;
    if (t == NULL || key == NULL || out == NULL)
        return STB_ERR_ARG;
    e = find_entry(t->header, t->nheader, key);
    if (e == NULL)
        return STB_ERR_NOTFOUND;
    *out = e->value;
    return STB_OK;
}

int stb_rule(const stb_table *t, const char *key, stb_value *out)
{
    const entry_t *e;
    if (t == NULL || key == NULL || out == NULL)
        return STB_ERR_ARG;
    e = find_entry(t->rules, t->nrules, key);
    if (e == NULL)
        return STB_ERR_NOTFOUND;
    *out = e->value;
    return STB_OK;
}

int stb_rule_int(const stb_table *t, const char *key, long long *out)
{
    stb_value v;
    int status;
    if (out == NULL)
        return STB_ERR_ARG;
    status = stb_rule(t, key, &v);
    if (status != STB_OK)
        return status;
    if (v.kind != STB_V_INT)
        return STB_ERR_TYPE;
    *out = (long long)v.i;
    return STB_OK;
}

size_t stb_rule_count(const stb_table *t)
{
    return t == NULL ? 0 : t->nrules;
}

const char *stb_rule_key(const stb_table *t, size_t i)
{
    return t == NULL || i >= t->nrules ? NULL : t->rules[i].key;
}

size_t stb_array_count(const stb_table *t)
{
    return t == NULL ? 0 : t->narrays;
}

const char *stb_array_name(const stb_table *t, size_t i)
{
    return t == NULL || i >= t->narrays ? NULL : t->arrays[i].name;
}

static const array_t *find_array(const stb_table *t, const char *name)
{
    size_t i, len;
    if (t == NULL || name == NULL)
        return NULL;
    len = strlen(name);
    for (i = 0; i < t->narrays; i++)
        if (t->arrays[i].namelen == len && memcmp(t->arrays[i].name, name, len) == 0)
            return &t->arrays[i];
    return NULL;
}

int stb_array(const stb_table *t, const char *name, stb_array_info *info)
{
    const array_t *a;
    size_t d;
    if (t == NULL || name == NULL || info == NULL)
        return STB_ERR_ARG;
    a = find_array(t, name);
    if (a == NULL)
        return STB_ERR_NOTFOUND;
    memset(info, 0, sizeof *info);
    info->dtype = a->dtype;
    info->dtype_name = DTYPES[a->dtype].name;
    info->itemsize = a->itemsize;
    info->ndim = a->ndim;
    for (d = 0; d < a->ndim; d++)
        info->shape[d] = a->shape[d];
    info->count = a->count;
    info->block_size = a->block_size;
    return STB_OK;
}

int stb_array_bytes(const stb_table *t, const char *name, const unsigned char **data, size_t *bytes)
{
    const array_t *a;
    if (t == NULL || name == NULL || data == NULL || bytes == NULL)
        return STB_ERR_ARG;
    a = find_array(t, name);
    if (a == NULL)
        return STB_ERR_NOTFOUND;
    *data = t->bytes + a->data_off;
    *bytes = a->data_len;
    return STB_OK;
}

static uint64_t little_endian(const unsigned char *p, size_t k)
{
    uint64_t v = 0;
    while (k--)
        v = v << 8 | p[k];
    return v;
}

/* The raw little-endian bits of element `index` (checked against the array's count). */
static int element_bits(const stb_table *t, const array_t *a, uint64_t index, uint64_t *bits)
{
    if (index >= a->count)
        return STB_ERR_RANGE;
    /* count * itemsize == data_len (checked at open): the offset fits a size_t */
    *bits = little_endian(t->bytes + a->data_off + (size_t)index * a->itemsize, a->itemsize);
    return STB_OK;
}

static int value_f64(const stb_table *t, const array_t *a, uint64_t index, double *out)
{
    uint64_t bits;
    int status;
    if (a->dtype != STB_F8 && a->dtype != STB_F4)
        return STB_ERR_TYPE;
    status = element_bits(t, a, index, &bits);
    if (status != STB_OK)
        return status;
    if (a->dtype == STB_F8) {
        memcpy(out, &bits, sizeof *out);
    } else {
        uint32_t narrow = (uint32_t)bits;
        float f;
        memcpy(&f, &narrow, sizeof f);
        *out = (double)f;
    }
    return STB_OK;
}

static int value_uint(const stb_table *t, const array_t *a, uint64_t index, uint64_t *out)
{
    if (a->dtype != STB_U4 && a->dtype != STB_U2 && a->dtype != STB_U1)
        return STB_ERR_TYPE;
    return element_bits(t, a, index, out);
}

int stb_get_f64(const stb_table *t, const char *name, uint64_t index, double *out)
{
    const array_t *a;
    if (t == NULL || name == NULL || out == NULL)
        return STB_ERR_ARG;
    a = find_array(t, name);
    return a == NULL ? STB_ERR_NOTFOUND : value_f64(t, a, index, out);
}

int stb_get_uint(const stb_table *t, const char *name, uint64_t index, uint64_t *out)
{
    const array_t *a;
    if (t == NULL || name == NULL || out == NULL)
        return STB_ERR_ARG;
    a = find_array(t, name);
    return a == NULL ? STB_ERR_NOTFOUND : value_uint(t, a, index, out);
}

int stb_get_int(const stb_table *t, const char *name, uint64_t index, int64_t *out)
{
    const array_t *a;
    uint64_t bits;
    int status;
    if (t == NULL || name == NULL || out == NULL)
        return STB_ERR_ARG;
    a = find_array(t, name);
    if (a == NULL)
        return STB_ERR_NOTFOUND;
    if (a->dtype == STB_F8 || a->dtype == STB_F4)
        return STB_ERR_TYPE;
    status = element_bits(t, a, index, &bits);
    if (status != STB_OK)
        return status;
    *out = a->dtype == STB_I4 ? signed_of(bits, 32) : a->dtype == STB_I2 ? signed_of(bits, 16) : (int64_t)bits;
    return STB_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* the games' tables, checked at open */

static int game_error(ctx_t *x, const char *what)
{
    say(x->err, x->errlen, "table file %s %s", x->name, what);
    return STB_ERR_GAME;
}

/* An array the game needs, with its dtype and shape. */
static int need_array(ctx_t *x, const char *name, int dtype, size_t ndim, const uint64_t *shape,
                      const array_t **out)
{
    const array_t *a = find_array(x->t, name);
    size_t d;
    char message[200];
    int ok = a != NULL && a->dtype == dtype && a->ndim == ndim;
    for (d = 0; ok && d < ndim; d++)
        ok = a->shape[d] == shape[d];
    if (!ok) {
        snprintf(message, sizeof message, "has no array %s of dtype %s and the shape its rules give%s", name,
                 DTYPES[dtype].name, a == NULL ? " (no such array)" : "");
        return game_error(x, message);
    }
    *out = a;
    return STB_OK;
}

static int rules_int(const stb_value *v, long long low, long long high, long long *out)
{
    if (v->kind != STB_V_INT || v->i < low || v->i > high)
        return 0;
    *out = (long long)v->i;
    return 1;
}

static int check_box(ctx_t *x)
{
    stb_table *t = x->t;
    stb_box_rules *r = &t->box.rules;
    long long tiles = 9, sides = 6, dice = 2, at_most = 6, most = 0, number;
    int optional = 0, high = 0, has_at_most = 1, has_most = 0;
    size_t i;
    uint64_t shape[3];
    int status;
    char message[SHOWN_CAP + 120];
    const entry_t *rules = find_entry(t->header, t->nheader, "rules");
    if (rules == NULL || rules->value.kind != STB_V_MAP)
        return game_error(x, "has no rules map");
    for (i = 0; i < t->nrules; i++) { /* as Rules.from_dict: defaults for keys not given, unknown keys refused */
        const char *key = t->rules[i].key;
        const stb_value *v = &t->rules[i].value;
        int ok;
        if (strcmp(key, "tiles") == 0 && t->rules[i].keylen == 5)
            ok = rules_int(v, 1, MAX_TILES, &tiles);
        else if (strcmp(key, "sides") == 0 && t->rules[i].keylen == 5)
            ok = rules_int(v, 2, 20, &sides);
        else if (strcmp(key, "dice") == 0 && t->rules[i].keylen == 4)
            ok = rules_int(v, 1, 4, &dice);
        else if (strcmp(key, "one_die_at_most") == 0 && t->rules[i].keylen == 15) {
            has_at_most = v->kind != STB_V_NIL;
            ok = !has_at_most || rules_int(v, 0, 10000, &at_most);
        } else if (strcmp(key, "max_move_tiles") == 0 && t->rules[i].keylen == 14) {
            has_most = v->kind != STB_V_NIL;
            ok = !has_most || rules_int(v, 1, MAX_TILES, &most);
        } else if (strcmp(key, "one_die_optional") == 0 && t->rules[i].keylen == 16) {
            ok = v->kind == STB_V_BOOL;
            optional = (int)v->i;
        } else if (strcmp(key, "one_die_high_shut") == 0 && t->rules[i].keylen == 17) {
            ok = v->kind == STB_V_BOOL;
            high = (int)v->i;
        } else {
            shown_t name;
            snprintf(message, sizeof message, "has rules this reader does not know (unknown rules key '%s')",
                     shown(&name, key));
            return game_error(x, message);
        }
        if (!ok) {
            shown_t name;
            snprintf(message, sizeof message, "has rules this reader does not know (rule %s)", shown(&name, key));
            return game_error(x, message);
        }
    }
    if ((has_at_most || high) && dice == 1)
        return game_error(x, "has rules this reader does not know (a one-die rule needs more than one die)");
    if (!has_at_most && optional && !high)
        return game_error(x, "has rules this reader does not know (an optional one die needs a rule for it)");
    if (has_most && most > tiles)
        return game_error(x, "has rules this reader does not know (max_move_tiles above tiles)");
    r->tiles = (int)tiles;
    r->sides = (int)sides;
    r->dice = (int)dice;
    r->one_die_at_most = has_at_most ? (int)at_most : -1;
    r->max_move_tiles = has_most ? (int)most : 0;
    r->one_die_optional = optional;
    r->one_die_high_shut = high;
    r->max_score = (int)(tiles * (tiles + 1) / 2);
    r->max_roll = (int)(dice * sides);
    /* the game fields, when given, must be the ones the rules give */
    {
        const entry_t *score = find_entry(t->header, t->nheader, "max_score");
        const entry_t *roll = find_entry(t->header, t->nheader, "max_roll");
        if ((score != NULL && !(rules_int(&score->value, 0, 1000, &number) && number == r->max_score)) ||
            (roll != NULL && !(rules_int(&roll->value, 0, 1000, &number) && number == r->max_roll)))
            return game_error(x, "has game fields max_score, max_roll that are not its rules'");
    }
    t->box.positions = 1u << r->tiles;
    t->box.scores = (unsigned)r->max_score + 1;
    t->box.rolls = (unsigned)r->max_roll + 1;
    shape[0] = t->box.positions;
    status = need_array(x, "e1", STB_F8, 1, shape, &t->box.e1);
    if (status != STB_OK)
        return status;
    shape[1] = t->box.rolls;
    status = need_array(x, "m1", STB_U2, 2, shape, &t->box.m1);
    if (status != STB_OK)
        return status;
    shape[1] = t->box.scores;
    status = need_array(x, "e2", STB_F8, 2, shape, &t->box.e2);
    if (status != STB_OK)
        return status;
    shape[2] = t->box.rolls;
    status = need_array(x, "m2", STB_U2, 3, shape, &t->box.m2);
    if (status != STB_OK)
        return status;
    if (optional) { /* the dice arrays are part of the layout (read by nothing here) */
        const array_t *unused;
        status = need_array(x, "c1", STB_U1, 1, shape, &unused);
        if (status == STB_OK)
            status = need_array(x, "c2", STB_U1, 2, shape, &unused);
        if (status != STB_OK)
            return status;
    }
    t->game = STB_GAME_TWO_PLAYER;
    return STB_OK;
}

/* A decimal number as the header writes it ("1.1e-13"), correctly rounded whatever the C locale. */
static int parse_decimal(const char *s, double *out)
{
    static const double powers[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
    const char *p = s;
    uint64_t mantissa = 0;
    long exponent = 0, given = 0;
    int digits = 0, significant = 0, exact = 1, negative_exponent = 0;
    if (*p == '+' || *p == '-')
        return 0; /* a bound is never signed */
    for (; *p >= '0' && *p <= '9'; p++, digits++) {
        if (mantissa == 0 && *p == '0')
            continue;
        if (significant < 19) {
            mantissa = mantissa * 10 + (uint64_t)(*p - '0');
            significant++;
        } else {
            exponent++;
            exact = 0;
        }
    }
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, digits++) {
            if (mantissa == 0 && *p == '0') {
                exponent--;
                continue;
            }
            if (significant < 19) {
                mantissa = mantissa * 10 + (uint64_t)(*p - '0');
                significant++;
                exponent--;
            } else {
                exact = 0;
            }
        }
    }
    if (digits == 0)
        return 0;
    if (*p == 'e' || *p == 'E') {
        int exponent_digits = 0;
        p++;
        if (*p == '+' || *p == '-')
            negative_exponent = *p++ == '-';
        for (; *p >= '0' && *p <= '9'; p++, exponent_digits++)
            if (given < 100000)
                given = given * 10 + (*p - '0');
        if (exponent_digits == 0)
            return 0;
    }
    if (*p != '\0')
        return 0;
    exponent += negative_exponent ? -given : given;
    if (mantissa == 0) {
        *out = 0.0;
        return 1;
    }
    if (exact && mantissa <= ((uint64_t)1 << 53) && exponent >= -22 && exponent <= 22) {
        /* both operands exact: one IEEE operation, correctly rounded (Clinger's fast path) */
        *out = exponent < 0 ? (double)mantissa / powers[-exponent] : (double)mantissa * powers[exponent];
        return 1;
    }
    {   /* otherwise strtod, with the locale's decimal point in place of '.' */
        char copy[128];
        const char *point = localeconv()->decimal_point;
        size_t i, o = 0, pointlen = point != NULL ? strlen(point) : 0;
        char *end;
        if (pointlen == 0) {
            point = ".";
            pointlen = 1;
        }
        for (i = 0; s[i] != '\0'; i++) {
            if (o + pointlen + 1 >= sizeof copy)
                return 0;
            if (s[i] == '.') {
                memcpy(copy + o, point, pointlen);
                o += pointlen;
            } else {
                copy[o++] = s[i];
            }
        }
        copy[o] = '\0';
        *out = strtod(copy, &end);
        return *end == '\0' && !isnan(*out) && *out < HUGE_VAL;
    }
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static const char *const PIG_VARIANTS[] = {"pig", "piglet", "two-dice", "big-pig"};

static void pig_outcomes(stb_table *t)
{
    unsigned counts[3][26];
    int a, b, kind, points;
    memset(counts, 0, sizeof counts);
    if (t->pig.variant <= 1) { /* one die (a coin is a 2-sided die) */
        counts[BUST][0] += 1;
        for (a = 2; a <= (int)t->pig.sides; a++)
            counts[ADD][t->pig.variant == 1 ? 1 : a] += 1;
    } else {
        for (a = 1; a <= 6; a++)
            for (b = 1; b <= 6; b++) {
                if (a == 1 && b == 1) {
                    if (t->pig.variant == 2)
                        counts[RESET][0] += 1;
                    else
                        counts[ADD][25] += 1;
                } else if (a == 1 || b == 1) {
                    counts[BUST][0] += 1;
                } else if (a == b && t->pig.variant == 3) {
                    counts[ADD][4 * a] += 1;
                } else {
                    counts[ADD][a + b] += 1;
                }
            }
    }
    t->pig.noutcomes = 0;
    t->pig.denominator = 0;
    for (kind = ADD; kind <= RESET; kind++)
        for (points = 0; points < 26; points++)
            if (counts[kind][points]) {
                pig_outcome *o = &t->pig.outcomes[t->pig.noutcomes++];
                o->kind = kind;
                o->points = points;
                o->count = counts[kind][points];
                t->pig.denominator += counts[kind][points];
            }
}

static int check_pig(ctx_t *x)
{
    stb_table *t = x->t;
    const entry_t *rules = find_entry(t->header, t->nheader, "rules");
    const entry_t *bound = find_entry(t->header, t->nheader, "error_bound");
    const entry_t *unsure = find_entry(t->header, t->nheader, "unsure");
    long long goal = -1, sides = -1, low = 2, high = 200;
    int variant = -1, j, status;
    size_t i;
    uint64_t shape[2], rows, cells;
    if (rules == NULL || rules->value.kind != STB_V_MAP)
        return game_error(x, "has no rules map");
    for (i = 0; i < t->nrules; i++) {
        const entry_t *e = &t->rules[i];
        if (strcmp(e->key, "variant") == 0 && e->keylen == 7 && e->value.kind == STB_V_STR) {
            for (j = 0; j < 4; j++)
                if (strcmp(e->value.s, PIG_VARIANTS[j]) == 0 && strlen(PIG_VARIANTS[j]) == e->value.len)
                    variant = j;
            if (variant < 0)
                return game_error(x, "holds rules this reader does not take (variant)");
        } else if (strcmp(e->key, "goal") == 0 && e->keylen == 4) {
            if (!rules_int(&e->value, 2, 200, &goal))
                return game_error(x, "holds rules this reader does not take (goal)");
        } else if (strcmp(e->key, "sides") == 0 && e->keylen == 5) {
            if (!rules_int(&e->value, 2, 20, &sides))
                return game_error(x, "holds rules this reader does not take (sides)");
        } else {
            return game_error(x, "holds rules this reader does not take (an unknown rules key)");
        }
    }
    if (variant < 0 || goal < 0 || sides < 0)
        return game_error(x, "holds rules this reader does not take (variant, goal and sides are needed)");
    if (variant != 0 && sides != (variant == 1 ? 2 : 6))
        return game_error(x, "holds rules this reader does not take (sides of its variant)");
    if (variant == 1)
        high = 50;
    else if (variant == 0 && sides == 2)
        high = 100;
    if (goal < low || goal > high)
        return game_error(x, "holds rules this reader does not take (goal)");
    t->pig.variant = variant;
    t->pig.goal = (unsigned)goal;
    t->pig.sides = (unsigned)sides;
    if (bound == NULL || bound->value.kind != STB_V_STR || !parse_decimal(bound->value.s, &t->pig.bound) ||
        !(t->pig.bound >= 0.0 && t->pig.bound < 1.0))
        return game_error(x, "has no error bound or a damaged 'unsure' list in its header");
    rows = (uint64_t)goal * (uint64_t)(goal + 1) / 2;
    cells = rows * (uint64_t)goal;
    if (unsure != NULL) {
        const char *s = unsure->value.s;
        size_t parts = 1, k;
        if (unsure->value.kind != STB_V_STR)
            return game_error(x, "has no error bound or a damaged 'unsure' list in its header");
        if (unsure->value.len > 0) {
            for (k = 0; k < unsure->value.len; k++)
                parts += s[k] == ',';
            t->pig.unsure = (uint64_t *)malloc(parts * sizeof *t->pig.unsure);
            if (t->pig.unsure == NULL)
                return fail(x, STB_ERR_NOMEM, "cannot be read (out of memory)");
            k = 0;
            while (t->pig.nunsure < parts) {
                uint64_t number = 0;
                int count = 0;
                while (s[k] == ' ')
                    k++;
                for (; s[k] >= '0' && s[k] <= '9'; k++, count++)
                    if (count < 19)
                        number = number * 10 + (uint64_t)(s[k] - '0');
                while (s[k] == ' ')
                    k++;
                if (count == 0 || count >= 19 || number >= cells || (s[k] != ',' && s[k] != '\0'))
                    return game_error(x, "has no error bound or a damaged 'unsure' list in its header");
                t->pig.unsure[t->pig.nunsure++] = number;
                if (s[k] == ',')
                    k++;
            }
            if (k != unsure->value.len)
                return game_error(x, "has no error bound or a damaged 'unsure' list in its header");
            qsort(t->pig.unsure, t->pig.nunsure, sizeof *t->pig.unsure, compare_u64);
        }
    }
    shape[0] = rows;
    shape[1] = (uint64_t)goal;
    status = need_array(x, "win", STB_F8, 2, shape, &t->pig.win);
    if (status == STB_OK)
        status = need_array(x, "move", STB_U1, 2, shape, &t->pig.move);
    if (status != STB_OK)
        return status;
    pig_outcomes(t);
    t->game = STB_GAME_PIG;
    return STB_OK;
}

static int check_games(ctx_t *x)
{
    const char *game = stb_game(x->t);
    const entry_t *e = find_entry(x->t->header, x->t->nheader, "game");
    if (game == NULL || strlen(game) != e->value.len) /* no game, or one with a NUL inside */
        return STB_OK;
    if (strcmp(game, "two-player") == 0)
        return check_box(x);
    if (strcmp(game, "pig") == 0)
        return check_pig(x);
    return STB_OK;
}

/* ------------------------------------------------------------------------------------------------ */
/* printing */

/* "%.6f" of v with '.' whatever the locale. */
static void fixed6(double v, char *dst, size_t cap)
{
    char raw[64];
    size_t i = 0, o = 0;
    int done = 0;
    snprintf(raw, sizeof raw, "%.6f", v);
    while (raw[i] != '\0' && o + 1 < cap) {
        char ch = raw[i];
        if ((ch >= '0' && ch <= '9') || ch == '-') {
            dst[o++] = ch;
            i++;
        } else if (!done) { /* the locale's decimal point, one or more bytes */
            dst[o++] = '.';
            while (raw[i] != '\0' && !(raw[i] >= '0' && raw[i] <= '9'))
                i++;
            done = 1;
        } else {
            i++;
        }
    }
    dst[o] = '\0';
}

static double midpoint_distance(double value)
{
    double scaled = value * 1e6;
    return fabs(scaled - floor(scaled) - 0.5) * 1e-6;
}

/* ------------------------------------------------------------------------------------------------ */
/* two-player Shut the Box */

static int impossible(const stb_table *t, const char *array, uint64_t index, const char *what, char *err,
                      size_t errlen)
{
    say(err, errlen, "table file %s holds an impossible value: %s[%llu] is not %s; it is damaged", t->name, array,
        (unsigned long long)index, what);
    return STB_ERR_VALUE;
}

static int chance_at(const stb_table *t, const array_t *a, uint64_t index, double *out, char *err, size_t errlen)
{
    int status = value_f64(t, a, index, out);
    if (status != STB_OK) {
        say(err, errlen, "%s index %llu out of range", a->name, (unsigned long long)index);
        return status;
    }
    if (!(*out >= 0.0 - SLACK && *out <= 1.0 + SLACK)) /* nan fails */
        return impossible(t, a->name, index, "a chance", err, errlen);
    return STB_OK;
}

int stb_box_rules_of(const stb_table *t, stb_box_rules *rules)
{
    if (t == NULL || rules == NULL)
        return STB_ERR_ARG;
    if (t->game != STB_GAME_TWO_PLAYER)
        return STB_ERR_GAME;
    *rules = t->box.rules;
    return STB_OK;
}

static int not_box(const stb_table *t, char *err, size_t errlen)
{
    if (t == NULL) {
        say(err, errlen, "no table");
        return STB_ERR_ARG;
    }
    if (t->game != STB_GAME_TWO_PLAYER) {
        const char *game = stb_game(t);
        shown_t name;
        say(err, errlen, "the table holds %s%s%s, not a two-player Shut the Box table", game ? "a '" : "no game",
            game ? shown(&name, game) : "", game ? "' table" : "");
        return STB_ERR_GAME;
    }
    return STB_OK;
}

static int tile_sum(unsigned mask)
{
    int sum = 0, tile = 1;
    for (; mask; mask >>= 1, tile++)
        if (mask & 1)
            sum += tile;
    return sum;
}

static int tile_count(unsigned mask)
{
    int count = 0;
    for (; mask; mask >>= 1)
        count += (int)(mask & 1);
    return count;
}

/* A set as players write it: digits run together up to 9 tiles, else commas; "12," for a lone tile above 9. */
static void format_position(unsigned mask, int tiles, char *dst, size_t cap)
{
    size_t o = 0;
    int tile, count = tile_count(mask);
    dst[0] = '\0';
    if (mask == 0) {
        snprintf(dst, cap, "none");
        return;
    }
    for (tile = 1; tile <= MAX_TILES; tile++) {
        if (!(mask >> (tile - 1) & 1))
            continue;
        o += (size_t)snprintf(dst + o, cap - o, "%s%d", o > 0 && tiles > 9 ? "," : "", tile);
        if (o >= cap)
            return;
    }
    if (tiles > 9 && count == 1 && mask >= 1u << 9)
        snprintf(dst + o, cap - o, ",");
}

/* The numbers of dice the player may throw at `position` (all dice first); the count of choices. */
static int dice_choices(const stb_box_rules *r, unsigned position, int choices[2])
{
    int total = tile_sum(position);
    int few = (r->one_die_at_most >= 0 && total <= r->one_die_at_most) || (r->one_die_high_shut && position >> 6 == 0);
    if (!few) {
        choices[0] = r->dice;
        return 1;
    }
    if (r->one_die_optional) {
        choices[0] = r->dice;
        choices[1] = 1;
        return 2;
    }
    choices[0] = 1;
    return 1;
}

static int roll_possible(const stb_box_rules *r, unsigned position, long long roll)
{
    int choices[2], n = dice_choices(r, position, choices), k;
    for (k = 0; k < n; k++)
        if (roll >= choices[k] && roll <= (long long)choices[k] * r->sides)
            return 1;
    return 0;
}

static const char *dice_words(int dice, char *buffer, size_t cap)
{
    static const char *const words[] = {"", "one die", "two dice", "three dice"};
    if (dice >= 1 && dice <= 3)
        return words[dice];
    snprintf(buffer, cap, "%d dice", dice);
    return buffer;
}

static int bad_roll(const stb_table *t, unsigned position, long long roll, char *err, size_t errlen)
{
    const stb_box_rules *r = &t->box.rules;
    int choices[2], n = dice_choices(r, position, choices), total = tile_sum(position);
    int low = 1 << 30, high = 0, k, contiguous;
    char why[160], what[80], range[200], words[32], shown_position[64];
    if (!(roll > -1000000 && roll < 1000000)) {
        say(err, errlen, "the roll is far out of range");
        return STB_ERR_QUERY;
    }
    for (k = 0; k < n; k++) {
        if (choices[k] < low)
            low = choices[k];
        if (choices[k] * r->sides > high)
            high = choices[k] * r->sides;
    }
    /* the rolls shown: every one from `low` to `high` but a gap between one die's and all dice's */
    contiguous = n == 1 || r->sides >= r->dice - 1;
    if (contiguous) {
        snprintf(range, sizeof range, "%d to %d", low, high);
    } else {
        size_t o = 0;
        int v;
        range[0] = '\0';
        for (v = low; v <= high && o + 8 < sizeof range; v++)
            if (roll_possible(r, position, v))
                o += (size_t)snprintf(range + o, sizeof range - o, "%s%d", o ? ", " : "", v);
    }
    format_position(position, r->tiles, shown_position, sizeof shown_position);
    if (r->one_die_at_most >= 0 && total <= r->one_die_at_most)
        snprintf(why, sizeof why, "the open tiles %s sum to %d, so ", shown_position, total);
    else if (choices[0] == 1 || (n > 1 && choices[1] == 1))
        snprintf(why, sizeof why, "every tile above 6 is shut, so ");
    else if (r->one_die_at_most >= 0)
        snprintf(why, sizeof why, "the open tiles %s sum to %d, so ", shown_position, total);
    else if (r->one_die_high_shut)
        snprintf(why, sizeof why, "a tile above 6 is open, so ");
    else
        why[0] = '\0';
    if (n > 1)
        snprintf(what, sizeof what, "%s or one die may be thrown", dice_words(choices[0], words, sizeof words));
    else
        snprintf(what, sizeof what, "%s %s thrown", dice_words(choices[0], words, sizeof words),
                 choices[0] == 1 ? "is" : "are");
    say(err, errlen, "roll %lld is impossible: %s%s (%s)", roll, why, what, range);
    return STB_ERR_QUERY;
}

static int bad_score(const stb_table *t, long long score, char *err, size_t errlen)
{
    if (score == 0)
        say(err, errlen, "score 0 means player one shut the box and won: player two does not play");
    else if (!(score > -1000000000000LL && score < 1000000000000LL))
        say(err, errlen, "player one's score must be a whole number from 1 to %u (the sum of the tiles left "
            "open), not a number far out of range", t->box.scores - 1);
    else
        say(err, errlen, "player one's score must be a whole number from 1 to %u (the sum of the tiles left "
            "open), not %lld", t->box.scores - 1, score);
    return STB_ERR_QUERY;
}

static int box_expect(const stb_table *t, unsigned position, long long score, double *out, char *err,
                      size_t errlen)
{
    if (position == 0 || position >= t->box.positions) {
        say(err, errlen, position == 0 ? "the position is empty: with no tile open the box is already shut"
                                       : "the position has a tile the game does not have");
        return STB_ERR_QUERY;
    }
    if (score == 0)
        return chance_at(t, t->box.e1, position, out, err, errlen);
    if (score < 0 || score >= (long long)t->box.scores)
        return bad_score(t, score, err, errlen);
    return chance_at(t, t->box.e2, (uint64_t)position * t->box.scores + (uint64_t)score, out, err, errlen);
}

static int box_move(const stb_table *t, unsigned position, long long score, long long roll, unsigned *move,
                    char *err, size_t errlen)
{
    const stb_box_rules *r = &t->box.rules;
    const array_t *a;
    uint64_t index, value;
    int status;
    if (position == 0 || position >= t->box.positions) {
        say(err, errlen, position == 0 ? "the position is empty: with no tile open the box is already shut"
                                       : "the position has a tile the game does not have");
        return STB_ERR_QUERY;
    }
    if (score != 0 && (score < 0 || score >= (long long)t->box.scores))
        return bad_score(t, score, err, errlen);
    if (!roll_possible(r, position, roll))
        return bad_roll(t, position, roll, err, errlen);
    if (score == 0) {
        a = t->box.m1;
        index = (uint64_t)position * t->box.rolls + (uint64_t)roll;
    } else {
        a = t->box.m2;
        index = ((uint64_t)position * t->box.scores + (uint64_t)score) * t->box.rolls + (uint64_t)roll;
    }
    status = value_uint(t, a, index, &value);
    if (status != STB_OK) {
        say(err, errlen, "%s index %llu out of range", a->name, (unsigned long long)index);
        return status;
    }
    /* a move closes open tiles that add up to the roll, at most max_move_tiles of them (0: none) */
    if (value != 0 && ((value & ~(uint64_t)position) != 0 || tile_sum((unsigned)value) != roll ||
                       (r->max_move_tiles > 0 && tile_count((unsigned)value) > r->max_move_tiles)))
        return impossible(t, a->name, index, "a move of open tiles adding up to the roll", err, errlen);
    *move = (unsigned)value;
    return STB_OK;
}

int stb_box_expect(const stb_table *t, unsigned position, int score, double *out, char *err, size_t errlen)
{
    int status = not_box(t, err, errlen);
    if (status != STB_OK)
        return status;
    if (out == NULL) {
        say(err, errlen, "stb_box_expect: a NULL argument");
        return STB_ERR_ARG;
    }
    return box_expect(t, position, score, out, err, errlen);
}

int stb_box_move(const stb_table *t, unsigned position, int score, int roll, unsigned *move, char *err,
                 size_t errlen)
{
    int status = not_box(t, err, errlen);
    if (status != STB_OK)
        return status;
    if (move == NULL) {
        say(err, errlen, "stb_box_move: a NULL argument");
        return STB_ERR_ARG;
    }
    return box_move(t, position, score, roll, move, err, errlen);
}

static int is_blank(int ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\v' || ch == '\f' || ch == '\r' || (ch >= 0x1c && ch <= 0x1f);
}

static int all_digits(const char *s, size_t n)
{
    size_t i;
    if (n == 0)
        return 0;
    for (i = 0; i < n; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return 1;
}

/* parse_set of engine/notation.py for tiles 1 to `highest`: the bitmask (0 for "none"). */
static int parse_position(const char *text, int highest, unsigned *mask, char *err, size_t errlen)
{
    size_t n = strlen(text), start = 0, end = n, i, chars = 0;
    shown_t show;
    char quoted[SHOWN_CAP + 2];
    const char *s;
    if (strcmp(text, "all") == 0) {
        *mask = (1u << highest) - 1;
        return STB_OK;
    }
    snprintf(quoted, sizeof quoted, "'%s'", shown(&show, text));
    for (i = 0; i < n; i += utf8_step((const unsigned char *)text + i, n - i))
        chars++;
    if (chars > MAX_SET_TEXT) {
        say(err, errlen, "position %s is too long to be a set of tiles 1 to %d", quoted, highest);
        return STB_ERR_QUERY;
    }
    while (start < n && is_blank((unsigned char)text[start]))
        start++;
    while (end > start && is_blank((unsigned char)text[end - 1]))
        end--;
    s = text + start;
    n = end - start;
    *mask = 0;
    if (n == 4 && memcmp(s, "none", 4) == 0)
        return STB_OK;
    {
        int separated = 0, parts = 0;
        for (i = 0; i < n; i++)
            if (s[i] == ',' || s[i] == ' ')
                separated = 1;
        if (!separated && highest > 9 && n > 1 && all_digits(s, n)) {
            char spaced[2 * MAX_SET_TEXT + 2];
            size_t o = 0;
            for (i = 0; i < n && o + 3 < sizeof spaced; i++) {
                if (i)
                    spaced[o++] = ',';
                spaced[o++] = s[i];
            }
            spaced[o] = '\0';
            say(err, errlen, "position %s is ambiguous: with tiles above 9, separate them with commas, like %s "
                "or %.*s,", quoted, spaced, (int)n, s);
            return STB_ERR_QUERY;
        }
        i = 0;
        while (i < n) {
            size_t part_start, part_len, step;
            char part[16];
            unsigned number = 0;
            size_t k;
            if (separated) { /* numbers between commas and blanks */
                while (i < n && (s[i] == ',' || is_blank((unsigned char)s[i])))
                    i++;
                if (i == n)
                    break;
                part_start = i;
                while (i < n && s[i] != ',' && !is_blank((unsigned char)s[i]))
                    i++;
                part_len = i - part_start;
            } else if (highest <= 9) { /* one character each */
                step = utf8_step((const unsigned char *)s + i, n - i);
                part_start = i;
                part_len = step;
                i += step;
            } else { /* the whole text: one number */
                part_start = 0;
                part_len = n;
                i = n;
            }
            parts++;
            if (!all_digits(s + part_start, part_len) || part_len > 3) {
                size_t chars_in = 0, cut = part_len;
                for (k = 0; k < part_len; k += utf8_step((const unsigned char *)s + part_start + k, part_len - k))
                    chars_in++;
                if (chars_in == 1) {
                    char one[8];
                    char piece[SHOWN_CAP];
                    memcpy(one, s + part_start, part_len < sizeof one ? part_len : sizeof one - 1);
                    one[part_len < sizeof one ? part_len : sizeof one - 1] = '\0';
                    shown_cut(piece, sizeof piece, one, SHOWN);
                    say(err, errlen, "position %s: '%s' is not a tile; write the open tiles as digits, like 146789",
                        quoted, piece);
                } else {
                    char piece[SHOWN_CAP], copy[72];
                    if (chars_in > 12) { /* the first 9 characters and "..." */
                        size_t seen = 0;
                        for (k = 0; k < part_len && seen < 9;
                             k += utf8_step((const unsigned char *)s + part_start + k, part_len - k))
                            seen++;
                        cut = k;
                    }
                    if (cut > 64)
                        cut = 64;
                    memcpy(copy, s + part_start, cut);
                    copy[cut] = '\0';
                    shown_cut(piece, sizeof piece, copy, SHOWN);
                    say(err, errlen, "position %s: '%s%s' is not a tile number", quoted, piece,
                        chars_in > 12 ? "..." : "");
                }
                return STB_ERR_QUERY;
            }
            memcpy(part, s + part_start, part_len);
            part[part_len] = '\0';
            for (k = 0; k < part_len; k++)
                number = number * 10 + (unsigned)(part[k] - '0');
            if (number < 1 || (int)number > highest) {
                say(err, errlen, "position %s: there is no tile %u (the tiles are 1 to %d)", quoted, number, highest);
                return STB_ERR_QUERY;
            }
            if (*mask >> (number - 1) & 1) {
                say(err, errlen, "position %s: tile %u is listed twice", quoted, number);
                return STB_ERR_QUERY;
            }
            *mask |= 1u << (number - 1);
        }
        if (parts == 0) {
            say(err, errlen, "position %s lists no tile; write none for the empty set", quoted);
            return STB_ERR_QUERY;
        }
    }
    return STB_OK;
}

int stb_box_position(const stb_table *t, const char *text, unsigned *mask, char *err, size_t errlen)
{
    int status = not_box(t, err, errlen);
    if (status != STB_OK)
        return status;
    if (text == NULL || mask == NULL) {
        say(err, errlen, "stb_box_position: a NULL argument");
        return STB_ERR_ARG;
    }
    return parse_position(text, t->box.rules.tiles, mask, err, errlen);
}

/* A position of the question: parsed, and not empty. */
static int question_position(const stb_table *t, const char *text, unsigned *mask, char *err, size_t errlen)
{
    int status = parse_position(text, t->box.rules.tiles, mask, err, errlen);
    if (status == STB_OK && *mask == 0) {
        say(err, errlen, "the position is empty: with no tile open the box is already shut");
        return STB_ERR_QUERY;
    }
    return status;
}

/* A whole number the user typed (engine/text.py whole). */
static int whole(const char *name, const char *text, long long *out, char *err, size_t errlen)
{
    size_t n = strlen(text);
    int negative = text[0] == '-';
    shown_t show;
    if (all_digits(text + negative, n - (size_t)negative)) {
        long long value = 0;
        size_t i;
        if (n > MAX_DIGITS) {
            say(err, errlen, "the %s %s is far out of range", name, shown(&show, text));
            return STB_ERR_QUERY;
        }
        for (i = (size_t)negative; i < n; i++)
            value = value * 10 + (text[i] - '0');
        *out = negative ? -value : value;
        return STB_OK;
    }
    say(err, errlen, "the %s must be a whole number, not '%s'", name, shown(&show, text));
    return STB_ERR_QUERY;
}

static int looks_like_option(const char *token)
{
    return token[0] == '-' && !all_digits(token + 1, strlen(token + 1));
}

static int starts_with(const char *text, const char *prefix)
{
    return strncmp(text, prefix, strlen(prefix)) == 0;
}

static int put(char *out, size_t outlen, const char *text, char *err, size_t errlen)
{
    size_t n = strlen(text);
    if (n + 1 > outlen) {
        say(err, errlen, "the answer needs %lu bytes of output buffer, not %lu", (unsigned long)(n + 1),
            (unsigned long)outlen);
        return STB_ERR_ARG;
    }
    memcpy(out, text, n + 1);
    return STB_OK;
}

static int print_move(unsigned move, char *out, size_t outlen, char *err, size_t errlen)
{
    char text[96];
    size_t o = 1;
    int tile;
    text[0] = '[';
    for (tile = 1; tile <= MAX_TILES; tile++)
        if (move >> (tile - 1) & 1)
            o += (size_t)snprintf(text + o, sizeof text - o, "%s%d", o > 1 ? ", " : "", tile);
    snprintf(text + o, sizeof text - o, "]");
    return put(out, outlen, text, err, errlen);
}

static int print_chance(double value, char *out, size_t outlen, char *err, size_t errlen)
{
    char text[64];
    fixed6(value, text, sizeof text);
    return put(out, outlen, text, err, errlen);
}

static int query(char *err, size_t errlen, const char *message)
{
    say(err, errlen, "%s", message);
    return STB_ERR_QUERY;
}

/* The scores of `--scores 17,23` ("none": no score posted yet). */
static int posted_scores(const char *scores, long long *posted, int *count, char *err, size_t errlen)
{
    size_t n = strlen(scores), a = 0, b = n, i = 0;
    char *copy;
    int status = STB_OK;
    shown_t show;
    *count = 0;
    while (a < n && is_blank((unsigned char)scores[a]))
        a++;
    while (b > a && is_blank((unsigned char)scores[b - 1]))
        b--;
    if (b - a == 4 && memcmp(scores + a, "none", 4) == 0)
        return STB_OK;
    copy = (char *)malloc(n + 1);
    if (copy == NULL) {
        say(err, errlen, "out of memory");
        return STB_ERR_NOMEM;
    }
    memcpy(copy, scores, n + 1);
    while (i < n) {
        size_t start;
        while (i < n && (copy[i] == ',' || is_blank((unsigned char)copy[i])))
            i++;
        if (i == n)
            break;
        start = i;
        while (i < n && copy[i] != ',' && !is_blank((unsigned char)copy[i]))
            i++;
        if (i < n)
            copy[i++] = '\0';
        if (*count == MAX_WORDS) {
            status = query(err, errlen, "too many scores posted");
            break;
        }
        status = whole("posted score", copy + start, &posted[*count], err, errlen);
        if (status != STB_OK)
            break;
        ++*count;
    }
    free(copy);
    if (status == STB_OK && *count == 0) {
        say(err, errlen, "--scores '%s' lists no score; write none when no score is posted yet", shown(&show, scores));
        status = STB_ERR_QUERY;
    }
    return status;
}

/* `--two --move 13456789 17 12` and the other forms of shutthebox/games/shutthebox/grammar.py. */
static int answer_box(const stb_table *t, int argc, const char *const *argv, char *out, size_t outlen, char *err,
                      size_t errlen)
{
    const char *tokens[MAX_WORDS], *args[MAX_WORDS], *players[MAX_WORDS], *questions[MAX_WORDS];
    const char *unknown = NULL, *scores = NULL;
    int ntokens = 0, nargs = 0, nplayers = 0, nquestions = 0, k, status, taken = 0;
    long long score = 0, roll = 0;
    unsigned mask, move;
    double value;
    shown_t show;
    for (k = 0; k < argc; k++)
        if (strcmp(argv[k], "--solo") == 0 || starts_with(argv[k], "--variant") || starts_with(argv[k], "--objective"))
            return query(err, errlen, "--solo questions are asked of a one-player table; this is a two-player one");
    for (k = 0; k < argc; k++) { /* --scores S (or --scores=S), the first one */
        if (!taken && strcmp(argv[k], "--scores") == 0) {
            if (k + 1 >= argc)
                return query(err, errlen, "--scores needs the scores posted so far, like --scores 17,23");
            scores = argv[++k];
            taken = 1;
        } else if (!taken && starts_with(argv[k], "--scores=")) {
            scores = argv[k] + 9;
            taken = 1;
        } else {
            tokens[ntokens++] = argv[k];
        }
    }
    for (k = 0; k < ntokens; k++) {
        const char *w = tokens[k];
        if (strcmp(w, "--one") == 0 || strcmp(w, "--two") == 0)
            players[nplayers++] = w;
        else if (strcmp(w, "--expect") == 0 || strcmp(w, "--move") == 0)
            questions[nquestions++] = w;
        else if (looks_like_option(w)) {
            if (unknown == NULL)
                unknown = w;
        } else
            args[nargs++] = w;
    }
    if (unknown != NULL) {
        static const char *const command_line[] = {"--batch", "--rules", "--version", "--help", "-h",
                                                   "--allow-large", NULL};
        static const char *const game_options[] = {"--table", "--tiles", "--dice", "--sides", "--one-die",
                                                   "--max-move-tiles", "--players", NULL};
        int option = 0;
        for (k = 0; command_line[k] != NULL; k++)
            option |= strcmp(unknown, command_line[k]) == 0;
        for (k = 0; game_options[k] != NULL; k++)
            option |= starts_with(unknown, game_options[k]);
        if (option)
            say(err, errlen, "%s is an option of the command line, not of a query", unknown);
        else
            say(err, errlen, "unknown option '%s' (the questions are --one/--two with --expect/--move)",
                shown(&show, unknown));
        return STB_ERR_QUERY;
    }
    if (ntokens == 0)
        return query(err, errlen, "no question asked: use --one or --two with --expect or --move (see --help)");
    if (scores != NULL) { /* any player's question, by the scores posted before them */
        long long posted[MAX_WORDS], best = 0;
        int nposted = 0, expect, i;
        if (nplayers) {
            say(err, errlen, "--scores says which player is to move: leave out %s", players[0]);
            return STB_ERR_QUERY;
        }
        if (nquestions != 1)
            return query(err, errlen, "ask one question: --expect or --move");
        status = posted_scores(scores, posted, &nposted, err, errlen);
        if (status != STB_OK)
            return status;
        expect = strcmp(questions[0], "--expect") == 0;
        if (nargs != (expect ? 1 : 2)) {
            say(err, errlen, "--scores ... %s takes %s, but got %d argument(s)", questions[0],
                expect ? "POSITION" : "POSITION ROLL", nargs);
            return STB_ERR_QUERY;
        }
        if (!expect) {
            status = whole("roll", args[1], &roll, err, errlen);
            if (status != STB_OK)
                return status;
        }
        if (nposted >= 2) {
            say(err, errlen, "%d scores posted, but in a game of 2 players at most 1 are posted before a turn",
                nposted);
            return STB_ERR_QUERY;
        }
        for (i = 0; i < nposted; i++) {
            if (posted[i] == 0)
                return query(err, errlen, "score 0 means that player shut the box and won: nobody plays after");
            if (!(posted[i] > 0 && posted[i] < (long long)t->box.scores)) {
                if (!(posted[i] > -1000000000000LL && posted[i] < 1000000000000LL))
                    say(err, errlen, "a posted score must be a whole number from 1 to %u (the sum of the tiles left "
                        "open), not a number far out of range", t->box.scores - 1);
                else
                    say(err, errlen, "a posted score must be a whole number from 1 to %u (the sum of the tiles left "
                        "open), not %lld", t->box.scores - 1, posted[i]);
                return STB_ERR_QUERY;
            }
            if (i == 0 || posted[i] < best)
                best = posted[i];
        }
        status = question_position(t, args[0], &mask, err, errlen);
        if (status != STB_OK)
            return status;
        if (expect) {
            status = box_expect(t, mask, best, &value, err, errlen);
            return status != STB_OK ? status : print_chance(value, out, outlen, err, errlen);
        }
        status = box_move(t, mask, best, roll, &move, err, errlen);
        goto moved;
    }
    for (k = 1; k < nplayers; k++)
        if (strcmp(players[0], players[k]) != 0)
            return query(err, errlen, "ask for one player only: --one or --two, not both");
    for (k = 1; k < nquestions; k++)
        if (strcmp(questions[0], questions[k]) != 0)
            return query(err, errlen, "ask one question only: --expect or --move, not both");
    if (nplayers == 0)
        return query(err, errlen, "say which player: --one or --two");
    if (nquestions == 0)
        return query(err, errlen, "say which question: --expect or --move");
    if (nplayers > 1 || nquestions > 1) {
        say(err, errlen, "%s is given twice", nplayers > 1 ? players[0] : questions[0]);
        return STB_ERR_QUERY;
    }
    {
        int two = strcmp(players[0], "--two") == 0, expect = strcmp(questions[0], "--expect") == 0;
        int want = 1 + two + !expect;
        const char *names = expect ? (two ? "POSITION SCORE" : "POSITION") : (two ? "POSITION SCORE ROLL" : "POSITION ROLL");
        if (nargs != want) {
            char given[SHOWN_CAP + 32], joined[MAX_SET_TEXT + 8];
            size_t o = 0;
            if (nargs == 0) {
                snprintf(given, sizeof given, "no arguments");
            } else {
                joined[0] = '\0';
                for (k = 0; k < nargs && o + 2 < sizeof joined; k++) {
                    size_t len = strlen(args[k]);
                    if (k)
                        joined[o++] = ' ';
                    if (len > sizeof joined - o - 1)
                        len = sizeof joined - o - 1;
                    memcpy(joined + o, args[k], len);
                    o += len;
                    joined[o] = '\0';
                }
                snprintf(given, sizeof given, "%d: %s", nargs, shown(&show, joined));
            }
            say(err, errlen, "%s %s takes %s, but got %s", players[0], questions[0], names, given);
            return STB_ERR_QUERY;
        }
        if (two) {
            status = whole("score", args[1], &score, err, errlen);
            if (status != STB_OK)
                return status;
        }
        if (!expect) {
            status = whole("roll", args[two ? 2 : 1], &roll, err, errlen);
            if (status != STB_OK)
                return status;
        }
        status = question_position(t, args[0], &mask, err, errlen);
        if (status != STB_OK)
            return status;
        if (two && !(score > 0 && score < (long long)t->box.scores))
            return bad_score(t, score, err, errlen);
        if (expect) {
            status = box_expect(t, mask, score, &value, err, errlen);
            return status != STB_OK ? status : print_chance(value, out, outlen, err, errlen);
        }
        status = box_move(t, mask, score, roll, &move, err, errlen);
    }
moved:
    if (status != STB_OK)
        return status;
    if (move == 0) {
        char open[64];
        char limit[32] = "";
        if (t->box.rules.max_move_tiles > 0)
            snprintf(limit, sizeof limit, "%d or fewer ", t->box.rules.max_move_tiles);
        format_position(mask, t->box.rules.tiles, open, sizeof open);
        say(err, errlen, "no %sopen tiles of %s add up to %lld: the turn ends there, scoring %d", limit, open, roll,
            tile_sum(mask));
        return STB_ERR_QUERY;
    }
    return print_move(move, out, outlen, err, errlen);
}

/* ------------------------------------------------------------------------------------------------ */
/* Pig */

static int not_pig(const stb_table *t, char *err, size_t errlen)
{
    if (t == NULL) {
        say(err, errlen, "no table");
        return STB_ERR_ARG;
    }
    if (t->game != STB_GAME_PIG) {
        const char *game = stb_game(t);
        shown_t name;
        say(err, errlen, "the table holds %s%s%s, not a pig table", game ? "a '" : "no game",
            game ? shown(&name, game) : "", game ? "' table" : "");
        return STB_ERR_GAME;
    }
    return STB_OK;
}

/* The flat index of a state known to be valid: row i * G - i * (i - 1) / 2 + k, then * G + j. */
static uint64_t pig_flat(const stb_table *t, uint64_t i, uint64_t j, uint64_t k)
{
    uint64_t goal = t->pig.goal;
    return (i * goal - (i > 0 ? i * (i - 1) / 2 : 0) + k) * goal + j;
}

/* The flat index of (i, j, k), checked as PigTable.index. */
static int pig_index(const stb_table *t, long long i, long long j, long long k, uint64_t *index, char *err,
                     size_t errlen)
{
    long long goal = (long long)t->pig.goal, numbers[3];
    static const char *const names[] = {"I", "J", "K"};
    int n;
    numbers[0] = i;
    numbers[1] = j;
    numbers[2] = k;
    for (n = 0; n < 3; n++)
        if (numbers[n] < 0) {
            if (numbers[n] <= -1000000000000LL)
                say(err, errlen, "%s is a score, 0 or more, not a number far out of range", names[n]);
            else
                say(err, errlen, "%s is a score, 0 or more, not %lld", names[n], numbers[n]);
            return STB_ERR_QUERY;
        }
    if (j >= goal) {
        if (j >= 1000000000000LL)
            say(err, errlen, "J a number far out of range has reached the goal %lld: the opponent has won", goal);
        else
            say(err, errlen, "J %lld has reached the goal %lld: the opponent has won", j, goal);
        return STB_ERR_QUERY;
    }
    if (i >= goal || k >= goal || i + k >= goal) { /* i, k >= 0, one below goal when the sum is formed */
        int huge = i >= 1000000000000LL || k >= 1000000000000LL;
        long long sum = huge ? 0 : i + k;
        if (huge || sum >= 1000000000000LL)
            say(err, errlen, "%s a number far out of range has reached the goal %lld: the mover has won (holding "
                "banks it)", k == 0 ? "I" : "I + K =", goal);
        else if (k == 0)
            say(err, errlen, "I %lld has reached the goal %lld: the mover has won (holding banks it)", i, goal);
        else
            say(err, errlen, "I + K = %lld has reached the goal %lld: the mover has won (holding banks it)", sum, goal);
        return STB_ERR_QUERY;
    }
    *index = pig_flat(t, (uint64_t)i, (uint64_t)j, (uint64_t)k);
    return STB_OK;
}

static int pig_win_at(const stb_table *t, uint64_t index, double *out, char *err, size_t errlen)
{
    return chance_at(t, t->pig.win, index, out, err, errlen);
}

static int pig_move_at(const stb_table *t, uint64_t index, int turn_zero, int *roll, char *err, size_t errlen)
{
    uint64_t value;
    int status = value_uint(t, t->pig.move, index, &value);
    if (status != STB_OK) {
        say(err, errlen, "move index %llu out of range", (unsigned long long)index);
        return status;
    }
    if (value > 1 || (turn_zero && value != 1)) /* a turn starts with a roll */
        return impossible(t, "move", index, "a move (0 hold, 1 roll; 1 at turn total 0)", err, errlen);
    *roll = (int)value;
    return STB_OK;
}

static int is_unsure(const stb_table *t, uint64_t index)
{
    size_t low = 0, high = t->pig.nunsure;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (t->pig.unsure[mid] < index)
            low = mid + 1;
        else
            high = mid;
    }
    return low < t->pig.nunsure && t->pig.unsure[low] == index;
}

static int refuse_unsure(char *err, size_t errlen)
{
    return query(err, errlen, "this chance lies within the table's error bound of a 6-decimal rounding midpoint, "
                 "so its 6th decimal cannot be vouched for (docs/PIG.md); --move is answered");
}

static int checked(double value, double bound, const char *what, char *err, size_t errlen)
{
    if (midpoint_distance(value) <= bound) {
        say(err, errlen, "%s = %.15f lies within its error bound %.3g of a 6-decimal rounding midpoint; its 6th "
            "decimal cannot be vouched for", what, value, bound);
        return STB_ERR_QUERY;
    }
    return STB_OK;
}

int stb_pig_expect(const stb_table *t, long long i, long long j, long long k, double *out, char *err, size_t errlen)
{
    uint64_t index;
    int status = not_pig(t, err, errlen);
    if (status != STB_OK)
        return status;
    if (out == NULL) {
        say(err, errlen, "stb_pig_expect: a NULL argument");
        return STB_ERR_ARG;
    }
    status = pig_index(t, i, j, k, &index, err, errlen);
    if (status != STB_OK)
        return status;
    if (is_unsure(t, index))
        return refuse_unsure(err, errlen);
    return pig_win_at(t, index, out, err, errlen);
}

int stb_pig_move(const stb_table *t, long long i, long long j, long long k, int *roll, char *err, size_t errlen)
{
    uint64_t index;
    int status = not_pig(t, err, errlen);
    if (status != STB_OK)
        return status;
    if (roll == NULL) {
        say(err, errlen, "stb_pig_move: a NULL argument");
        return STB_ERR_ARG;
    }
    status = pig_index(t, i, j, k, &index, err, errlen);
    if (status != STB_OK)
        return status;
    return pig_move_at(t, index, k == 0, roll, err, errlen);
}

int stb_pig_options(const stb_table *t, long long i, long long j, long long k, stb_pig_choice choices[2],
                    int *count, char *err, size_t errlen)
{
    uint64_t index, goal;
    int status = not_pig(t, err, errlen), roll_best, n;
    double roll, hold = 0.0, value, best;
    if (status != STB_OK)
        return status;
    if (choices == NULL || count == NULL) {
        say(err, errlen, "stb_pig_options: a NULL argument");
        return STB_ERR_ARG;
    }
    status = pig_index(t, i, j, k, &index, err, errlen);
    if (status != STB_OK)
        return status;
    goal = t->pig.goal;
    status = pig_move_at(t, index, k == 0, &roll_best, err, errlen);
    if (status != STB_OK)
        return status;
    /* the roll's chance: the table's where rolling is best, else the mean over one roll's outcomes */
    if (roll_best) {
        status = pig_win_at(t, index, &roll, err, errlen);
        if (status != STB_OK)
            return status;
    } else {
        double total = 0.0;
        size_t o;
        for (o = 0; o < t->pig.noutcomes; o++) { /* in the order of docs/FORMAT.md 10: the same sum as the command */
            const pig_outcome *out = &t->pig.outcomes[o];
            if (out->kind == BUST) {
                status = pig_win_at(t, pig_flat(t, (uint64_t)j, (uint64_t)i, 0), &value, err, errlen);
                value = 1.0 - value;
            } else if (out->kind == ADD) {
                if ((uint64_t)(i + k + out->points) >= goal) {
                    value = 1.0;
                    status = STB_OK;
                } else {
                    status = pig_win_at(t, pig_flat(t, (uint64_t)i, (uint64_t)j, (uint64_t)(k + out->points)), &value,
                                        err, errlen);
                }
            } else {
                status = pig_win_at(t, pig_flat(t, (uint64_t)j, 0, 0), &value, err, errlen);
                value = 1.0 - value;
            }
            if (status != STB_OK)
                return status;
            total += (double)out->count * value;
        }
        roll = total / (double)t->pig.denominator;
        status = checked(roll, t->pig.bound + 1e-14, "the chance to win after a roll", err, errlen);
        if (status != STB_OK)
            return status;
    }
    if (k == 0) {
        n = 1;
        choices[0].roll = 1;
        choices[0].chance = roll;
    } else {
        if ((uint64_t)(i + k) >= goal) {
            hold = 1.0;
        } else {
            status = pig_win_at(t, pig_flat(t, (uint64_t)j, (uint64_t)(i + k), 0), &value, err, errlen);
            if (status != STB_OK)
                return status;
            hold = 1.0 - value;
            status = checked(hold, t->pig.bound + 1e-15, "the chance to win after a hold", err, errlen);
            if (status != STB_OK)
                return status;
        }
        n = 2;
        choices[0].roll = roll_best;
        choices[0].chance = roll_best ? roll : hold;
        choices[1].roll = !roll_best;
        choices[1].chance = roll_best ? hold : roll;
    }
    if (is_unsure(t, index)) /* the best choice's chance is printed as the table's: not when unsure */
        return refuse_unsure(err, errlen);
    best = choices[0].chance;
    for (status = 0; status < n; status++) {
        double loss = best - choices[status].chance;
        choices[status].loss = 0.0 > loss ? 0.0 : loss; /* Python's max(loss, 0.0) */
    }
    *count = n;
    return STB_OK;
}

static int answer_pig(const stb_table *t, int argc, const char *const *argv, char *out, size_t outlen, char *err,
                      size_t errlen)
{
    const char *question = NULL, *args[MAX_WORDS];
    int nargs = 0, k, status;
    long long numbers[3] = {0, 0, 0};
    static const char *const names[] = {"score I", "score J", "turn total K"};
    shown_t show;
    for (k = 0; k < argc; k++) {
        const char *w = argv[k];
        if (strcmp(w, "--expect") == 0 || strcmp(w, "--move") == 0 || strcmp(w, "--options") == 0) {
            if (question != NULL) {
                int n;
                for (n = k + 1; n < argc; n++) /* an unknown option is reported first */
                    if (looks_like_option(argv[n]) && strcmp(argv[n], "--expect") != 0 &&
                        strcmp(argv[n], "--move") != 0 && strcmp(argv[n], "--options") != 0)
                        break;
                if (n == argc)
                    return query(err, errlen, "ask one question only: --expect or --move or --options, once");
            }
            question = w;
        } else if (looks_like_option(w)) {
            say(err, errlen, "unknown option '%s' (a pig question is --expect, --move or --options I J K)",
                shown(&show, w));
            return STB_ERR_QUERY;
        } else {
            args[nargs++] = w;
        }
    }
    if (question == NULL)
        return query(err, errlen, "no question asked: use --expect [I J K], --move I J K or --options I J K (see "
                     "--help)");
    if (!(strcmp(question, "--expect") == 0 && nargs == 0)) {
        if (nargs != 3) {
            char joined[MAX_SET_TEXT + 8];
            size_t o = 0;
            joined[0] = '\0';
            for (k = 0; k < nargs && o + 2 < sizeof joined; k++) {
                size_t len = strlen(args[k]);
                if (k)
                    joined[o++] = ' ';
                if (len > sizeof joined - o - 1)
                    len = sizeof joined - o - 1;
                memcpy(joined + o, args[k], len);
                o += len;
                joined[o] = '\0';
            }
            if (nargs == 0)
                say(err, errlen, "%s takes I J K, but got no arguments", question);
            else
                say(err, errlen, "%s takes I J K, but got %d: %s", question, nargs, shown(&show, joined));
            return STB_ERR_QUERY;
        }
        for (k = 0; k < 3; k++) {
            status = whole(names[k], args[k], &numbers[k], err, errlen);
            if (status != STB_OK)
                return status;
        }
    }
    if (strcmp(question, "--move") == 0) {
        int roll;
        status = stb_pig_move(t, numbers[0], numbers[1], numbers[2], &roll, err, errlen);
        return status != STB_OK ? status : put(out, outlen, roll ? "roll" : "hold", err, errlen);
    }
    if (strcmp(question, "--expect") == 0) {
        double value;
        status = stb_pig_expect(t, numbers[0], numbers[1], numbers[2], &value, err, errlen);
        return status != STB_OK ? status : print_chance(value, out, outlen, err, errlen);
    }
    {
        stb_pig_choice choices[2];
        int count, n;
        char text[160], chance[64], loss[64];
        size_t o = 0;
        status = stb_pig_options(t, numbers[0], numbers[1], numbers[2], choices, &count, err, errlen);
        if (status != STB_OK)
            return status;
        text[0] = '\0';
        for (n = 0; n < count; n++) {
            fixed6(choices[n].chance, chance, sizeof chance);
            fixed6(choices[n].loss, loss, sizeof loss);
            o += (size_t)snprintf(text + o, sizeof text - o, "%s%s %s %s", n ? "; " : "",
                                  choices[n].roll ? "roll" : "hold", chance, loss);
        }
        return put(out, outlen, text, err, errlen);
    }
}

/* ------------------------------------------------------------------------------------------------ */
/* the command line's words */

int stb_answer(const stb_table *t, int argc, const char *const *argv, char *out, size_t outlen, char *err,
               size_t errlen)
{
    int k;
    if (t == NULL || out == NULL || outlen == 0 || argc < 0 || (argc > 0 && argv == NULL)) {
        say(err, errlen, "stb_answer: a NULL or invalid argument");
        return STB_ERR_ARG;
    }
    out[0] = '\0';
    for (k = 0; k < argc; k++)
        if (argv[k] == NULL) {
            say(err, errlen, "stb_answer: a NULL word");
            return STB_ERR_ARG;
        }
    if (argc > MAX_WORDS)
        return query(err, errlen, "too many words for a question");
    if (t->game == STB_GAME_TWO_PLAYER)
        return answer_box(t, argc, argv, out, outlen, err, errlen);
    if (t->game == STB_GAME_PIG)
        return answer_pig(t, argc, argv, out, outlen, err, errlen);
    {
        const char *game = stb_game(t);
        shown_t name;
        say(err, errlen, "this reader answers two-player Shut the Box and pig tables, not %s%s%s",
            game ? "a '" : "a table with no game", game ? shown(&name, game) : "", game ? "' table" : "");
        return STB_ERR_GAME;
    }
}

int stb_answer_line(const stb_table *t, const char *line, char *out, size_t outlen, char *err, size_t errlen)
{
    char *copy;
    const char *words[MAX_WORDS + 1];
    int count = 0, status;
    size_t n, i = 0;
    if (t == NULL || line == NULL || out == NULL || outlen == 0) {
        say(err, errlen, "stb_answer_line: a NULL or invalid argument");
        return STB_ERR_ARG;
    }
    n = strlen(line);
    copy = (char *)malloc(n + 1);
    if (copy == NULL) {
        say(err, errlen, "out of memory");
        return STB_ERR_NOMEM;
    }
    memcpy(copy, line, n + 1);
    while (i < n) {
        while (i < n && is_blank((unsigned char)copy[i]))
            copy[i++] = '\0';
        if (i == n)
            break;
        if (count == MAX_WORDS + 1)
            break;
        words[count++] = copy + i;
        while (i < n && !is_blank((unsigned char)copy[i]))
            i++;
    }
    if (count == 0) { /* a blank line: a blank answer */
        free(copy);
        out[0] = '\0';
        return STB_OK;
    }
    status = count > MAX_WORDS ? query(err, errlen, "too many words for a question")
                               : stb_answer(t, count, words, out, outlen, err, errlen);
    free(copy);
    return status;
}
