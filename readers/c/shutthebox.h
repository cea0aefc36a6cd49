/*
 * shutthebox.h - a C99 reader of ShutTheBox table files (docs/FORMAT.md, format 1.x).
 *
 * One header, one source file (shutthebox.c), nothing but the C library. Usable from C++ and, through
 * FFI, from Rust, Go, Java...: plain functions, an opaque handle, no varargs, no global state; strings
 * returned point into the handle (valid until stb_close), every other result goes to caller-owned memory.
 *
 *   stb_table *t;
 *   char err[STB_ERRLEN], out[STB_ANSWERLEN];
 *   if (stb_open("data/standard.msgpack", &t, err, sizeof err) != STB_OK) { puts(err); return 3; }
 *   const char *q[] = {"--two", "--move", "13456789", "17", "12"};
 *   if (stb_answer(t, 5, q, out, sizeof out, err, sizeof err) == STB_OK) puts(out);   -> [3, 9]
 *   stb_close(t);
 *
 * stb_open reads the whole file into memory and verifies, before it returns: the magic bytes, the format's
 * major version, the header CRC-32, every array's descriptor (dtype, shape, data length, block_size, number
 * of block checksums), the trailing CRC-32 of the whole file, and every array's CRC-32 and block CRC-32s.
 * For the games it knows ("two-player" Shut the Box, FORMAT 6.1; "pig", FORMAT 10) it also checks the rules,
 * the game fields and the arrays' dtypes and shapes, and refuses a table it would misread (STB_ERR_GAME).
 * A table of another game opens (its arrays can be read), but the game-level functions refuse it.
 *
 * After stb_open a handle is never modified: several threads may read one handle at once.
 * Every function returns STB_OK (0) or one of the codes below; on failure nothing is written to the
 * outputs except the message in `err` (a one-line, NUL-terminated text, cut to `errlen` bytes; `err` may
 * be NULL when `errlen` is 0).
 */
#ifndef SHUTTHEBOX_H
#define SHUTTHEBOX_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define STB_FORMAT_MAJOR 1   /* the major version read; minor versions 0 to any are read */
#define STB_MAX_DIMS 16      /* an array of more dimensions is refused (STB_ERR_FORMAT) */
#define STB_ERRLEN 512       /* room enough for every message */
#define STB_ANSWERLEN 256    /* room enough for every answer line */

/* Status codes (every function's int result). */
enum stb_status {
    STB_OK = 0,
    STB_ERR_IO = 1,        /* the file cannot be opened or read */
    STB_ERR_FORMAT = 2,    /* not a table, truncated, or malformed (bad msgpack, bad descriptor) */
    STB_ERR_CHECKSUM = 3,  /* a CRC-32 does not match: damaged */
    STB_ERR_VERSION = 4,   /* a format major version this reader does not know */
    STB_ERR_NOMEM = 5,     /* out of memory */
    STB_ERR_QUERY = 6,     /* a question with no answer (bad position, roll, score...; an unsure chance) */
    STB_ERR_GAME = 7,      /* a table of another game, or of rules, fields or arrays this reader refuses */
    STB_ERR_VALUE = 8,     /* the table holds an impossible value (checksums right, numbers wrong) */
    STB_ERR_NOTFOUND = 9,  /* no such header key, rule or array */
    STB_ERR_TYPE = 10,     /* the key or array exists but has another type or dtype */
    STB_ERR_RANGE = 11,    /* an element index past the array's end */
    STB_ERR_ARG = 12       /* a NULL or invalid argument, or an output buffer too small */
};

/* The name of a status code ("STB_ERR_CHECKSUM"); "STB_ERR_UNKNOWN" for other numbers. */
const char *stb_status_name(int status);

/* -- the envelope ------------------------------------------------------------------------------ */

typedef struct stb_table stb_table;

/* Read and verify the table file at `path`; *out is the handle (NULL on failure). */
int stb_open(const char *path, stb_table **out, char *err, size_t errlen);
/* The same from `size` bytes in memory (copied: the caller keeps its buffer). */
int stb_open_memory(const void *bytes, size_t size, stb_table **out, char *err, size_t errlen);
/* Free the handle (NULL is allowed). */
void stb_close(stb_table *table);

/* The header's "game" (NUL-terminated), or NULL when it has none or it is not a string. */
const char *stb_game(const stb_table *table);

/* What stb_open recognised: a game this reader answers (its tables fully checked), or another. */
enum stb_game_kind { STB_GAME_OTHER = 0, STB_GAME_TWO_PLAYER = 1, STB_GAME_PIG = 2 };
int stb_game_kind(const stb_table *table);

/* The file's format version [major, minor]. */
int stb_format_version(const stb_table *table, long long *major, long long *minor);

/* A decoded msgpack value of the header or of its "rules". */
enum stb_value_kind {
    STB_V_NIL = 0, STB_V_BOOL = 1,
    STB_V_INT = 2,    /* `i` (every integer from INT64_MIN to INT64_MAX) */
    STB_V_UINT = 3,   /* `u`: an integer above INT64_MAX */
    STB_V_FLOAT = 4,  /* `f` */
    STB_V_STR = 5,    /* `s`: NUL-terminated UTF-8 (owned by the handle), `len` bytes before the NUL */
    STB_V_BIN = 6,    /* `s`: `len` bytes (owned by the handle), not NUL-terminated */
    STB_V_ARRAY = 7,  /* `len` elements, not decoded */
    STB_V_MAP = 8     /* `len` entries, not decoded (but "rules": stb_rule) */
};
typedef struct stb_value {
    int kind;            /* enum stb_value_kind */
    int64_t i;           /* STB_V_INT; STB_V_BOOL: 0 or 1 */
    uint64_t u;          /* STB_V_UINT */
    double f;            /* STB_V_FLOAT */
    const char *s;       /* STB_V_STR, STB_V_BIN; NULL otherwise */
    size_t len;          /* STB_V_STR, STB_V_BIN: bytes; STB_V_ARRAY, STB_V_MAP: elements */
} stb_value;

/* A top-level header field before "arrays" (magic, format, generator, game, rules, a game's fields). */
int stb_header_value(const stb_table *table, const char *key, stb_value *out);
/* An entry of the header's "rules" map (STB_ERR_NOTFOUND when there is no rules map or no such key). */
int stb_rule(const stb_table *table, const char *key, stb_value *out);
/* A rule that is an integer fitting a long long (STB_ERR_TYPE for nil, a bool, a string...). */
int stb_rule_int(const stb_table *table, const char *key, long long *out);
/* The rules' keys, in file order: stb_rule_key(t, 0) .. stb_rule_key(t, stb_rule_count(t) - 1). */
size_t stb_rule_count(const stb_table *table);
const char *stb_rule_key(const stb_table *table, size_t i);

/* -- arrays: lookups by element index ----------------------------------------------------------- */

enum stb_dtype { STB_F8 = 0, STB_F4 = 1, STB_U4 = 2, STB_I4 = 3, STB_U2 = 4, STB_I2 = 5, STB_U1 = 6 };
typedef struct stb_array_info {
    int dtype;                      /* enum stb_dtype */
    const char *dtype_name;         /* "<f8", "<u2", "|u1", ... */
    size_t itemsize;                /* bytes per element */
    size_t ndim;                    /* dimensions (0 to STB_MAX_DIMS) */
    uint64_t shape[STB_MAX_DIMS];   /* outermost first; row-major */
    uint64_t count;                 /* elements: the product of the shape */
    size_t block_size;              /* the descriptor's block_size (verified at open anyway) */
} stb_array_info;

size_t stb_array_count(const stb_table *table);
const char *stb_array_name(const stb_table *table, size_t i);   /* NULL past the end */
int stb_array(const stb_table *table, const char *name, stb_array_info *info);
/* Element `index` (flat, row-major: [i, j, k] of shape [I, J, K] is (i * J + j) * K + k), bounds-checked
 * (STB_ERR_RANGE). stb_get_f64: "<f8" and "<f4" arrays; stb_get_uint: "<u4", "<u2", "|u1";
 * stb_get_int: every integer dtype. Another dtype: STB_ERR_TYPE. */
int stb_get_f64(const stb_table *table, const char *name, uint64_t index, double *out);
int stb_get_uint(const stb_table *table, const char *name, uint64_t index, uint64_t *out);
int stb_get_int(const stb_table *table, const char *name, uint64_t index, int64_t *out);
/* The array's verified bytes (little-endian, possibly unaligned), for bulk reads. */
int stb_array_bytes(const stb_table *table, const char *name, const unsigned char **data, size_t *bytes);

/* -- two-player Shut the Box ("two-player", FORMAT 6.1) ------------------------------------------ */

typedef struct stb_box_rules {
    int tiles, sides, dice;
    int one_die_at_most;     /* -1: never */
    int max_move_tiles;      /* 0: no limit */
    int one_die_optional, one_die_high_shut;
    int max_score, max_roll;
} stb_box_rules;

int stb_box_rules_of(const stb_table *table, stb_box_rules *rules);
/* A position as the command line writes it ("146789", "1,4,10,12", "12,", "all") -> its bitmask. */
int stb_box_position(const stb_table *table, const char *text, unsigned *mask, char *err, size_t errlen);
/* Expected wins of the player to move at `position` (a bitmask) before rolling. `score` is the score
 * posted before the mover: 0 for none (player one, e1), else player one's final score, 1 to max_score
 * (player two, e2). */
int stb_box_expect(const stb_table *table, unsigned position, int score, double *out, char *err,
                   size_t errlen);
/* The optimal move (the bitmask of the tiles to close; 0: no legal move) of the player to move for `roll`;
 * `score` as for stb_box_expect. A roll the dice cannot show at `position` is STB_ERR_QUERY. */
int stb_box_move(const stb_table *table, unsigned position, int score, int roll, unsigned *move, char *err,
                 size_t errlen);

/* -- Pig ("pig", FORMAT 10) ---------------------------------------------------------------------- */

/* The mover's chance to win at (i, j, k) before choosing. STB_ERR_QUERY for a state that cannot be asked,
 * and for a chance in the header's "unsure" list (its 6th decimal is not proven). */
int stb_pig_expect(const stb_table *table, long long i, long long j, long long k, double *out, char *err,
                   size_t errlen);
/* *roll = 1 (roll) or 0 (hold). */
int stb_pig_move(const stb_table *table, long long i, long long j, long long k, int *roll, char *err,
                 size_t errlen);
typedef struct stb_pig_choice {
    int roll;        /* 1 roll, 0 hold */
    double chance;   /* its chance to win */
    double loss;     /* what it gives away against the best: max(best - chance, 0) */
} stb_pig_choice;
/* Every choice, best first (one at k = 0, where there is no hold; else two); a derived chance too near a
 * 6-decimal rounding midpoint for its error bound is refused (STB_ERR_QUERY), as the command does. */
int stb_pig_options(const stb_table *table, long long i, long long j, long long k, stb_pig_choice choices[2],
                    int *count, char *err, size_t errlen);

/* -- the command line's words ------------------------------------------------------------------- */

/* The line `ShutTheBox --table TABLE ARGS...` prints for the question in argv[0..argc) (without the program
 * and table): two-player tables take --one --expect POSITION, --one --move POSITION ROLL, --two --expect
 * POSITION SCORE, --two --move POSITION SCORE ROLL, --scores S --expect POSITION, --scores S --move POSITION
 * ROLL; pig tables take --expect [I J K], --move I J K, --options I J K. The answer goes to `out` (no
 * newline). STB_ERR_QUERY for a bad question (the message says why); STB_ERR_ARG when `out` is too small
 * (STB_ANSWERLEN always suffices). */
int stb_answer(const stb_table *table, int argc, const char *const *argv, char *out, size_t outlen,
               char *err, size_t errlen);
/* The same for one line of words separated by blanks (a `--batch` line). */
int stb_answer_line(const stb_table *table, const char *line, char *out, size_t outlen, char *err,
                    size_t errlen);

#ifdef __cplusplus
}
#endif

#endif /* SHUTTHEBOX_H */
