#!/bin/sh
# Run examples/arm-sweep and check its report with test-arm-sweep (its own
# forward kinematics and box test).  Run from the tests build directory.
report=test-arm-sweep.report
../examples/arm-sweep --report --svg test-arm-sweep.svg > "$report" || {
    echo "Bail out! examples/arm-sweep failed (status $?)"
    exit 1
}
if ! grep -q '^<svg' test-arm-sweep.svg; then
    echo "Bail out! examples/arm-sweep wrote no SVG picture"
    exit 1
fi
./test-arm-sweep < "$report"
