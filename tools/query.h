/*
 * One line of boxtoi's JSON Lines protocol: parse a query, solve it, write
 * the answer.  See docs/query-format.md for both formats.
 */
#ifndef BOXTOI_TOOL_QUERY_H
#define BOXTOI_TOOL_QUERY_H

#include "../lib/ieee.h"

#include <stddef.h>

/** A growable byte buffer; the zero value is an empty buffer. */
typedef struct tool_buf {
    char *data;
    size_t len;
    size_t cap;
} tool_buf;

/** Say "boxtoi: out of memory" on standard error and exit with status 2,
 *  after calling the hook set by tool_on_out_of_memory, if any. */
_Noreturn void tool_out_of_memory(void);

/** Set the hook tool_out_of_memory calls first (before any thread starts). */
void tool_on_out_of_memory(void (*hook)(void));

/** Make room for `extra` more bytes: 0, or -1 when out of memory (the buffer
 *  unchanged). */
int tool_buf_try_reserve(tool_buf *buf, size_t extra);

/** Make room for `extra` more bytes (exits the process when out of memory). */
void tool_buf_reserve(tool_buf *buf, size_t extra);

/** Append n bytes. */
void tool_buf_append(tool_buf *buf, const char *s, size_t n);

/** Release the buffer's memory and make it empty. */
void tool_buf_free(tool_buf *buf);

/** Give back what the buffer holds beyond `keep` bytes of room (none where
 *  it holds more than that, or where the system keeps it). */
void tool_buf_shrink(tool_buf *buf, size_t keep);

/** Longest text tool_format_double writes, with the terminating NUL. */
#define TOOL_DOUBLE_MAX 32

/**
 * Fill the tables tool_format_double uses.  Call once before any other
 * function here, and before starting threads.
 */
void tool_format_init(void);

/**
 * Write x as the shortest of its 15, 16 or 17 significant digit forms that
 * strtod reads back to exactly x ("null" when x is NaN or infinite, "-0.0"
 * for negative zero, plain digits for integers below 1e15).  out
 * needs TOOL_DOUBLE_MAX bytes.  Returns the length written.
 */
size_t tool_format_double(char *out, double x);

/**
 * The same text as tool_format_double, found with printf's digits, each
 * candidate read back by strtod.  tool_format_double takes this path where
 * long double has no more precision than double; elsewhere it serves the
 * tests as the reference.
 */
size_t tool_format_double_plain(char *out, double x);

/**
 * Make jansson allocate from a per-thread arena that tool_answer_line
 * empties after each line (no JSON value outlives its line), seed its hash
 * function, and take the library's default query.  Call once, before any
 * thread parses JSON.
 */
void tool_json_init(void);

/** Release the calling thread's arena; call before a thread ends. */
void tool_thread_done(void);

/**
 * How many CPUs the process may run on (its affinity mask; the online CPUs
 * where that cannot be read), at least 1.
 */
int tool_cpu_count(void);

/** Is the line empty or made of JSON whitespace only? */
int tool_line_is_blank(const char *line, size_t len);

/**
 * Answer one input line (without its line terminator): append exactly one
 * JSON object and a newline to out.  file names the input for error
 * messages (NULL for standard input); lineno counts from 1.  Returns 0 when
 * the query was answered (hit, miss or overlap), 1 when the answer is an
 * error.
 */
int tool_answer_line(const char *line, size_t len, const char *file,
                     long lineno, tool_buf *out);

#endif
