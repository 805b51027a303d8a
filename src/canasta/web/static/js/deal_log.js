// The log beside the table: the current deal's moves (from the server's action log when a page
// connects, then one per state) and the chat, newest first, each line drawn in the reader's
// language when shown.

import { t } from './i18n.js';
import { describeMove } from './moves.js';

const LIMIT = 400;

export class DealLog {
  constructor() {
    this.entries = [];  // {kind, version, text: () => string}
    this.version = -1;  // the last version whose move is in the log
    this.last = null;  // that move's key
  }

  add(kind, version, text) {
    this.entries.unshift({ kind, version, text });
    this.entries.length = Math.min(this.entries.length, LIMIT);
  }

  // The server's log of the deal so far replaces the moves (chat lines stay).
  replace(message, nameOf) {
    const chat = this.entries.filter((e) => e.kind === 'chat');
    this.entries = [];
    if (message.deal >= 0) {
      const start = message.moves.length ? message.moves[0].version - 1 : message.version;
      this.add('deal', start, () => t('log.deal', { n: message.deal + 1 }));
    }
    for (const move of message.moves) this.add('move', move.version, moveText(move, nameOf));
    this.last = message.moves.length ? moveKey(message.moves[message.moves.length - 1]) : null;
    this.entries = [...chat, ...this.entries].sort((a, b) => b.version - a.version).slice(0, LIMIT);
    this.version = message.version;
  }

  // A new state: its move (or the start of a deal, which clears the last deal's moves) joins
  // the log. A state that repeats the last move (a player asking for the next deal) adds nothing.
  follow(state, nameOf) {
    if (state.version <= this.version) return;
    const first = this.version < 0;
    this.version = state.version;
    const last = state.last ? moveKey(state.last) : null;
    if (last && last !== this.last) {  // a person's move keeps the name it was made under
      const name = state.seats && state.seats[state.last.seat] ? state.seats[state.last.seat].name : null;
      this.add('move', state.version, moveText(state.last, nameOf, name));
    }
    else if (!last && state.view && !first) {
      const deal = state.deal + 1;
      this.entries = this.entries.filter((e) => e.kind === 'chat');
      this.add('deal', state.version, () => t('log.deal', { n: deal }));
    }
    this.last = last;
  }
}

function moveKey({ seat, action, by }) {
  return JSON.stringify([seat, action, by]);
}

function moveText({ seat, action, by, quick }, nameOf, name = null) {
  return () => describeMove(action, name ?? nameOf(seat), by, quick);
}
