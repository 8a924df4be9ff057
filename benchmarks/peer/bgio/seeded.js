// What both load generators (loadgen.js for boardgame.io, arena_loadgen.js for this server)
// share: a seeded random source, the clock in epoch seconds and the error tally. No
// dependencies.
'use strict';

// xorshift32 from `seed` (default 1): the same card choices for the same seed; [0, 1).
function seededRandom(seed) {
  let state = (seed || 1) >>> 0;
  return () => {
    state ^= state << 13; state >>>= 0; state ^= state >>> 17; state ^= state << 5; state >>>= 0;
    return state / 4294967296;
  };
}

const now = () => Date.now() / 1000;

// `fail(code)` counts one error under `code` in `errors` (an object the report prints).
const errorCounter = (errors) => (code) => { errors[code] = (errors[code] || 0) + 1; };

module.exports = { seededRandom, now, errorCounter };
