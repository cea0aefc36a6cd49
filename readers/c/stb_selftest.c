/*
 * stb_selftest - checks of the C reader's API, run by tests/test_reader_c.py (best under `make sanitize`).
 *
 *   stb_selftest open FILE...                 each file's stb_open status: FILE<TAB>STB_...<TAB>message
 *   stb_selftest api TWO_PLAYER_T4 PIG_G8     the API's edge cases on tests/data/good's small tables
 *   stb_selftest dump TABLE ARRAY             every element of ARRAY, one a line: %.17g (floats), %lld (integers)
 *   stb_selftest fuzz TABLE ROUNDS SEED       every truncation and a bit flip in every byte of TABLE (each must
 *                                             be refused), then ROUNDS random mutations whose header and
 *                                             trailing CRC-32s are made right again, so that the decoder sees
 *                                             malformed msgpack that the checksums pass; each opened one is
 *                                             asked questions. Prints the count of each status.
 *
 * Exit status 0 when every check passed, 1 otherwise (each failure is printed), 2 for a usage error.
 */
#include "shutthebox.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0, checks = 0;

#define CHECK(condition, what)                                                                  \
    do {                                                                                        \
        checks++;                                                                               \
        if (!(condition)) {                                                                     \
            failures++;                                                                         \
            printf("FAIL %s:%d: %s\n", __FILE__, __LINE__, what);                               \
        }                                                                                       \
    } while (0)

static unsigned char *slurp(const char *path, size_t *size)
{
    FILE *file = fopen(path, "rb");
    unsigned char *bytes = NULL;
    size_t cap = 0;
    *size = 0;
    if (file == NULL)
        return NULL;
    for (;;) {
        size_t got;
        if (*size == cap) {
            unsigned char *grown;
            cap = cap ? 2 * cap : 65536;
            grown = (unsigned char *)realloc(bytes, cap);
            if (grown == NULL) {
                free(bytes);
                fclose(file);
                return NULL;
            }
            bytes = grown;
        }
        got = fread(bytes + *size, 1, cap - *size, file);
        *size += got;
        if (got == 0)
            break;
    }
    fclose(file);
    return bytes;
}

static uint32_t crc32_plain(const unsigned char *p, size_t n)
{
    uint32_t crc = 0xFFFFFFFFu;
    size_t i;
    int k;
    for (i = 0; i < n; i++) {
        crc ^= p[i];
        for (k = 0; k < 8; k++)
            crc = (crc & 1) ? 0xEDB88320u ^ (crc >> 1) : crc >> 1;
    }
    return ~crc;
}

static void put_be32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)(v >> 24);
    p[1] = (unsigned char)(v >> 16);
    p[2] = (unsigned char)(v >> 8);
    p[3] = (unsigned char)v;
}

/* ---------------------------------------------------------------------------------------------- */

static int open_files(int argc, char **argv)
{
    int i;
    for (i = 0; i < argc; i++) {
        stb_table *t = NULL;
        char err[STB_ERRLEN];
        int status = stb_open(argv[i], &t, err, sizeof err);
        printf("%s\t%s\t%s\n", argv[i], stb_status_name(status), status == STB_OK ? (stb_game(t) ? stb_game(t) : "")
                                                                               : err);
        CHECK((status == STB_OK) == (t != NULL), "a handle exactly when STB_OK");
        stb_close(t);
    }
    return 0;
}

static void ask(const stb_table *t, const char *line, int expect_status, const char *expect_out)
{
    char out[STB_ANSWERLEN], err[STB_ERRLEN], what[600];
    int status = stb_answer_line(t, line, out, sizeof out, err, sizeof err);
    snprintf(what, sizeof what, "%s -> %s %s (wanted %s %s)", line, stb_status_name(status),
             status == STB_OK ? out : err, stb_status_name(expect_status), expect_out ? expect_out : "");
    CHECK(status == expect_status && (expect_out == NULL || strcmp(out, expect_out) == 0), what);
}

static int api(const char *box_path, const char *pig_path)
{
    stb_table *box = NULL, *pig = NULL, *t = NULL;
    char err[STB_ERRLEN], out[STB_ANSWERLEN], tiny[4];
    stb_value v;
    stb_array_info info;
    long long number, major, minor;
    double value, e1;
    uint64_t u;
    int64_t i64;
    unsigned mask, move;
    const unsigned char *data;
    size_t bytes, size;
    int roll, count, status;
    stb_pig_choice choices[2];
    unsigned char *raw;
    const char *words[] = {"--two", "--move", "1234", "4", "5"};

    /* opening */
    CHECK(stb_open(NULL, &t, err, sizeof err) == STB_ERR_ARG, "stb_open(NULL)");
    CHECK(stb_open(box_path, NULL, err, sizeof err) == STB_ERR_ARG, "stb_open(path, NULL)");
    CHECK(stb_open("/nonexistent/table.msgpack", &t, err, sizeof err) == STB_ERR_IO && t == NULL, "a missing file");
    CHECK(stb_open(".", &t, err, sizeof err) != STB_OK && t == NULL, "a directory");
    CHECK(stb_open_memory(NULL, 0, &t, err, sizeof err) == STB_ERR_FORMAT, "no bytes");
    CHECK(stb_open_memory(NULL, 5, &t, err, sizeof err) == STB_ERR_ARG, "NULL bytes");
    CHECK(stb_open(box_path, &t, NULL, 0) == STB_OK, "no error buffer");
    stb_close(t);
    stb_close(NULL);
    status = stb_open("/nonexistent/table.msgpack", &t, err, 1);
    CHECK(status == STB_ERR_IO && err[0] == '\0', "a one-byte error buffer holds the empty string");
    status = stb_open("/nonexistent/table.msgpack", &t, tiny, sizeof tiny);
    CHECK(status == STB_ERR_IO && strlen(tiny) == 3, "an error message is cut to its buffer");
    if (stb_open(box_path, &box, err, sizeof err) != STB_OK || stb_open(pig_path, &pig, err, sizeof err) != STB_OK) {
        printf("FAIL cannot open the tables: %s\n", err);
        stb_close(box);
        return 1;
    }
    raw = slurp(box_path, &size);
    CHECK(raw != NULL && stb_open_memory(raw, size, &t, err, sizeof err) == STB_OK, "the same bytes from memory");
    stb_close(t);
    free(raw);

    /* the header */
    CHECK(strcmp(stb_game(box), "two-player") == 0 && stb_game_kind(box) == STB_GAME_TWO_PLAYER, "game");
    CHECK(strcmp(stb_game(pig), "pig") == 0 && stb_game_kind(pig) == STB_GAME_PIG, "pig game");
    CHECK(stb_game(NULL) == NULL && stb_game_kind(NULL) == STB_GAME_OTHER, "no table, no game");
    CHECK(stb_format_version(box, &major, &minor) == STB_OK && major == 1 && minor >= 0, "format");
    CHECK(stb_header_value(box, "magic", &v) == STB_OK && v.kind == STB_V_STR && strcmp(v.s, "ShutTheBox table") == 0,
          "magic");
    CHECK(stb_header_value(box, "max_score", &v) == STB_OK && v.kind == STB_V_INT && v.i == 10, "max_score");
    CHECK(stb_header_value(box, "format", &v) == STB_OK && v.kind == STB_V_ARRAY && v.len == 2, "format array");
    CHECK(stb_header_value(box, "arrays", &v) == STB_ERR_NOTFOUND, "arrays are no header field");
    CHECK(stb_header_value(box, "nope", &v) == STB_ERR_NOTFOUND, "no such field");
    CHECK(stb_header_value(NULL, "game", &v) == STB_ERR_ARG, "header of no table");
    CHECK(stb_rule_int(box, "tiles", &number) == STB_OK && number == 4, "rule tiles");
    CHECK(stb_rule_int(box, "max_move_tiles", &number) == STB_ERR_TYPE, "a nil rule is no int");
    CHECK(stb_rule(box, "max_move_tiles", &v) == STB_OK && v.kind == STB_V_NIL, "a nil rule");
    CHECK(stb_rule_int(box, "jokers", &number) == STB_ERR_NOTFOUND, "no such rule");
    CHECK(stb_rule_int(box, "tiles", NULL) == STB_ERR_ARG, "rule to NULL");
    CHECK(stb_rule_count(box) == 5 && strcmp(stb_rule_key(box, 0), "tiles") == 0 && stb_rule_key(box, 5) == NULL,
          "rule keys");
    CHECK(stb_rule(pig, "variant", &v) == STB_OK && v.kind == STB_V_STR && strcmp(v.s, "two-dice") == 0, "variant");

    /* arrays */
    CHECK(stb_array_count(box) == 4 && stb_array_name(box, 4) == NULL, "array count");
    CHECK(stb_array(box, "m2", &info) == STB_OK && info.dtype == STB_U2 && strcmp(info.dtype_name, "<u2") == 0 &&
          info.ndim == 3 && info.shape[0] == 16 && info.shape[1] == 11 && info.shape[2] == 13 &&
          info.count == 16 * 11 * 13 && info.itemsize == 2, "m2's descriptor");
    CHECK(stb_array(box, "zz", &info) == STB_ERR_NOTFOUND, "no such array");
    CHECK(stb_get_f64(box, "e1", 15, &e1) == STB_OK && e1 > 0.5 && e1 < 0.55, "e1[15]");
    CHECK(stb_get_f64(box, "e1", 16, &value) == STB_ERR_RANGE, "e1[16] is past the end");
    CHECK(stb_get_f64(box, "e1", UINT64_MAX, &value) == STB_ERR_RANGE, "e1[2^64 - 1]");
    CHECK(stb_get_f64(box, "m1", 0, &value) == STB_ERR_TYPE, "m1 is no float array");
    CHECK(stb_get_uint(box, "e1", 0, &u) == STB_ERR_TYPE, "e1 is no integer array");
    CHECK(stb_get_uint(box, "m1", 15 * 13 + 5, &u) == STB_OK && u == 6, "m1[1234, 5] closes 2 and 3");
    CHECK(stb_get_int(box, "m1", 15 * 13 + 5, &i64) == STB_OK && i64 == 6, "m1 as signed");
    CHECK(stb_get_int(box, "e2", 0, &i64) == STB_ERR_TYPE, "e2 is no integer array");
    CHECK(stb_get_uint(box, "m2", 16 * 11 * 13, &u) == STB_ERR_RANGE, "m2 past the end");
    CHECK(stb_get_uint(box, "nope", 0, &u) == STB_ERR_NOTFOUND, "no such array to read");
    CHECK(stb_get_uint(NULL, "m1", 0, &u) == STB_ERR_ARG, "read from no table");
    CHECK(stb_array_bytes(box, "e1", &data, &bytes) == STB_OK && bytes == 128, "e1's bytes");

    /* two-player answers */
    CHECK(stb_box_position(box, "1234", &mask, err, sizeof err) == STB_OK && mask == 15, "position 1234");
    CHECK(stb_box_position(box, "all", &mask, err, sizeof err) == STB_OK && mask == 15, "position all");
    CHECK(stb_box_position(box, "none", &mask, err, sizeof err) == STB_OK && mask == 0, "position none");
    CHECK(stb_box_position(box, "12345", &mask, err, sizeof err) == STB_ERR_QUERY, "no tile 5");
    CHECK(stb_box_expect(box, 15, 0, &value, err, sizeof err) == STB_OK && value == e1, "expect = e1");
    CHECK(stb_box_expect(box, 15, 3, &value, err, sizeof err) == STB_OK && fabs(value - 0.669549) < 1e-6,
          "player two's expected wins");
    CHECK(stb_box_expect(box, 0, 0, &value, err, sizeof err) == STB_ERR_QUERY, "the shut box");
    CHECK(stb_box_expect(box, 16, 0, &value, err, sizeof err) == STB_ERR_QUERY, "no tile 5 (bitmask)");
    CHECK(stb_box_expect(box, 15, 11, &value, err, sizeof err) == STB_ERR_QUERY, "score 11 of 10");
    CHECK(stb_box_expect(box, 15, -1, &value, err, sizeof err) == STB_ERR_QUERY, "score -1");
    CHECK(stb_box_move(box, 15, 0, 5, &move, err, sizeof err) == STB_OK && move == 6, "move [2, 3]");
    CHECK(stb_box_move(box, 3, 0, 4, &move, err, sizeof err) == STB_OK && move == 0, "no move: 0");
    CHECK(stb_box_move(box, 15, 0, 1, &move, err, sizeof err) == STB_ERR_QUERY, "roll 1 with two dice");
    CHECK(stb_box_move(box, 15, 0, 13, &move, err, sizeof err) == STB_ERR_QUERY, "roll 13");
    CHECK(stb_box_move(box, 15, 0, -2147483647 - 1, &move, err, sizeof err) == STB_ERR_QUERY, "roll INT_MIN");
    CHECK(stb_box_expect(pig, 15, 0, &value, err, sizeof err) == STB_ERR_GAME, "a pig table is no box");
    CHECK(stb_box_expect(NULL, 15, 0, &value, err, sizeof err) == STB_ERR_ARG, "no table");
    CHECK(stb_box_rules_of(box, NULL) == STB_ERR_ARG, "rules to NULL");
    {
        stb_box_rules rules;
        CHECK(stb_box_rules_of(box, &rules) == STB_OK && rules.tiles == 4 && rules.one_die_at_most == 6 &&
              rules.max_move_tiles == 0 && rules.max_score == 10 && rules.max_roll == 12, "the box's rules");
        CHECK(stb_box_rules_of(pig, &rules) == STB_ERR_GAME, "a pig table has no box rules");
    }

    /* the command line's words */
    CHECK(stb_answer(box, 5, words, out, sizeof out, err, sizeof err) == STB_OK && strcmp(out, "[1, 4]") == 0,
          "stb_answer");
    CHECK(stb_answer(box, 5, words, out, 6, err, sizeof err) == STB_ERR_ARG, "an answer one byte too long");
    CHECK(stb_answer(box, 5, words, out, 7, err, sizeof err) == STB_OK, "an answer that just fits");
    CHECK(stb_answer(box, 5, words, out, 0, err, sizeof err) == STB_ERR_ARG, "no room at all");
    CHECK(stb_answer(box, 5, words, NULL, 10, err, sizeof err) == STB_ERR_ARG, "no output");
    CHECK(stb_answer(box, -1, words, out, sizeof out, err, sizeof err) == STB_ERR_ARG, "argc -1");
    CHECK(stb_answer(box, 1, NULL, out, sizeof out, err, sizeof err) == STB_ERR_ARG, "argv NULL");
    CHECK(stb_answer(box, 0, NULL, out, sizeof out, err, sizeof err) == STB_ERR_QUERY, "no question");
    CHECK(stb_answer(box, 5, words, out, sizeof out, NULL, 0) == STB_OK, "no error buffer");
    ask(box, "", STB_OK, "");
    ask(box, "  \t ", STB_OK, "");
    ask(box, "--one --expect 1234", STB_OK, "0.533412");
    ask(box, "--one --expect all", STB_OK, "0.533412");
    ask(box, "--scores none --expect 1234", STB_OK, "0.533412");
    ask(box, "--scores 3 --expect 1234", STB_OK, "0.669549");
    ask(box, "--scores=3 --expect 1234", STB_OK, "0.669549");
    ask(box, "--scores 3,5 --expect 1234", STB_ERR_QUERY, NULL);
    ask(box, "--scores 4 --move 1234 5", STB_OK, "[1, 4]");
    ask(box, "--two --move 1234 4 5", STB_OK, "[1, 4]");
    ask(box, "--one --move 1234 99999999999", STB_ERR_QUERY, NULL);
    ask(box, "--one --move 1234 999999999999", STB_ERR_QUERY, NULL);
    ask(box, "--one --move 1234 -99999999999", STB_ERR_QUERY, NULL);
    ask(box, "--two --expect 1234 -0", STB_ERR_QUERY, NULL);
    ask(box, "--one --expect 1,2,3,4", STB_OK, "0.533412");
    ask(box, "--one --expect none", STB_ERR_QUERY, NULL);
    ask(box, "--one --expect ,,,", STB_ERR_QUERY, NULL);
    ask(box, "--one --expect \xff\xfe", STB_ERR_QUERY, NULL);
    ask(box, "--one --expect 1\xc3\xa9", STB_ERR_QUERY, NULL);
    ask(box, "--one --expect 1234 --one", STB_ERR_QUERY, NULL);
    ask(box, "--solo --expect 1234", STB_ERR_QUERY, NULL);
    ask(box, "--scores", STB_ERR_QUERY, NULL);
    ask(box, "--one --expect 0000000000000000000000000000000000000000000000000000000000000000000000000001", STB_ERR_QUERY,
        NULL);
    {
        char line[1200];
        size_t k;
        for (k = 0; k + 2 < sizeof line; k += 2)
            memcpy(line + k, "1 ", 2);
        line[k] = '\0';
        ask(box, line, STB_ERR_QUERY, NULL); /* hundreds of words */
        memset(line, '1', sizeof line - 1);
        line[sizeof line - 1] = '\0';
        memcpy(line, "--scores ", 9);
        ask(box, line, STB_ERR_QUERY, NULL); /* a 1000-digit score */
    }

    /* pig */
    CHECK(stb_pig_expect(pig, 0, 0, 0, &value, err, sizeof err) == STB_OK && fabs(value - 0.719201) < 1e-6, "pig expect");
    CHECK(stb_pig_move(pig, 0, 0, 0, &roll, err, sizeof err) == STB_OK && roll == 1, "pig k=0 rolls");
    CHECK(stb_pig_options(pig, 0, 0, 0, choices, &count, err, sizeof err) == STB_OK && count == 1 && choices[0].roll,
          "one choice at k = 0");
    CHECK(stb_pig_options(pig, 0, 0, 4, choices, &count, err, sizeof err) == STB_OK && count == 2 &&
          choices[0].roll == 1 && choices[1].roll == 0 && choices[0].loss == 0.0 && choices[1].loss > 0.4,
          "two choices");
    CHECK(stb_pig_expect(pig, 8, 0, 0, &value, err, sizeof err) == STB_ERR_QUERY, "I at the goal");
    CHECK(stb_pig_expect(pig, 0, 8, 0, &value, err, sizeof err) == STB_ERR_QUERY, "J at the goal");
    CHECK(stb_pig_expect(pig, 4, 0, 4, &value, err, sizeof err) == STB_ERR_QUERY, "I + K at the goal");
    CHECK(stb_pig_expect(pig, LLONG_MAX, 0, LLONG_MAX, &value, err, sizeof err) == STB_ERR_QUERY, "I, K huge");
    CHECK(stb_pig_expect(pig, 0, LLONG_MIN, 0, &value, err, sizeof err) == STB_ERR_QUERY, "J LLONG_MIN");
    CHECK(stb_pig_move(pig, 0, 0, -1, &roll, err, sizeof err) == STB_ERR_QUERY, "K -1");
    CHECK(stb_pig_expect(box, 0, 0, 0, &value, err, sizeof err) == STB_ERR_GAME, "a box table is no pig");
    CHECK(stb_pig_options(pig, 0, 0, 4, NULL, &count, err, sizeof err) == STB_ERR_ARG, "options to NULL");
    ask(pig, "--expect", STB_OK, "0.719201");
    ask(pig, "--options 0 0 4", STB_OK, "roll 0.780244 0.000000; hold 0.307532 0.472713");
    ask(pig, "--move 1 1 0", STB_OK, "roll");
    ask(pig, "--expect 1 2", STB_ERR_QUERY, NULL);
    ask(pig, "--expect 1 2 3 --move", STB_ERR_QUERY, NULL);
    ask(pig, "--expect 1 2 3 --goal", STB_ERR_QUERY, NULL);
    ask(pig, "--one --expect 1234", STB_ERR_QUERY, NULL);
    ask(box, "--expect 0 0 0", STB_ERR_QUERY, NULL);

    stb_close(box);
    stb_close(pig);
    printf("%s: %d checks, %d failed\n", failures ? "FAIL" : "ok", checks, failures);
    return failures ? 1 : 0;
}

static int dump(const char *path, const char *name)
{
    stb_table *t = NULL;
    stb_array_info info;
    char err[STB_ERRLEN];
    uint64_t k;
    if (stb_open(path, &t, err, sizeof err) != STB_OK) {
        printf("FAIL %s\n", err);
        return 1;
    }
    if (stb_array(t, name, &info) != STB_OK) {
        printf("FAIL no array %s\n", name);
        stb_close(t);
        return 1;
    }
    for (k = 0; k < info.count; k++) {
        double f;
        int64_t i;
        if (info.dtype == STB_F8 || info.dtype == STB_F4) {
            CHECK(stb_get_f64(t, name, k, &f) == STB_OK, "a float element");
            printf("%.17g\n", f);
        } else {
            uint64_t u;
            CHECK(stb_get_int(t, name, k, &i) == STB_OK, "an integer element");
            if (info.dtype == STB_U4 || info.dtype == STB_U2 || info.dtype == STB_U1)
                CHECK(stb_get_uint(t, name, k, &u) == STB_OK && (int64_t)u == i, "unsigned = signed");
            printf("%lld\n", (long long)i);
        }
    }
    {
        int64_t past;
        double pastf;
        CHECK(stb_get_int(t, name, info.count, &past) != STB_OK && stb_get_f64(t, name, info.count, &pastf) != STB_OK,
              "the element past the end is refused");
    }
    stb_close(t);
    return failures ? 1 : 0;
}

/* ---------------------------------------------------------------------------------------------- */

static uint64_t state;

static uint32_t next_random(void)
{
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(state >> 33);
}

static void fix_checksums(unsigned char *b, size_t n)
{
    static const char entry[] = "\xac" "header_crc32" "\xce";
    size_t k, len = sizeof entry - 1;
    for (k = 0; k + len + 4 <= n; k++)
        if (memcmp(b + k, entry, len) == 0) {
            put_be32(b + k + len, crc32_plain(b, k));
            break;
        }
    if (n >= 4)
        put_be32(b + n - 4, crc32_plain(b, n - 4));
}

static int fuzz(const char *path, long rounds, unsigned long seed)
{
    static const char *const questions[] = {
        "--one --expect all", "--one --move all 7", "--two --expect all 3", "--two --move 13 2 4",
        "--scores 5 --move 1 1", "--expect", "--expect 1 2 3", "--options 0 0 4", "--options 3 1 2", "--move 2 2 2",
        NULL};
    size_t size, n, k, i, step;
    unsigned char *good = slurp(path, &size), *copy;
    long counts[16], round;
    stb_table *t;
    char err[STB_ERRLEN], out[STB_ANSWERLEN];
    int status;
    memset(counts, 0, sizeof counts);
    if (good == NULL || size == 0) {
        printf("FAIL cannot read %s\n", path);
        return 1;
    }
    copy = (unsigned char *)malloc(size + 64);
    if (copy == NULL)
        return 1;
    CHECK(stb_open_memory(good, size, &t, err, sizeof err) == STB_OK, "the good table opens");
    stb_close(t);
    step = size / 4000 + 1;
    for (n = 0; n < size; n += step) { /* every truncation (or one in `step`) */
        t = NULL;
        status = stb_open_memory(good, n, &t, err, sizeof err);
        CHECK(status != STB_OK && t == NULL, "a truncated table is refused");
        counts[status & 15]++;
    }
    for (k = 0; k < size; k += step) { /* a bit flipped in every byte (or one in `step`) */
        memcpy(copy, good, size);
        copy[k] ^= (unsigned char)(1u << (k % 8));
        t = NULL;
        status = stb_open_memory(copy, size, &t, err, sizeof err);
        CHECK(status != STB_OK && t == NULL, "a flipped bit is refused");
        counts[status & 15]++;
    }
    state = seed;
    for (round = 0; round < rounds; round++) {
        int changes = 1 + (int)(next_random() % 4), c;
        n = size;
        memcpy(copy, good, size);
        for (c = 0; c < changes; c++) {
            uint32_t how = next_random() % 8;
            /* mostly in the header and the descriptors (the first 400 bytes), where the decoder works */
            size_t at = next_random() % 2 ? next_random() % (n < 400 ? n : 400) : next_random() % n;
            if (how <= 2) {
                copy[at] = (unsigned char)next_random();
            } else if (how <= 4) {
                copy[at] ^= (unsigned char)(1u << (next_random() % 8));
            } else if (how == 5 && n + 1 < size + 64) { /* insert a byte */
                memmove(copy + at + 1, copy + at, n - at);
                copy[at] = (unsigned char)next_random();
                n++;
            } else if (how == 6 && n > 1) { /* delete a byte */
                memmove(copy + at, copy + at + 1, n - at - 1);
                n--;
            } else { /* a small number, or a msgpack type byte */
                static const unsigned char special[] = {0x00, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1,
                                                        0xc2, 0xc4, 0xc5, 0xc6, 0xca, 0xcb, 0xcc, 0xcf, 0xd0, 0xd3,
                                                        0xd9, 0xdb, 0xdc, 0xdd, 0xde, 0xdf, 0xe0, 0xff};
                copy[at] = special[next_random() % sizeof special];
            }
        }
        fix_checksums(copy, n);
        t = NULL;
        status = stb_open_memory(copy, n, &t, err, sizeof err);
        CHECK((status == STB_OK) == (t != NULL), "a handle exactly when STB_OK");
        CHECK(strlen(err) < sizeof err, "a message within its buffer");
        counts[status & 15]++;
        if (status == STB_OK) {
            for (i = 0; questions[i] != NULL; i++)
                stb_answer_line(t, questions[i], out, sizeof out, err, sizeof err);
            for (i = 0; i < stb_array_count(t); i++) {
                stb_array_info info;
                double f;
                uint64_t u;
                if (stb_array(t, stb_array_name(t, i), &info) == STB_OK && info.count > 0) {
                    stb_get_f64(t, stb_array_name(t, i), info.count - 1, &f);
                    stb_get_uint(t, stb_array_name(t, i), info.count - 1, &u);
                    CHECK(stb_get_uint(t, stb_array_name(t, i), info.count, &u) != STB_OK, "past the end");
                }
            }
            stb_close(t);
        }
    }
    for (k = 0; k < 13; k++)
        if (counts[k])
            printf("%s %ld\n", stb_status_name((int)k), counts[k]);
    printf("%s: %d checks, %d failed\n", failures ? "FAIL" : "ok", checks, failures);
    free(copy);
    free(good);
    return failures ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc >= 3 && strcmp(argv[1], "open") == 0)
        return open_files(argc - 2, argv + 2) || failures;
    if (argc == 4 && strcmp(argv[1], "api") == 0)
        return api(argv[2], argv[3]);
    if (argc == 4 && strcmp(argv[1], "dump") == 0)
        return dump(argv[2], argv[3]);
    if (argc == 5 && strcmp(argv[1], "fuzz") == 0)
        return fuzz(argv[2], strtol(argv[3], NULL, 10), strtoul(argv[4], NULL, 10));
    fprintf(stderr, "usage: stb_selftest open FILE... | api TWO_PLAYER_T4 PIG_G8 | dump TABLE ARRAY | fuzz TABLE ROUNDS SEED\n");
    return 2;
}
