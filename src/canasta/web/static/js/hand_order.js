// How the player keeps the hand: sorted by rank, by suit, or in an order of their own made by
// dragging cards within the hand; kept in the browser across a refresh (the order per table).

import { compareCards, isWild, rankOf, suitOf } from './cards.js';
import { prefs } from './prefs.js';

const SUITS = ['S', 'H', 'D', 'C'];

function bySuit(a, b) {
  const key = (code) => (isWild(code) ? -1 : SUITS.indexOf(suitOf(code)));
  return key(a) - key(b) || compareCards(a, b);
}

export class HandOrder {
  constructor(table) {
    this.table = table;
    this.sort = prefs.handSort(table);  // 'rank', 'suit' or 'own'
    this.own = prefs.handOrder(table);  // card codes in the player's order
  }

  setSort(sort) {
    this.sort = sort;
    prefs.saveHandSort(this.table, sort);
  }

  // Hand indexes in display order.
  order(codes) {
    const indexes = codes.map((_, i) => i);
    if (this.sort === 'suit') return indexes.sort((a, b) => bySuit(codes[a], codes[b]) || a - b);
    const ranked = indexes.sort((a, b) => compareCards(codes[a], codes[b]) || a - b);
    if (this.sort !== 'own') return ranked;
    const left = [...ranked];
    const placed = [];
    for (const code of this.own) {  // each remembered card takes the first match still unplaced
      const at = left.findIndex((i) => codes[i] === code);
      if (at >= 0) placed.push(left.splice(at, 1)[0]);
    }
    return [...placed, ...left];  // cards new to the hand come last
  }

  // The card at hand index `moved` goes just before the card at `before`.
  move(codes, moved, before) {
    const shown = this.order(codes).filter((i) => i !== moved);
    shown.splice(shown.indexOf(before), 0, moved);
    this.own = shown.map((i) => codes[i]);
    prefs.saveHandOrder(this.table, this.own);
    this.setSort('own');
  }

  // Which cards sit together (overlapping) in the hand.
  clusterKey(code) {
    if (isWild(code)) return 'wild';
    return this.sort === 'suit' ? suitOf(code) : rankOf(code);
  }
}
