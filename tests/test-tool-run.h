/*
 * Running the built boxtoi command from a test: the program is
 * $BOXTOI_TOOL, or ../tools/boxtoi relative to the tests' build directory.
 */
#ifndef BOXTOI_TEST_TOOL_RUN_H
#define BOXTOI_TEST_TOOL_RUN_H

#include <stddef.h>

/* Output of one run. */
typedef struct tool_run {
    int status;     /* exit status, or -1 when the command did not exit */
    char *out;      /* standard output, NUL-terminated */
    size_t out_len;
    char *err;      /* standard error, NUL-terminated */
    char **lines;   /* out split at newlines (pointers into a copy) */
    int nlines;
} tool_run;

/* Path of the tool. */
const char *tool_path(void);

/*
 * Run "TOOL ARGS", with input (when not NULL) written to a file that becomes
 * its standard input.  Fills *run; free it with tool_run_free.  Files the
 * test and the command write are limited to 256 MiB (RLIMIT_FSIZE): a
 * command that writes without end is killed there (status -1).
 */
void tool_run_cmd(tool_run *run, const char *args, const char *input);

void tool_run_free(tool_run *run);

/* Write text to a file in the current directory; bails out on failure. */
void tool_write_file(const char *name, const char *text);

/* A data file from the source tree: $srcdir/data/tool/NAME (static buffer). */
const char *tool_data_path(const char *name);

#endif
