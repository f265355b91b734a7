/*
 * An input of the fuzz targets (tests/fuzz-solve.c, tests/fuzz-plugin.c)
 * read byte by byte: bytes past its end read as 0, so that any input, however
 * short, reads as a whole query or room.
 */
#ifndef BOXTOI_TEST_FUZZ_BYTES_H
#define BOXTOI_TEST_FUZZ_BYTES_H

#include <stddef.h>
#include <stdint.h>

typedef struct fuzz_bytes {
    const uint8_t *p;
    size_t n; /* bytes left */
} fuzz_bytes;

/* The next byte, or 0 past the end. */
static inline unsigned fuzz_u8(fuzz_bytes *r)
{
    if (!r->n)
        return 0;
    r->n--;
    return *r->p++;
}

/* The next byte, signed. */
static inline int fuzz_i8(fuzz_bytes *r)
{
    return (int)(signed char)fuzz_u8(r);
}

#endif
