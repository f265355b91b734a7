/*
 * The fuzz target of the ODE plugin's stepper (tests/fuzz-plugin.c): one
 * input (any bytes) read as a closed room of thin walls with fast boxtoi
 * boxes in it, stepped with dWorldStepToContact, and the run checked.
 * Built as a libFuzzer program (configure --enable-fuzzing, make fuzz) and
 * into test-fuzz-replay, which runs the inputs of tests/data/fuzz/plugin.hex
 * in make check.
 */
#ifndef BOXTOI_TEST_FUZZ_PLUGIN_H
#define BOXTOI_TEST_FUZZ_PLUGIN_H

#include <stddef.h>
#include <stdint.h>

/*
 * Run the input's room twice and check both runs.  Returns 0 when they
 * pass, 1 with what failed in why (and the room as TAP diagnostics).
 */
int fuzz_plugin_check(const uint8_t *data, size_t size, char *why, size_t n);

/* The most the stepper did in the input's room, over all its steps. */
enum {
    FUZZ_ROOM_QUIET,       /* no impact: plain dWorldStep throughout */
    FUZZ_ROOM_IMPACTS,     /* sub-steps ended at impacts */
    FUZZ_ROOM_SPECULATIVE, /* sub-steps ran out: speculative contacts */
    FUZZ_ROOM_REDONE,      /* the check of the actual paths redid a sub-step */
    FUZZ_ROOM_KINDS
};
int fuzz_plugin_kind(const uint8_t *data, size_t size);

#endif
