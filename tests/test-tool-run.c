/* Running the built boxtoi command from a test; see test-tool-run.h. */
#include "test-tool-run.h"

#include "tap/basic.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

const char *tool_path(void)
{
    const char *p = getenv("BOXTOI_TOOL");
    return p && *p ? p : "../tools/boxtoi";
}

void tool_write_file(const char *name, const char *text)
{
    FILE *f = fopen(name, "wb");
    if (f == NULL)
        bail("cannot write %s", name);
    size_t n = strlen(text);
    if (fwrite(text, 1, n, f) != n || fclose(f) != 0)
        bail("cannot write %s", name);
}

static char *slurp(const char *name, size_t *len)
{
    FILE *f = fopen(name, "rb");
    if (f == NULL)
        bail("cannot read %s", name);
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (cap - n < 2) {
            cap *= 2;
            buf = realloc(buf, cap);
        }
    }
    fclose(f);
    if (buf == NULL)
        bail("out of memory");
    buf[n] = '\0';
    if (len)
        *len = n;
    return buf;
}

/* The most a run may write to a file: a command that loops writing (a
   fault) is stopped there (SIGXFSZ) instead of filling the disk. */
#define OUTPUT_LIMIT ((rlim_t)256 << 20)

static void limit_output(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_FSIZE, &rl) == 0 &&
        (rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > OUTPUT_LIMIT)) {
        rl.rlim_cur = OUTPUT_LIMIT;
        setrlimit(RLIMIT_FSIZE, &rl);
    }
}

void tool_run_cmd(tool_run *run, const char *args, const char *input)
{
    limit_output();
    char in_name[64], out_name[64], err_name[64];
    long pid = (long)getpid();
    snprintf(in_name, sizeof in_name, "test-tool-%ld.in", pid);
    snprintf(out_name, sizeof out_name, "test-tool-%ld.out", pid);
    snprintf(err_name, sizeof err_name, "test-tool-%ld.err", pid);
    if (input != NULL)
        tool_write_file(in_name, input);

    size_t cmdlen = strlen(tool_path()) + strlen(args) + 256;
    char *cmd = malloc(cmdlen);
    if (cmd == NULL)
        bail("out of memory");
    snprintf(cmd, cmdlen, "%s %s %s%s >%s 2>%s", tool_path(), args,
             input ? "<" : "", input ? in_name : "", out_name, err_name);
    int st = system(cmd);
    free(cmd);
    memset(run, 0, sizeof *run);
    run->status = (st != -1 && WIFEXITED(st)) ? WEXITSTATUS(st) : -1;
    run->out = slurp(out_name, &run->out_len);
    run->err = slurp(err_name, NULL);
    remove(out_name);
    remove(err_name);
    if (input != NULL)
        remove(in_name);

    /* Split a copy of the output into lines. */
    char *copy = malloc(run->out_len + 1);
    int cap = 16;
    run->lines = malloc((size_t)cap * sizeof *run->lines);
    if (copy == NULL || run->lines == NULL)
        bail("out of memory");
    memcpy(copy, run->out, run->out_len + 1);
    char *p = copy;
    while (*p) {
        char *nl = strchr(p, '\n');
        if (run->nlines == cap) {
            cap *= 2;
            run->lines = realloc(run->lines, (size_t)cap * sizeof *run->lines);
            if (run->lines == NULL)
                bail("out of memory");
        }
        run->lines[run->nlines++] = p;
        if (nl == NULL)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    if (run->nlines == 0)
        free(copy);
}

void tool_run_free(tool_run *run)
{
    if (run->nlines > 0)
        free(run->lines[0]);
    free(run->lines);
    free(run->out);
    free(run->err);
    memset(run, 0, sizeof *run);
}

const char *tool_data_path(const char *name)
{
    static char path[4096];
    const char *srcdir = getenv("srcdir");
    snprintf(path, sizeof path, "%s/data/tool/%s", srcdir ? srcdir : ".",
             name);
    return path;
}
