#!/bin/sh
# Run a test (its program and arguments) holding a shared lock on
# tests.lock in the current directory (the tests build directory), on file
# descriptor 9, which the test inherits.  make check runs every test so
# (LOG_COMPILER), and test-install.sh turns its lock exclusive before it
# runs make install: libtool relinks the plugin's library in place while it
# installs it, and a test using that library then would find it missing or
# half written.  Without flock(1) the test runs unlocked.
if command -v flock >/dev/null 2>&1 && exec 9>>tests.lock; then
    flock -s 9
fi
exec "$@"
