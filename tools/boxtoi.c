/*
 * boxtoi: answer first-contact queries given as JSON Lines.
 *
 * Reads the files named on the command line ("-" or none: standard input),
 * one query per line, and writes one JSON line per query to standard output
 * in input order.  Blank lines are skipped.  With --threads N the queries of
 * each chunk of input are answered by N threads; the output is the same
 * byte for byte.  Exit status: 0 when every query was answered, 1 when some
 * line got an error answer, 2 for a usage error or an input/output failure.
 */
#include <config.h>

#include "query.h"

#include <boxtoi.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_THREADS 256
/* Lines answered between two writes of the output; a block is the unit of
 * work one thread takes at a time. */
#define CHUNK_LINES 16384
#define BLOCK_LINES 64
/* Bytes asked for by one read of the input. */
#define READ_BLOCK ((size_t)1 << 20)
/* Bytes of complete lines (blank ones included) held before the lines
 * waiting are answered, however few: the input held stays bounded. */
#define CHUNK_BYTES ((size_t)16 << 20)
/* Room kept by the input buffer, and by a block's output buffer, once the
 * lines they held are answered: what a longer line (an id of 100 MB) made
 * them take goes back, instead of staying with the process to its end. */
#define TEXT_KEEP (2 * CHUNK_BYTES)
#define OUT_KEEP CHUNK_BYTES

typedef struct line_ref {
    size_t offset;   /* into the chunk's text */
    size_t len;
    long lineno;
    const char *file; /* NULL for standard input */
} line_ref;

typedef struct chunk {
    tool_buf text;       /* the input as read: the lines and what follows */
    line_ref *lines;
    size_t nlines;
    size_t cap;
    tool_buf *outs;      /* one output buffer per block */
    int *errors;         /* error answers per block */
    atomic_int *done;    /* per block: its answers are all made */
    size_t nblocks;      /* blocks in use */
    size_t blocks_cap;   /* blocks allocated */
    atomic_size_t next;  /* next block to take */
} chunk;

static const char usage_text[] =
    "Usage: boxtoi [OPTION]... [FILE]...\n"
    "Answer first-contact queries for pairs of moving boxes.\n"
    "\n"
    "Reads one JSON query per line from each FILE (\"-\" or no FILE: "
    "standard input)\n"
    "and writes one JSON answer per query to standard output, in input "
    "order.\n"
    "Blank lines are skipped.\n"
    "\n"
    "  -t, --threads N  answer queries with N threads (default 1; 0: one "
    "per CPU\n"
    "                   the process may run on);\n"
    "                   the output does not depend on N\n"
    "  -h, --help       print this help and exit\n"
    "  -V, --version    print the version and exit\n"
    "\n"
    "Query, one per line (here on several; a moves along x as -3 + 4t):\n"
    "  {\"id\": 7, \"a\": {\"min\": [-1,-1,-1], \"max\": [1,1,1],\n"
    "   \"motion\": [[[1,0,0,-3],[0,1,0,0],[0,0,1,0],[0,0,0,1]],\n"
    "              [[0,0,0,4],[0,0,0,0],[0,0,0,0],[0,0,0,0]]]},\n"
    "   \"b\": {\"min\": [1.5,0,0], \"max\": [2,1,1]}, \"t0\": 0, \"t1\": 1}\n"
    "  motion is [C0, C1, ...]: Ck is a 4x4 matrix (4 rows of 4 numbers), the\n"
    "  coefficient of t^k in M(t), which takes the box's local points\n"
    "  [x y z 1] to the world; without motion the box stays put.\n"
    "Answer:\n"
    "  {\"id\": 7, \"status\": \"hit\", \"toi\": 0.875, \"exit\": null,\n"
    "   \"contact\": {\"kind\": \"face-vertex\", \"a\": \"X'\", \"b\": \"XY'Z'\",\n"
    "   \"point\": [1.5, 0.5, 0.5], \"normal\": [1, 0, 0]}}\n"
    "  status is hit, miss, overlap or error (with an \"error\" message);\n"
    "  exit is null when the contact lasts through t1.\n"
    "\n"
    "Exit status: 0 when every query was answered, 1 when some line "
    "was an error,\n"
    "2 for a usage error or when input or output failed.\n"
    "See boxtoi(1) for the full format.\n";

/*
 * Out of memory, the tool stops; the answers made before that still go
 * out, in order: those of the blocks answered whole from the first on, and,
 * where the next block is the one the failing thread answers, those of its
 * lines answered whole.  The chunk being answered, and each thread's block
 * and the length of its answers to the lines before the current one:
 */
static chunk *answering;
static _Thread_local size_t current_block = SIZE_MAX;
static _Thread_local size_t current_done;

static int write_out(const char *p, size_t n);

static void write_answered(void)
{
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    chunk *c = answering;
    if (c == NULL)
        return;
    /* never released: a second thread out of memory waits for the exit */
    pthread_mutex_lock(&lock);
    for (size_t b = 0; b < c->nblocks; b++) {
        if (atomic_load_explicit(&c->done[b], memory_order_acquire)) {
            if (write_out(c->outs[b].data, c->outs[b].len) < 0)
                return;
        } else {
            if (b == current_block)
                write_out(c->outs[b].data, current_done);
            return;
        }
    }
}

/* Note the line at [offset, offset + len) of the chunk's text, unless it is
 * blank. */
static void chunk_add_line(chunk *c, size_t offset, size_t len, long lineno,
                           const char *file)
{
    if (tool_line_is_blank(c->text.data + offset, len))
        return;
    if (c->nlines == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 1024;
        line_ref *p = realloc(c->lines, c->cap * sizeof *p);
        if (p == NULL)
            tool_out_of_memory();
        c->lines = p;
    }
    line_ref *l = &c->lines[c->nlines++];
    l->offset = offset;
    l->len = len;
    l->lineno = lineno;
    l->file = file;
}

/* Answer every line of one block into its output buffer. */
static void answer_block(chunk *c, size_t b)
{
    size_t from = b * BLOCK_LINES;
    size_t to = from + BLOCK_LINES;
    if (to > c->nlines)
        to = c->nlines;
    tool_buf *out = &c->outs[b];
    out->len = 0;
    int errors = 0;
    current_block = b;
    for (size_t i = from; i < to; i++) {
        const line_ref *l = &c->lines[i];
        current_done = out->len;
        errors += tool_answer_line(c->text.data + l->offset, l->len, l->file,
                                   l->lineno, out);
    }
    current_block = SIZE_MAX;
    c->errors[b] = errors;
    atomic_store_explicit(&c->done[b], 1, memory_order_release);
}

static void *worker(void *arg)
{
    chunk *c = arg;
    for (;;) {
        size_t b = atomic_fetch_add(&c->next, 1);
        if (b >= c->nblocks)
            break;
        answer_block(c, b);
    }
    return NULL;
}

static void *worker_thread(void *arg)
{
    worker(arg);
    tool_thread_done();
    return NULL;
}

/*
 * Write all n bytes to standard output, waiting where it is set
 * non-blocking and full (a reader slower than the answers).  0, or -1 with
 * errno set.
 */
static int write_out(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(STDOUT_FILENO, p, n);
        if (w > 0) {
            p += w;
            n -= (size_t)w;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd q = {.fd = STDOUT_FILENO, .events = POLLOUT};
            if (poll(&q, 1, -1) < 0 && errno != EINTR)
                return -1;
        } else if (w < 0 && errno != EINTR) {
            return -1;
        }
    }
    return 0;
}

/*
 * Answer the chunk's lines with nthreads threads (the calling one
 * included), then write the answers in order.  Returns the number of error
 * answers, or -1 when writing failed.
 */
static long flush_chunk(chunk *c, int nthreads)
{
    if (c->nlines == 0)
        return 0;
    size_t nblocks = (c->nlines + BLOCK_LINES - 1) / BLOCK_LINES;
    if (nblocks > c->blocks_cap) {
        tool_buf *o = realloc(c->outs, nblocks * sizeof *o);
        if (o != NULL)
            c->outs = o;
        int *e = realloc(c->errors, nblocks * sizeof *e);
        if (e != NULL)
            c->errors = e;
        atomic_int *d = realloc(c->done, nblocks * sizeof *d);
        if (d != NULL)
            c->done = d;
        if (o == NULL || e == NULL || d == NULL)
            tool_out_of_memory();
        for (size_t i = c->blocks_cap; i < nblocks; i++)
            memset(&o[i], 0, sizeof o[i]);
        c->blocks_cap = nblocks;
    }
    c->nblocks = nblocks;
    for (size_t b = 0; b < nblocks; b++)
        atomic_init(&c->done[b], 0);
    atomic_store(&c->next, 0);
    answering = c;

    pthread_t tid[MAX_THREADS];
    int started = 0;
    size_t want = (size_t)nthreads < nblocks ? (size_t)nthreads : nblocks;
    for (size_t i = 1; i < want; i++) {
        if (pthread_create(&tid[started], NULL, worker_thread, c) != 0)
            break; /* fewer threads; the work still gets done */
        started++;
    }
    worker(c);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
    answering = NULL;

    long errors = 0;
    for (size_t b = 0; b < nblocks; b++) {
        errors += c->errors[b];
        if (write_out(c->outs[b].data, c->outs[b].len) < 0)
            return -1;
        c->outs[b].len = 0;
        tool_buf_shrink(&c->outs[b], OUT_KEEP);
    }
    c->nlines = 0;
    return errors;
}

/*
 * Has fd more input now, or its end?  Not for a pipe or terminal whose
 * writer waits: then a co-process waits for the answers so far.  Regular
 * files are always ready, so they are answered in whole chunks.
 */
static int input_ready(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    int r;
    while ((r = poll(&p, 1, 0)) < 0 && errno == EINTR)
        continue;
    return r != 0;
}

/*
 * Read one input (fd) to its end into the chunk, answering the lines read
 * so far whenever CHUNK_LINES of them are waiting, CHUNK_BYTES of complete
 * lines are held, or the input pauses (so that every answer to the lines
 * read so far goes out then), and the rest at the end; answers are written
 * straight to standard output, unbuffered.
 * label names the input in error answers (NULL: standard input).  Returns
 * 0, 1 when reading failed (reported here), or -1 when writing failed;
 * adds the number of error answers to *errors.
 */
static int answer_input(chunk *c, int fd, const char *label, int nthreads,
                        long *errors)
{
    long lineno = 0;
    size_t start = 0; /* offset of the line being read */
    size_t scan = 0;  /* bytes before this offset hold no line end */
    int failed = 0;
    c->text.len = 0;
    for (;;) {
        if (tool_buf_try_reserve(&c->text, READ_BLOCK) < 0) {
            /* No memory for more of the text (a long line): the lines
               waiting are answered before the tool stops, so that none of
               their answers is lost. */
            if (flush_chunk(c, nthreads) < 0)
                return -1;
            tool_out_of_memory();
        }
        ssize_t got = read(fd, c->text.data + c->text.len, READ_BLOCK);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                /* a non-blocking input: wait for it as a blocking one */
                struct pollfd p = {.fd = fd, .events = POLLIN};
                if (poll(&p, 1, -1) >= 0 || errno == EINTR)
                    continue;
            }
            fprintf(stderr, "boxtoi: error reading %s: %s\n",
                    label ? label : "standard input", strerror(errno));
            failed = 1;
            break;
        }
        if (got == 0)
            break;
        c->text.len += (size_t)got;
        const char *d = c->text.data;
        const char *nl;
        while ((nl = memchr(d + scan, '\n', c->text.len - scan)) != NULL) {
            size_t end = (size_t)(nl - d);
            chunk_add_line(c, start, end - start, ++lineno, label);
            start = scan = end + 1;
        }
        scan = c->text.len;
        int full = c->nlines >= CHUNK_LINES || start >= CHUNK_BYTES;
        /* The input pauses: everything read so far is answered now
           (answers are written as soon as they are made). */
        if (full || (c->nlines > 0 && !input_ready(fd))) {
            long e = flush_chunk(c, nthreads);
            if (e < 0)
                return -1;
            *errors += e;
        }
        if (c->nlines == 0 && start > 0) {
            /* No line waits for an answer (blank lines do not): keep the
             * unfinished line only. */
            memmove(c->text.data, c->text.data + start, c->text.len - start);
            c->text.len -= start;
            scan -= start;
            start = 0;
            tool_buf_shrink(&c->text, TEXT_KEEP);
        }
    }
    /* a last line without a line end; not where reading failed, which
       may have cut it short (the error is on standard error) */
    if (start < c->text.len && !failed)
        chunk_add_line(c, start, c->text.len - start, ++lineno, label);
    long e = flush_chunk(c, nthreads);
    if (e < 0)
        return -1;
    *errors += e;
    c->text.len = 0;
    return failed;
}

static int parse_threads(const char *s, int *out)
{
    char *end;
    if (*s < '0' || *s > '9') /* strtol would take spaces and a sign */
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (errno || end == s || *end != '\0' || v > MAX_THREADS)
        return -1;
    if (v == 0) {
        int n = tool_cpu_count();
        v = n > MAX_THREADS ? MAX_THREADS : n;
    }
    *out = (int)v;
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"threads", required_argument, NULL, 't'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0}};
    int nthreads = 1;
    int opt;
    /* getopt's own messages (an unknown option) begin with argv[0]: name
       the command as its other messages do, not by the path it was run by */
    static char name[] = "boxtoi";
    if (argc > 0)
        argv[0] = name;

    while ((opt = getopt_long(argc, argv, "t:hV", longopts, NULL)) != -1) {
        switch (opt) {
        case 't':
            if (parse_threads(optarg, &nthreads)) {
                fprintf(stderr,
                        "boxtoi: --threads needs a whole number from 0 to "
                        "%d, got '%s'\n",
                        MAX_THREADS, optarg);
                return 2;
            }
            break;
        case 'h':
            /* written as the answers are: waiting on an output set
               non-blocking */
            if (write_out(usage_text, sizeof usage_text - 1) < 0)
                goto write_error;
            return 0;
        case 'V': {
            char v[256];
            snprintf(v, sizeof v, "boxtoi %s (library %s, solver's %s build)\n",
                     PACKAGE_VERSION, boxtoi_version(), boxtoi_solver_build());
            if (write_out(v, strlen(v)) < 0)
                goto write_error;
            return 0;
        }
        default:
            fputs("Try 'boxtoi --help' for more information.\n", stderr);
            return 2;
        }
    }

    tool_on_out_of_memory(write_answered);
    tool_format_init();
    tool_json_init(); /* before any thread parses JSON */

    chunk c;
    memset(&c, 0, sizeof c);
    atomic_init(&c.next, 0);
    long errors = 0;
    int io_failed = 0;
    int stdin_done = 0;
    int write_errno = 0; /* a failed write's errno: the last input read */

    int nfiles = argc - optind;
    for (int f = 0; f < (nfiles > 0 ? nfiles : 1); f++) {
        const char *name = nfiles > 0 ? argv[optind + f] : "-";
        const char *label = strcmp(name, "-") == 0 ? NULL : name;
        int fd = STDIN_FILENO;
        if (label != NULL) {
            fd = open(name, O_RDONLY);
            if (fd < 0) {
                fprintf(stderr, "boxtoi: cannot open %s: %s\n", name,
                        strerror(errno));
                io_failed = 1;
                continue;
            }
        } else if (stdin_done) {
            continue; /* standard input was read to its end already */
        }
        /* All answers to this input come out, flushed, before the next is
           opened (which may wait: a pipe, a terminal, a FIFO). */
        int r = answer_input(&c, fd, label, nthreads, &errors);
        if (label != NULL)
            close(fd);
        else
            stdin_done = 1;
        if (r < 0) {
            write_errno = errno;
            break;
        }
        if (r > 0)
            io_failed = 1;
    }
    tool_thread_done();
    tool_buf_free(&c.text);
    for (size_t b = 0; b < c.blocks_cap; b++)
        tool_buf_free(&c.outs[b]);
    free(c.outs);
    free(c.errors);
    free(c.done);
    free(c.lines);
    if (write_errno) {
        errno = write_errno;
        goto write_error;
    }
    if (io_failed)
        return 2;
    return errors ? 1 : 0;

write_error:
    fprintf(stderr, "boxtoi: error writing standard output: %s\n",
            strerror(errno));
    return 2;
}
