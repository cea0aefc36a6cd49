/*
 * stb_answer - the C reader's command line: prints what `ShutTheBox` prints for the same question.
 *
 *   stb_answer TABLE QUESTION...          one question (the command's words, without --table)
 *   stb_answer --batch TABLE < lines      one question a line, one answer a line ("error: ..." for a refused one)
 *   stb_answer --info TABLE               the header and the arrays of any table
 *
 *   $ stb_answer data/standard.msgpack --two --move 13456789 17 12
 *   [3, 9]
 *   $ stb_answer data/pig-pig-g100-s6.msgpack --options 0 0 25
 *   hold 0.657649 0.000000; roll 0.651341 0.006308
 *
 * Exit status as the command's: 0 answered, 1 a batch line refused, 2 a bad question (or usage), 3 the table
 * missing, damaged, or of a game or rules this reader does not answer. Errors are one line on standard error,
 * "error: MESSAGE" (batch lines refused: "error: MESSAGE" on standard output, in the answer's place).
 */
#include "shutthebox.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE_LIMIT 65536 /* a batch line longer than this is refused, as the command does */

static const char USAGE[] =
    "usage: stb_answer TABLE QUESTION...\n"
    "       stb_answer --batch TABLE < questions.txt\n"
    "       stb_answer --info TABLE\n"
    "The answers of `ShutTheBox --table TABLE QUESTION...` from a two-player Shut the Box table\n"
    "(--one --expect POSITION, --one --move POSITION ROLL, --two --expect POSITION SCORE,\n"
    " --two --move POSITION SCORE ROLL, --scores S --expect POSITION, --scores S --move POSITION ROLL)\n"
    "or a pig table (--expect [I J K], --move I J K, --options I J K).\n"
    "exit status: 0 answered, 1 a batch line refused, 2 bad question, 3 table missing or damaged\n";

/* The exit status of a failed question or table. */
static int status_exit(int status)
{
    return status == STB_ERR_QUERY || status == STB_ERR_ARG ? 2 : 3;
}

static void print_value(const stb_value *v)
{
    switch (v->kind) {
    case STB_V_NIL: printf("nil"); break;
    case STB_V_BOOL: printf("%s", v->i ? "true" : "false"); break;
    case STB_V_INT: printf("%lld", (long long)v->i); break;
    case STB_V_UINT: printf("%llu", (unsigned long long)v->u); break;
    case STB_V_FLOAT: printf("%.17g", v->f); break;
    case STB_V_STR: printf("\"%s\"", v->s); break;
    case STB_V_BIN: printf("(%lu bytes)", (unsigned long)v->len); break;
    case STB_V_ARRAY: printf("(an array of %lu)", (unsigned long)v->len); break;
    default: printf("(a map of %lu)", (unsigned long)v->len); break;
    }
}

static int info(const stb_table *t)
{
    static const char *const fields[] = {"generator", "game", "max_score", "max_roll", "players", "error_bound",
                                         "tie", NULL};
    long long major, minor;
    size_t i, d;
    stb_value v;
    stb_format_version(t, &major, &minor);
    printf("format %lld.%lld\n", major, minor);
    for (i = 0; fields[i] != NULL; i++)
        if (stb_header_value(t, fields[i], &v) == STB_OK) {
            printf("%s ", fields[i]);
            print_value(&v);
            printf("\n");
        }
    printf("rules");
    for (i = 0; i < stb_rule_count(t); i++) {
        stb_rule(t, stb_rule_key(t, i), &v);
        printf(" %s=", stb_rule_key(t, i));
        print_value(&v);
    }
    printf("\n");
    for (i = 0; i < stb_array_count(t); i++) {
        stb_array_info a;
        stb_array(t, stb_array_name(t, i), &a);
        printf("array %s %s [", stb_array_name(t, i), a.dtype_name);
        for (d = 0; d < a.ndim; d++)
            printf("%s%llu", d ? ", " : "", (unsigned long long)a.shape[d]);
        printf("] %llu elements, block_size %lu\n", (unsigned long long)a.count, (unsigned long)a.block_size);
    }
    return 0;
}

static int batch(const stb_table *t)
{
    char *line = (char *)malloc(LINE_LIMIT + 2);
    char out[STB_ANSWERLEN], err[STB_ERRLEN];
    int failed = 0;
    if (line == NULL) {
        fprintf(stderr, "error: out of memory\n");
        return 3;
    }
    while (fgets(line, LINE_LIMIT + 2, stdin) != NULL) {
        size_t n = strlen(line);
        int status;
        if (n > 0 && line[n - 1] == '\n') {
            line[--n] = '\0';
        } else if (n > LINE_LIMIT) { /* longer than the limit: skip the rest of the line */
            int ch;
            while ((ch = getchar()) != EOF && ch != '\n')
                ;
        }
        if (n > LINE_LIMIT) {
            printf("error: the line is longer than %d bytes\n", LINE_LIMIT);
            failed = 1;
            continue;
        }
        status = stb_answer_line(t, line, out, sizeof out, err, sizeof err);
        if (status == STB_OK) {
            printf("%s\n", out);
        } else if (status == STB_ERR_QUERY) {
            printf("error: %s\n", err);
            failed = 1;
        } else {
            fflush(stdout);
            fprintf(stderr, "error: %s\n", err);
            free(line);
            return status_exit(status);
        }
    }
    free(line);
    if (ferror(stdin)) {
        fprintf(stderr, "error: cannot read standard input\n");
        return 2;
    }
    return failed;
}

int main(int argc, char **argv)
{
    stb_table *t = NULL;
    char out[STB_ANSWERLEN], err[STB_ERRLEN];
    const char *path;
    int mode = 0, status, code; /* 0 one question, 1 batch, 2 info */
    if (argc >= 2 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        fputs(USAGE, stdout);
        return 0;
    }
    if (argc >= 2 && strcmp(argv[1], "--batch") == 0)
        mode = 1;
    else if (argc >= 2 && strcmp(argv[1], "--info") == 0)
        mode = 2;
    if ((mode == 0 && argc < 3) || (mode != 0 && argc != 3)) {
        fputs(USAGE, stderr);
        return 2;
    }
    path = argv[mode == 0 ? 1 : 2];
    status = stb_open(path, &t, err, sizeof err);
    if (status != STB_OK) {
        fprintf(stderr, "error: %s\n", err);
        return 3;
    }
    if (mode == 2) {
        code = info(t);
    } else if (mode == 1) {
        code = batch(t);
    } else {
        status = stb_answer(t, argc - 2, (const char *const *)(argv + 2), out, sizeof out, err, sizeof err);
        if (status == STB_OK) {
            printf("%s\n", out);
            code = 0;
        } else {
            fprintf(stderr, "error: %s\n", err);
            code = status_exit(status);
        }
    }
    stb_close(t);
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "error: cannot write the answer\n");
        return code ? code : 2;
    }
    return code;
}
