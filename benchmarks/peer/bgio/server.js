// boardgame.io's server with the Duel game, for the peer benchmark (issue 21).
// Usage: node server.js PORT memory|flatfile [FLATFILE_DIR]
// Prints "ready" on stdout once it listens.
'use strict';
const { Server, FlatFile } = require('boardgame.io/server');
const { Duel } = require('./duel');

const [port, storage, dir] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const db = storage === 'flatfile' ? new FlatFile({ dir, logging: false }) : undefined;
if (storage !== 'memory' && storage !== 'flatfile') throw new Error('storage: memory|flatfile');
const server = Server({ games: [Duel], db, origins: ['http://127.0.0.1'] });
server.run({ port, callback: () => { process.stdout.write('ready\n'); } });
