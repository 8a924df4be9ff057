// The load generator's last word: one JSON line on stdout, then exit. Its own module (no
// dependencies) so a unit test can run it without `npm ci`.
//
// `process.exit()` right after `process.stdout.write()` loses whatever the pipe did not take
// yet: a pipe holds 64 KiB, and a 64-seat window's `latencies_ms` is longer than that, so
// run.py once read a line cut at char 65,536 (JSONDecodeError). Exiting from the write's
// callback waits until the whole line has been handed to the pipe.
'use strict';

function printAndExit(value, code = 0) {
  process.stdout.write(JSON.stringify(value) + '\n', () => process.exit(code));
}

module.exports = { printAndExit };
