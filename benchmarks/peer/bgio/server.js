// boardgame.io's server with the Duel game, for the peer benchmark (issue 21).
// Usage: node server.js PORT memory|flatfile [FLATFILE_DIR]
// Prints "ready" on stdout once it listens.
'use strict';
const { Server, FlatFile } = require('boardgame.io/server');
const { Duel } = require('./duel');

// FlatFile hands node-persist only dir/logging/ttl, so node-persist keeps its default write
// queue (3.1.3: `writeQueue: true`, flushed every `writeQueueIntervalMs` = 1000 ms): every
// setItem then waits up to 1 s for the next flush, and at 16 seats the matches stalled on it.
// Without the queue each setItem writes its file at once (as FlatFile's own per-key chain of
// requests expects), which is the storage's cost per move rather than a timer's.
class DirectFlatFile extends FlatFile {
  async connect() {
    await this.games.init({ dir: this.dir, logging: this.logging, ttl: this.ttl, writeQueue: false });
  }
}

const [port, storage, dir] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
if (storage !== 'memory' && storage !== 'flatfile') throw new Error('storage: memory|flatfile');
const db = storage === 'flatfile' ? new DirectFlatFile({ dir, logging: false }) : undefined;
const server = Server({ games: [Duel], db, origins: ['http://127.0.0.1'] });
server.run({ port, callback: () => { process.stdout.write('ready\n'); } });
