/*
 * The fuzz target of the boxtoi command's line reader (tests/fuzz-tool.c):
 * one input (any bytes, up to its first newline) answered as a line of
 * JSON Lines by tool_answer_line (tools/query.h), and the answer checked.
 * Built as a libFuzzer program (configure --enable-fuzzing, make fuzz) and
 * into test-fuzz-replay, which runs the inputs of tests/data/fuzz/tool.hex
 * in make check.
 */
#ifndef BOXTOI_TEST_FUZZ_TOOL_H
#define BOXTOI_TEST_FUZZ_TOOL_H

#include <stddef.h>
#include <stdint.h>

/*
 * Answer the input's line and check the answer.  Returns 0 when it passes,
 * 1 with what failed in why (and the line and answer as TAP diagnostics).
 */
int fuzz_tool_check(const uint8_t *data, size_t size, char *why, size_t n);

/* What the command answers the input's line with. */
enum {
    FUZZ_LINE_BLANK,   /* nothing: the line is blank */
    FUZZ_LINE_ERROR,
    FUZZ_LINE_HIT,
    FUZZ_LINE_MISS,
    FUZZ_LINE_OVERLAP,
    FUZZ_LINE_STATES
};
int fuzz_tool_status(const uint8_t *data, size_t size);

#endif
