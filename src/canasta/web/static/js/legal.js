// What the player may do, read from the legal moves the server sends with the view (no rule is
// decided here). The engine lists melds in a canonical form, where cards of one rank are
// interchangeable and wild cards differ only as a joker or a two: cards are compared by rank.

import { isWild, rankOf } from './cards.js';
import { groupCards } from './moves.js';

// The rank of the meld a group goes to: its explicit rank, or that of its natural cards.
export function groupRank(group) {
  if (!Array.isArray(group) && group.rank) return group.rank;
  const natural = groupCards(group).find((c) => !isWild(c));
  return natural ? rankOf(natural) : 'wild';
}

function sameKinds(a, b) {
  const key = (codes) => codes.map(rankOf).sort().join(' ');
  return key(a) === key(b);
}

// Ways to take the whole pile, simplest first (fewest wild cards, then fewest cards).
export function pickups(legal) {
  const wilds = (a) => a.with.filter(isWild).length;
  return legal
    .filter((a) => a.type === 'pickup' && !a.top_only && !(a.melds && a.melds.length))
    .sort((a, b) => wilds(a) - wilds(b) || a.with.length - b.with.length);
}

export function canTakePile(legal) {
  return legal.some((a) => a.type === 'pickup' && !a.top_only);
}

// The kinds of cards that some legal move lays on the table (with the pile or from the hand).
export function playableKinds(legal) {
  const kinds = new Set();
  for (const a of legal) {
    if (a.type === 'pickup') a.with.forEach((c) => kinds.add(rankOf(c)));
    if (a.type === 'meld' || a.type === 'pickup') {
      for (const g of a.melds || []) groupCards(g).forEach((c) => kinds.add(rankOf(c)));
    }
  }
  return kinds;
}

// Whether adding `codes` to the team's meld of `rank` is one of the legal moves.
export function canAdd(legal, rank, codes) {
  return legal.some((a) => a.type === 'meld'
    && a.melds.some((g) => groupRank(g) === rank && sameKinds(groupCards(g), codes)));
}

// The hand's cards a suggested move uses (indexes into `hand`, each card used once).
export function cardsOf(action, hand) {
  const wanted = [...(action.with || []), ...(action.melds || []).flatMap(groupCards)];
  if (action.type === 'discard') wanted.push(action.card);
  const free = hand.map((code, i) => [code, i]);
  const used = [];
  for (const code of wanted) {
    const at = free.findIndex(([c]) => c === code);
    if (at >= 0) used.push(free.splice(at, 1)[0][1]);
  }
  return used;
}

// Where a suggested move is made on the table: the control to press ('stock', 'pile' or
// 'lay') and the ranks of the side's melds (`melds`, as the view lists them) it adds to.
export function hintTarget(action, melds) {
  const existing = new Set(melds.map((m) => m.rank));
  const ranks = (action.melds || []).map(groupRank).filter((r) => existing.has(r));
  const control = { draw: 'stock', pickup: 'pile', discard: 'pile', meld: 'lay' }[action.type] || null;
  return { control, ranks: new Set(ranks) };
}

// The legal move that lays exactly `codes` (compared by rank) in one meld action, if `hint`
// (a suggested move) is one: how pressing "Lay melds" follows a hint.
export function followsHint(hint, codes) {
  if (!hint || hint.type !== 'meld') return null;
  return sameKinds(hint.melds.flatMap(groupCards), codes) ? hint : null;
}

// The ranks of the side's `melds` to which the legal moves can add `codes` alone.
export function meldsTaking(legal, melds, codes) {
  return melds.map((m) => m.rank).filter((rank) => canAdd(legal, rank, codes));
}
