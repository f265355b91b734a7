/*
 * One line of boxtoi's JSON Lines protocol: parse a query with jansson,
 * check every field (reporting the first problem with its field path), solve
 * it, and write the answer as one JSON object.
 */
#define _GNU_SOURCE /* strnlen; sched_getaffinity and CPU_COUNT */
#include <config.h>

#include "query.h"

#include <boxtoi.h>
#include <jansson.h>

#include <float.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdalign.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ------------------------------------------------------------------ */
/* Buffers                                                             */

static void (*oom_hook)(void);

void tool_on_out_of_memory(void (*hook)(void))
{
    oom_hook = hook;
}

void tool_out_of_memory(void)
{
    if (oom_hook != NULL)
        oom_hook();
    fputs("boxtoi: out of memory\n", stderr);
    exit(2);
}

int tool_buf_try_reserve(tool_buf *buf, size_t extra)
{
    if (buf->cap - buf->len >= extra)
        return 0;
    size_t cap = buf->cap ? buf->cap : 256;
    while (cap - buf->len < extra) {
        if (cap > SIZE_MAX / 2)
            return -1;
        cap *= 2;
    }
    char *p = realloc(buf->data, cap);
    if (p == NULL)
        return -1;
    buf->data = p;
    buf->cap = cap;
    return 0;
}

void tool_buf_reserve(tool_buf *buf, size_t extra)
{
    if (tool_buf_try_reserve(buf, extra) < 0)
        tool_out_of_memory();
}

void tool_buf_append(tool_buf *buf, const char *s, size_t n)
{
    tool_buf_reserve(buf, n);
    memcpy(buf->data + buf->len, s, n);
    buf->len += n;
}

void tool_buf_free(tool_buf *buf)
{
    free(buf->data);
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

void tool_buf_shrink(tool_buf *buf, size_t keep)
{
    if (buf->cap <= keep || buf->len > keep)
        return;
    if (keep == 0) {
        tool_buf_free(buf);
        return;
    }
    char *p = realloc(buf->data, keep);
    if (p != NULL) {
        buf->data = p;
        buf->cap = keep;
    }
}

static void put_str(tool_buf *buf, const char *s)
{
    tool_buf_append(buf, s, strlen(s));
}

/* The library's default query, copied for each line (set once, before any
 * thread starts). */
static boxtoi_query query_template;

/* ------------------------------------------------------------------ */
/* Memory for jansson: one arena per thread, emptied after each line   */

/*
 * Every json_t of a line lives until the line is answered and no longer,
 * so jansson allocates from a bump arena that is emptied once the answer
 * is written: an allocation is a pointer increment, a free does nothing,
 * and the tree is never walked to release it.  The arena is per thread
 * (jansson's allocation hooks take no context).  A line that needs more
 * than the current block chains further blocks; they are released when the
 * line is done, and the next line starts with one block as big as they
 * were together (none above ARENA_KEEP: memory goes back after a huge
 * line).
 */
#ifdef BOXTOI_ASAN /* config.h */
#include <sanitizer/asan_interface.h>
#define ARENA_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define ARENA_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define ARENA_POISON(p, n) ((void)(p), (void)(n))
#define ARENA_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define ARENA_ALIGN alignof(max_align_t)
#define ARENA_FIRST ((size_t)64 * 1024)
#define ARENA_KEEP ((size_t)4 * 1024 * 1024)

/* A block: this header, then the memory handed out. */
typedef struct arena_block {
    struct arena_block *prev; /* the line's earlier blocks */
    size_t cap;               /* bytes after the header */
    alignas(ARENA_ALIGN) char data[];
} arena_block;

typedef struct arena {
    char *next;         /* free memory of the current block ... */
    char *end;          /* ... up to here */
    arena_block *block; /* current block, or NULL */
} arena;

static _Thread_local arena tls_arena;

static arena_block *arena_block_new(size_t cap, arena_block *prev)
{
    arena_block *b = malloc(sizeof *b + cap);
    if (b == NULL)
        return NULL;
    b->prev = prev;
    b->cap = cap;
    ARENA_POISON(b->data, cap);
    return b;
}

/* Start a new block for n bytes (a multiple of ARENA_ALIGN). */
static __attribute__((noinline)) void *arena_alloc_slow(size_t n)
{
    arena *a = &tls_arena;
    size_t cap = a->block ? 2 * a->block->cap : ARENA_FIRST;
    if (cap < n)
        cap = n;
    arena_block *b = arena_block_new(cap, a->block);
    if (b == NULL)
        tool_out_of_memory(); /* jansson 2.14 does not always survive a NULL */
    a->block = b;
    a->next = b->data + n;
    a->end = b->data + cap;
    ARENA_UNPOISON(b->data, n);
    return b->data;
}

static void *arena_alloc(size_t n)
{
    arena *a = &tls_arena;
    size_t r = (n + ARENA_ALIGN - 1) & ~(size_t)(ARENA_ALIGN - 1);
    if (r - 1 >= (size_t)PTRDIFF_MAX) {
        /* 0 bytes, or too many (r wrapped around to 0, or is huge) */
        if (n != 0)
            tool_out_of_memory();
        r = ARENA_ALIGN;
    }
    if ((size_t)(a->end - a->next) >= r) {
        char *p = a->next;
        a->next = p + r;
        ARENA_UNPOISON(p, r);
        return p;
    }
    return arena_alloc_slow(r);
}

static void arena_free(void *p)
{
    (void)p; /* released with the whole line */
}

/* Forget everything allocated for the line. */
static void arena_reset(void)
{
    arena *a = &tls_arena;
    arena_block *b = a->block;
    if (b == NULL)
        return;
    if (b->prev != NULL || b->cap > ARENA_KEEP) {
        /* Several blocks, or a big one: free them, and start the next line
         * with one block as big as they were together, up to ARENA_KEEP. */
        size_t total = 0;
        while (b != NULL) {
            arena_block *prev = b->prev;
            total += b->cap;
            free(b);
            b = prev;
        }
        a->block = NULL;
        if (total <= ARENA_KEEP)
            a->block = arena_block_new(total, NULL);
    } else {
        ARENA_POISON(b->data, (size_t)(a->next - b->data));
    }
    a->next = a->block ? a->block->data : NULL;
    a->end = a->block ? a->block->data + a->block->cap : NULL;
}

void tool_json_init(void)
{
    json_set_alloc_funcs(arena_alloc, arena_free);
    json_object_seed(0);
    query_template = boxtoi_default_query();
}

void tool_thread_done(void)
{
    arena *a = &tls_arena;
    arena_reset();
    free(a->block);
    a->block = NULL;
    a->next = a->end = NULL;
}

/*
 * The CPUs this process may run on: its affinity mask (a cpuset, taskset,
 * a container's limit), else the online CPUs where the mask cannot be read.
 */
int tool_cpu_count(void)
{
#ifdef CPU_COUNT
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int n = CPU_COUNT(&set);
        if (n > 0)
            return n;
    }
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > INT_MAX ? INT_MAX : (int)n;
}

/* ------------------------------------------------------------------ */
/* Doubles that read back exactly                                      */

/*
 * The digits are computed in long double, which decides most candidates
 * without strtod: with a 64-bit significand (x87's extended, or a quad),
 * the candidate's distance from x is known to about 1e-3 of an ulp, far
 * inside the 0.45 / 0.55 ulp margins below.  Where long double is double
 * (LDBL_MANT_DIG 53: armhf, among others), that distance carries an error
 * of an ulp, so every candidate is read back by strtod instead
 * (tool_format_double_plain).  Valgrind computes x87 long double in double
 * precision too: under it the fast path writes digits that need not read
 * back, while the solver's answers are the same.
 */
#if LDBL_MANT_DIG >= 64
#define TOOL_FAST_FORMAT 1
#else
#define TOOL_FAST_FORMAT 0
#endif

#if TOOL_FAST_FORMAT
#define POW10_MIN (-400)
#define POW10_MAX 400
static long double pow10_table[POW10_MAX - POW10_MIN + 1];

static const uint64_t pow10_u64[18] = {
    1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
    10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
    100000000000ULL, 1000000000000ULL, 10000000000000ULL,
    100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
    100000000000000000ULL};

void tool_format_init(void)
{
    for (int n = POW10_MIN; n <= POW10_MAX; n++)
        pow10_table[n - POW10_MIN] = powl(10.0L, (long double)n);
}

static long double pow10l_of(int n)
{
    if (n < POW10_MIN)
        n = POW10_MIN;
    if (n > POW10_MAX)
        n = POW10_MAX;
    return pow10_table[n - POW10_MIN];
}
#else
void tool_format_init(void)
{
}
#endif

/* Write an unsigned integer in decimal; returns the length. */
static size_t put_u64(char *out, uint64_t v)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (size_t i = 0; i < n; i++)
        out[i] = tmp[n - 1 - i];
    return n;
}

#if TOOL_FAST_FORMAT
/*
 * Write the p-digit decimal q (10^(p-1) <= q < 10^p) times 10^(e - p + 1)
 * the way printf's "%.{p}g" does: trailing zeros dropped, exponent form when
 * e < -4 or e >= p.  Returns the length; NUL-terminates.
 */
static size_t put_digits(char *out, uint64_t q, int p, int e)
{
    char d[20];
    int nd = p;
    for (int i = p - 1; i >= 0; i--) {
        d[i] = (char)('0' + q % 10);
        q /= 10;
    }
    while (nd > 1 && d[nd - 1] == '0')
        nd--;
    size_t n = 0;
    if (e < -4 || e >= p) {
        out[n++] = d[0];
        if (nd > 1) {
            out[n++] = '.';
            for (int i = 1; i < nd; i++)
                out[n++] = d[i];
        }
        out[n++] = 'e';
        out[n++] = e < 0 ? '-' : '+';
        int ae = e < 0 ? -e : e;
        if (ae < 10)
            out[n++] = '0';
        n += put_u64(out + n, (uint64_t)ae);
    } else if (e >= 0) {
        for (int i = 0; i <= e; i++)
            out[n++] = i < nd ? d[i] : '0';
        if (nd > e + 1) {
            out[n++] = '.';
            for (int i = e + 1; i < nd; i++)
                out[n++] = d[i];
        }
    } else {
        out[n++] = '0';
        out[n++] = '.';
        for (int i = 0; i < -e - 1; i++)
            out[n++] = '0';
        for (int i = 0; i < nd; i++)
            out[n++] = d[i];
    }
    out[n] = '\0';
    return n;
}
#endif

/*
 * NaN and infinities, zeros and integers below 1e15, which need no digits
 * to be chosen: written to out, their length in *n.  Returns 0 for the
 * other numbers.
 */
static int format_exact(char *out, double x, size_t *n)
{
    if (!isfinite(x)) {
        memcpy(out, "null", 5);
        *n = 4;
        return 1;
    }
    if (x == 0) {
        if (signbit(x)) {
            /* "-0" would read back as the integer 0 in some readers */
            memcpy(out, "-0.0", 5);
            *n = 4;
            return 1;
        }
        memcpy(out, "0", 2);
        *n = 1;
        return 1;
    }
    double ax = fabs(x);
    if (ax < 1e15 && ax == floor(ax)) {
        char *p = out;
        if (x < 0)
            *p++ = '-';
        size_t k = put_u64(p, (uint64_t)ax);
        p[k] = '\0';
        *n = (size_t)(p - out) + k;
        return 1;
    }
    return 0;
}

/*
 * x in prec significant digits as printf's "%.{prec}g" writes them (it
 * rounds the exact binary value): their length when strtod reads them back
 * to x, else 0.
 */
static size_t printf_digits(char *out, double x, int prec)
{
    int n = snprintf(out, TOOL_DOUBLE_MAX, "%.*g", prec, x);
    return n > 0 && strtod(out, NULL) == x ? (size_t)n : 0;
}

size_t tool_format_double_plain(char *out, double x)
{
    size_t n;
    if (format_exact(out, x, &n))
        return n;
    for (int prec = 15; prec < 17; prec++)
        if ((n = printf_digits(out, x, prec)) > 0)
            return n;
    int k = snprintf(out, TOOL_DOUBLE_MAX, "%.17g", x); /* 17 digits always read back */
    return k > 0 ? (size_t)k : 0;
}

size_t tool_format_double(char *out, double x)
{
#if TOOL_FAST_FORMAT
    size_t done;
    if (format_exact(out, x, &done))
        return done;
    char *p = out;
    if (x < 0)
        *p++ = '-';
    double ax = fabs(x);
    /* Seventeen significant digits d, x ~ d * 10^(e - 16), computed in
     * extended precision; the strtod check below makes the result exact
     * whatever the rounding of this step. */
    int e = (int)floor(log10(ax));
    long double s = (long double)ax * pow10l_of(16 - e);
    if (s >= 1e17L) {
        e++;
        s = (long double)ax * pow10l_of(16 - e);
    } else if (s < 1e16L) {
        e--;
        s = (long double)ax * pow10l_of(16 - e);
    }
    if (s >= 1e16L && s < 1e17L) {
        /* Spacing of doubles around x, to decide most candidates without
         * strtod: the candidate reads back to x when it lies within half a
         * spacing of x.  Near the boundary (and at powers of two, where the
         * spacing below is half the one above) strtod decides. */
        int ex;
        double m = frexp(ax, &ex);
        long double ulp = ldexpl(1.0L, ex - 53 < -1074 ? -1074 : ex - 53);
        for (int prec = 15; prec <= 17; prec++) {
            long double sp = s / (long double)pow10_u64[17 - prec];
            long double frac = sp - floorl(sp);
            if (fabsl(frac - 0.5L) < 2e-2L) {
                /* Too close to a tie to round here: ask printf. */
                size_t n = printf_digits(out, x, prec);
                if (n > 0)
                    return n;
                continue;
            }
            uint64_t q = (uint64_t)llroundl(sp);
            int qe = e;
            if (q >= pow10_u64[prec]) {
                q /= 10;
                qe++;
            }
            long double y = (long double)q * pow10l_of(qe - prec + 1);
            long double dist = fabsl(y - (long double)ax) / ulp;
            if (m != 0.5 && dist > 0.55L)
                continue;
            size_t n = put_digits(p, q, prec, qe);
            if ((m != 0.5 && dist < 0.45L) || strtod(out, NULL) == x)
                return (size_t)(p - out) + n;
        }
    }
    /* Not reached for ordinary doubles. */
#endif
    return tool_format_double_plain(out, x);
}

static void put_double(tool_buf *buf, double x)
{
    tool_buf_reserve(buf, TOOL_DOUBLE_MAX);
    buf->len += tool_format_double(buf->data + buf->len, x);
}

/* ------------------------------------------------------------------ */
/* JSON output                                                         */

/* Write byte c as it goes inside a JSON string literal (escaped when it
 * must be, or is a control character); o has room for 6 bytes. */
static inline char *put_string_byte(char *o, unsigned char c)
{
    static const char hex[] = "0123456789abcdef";
    if (c == '"' || c == '\\') {
        *o++ = '\\';
        *o++ = (char)c;
    } else if (c == '\n') {
        *o++ = '\\';
        *o++ = 'n';
    } else if (c == '\t') {
        *o++ = '\\';
        *o++ = 't';
    } else if (c < 0x20 || c == 0x7f) {
        *o++ = '\\';
        *o++ = 'u';
        *o++ = '0';
        *o++ = '0';
        *o++ = hex[c >> 4];
        *o++ = hex[c & 15];
    } else {
        *o++ = (char)c;
    }
    return o;
}

/* Append s as a JSON string literal (s is UTF-8: jansson checked it). */
static void put_json_string(tool_buf *buf, const char *s, size_t n)
{
    tool_buf_reserve(buf, 2 + 6 * n);
    char *o = buf->data + buf->len;
    *o++ = '"';
    for (size_t i = 0; i < n; i++)
        o = put_string_byte(o, (unsigned char)s[i]);
    *o++ = '"';
    buf->len = (size_t)(o - buf->data);
}

/*
 * The UTF-8 sequence at s[0 .. n), n > 0: returns 1 when it is well formed
 * (RFC 3629: no overlong forms, surrogates or code points above U+10FFFF),
 * else 0; *len is its length, or for an ill-formed one the length of its
 * maximal well-formed start (at least 1), which one U+FFFD replaces.
 */
static int utf8_next(const unsigned char *s, size_t n, size_t *len)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t need;
    *len = 1;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    for (size_t i = 1; i <= need; i++) {
        if (i >= n || s[i] < lo || s[i] > hi)
            return 0;
        *len = i + 1;
        lo = 0x80;
        hi = 0xBF;
    }
    return 1;
}

/* Append s[0 .. n), which need not be UTF-8 (a file name), escaped as the
 * inside of a JSON string literal: each ill-formed sequence becomes U+FFFD,
 * so the answer is always valid UTF-8. */
static void put_json_text_lossy(tool_buf *buf, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    tool_buf_reserve(buf, 6 * n);
    char *o = buf->data + buf->len;
    size_t i = 0;
    while (i < n) {
        size_t len;
        if (u[i] < 0x80) {
            o = put_string_byte(o, u[i++]);
        } else if (utf8_next(u + i, n - i, &len)) {
            memcpy(o, s + i, len);
            o += len;
            i += len;
        } else {
            memcpy(o, "\xEF\xBF\xBD", 3); /* U+FFFD */
            o += 3;
            i += len;
        }
    }
    buf->len = (size_t)(o - buf->data);
}

/* How much of the UTF-8 string s fits in max bytes, cut at a character
 * boundary (for "%.*s"). */
static int utf8_prefix(const char *s, size_t max)
{
    size_t n = strnlen(s, max);
    if (n == max)
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--; /* s[n] continues the character before it */
    return (int)n;
}

/* Append a JSON value other than an object or an array. */
static __attribute__((noinline)) void put_json_scalar(tool_buf *buf, const json_t *v)
{
    char tmp[32];
    switch (json_typeof(v)) {
    case JSON_STRING:
        put_json_string(buf, json_string_value(v), json_string_length(v));
        break;
    case JSON_INTEGER: {
        json_int_t i = json_integer_value(v);
        size_t n = 0;
        uint64_t mag = (uint64_t)i;
        if (i < 0) {
            tmp[n++] = '-';
            mag = -mag;
        }
        n += put_u64(tmp + n, mag);
        tool_buf_append(buf, tmp, n);
        break;
    }
    case JSON_REAL: {
        /* Keep a real looking like one ("2.0", not "2"), so that the echoed
         * value reads back as the same JSON real. */
        size_t n = tool_format_double(tmp, json_real_value(v));
        tool_buf_append(buf, tmp, n);
        if (strpbrk(tmp, ".en") == NULL)
            tool_buf_append(buf, ".0", 2);
        break;
    }
    case JSON_TRUE:
        put_str(buf, "true");
        break;
    case JSON_FALSE:
        put_str(buf, "false");
        break;
    case JSON_NULL:
    default:
        put_str(buf, "null");
        break;
    }
}

/* Append a JSON value, numbers written to read back exactly.  It recurses
 * once per level of nesting (jansson's parser allows 2048), so its frame
 * holds only what the containers need: an id nested that deep is echoed
 * within the stack jansson's parser took to read it (192 KiB, measured). */
static void put_json(tool_buf *buf, const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT: {
        const char *key;
        json_t *val;
        int first = 1;
        tool_buf_append(buf, "{", 1);
        /* json_object_foreach takes a non-const object. */
        json_t *obj = (json_t *)v;
        json_object_foreach(obj, key, val) {
            if (!first)
                tool_buf_append(buf, ", ", 2);
            first = 0;
            put_json_string(buf, key, strlen(key));
            tool_buf_append(buf, ": ", 2);
            put_json(buf, val);
        }
        tool_buf_append(buf, "}", 1);
        break;
    }
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        tool_buf_append(buf, "[", 1);
        for (size_t i = 0; i < n; i++) {
            if (i)
                tool_buf_append(buf, ", ", 2);
            put_json(buf, json_array_get(v, i));
        }
        tool_buf_append(buf, "]", 1);
        break;
    }
    default:
        put_json_scalar(buf, v);
        break;
    }
}

/* ------------------------------------------------------------------ */
/* Query parsing                                                       */

#define ERR_MAX 640
/* Bytes of an unknown field's name that an error message shows at most. */
#define KEY_SHOWN 80

static int fail(char *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Record an error message; returns -1 for "return fail(...)". */
static int fail(char *err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, ERR_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

static const char *type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
        return "true";
    case JSON_FALSE:
        return "false";
    case JSON_NULL:
    default:
        return "null";
    }
}

/*
 * A JSON number as a finite double.  Returns NULL, or what is wrong with v
 * (the caller adds where: the path is formatted only for an error).
 */
static const char *get_number_slow(const json_t *v, double *out, char *what,
                                   size_t size)
{
    double x;
    if (json_is_integer(v))
        x = (double)json_integer_value(v);
    else if (json_is_real(v))
        x = json_real_value(v);
    else {
        snprintf(what, size, "expected a number, got %s", type_name(v));
        return what;
    }
    if (!isfinite(x))
        return "not a finite number";
    *out = x;
    return NULL;
}

/* get_number, with the usual cases (a finite real, an integer) inlined. */
static inline const char *get_number(const json_t *v, double *out, char *what,
                                     size_t size)
{
    if (json_typeof(v) == JSON_REAL) {
        double x = json_real_value(v);
        if (isfinite(x)) {
            *out = x;
            return NULL;
        }
    } else if (json_typeof(v) == JSON_INTEGER) {
        *out = (double)json_integer_value(v);
        return NULL;
    }
    return get_number_slow(v, out, what, size);
}

/* box.min or box.max: an array of three numbers. */
static int get_corner(const json_t *v, double out[3], char *err,
                      const char *box, const char *field)
{
    char what[64];
    const char *bad;
    if (!json_is_array(v))
        return fail(err, "%s.%s: expected an array of 3 numbers, got %s",
                    box, field, type_name(v));
    if (json_array_size(v) != 3)
        return fail(err, "%s.%s: expected 3 numbers, got %zu", box, field,
                    json_array_size(v));
    for (int i = 0; i < 3; i++)
        if ((bad = get_number(json_array_get(v, (size_t)i), &out[i], what,
                              sizeof what)))
            return fail(err, "%s.%s[%d]: %s", box, field, i, bad);
    return 0;
}

/* box.motion: 1 .. BOXTOI_MAX_DEGREE + 1 matrices of 4 rows of 4 numbers. */
static int get_motion(const json_t *v, boxtoi_motion *m, char *err,
                      const char *box)
{
    char what[64];
    const char *bad;
    if (!json_is_array(v))
        return fail(err,
                    "%s.motion: expected an array of 4x4 coefficient matrices, "
                    "got %s",
                    box, type_name(v));
    size_t n = json_array_size(v);
    if (n == 0)
        return fail(err,
                    "%s.motion: empty; give at least one 4x4 matrix, or leave "
                    "the field out for a box that does not move",
                    box);
    if (n > BOXTOI_MAX_DEGREE + 1)
        return fail(err,
                    "%s.motion: %zu coefficient matrices make degree %zu; at "
                    "most %d matrices (degree %d) are supported",
                    box, n, n - 1, BOXTOI_MAX_DEGREE + 1, BOXTOI_MAX_DEGREE);
    memset(m, 0, sizeof *m);
    m->degree = (int)n - 1;
    for (size_t k = 0; k < n; k++) {
        const json_t *mat = json_array_get(v, k);
        if (!json_is_array(mat))
            return fail(err,
                        "%s.motion[%zu]: expected a 4x4 matrix (an array of 4 "
                        "rows), got %s",
                        box, k, type_name(mat));
        if (json_array_size(mat) != 4)
            return fail(err, "%s.motion[%zu]: expected 4 rows, got %zu", box,
                        k, json_array_size(mat));
        for (size_t r = 0; r < 4; r++) {
            const json_t *row = json_array_get(mat, r);
            if (!json_is_array(row))
                return fail(err,
                            "%s.motion[%zu][%zu]: expected a row of 4 numbers, "
                            "got %s",
                            box, k, r, type_name(row));
            if (json_array_size(row) != 4)
                return fail(err,
                            "%s.motion[%zu][%zu]: expected 4 numbers, got %zu",
                            box, k, r, json_array_size(row));
            for (size_t c = 0; c < 4; c++)
                if ((bad = get_number(json_array_get(row, c), &m->c[k][r][c],
                                      what, sizeof what)))
                    return fail(err, "%s.motion[%zu][%zu][%zu]: %s", box, k, r,
                                c, bad);
        }
        for (size_t c = 0; c < 3; c++) {
            if (m->c[k][3][c] != 0) {
                char num[TOOL_DOUBLE_MAX];
                tool_format_double(num, m->c[k][3][c]);
                return fail(err,
                            "%s.motion[%zu][3][%zu]: the bottom row of M(t) "
                            "must be [0 0 0 w(t)], but this entry is %s",
                            box, k, c, num);
            }
        }
    }
    return 0;
}

static int get_box(const json_t *v, boxtoi_box *box, boxtoi_motion *m,
                   char *err, const char *name)
{
    const char *key;
    json_t *val;
    const json_t *lo = NULL, *hi = NULL, *mo = NULL;

    if (!json_is_object(v))
        return fail(err,
                    "%s: expected an object with \"min\", \"max\" and an "
                    "optional \"motion\", got %s",
                    name, type_name(v));
    json_object_foreach((json_t *)v, key, val) {
        if (strcmp(key, "min") == 0)
            lo = val;
        else if (strcmp(key, "max") == 0)
            hi = val;
        else if (strcmp(key, "motion") == 0)
            mo = val;
        else
            return fail(err,
                        "%s.%.*s: unknown field (a box has \"min\", \"max\" "
                        "and \"motion\")",
                        name, utf8_prefix(key, KEY_SHOWN), key);
    }
    if (lo == NULL)
        return fail(err, "%s.min: missing", name);
    if (hi == NULL)
        return fail(err, "%s.max: missing", name);
    if (get_corner(lo, box->lo, err, name, "min") ||
        get_corner(hi, box->hi, err, name, "max"))
        return -1;
    for (int i = 0; i < 3; i++) {
        if (box->lo[i] > box->hi[i]) {
            char a[TOOL_DOUBLE_MAX], b[TOOL_DOUBLE_MAX];
            tool_format_double(a, box->lo[i]);
            tool_format_double(b, box->hi[i]);
            return fail(err,
                        "%s.min[%d] > %s.max[%d] (%s > %s): a box needs min "
                        "<= max on every axis",
                        name, i, name, i, a, b);
        }
    }
    if (mo == NULL) {
        boxtoi_motion_identity(m);
        return 0;
    }
    return get_motion(mo, m, err, name);
}

/* The top-level object; *id is set as soon as it is known. */
static int get_query(const json_t *root, boxtoi_query *q, const json_t **id,
                     char *err)
{
    const char *key;
    json_t *val;
    const json_t *a = NULL, *b = NULL, *t0 = NULL, *t1 = NULL;

    if (!json_is_object(root))
        return fail(err, "expected a JSON object (one query per line), got %s",
                    type_name(root));
    *id = json_object_get(root, "id");
    json_object_foreach((json_t *)root, key, val) {
        if (strcmp(key, "id") == 0)
            continue;
        else if (strcmp(key, "a") == 0)
            a = val;
        else if (strcmp(key, "b") == 0)
            b = val;
        else if (strcmp(key, "t0") == 0)
            t0 = val;
        else if (strcmp(key, "t1") == 0)
            t1 = val;
        else
            return fail(err,
                        "%.*s: unknown field (a query has \"id\", \"a\", "
                        "\"b\", \"t0\" and \"t1\")",
                        utf8_prefix(key, KEY_SHOWN), key);
    }
    if (a == NULL)
        return fail(err, "a: missing");
    if (b == NULL)
        return fail(err, "b: missing");
    if (get_box(a, &q->a, &q->motion_a, err, "a") ||
        get_box(b, &q->b, &q->motion_b, err, "b"))
        return -1;
    q->t0 = 0;
    q->t1 = 1;
    char what[64];
    const char *bad;
    if (t0 != NULL && (bad = get_number(t0, &q->t0, what, sizeof what)))
        return fail(err, "t0: %s", bad);
    if (t1 != NULL && (bad = get_number(t1, &q->t1, what, sizeof what)))
        return fail(err, "t1: %s", bad);
    if (q->t0 > q->t1) {
        char x[TOOL_DOUBLE_MAX], y[TOOL_DOUBLE_MAX];
        tool_format_double(x, q->t0);
        tool_format_double(y, q->t1);
        return fail(err, "t0 > t1 (%s > %s): the interval is reversed", x, y);
    }
    return 0;
}

/* Is s[0 .. n) the word w (lower case), in any case of ASCII letters? */
static int is_word(const char *s, size_t n, const char *w)
{
    if (n != strlen(w))
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((s[i] | 0x20) != w[i])
            return 0;
    return 1;
}

/*
 * Is the invalid token jansson reports NaN or an infinity: "NaN", "nan",
 * "Infinity", "inf" (any case), signed or not?  jansson's message names the
 * token ("invalid token near 'NaN'"); for a sign not followed by a digit it
 * names the sign alone and stops just after it (je->position), so the word
 * is read from the line there, never past its len bytes.
 */
static int token_is_nan_or_inf(const json_error_t *je, const char *line,
                               size_t len)
{
    static const char near[] = "invalid token near '";
    if (strncmp(je->text, near, sizeof near - 1) != 0)
        return 0;
    const char *tok = je->text + sizeof near - 1;
    size_t n = strlen(tok);
    if (n < 2 || tok[n - 1] != '\'')
        return 0;
    n--;
    if (n == 1 && (tok[0] == '-' || tok[0] == '+')) {
        size_t pos = je->position > 0 ? (size_t)je->position : 0;
        if (pos == 0 || pos > len || line[pos - 1] != tok[0])
            return 0;
        tok = line + pos;
        n = 0;
        while (pos + n < len && (tok[n] | 0x20) >= 'a' &&
               (tok[n] | 0x20) <= 'z')
            n++; /* the letters after the sign */
    }
    return is_word(tok, n, "nan") || is_word(tok, n, "inf") ||
           is_word(tok, n, "infinity");
}

/* Rewrite a jansson parse error so that it says what to do. */
static void json_error_message(const json_error_t *je, const char *line,
                               size_t len, char *err)
{
    const char *hint = "";
    if (strncmp(je->text, "real number overflow", 20) == 0)
        hint = " (a number is too large for a double)";
    else if (strncmp(je->text, "too big ", 8) == 0)
        hint = " (an integer too large to read exactly; write it as a real, "
               "with an exponent or a decimal point, such as 1e20)";
    else if (token_is_nan_or_inf(je, line, len))
        hint = " (NaN and Infinity are not numbers in JSON, and a "
               "query needs finite numbers)";
    else if (je->position <= 3 && len >= 3 && memcmp(line, "\xEF\xBB\xBF", 3) == 0)
        hint = " (the line starts with a byte-order mark, U+FEFF, which JSON "
               "does not allow: save the file as UTF-8 without one)";
    snprintf(err, ERR_MAX, "not valid JSON at column %d: %s%s", je->column,
             je->text, hint);
}

/* Which field an invalid-input reason from the solver is about. */
static const char *reason_field(boxtoi_reason reason, int which)
{
    switch (reason) {
    case BOXTOI_REASON_INTERVAL_NOT_FINITE:
    case BOXTOI_REASON_INTERVAL_REVERSED:
        return "t0, t1";
    case BOXTOI_REASON_BOX_NOT_FINITE:
    case BOXTOI_REASON_BOX_INVERTED:
        return which == 2 ? "b" : "a";
    case BOXTOI_REASON_MOTION_NOT_FINITE:
    case BOXTOI_REASON_DEGREE:
    case BOXTOI_REASON_BOTTOM_ROW:
    case BOXTOI_REASON_W_VANISHES:
    case BOXTOI_REASON_SINGULAR:
        return which == 2 ? "b.motion" : which == 1 ? "a.motion" : "motion";
    default:
        return which == 2 ? "b" : which == 1 ? "a" : "query";
    }
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */

static void put_id(tool_buf *out, const json_t *id)
{
    tool_buf_append(out, "{", 1);
    if (id != NULL) {
        put_str(out, "\"id\": ");
        put_json(out, id);
        tool_buf_append(out, ", ", 2);
    }
}

/* "line N[ of FILE]: what"; the file name whole, as given, with bytes that
 * are not UTF-8 written as U+FFFD (so is anything ill-formed in what). */
static void put_error(tool_buf *out, const json_t *id, const char *file,
                      long lineno, const char *what)
{
    char head[32];
    put_id(out, id);
    put_str(out, "\"status\": \"error\", \"error\": \"");
    snprintf(head, sizeof head, "line %ld", lineno);
    put_str(out, head);
    if (file != NULL) {
        put_str(out, " of ");
        put_json_text_lossy(out, file, strlen(file));
    }
    put_str(out, ": ");
    put_json_text_lossy(out, what, strlen(what));
    put_str(out, "\"}\n");
}

static void put_vec3(tool_buf *out, const double v[3])
{
    tool_buf_append(out, "[", 1);
    for (int i = 0; i < 3; i++) {
        if (i)
            tool_buf_append(out, ", ", 2);
        put_double(out, v[i]);
    }
    tool_buf_append(out, "]", 1);
}

static void put_result(tool_buf *out, const json_t *id, const boxtoi_result *r)
{
    char name[BOXTOI_FEATURE_NAME_MAX];
    put_id(out, id);
    put_str(out, "\"status\": ");
    put_str(out, r->state == BOXTOI_HIT ? "\"hit\"" : r->state == BOXTOI_MISS
                                                          ? "\"miss\""
                                                          : "\"overlap\"");
    put_str(out, ", \"toi\": ");
    if (r->state == BOXTOI_MISS)
        put_str(out, "null");
    else
        put_double(out, r->toi);
    put_str(out, ", \"exit\": ");
    if (r->state == BOXTOI_MISS || r->exit_after_t1)
        put_str(out, "null");
    else
        put_double(out, r->exit);
    if (r->state != BOXTOI_MISS) {
        put_str(out, ", \"contact\": {\"kind\": ");
        const char *kind = boxtoi_kind_name(r->kind);
        put_json_string(out, kind, strlen(kind));
        put_str(out, ", \"a\": ");
        boxtoi_feature_name(r->feature_a, name, sizeof name);
        put_json_string(out, name, strlen(name));
        put_str(out, ", \"b\": ");
        boxtoi_feature_name(r->feature_b, name, sizeof name);
        put_json_string(out, name, strlen(name));
        put_str(out, ", \"point\": ");
        put_vec3(out, r->point);
        put_str(out, ", \"normal\": ");
        put_vec3(out, r->normal);
        tool_buf_append(out, "}", 1);
    }
    put_str(out, "}\n");
}

int tool_line_is_blank(const char *line, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = line[i];
        if (c != ' ' && c != '\t' && c != '\r' && c != '\n')
            return 0;
    }
    return 1;
}

int tool_answer_line(const char *line, size_t len, const char *file,
                     long lineno, tool_buf *out)
{
    char err[ERR_MAX];
    json_error_t je;
    const json_t *id = NULL;
    boxtoi_query q;
    int status = 1;

    /* jansson reads a line as a stream and takes a NUL byte for its end,
     * so one right after a token would go unnoticed: no NUL byte may
     * appear in JSON text (inside a string it is written \u0000). */
    const char *nul = memchr(line, '\0', len);
    if (nul != NULL) {
        size_t column = 1;
        for (const char *c = line; c < nul; c++)
            column += ((unsigned char)*c & 0xc0) != 0x80; /* characters */
        snprintf(err, sizeof err,
                 "not valid JSON at column %zu: a NUL byte (inside a string, "
                 "write it as \\u0000)", column);
        put_error(out, NULL, file, lineno, err);
        return 1;
    }
    json_t *root =
        json_loadb(line, len,
                   JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL, &je);
    if (root == NULL) {
        arena_reset();
        json_error_message(&je, line, len, err);
        put_error(out, NULL, file, lineno, err);
        return 1;
    }
    /* Start from the library's defaults, so that fields this parser does
     * not set (flags) have their documented default values. */
    q = query_template;
    if (get_query(root, &q, &id, err) == 0) {
        boxtoi_result r = boxtoi_solve(&q);
        switch (r.state) {
        case BOXTOI_HIT:
        case BOXTOI_MISS:
        case BOXTOI_OVERLAP:
            put_result(out, id, &r);
            status = 0;
            break;
        case BOXTOI_INVALID:
            snprintf(err, sizeof err, "%s: %s", reason_field(r.reason, r.which),
                     boxtoi_reason_message(r.reason));
            put_error(out, id, file, lineno, err);
            break;
        case BOXTOI_FAILED:
            put_error(out, id, file, lineno,
                      "the solver gave up on this query (an iteration limit "
                      "was reached)");
            break;
        case BOXTOI_UNKNOWN:
        default:
            put_error(out, id, file, lineno, "the solver gave no answer");
            break;
        }
    } else {
        put_error(out, id, file, lineno, err);
    }
    /* root and every value in it go with the arena (no json_decref). */
    arena_reset();
    return status;
}
