/* Names and messages for states, kinds, reasons and features. */
#include "boxtoi.h"

#include "config.h"

BOXTOI_API const char *boxtoi_state_name(boxtoi_state state)
{
    switch (state) {
    case BOXTOI_HIT: return "hit";
    case BOXTOI_MISS: return "miss";
    case BOXTOI_OVERLAP: return "overlap";
    case BOXTOI_INVALID: return "invalid";
    case BOXTOI_FAILED: return "failed";
    case BOXTOI_UNKNOWN: break;
    }
    return "unknown";
}

BOXTOI_API const char *boxtoi_kind_name(boxtoi_kind kind)
{
    switch (kind) {
    case BOXTOI_VERTEX_FACE: return "vertex-face";
    case BOXTOI_FACE_VERTEX: return "face-vertex";
    case BOXTOI_EDGE_EDGE: return "edge-edge";
    case BOXTOI_KIND_NONE: break;
    }
    return "none";
}

BOXTOI_API const char *boxtoi_reason_message(boxtoi_reason reason)
{
    switch (reason) {
    case BOXTOI_REASON_NONE: return "no error";
    case BOXTOI_REASON_NULL: return "a required pointer is NULL";
    case BOXTOI_REASON_BOX_NOT_FINITE: return "a box corner is NaN or infinite";
    case BOXTOI_REASON_BOX_INVERTED: return "box corner min is greater than max on some axis";
    case BOXTOI_REASON_MOTION_NOT_FINITE: return "a motion coefficient is NaN or infinite";
    case BOXTOI_REASON_DEGREE: return "motion degree is negative or above the maximum";
    case BOXTOI_REASON_BOTTOM_ROW: return "motion bottom row is not [0 0 0 w(t)]";
    case BOXTOI_REASON_W_VANISHES: return "motion w(t) is zero somewhere in the interval";
    case BOXTOI_REASON_SINGULAR: return "motion 3x3 part is singular somewhere in the interval";
    case BOXTOI_REASON_INTERVAL_NOT_FINITE: return "interval end t0 or t1 is NaN or infinite";
    case BOXTOI_REASON_INTERVAL_REVERSED: return "interval is reversed (t0 > t1)";
    case BOXTOI_REASON_OUT_OF_RANGE: return "numbers too large: the motion polynomials would overflow";
    case BOXTOI_REASON_FLAGS: return "the query's flags have an unknown bit";
    }
    return "unknown reason";
}

BOXTOI_API char *boxtoi_feature_name(boxtoi_feature feature, char *buf,
                                     size_t size)
{
    static const char axes[3] = {'X', 'Y', 'Z'};
    char tmp[BOXTOI_FEATURE_NAME_MAX];
    size_t n = 0;
    int fixed = 0;
    if (!buf || size == 0)
        return buf;
    for (int i = 0; i < 3; i++)
        fixed += feature.side[i] != 0;
    for (int i = 0; i < 3; i++) {
        if (feature.side[i] == 0)
            continue;
        if (fixed == 2 && n > 0)
            tmp[n++] = '-';
        tmp[n++] = axes[i];
        if (feature.side[i] > 0)
            tmp[n++] = '\'';
    }
    tmp[n] = '\0';
    size_t i;
    for (i = 0; i + 1 < size && tmp[i]; i++)
        buf[i] = tmp[i];
    buf[i] = '\0';
    return buf;
}

BOXTOI_API const char *boxtoi_version(void)
{
    return PACKAGE_VERSION;
}
