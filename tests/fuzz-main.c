/*
 * libFuzzer's entry point for one fuzz target: FUZZ_CHECK, the target's
 * check function (fuzz_solve_check, fuzz_tool_check), is set by the build
 * (tests/fuzz.am).  A failed check prints why and aborts, so that libFuzzer
 * keeps the input.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define FUZZ_NAME_(f) #f
#define FUZZ_NAME(f) FUZZ_NAME_(f)

int FUZZ_CHECK(const uint8_t *data, size_t size, char *why, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char why[1024];
    if (FUZZ_CHECK(data, size, why, sizeof why)) {
        fflush(stdout);
        fprintf(stderr, "%s: %s\n", FUZZ_NAME(FUZZ_CHECK), why);
        abort();
    }
    return 0;
}
