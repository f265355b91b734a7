/*
 * boxtoi_solve, picked when the library is loaded (an indirect function,
 * resolved once by the dynamic loader, or at start-up in a static program)
 * between two builds of the same sources: this one, for the baseline
 * instruction set, and a copy compiled with -mavx2 (lib/Makefile.am) where
 * the processor has AVX2.  The copy's three-operand instructions save the
 * register moves the two-operand SSE2 forms need.  Its arithmetic is the
 * same: each operation rounded once to double, in the order written, and no
 * multiply-add fused (-ffp-contract=off; AVX2 alone has no fused
 * instruction either), so the answers are the same bit for bit
 * (tests/test-lanes.sh compares them).  Built with --disable-dispatch, with
 * the sanitizers, or where the compiler or the C library lacks indirect
 * functions, the library holds one build and solve.c defines boxtoi_solve.
 * boxtoi_solver_build says which build boxtoi_solve runs.
 */
#include "solve.h"

#ifdef BX_DISPATCH
typedef boxtoi_result solve_fn(const boxtoi_query *query);

boxtoi_result bx_solve_avx2(const boxtoi_query *query);

static int has_avx2(void)
{
    __builtin_cpu_init(); /* the resolver may run before any constructor */
    return __builtin_cpu_supports("avx2");
}

/* (used: the ifunc attribute names it, which clang does not count as a use) */
__attribute__((used)) static solve_fn *pick_solve(void)
{
    return has_avx2() ? bx_solve_avx2 : bx_solve;
}

BOXTOI_API boxtoi_result boxtoi_solve(const boxtoi_query *query)
    __attribute__((ifunc("pick_solve")));

/* the build pick_solve picks: the same test, the same answer */
BOXTOI_API const char *boxtoi_solver_build(void)
{
    return has_avx2() ? "avx2" : "baseline";
}
#elif !defined(BX_VARIANT_AVX2) /* the only build (the AVX2 copy defines none) */
BOXTOI_API const char *boxtoi_solver_build(void)
{
    return "baseline";
}
#endif
