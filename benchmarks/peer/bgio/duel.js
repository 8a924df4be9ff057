// Duel (examples/duel/RULES.md) as a boardgame.io game, for the peer benchmark (issue 21).
// The same rules, views and checks as the Python game:
// - set-up: the 20 cards D01..D20 shuffled; each player dealt `tricks` cards (default 5);
//   the rest are never dealt and never stored (unseen by everybody);
// - a trick: both players lay a card of their hand at the same time, face down; once both
//   have laid, both are revealed, the higher card wins the trick, the two cards leave;
// - end: after the last trick the player with more tricks wins (equal: both win).
// Checks of a play: the match is not over, the player has not laid in this trick, the card
// is in the player's hand (else INVALID_MOVE, boardgame.io's rejection). Views
// (playerView): a player sees its own hand and laid card, of the other player only the
// number of cards in hand and whether it laid (the Python game's seat view).
'use strict';
const { INVALID_MOVE, ActivePlayers } = require('boardgame.io/core');

const DECK = Array.from({ length: 20 }, (_, i) => 'D' + String(i + 1).padStart(2, '0'));
const value = (card) => parseInt(card.slice(1), 10);

function result(G, reason) {
  const best = Math.max(...G.won);
  return { reason, scores: [...G.won], winners: [0, 1].filter((s) => G.won[s] === best) };
}

const Duel = {
  name: 'duel',
  minPlayers: 2,
  maxPlayers: 2,
  setup: ({ random }, setupData) => {
    const tricks = (setupData && setupData.tricks) || 5;
    if (!Number.isInteger(tricks) || tricks < 1 || tricks > 9) throw new Error('tricks: 1-9');
    const deck = random.Shuffle(DECK);
    const hands = [deck.slice(0, tricks).sort(), deck.slice(tricks, 2 * tricks).sort()];
    return { tricks, hands, laid: [null, null], won: [0, 0], played: 0, lastTrick: null };
  },
  turn: { activePlayers: ActivePlayers.ALL },
  moves: {
    play: {
      client: false, // decided by the server only (the other hand is hidden from the client)
      move: ({ G, playerID }, card) => {
        const seat = Number(playerID);
        if (G.played >= G.tricks) return INVALID_MOVE;
        if (G.laid[seat] !== null) return INVALID_MOVE;
        if (typeof card !== 'string' || !G.hands[seat].includes(card)) return INVALID_MOVE;
        G.hands[seat] = G.hands[seat].filter((c) => c !== card);
        G.laid[seat] = card;
        const other = 1 - seat;
        if (G.laid[other] === null) return undefined;
        const cards = [G.laid[0], G.laid[1]];
        const winner = value(cards[0]) > value(cards[1]) ? 0 : 1;
        G.won[winner] += 1;
        G.played += 1;
        G.lastTrick = { cards, winner };
        G.laid = [null, null];
        return undefined;
      },
    },
  },
  endIf: ({ G }) => (G.played >= G.tricks ? result(G, 'all tricks played') : undefined),
  playerView: ({ G, playerID }) => {
    const me = playerID === null || playerID === undefined ? null : Number(playerID);
    return {
      tricks: G.tricks,
      won: G.won,
      played: G.played,
      lastTrick: G.lastTrick,
      hand: me === null ? null : G.hands[me],
      laid: me === null ? null : G.laid[me],
      others: [0, 1].filter((s) => s !== me)
        .map((s) => ({ seat: s, cards: G.hands[s].length, laid: G.laid[s] !== null })),
    };
  },
};

module.exports = { Duel, DECK, value };
