// Cards in FORMATS.md notation: parsing, display order, and their elements.

import { t } from './i18n.js';

// Display order: jokers and twos together first, then aces down to fours, then threes.
export const RANK_ORDER = ['JK', '2', 'A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3'];
// Meld columns: natural ranks high to low, then black threes and wild-card melds.
const MELD_ORDER = ['A', 'K', 'Q', 'J', '10', '9', '8', '7', '6', '5', '4', '3', 'wild'];

// A side's melds in the order the table shows them (aces first, wild cards last).
export function inShownOrder(melds) {
  return [...melds].sort((a, b) => MELD_ORDER.indexOf(a.rank) - MELD_ORDER.indexOf(b.rank));
}
const SUIT_ORDER = ['S', 'H', 'D', 'C'];
export const SUIT_SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };

export function rankOf(code) { return code === 'JK' ? 'JK' : code.slice(0, -1); }
export function suitOf(code) { return code === 'JK' ? null : code.slice(-1); }
export function isWild(code) { const r = rankOf(code); return r === 'JK' || r === '2'; }
export function isRed(code) { const s = suitOf(code); return s === 'H' || s === 'D'; }

function orderKey(code) {
  const suit = suitOf(code);
  return RANK_ORDER.indexOf(rankOf(code)) * 4 + (suit ? SUIT_ORDER.indexOf(suit) : 0);
}

export function compareCards(a, b) { return orderKey(a) - orderKey(b); }

// "King of hearts" / "король червей": what a screen reader says for a card.
export function cardName(code) {
  const rank = t('rank.' + rankOf(code));
  const suit = suitOf(code);
  return suit ? t('card', { rank, suit: t('suit.' + suit) }) : rank;
}

// "K♥", "Joker": a card in running text.
export function cardShort(code) {
  return code === 'JK' ? t('rank.JK') : rankOf(code) + SUIT_SYMBOL[suitOf(code)];
}

function suitClass(code) {
  const suit = suitOf(code);
  return suit ? 'suit-' + suit.toLowerCase() : 'joker';
}

// A face-up card. `tag` 'button' makes it a control (the hand); otherwise an image.
export function cardFace(code, { tag = 'div', extra = '' } = {}) {
  const el = document.createElement(tag);
  el.className = `card face ${suitClass(code)} ${extra}`.trim();
  el.dataset.card = code;
  if (tag !== 'button') el.setAttribute('role', 'img');
  el.setAttribute('aria-label', cardName(code));
  const rank = rankOf(code);
  const symbol = code === 'JK' ? '★' : SUIT_SYMBOL[suitOf(code)];
  const corner = document.createElement('span');
  corner.className = 'corner';
  corner.setAttribute('aria-hidden', 'true');
  // The index and pip are drawn from data attributes (canasta.css), so that the card's only text
  // is its name for assistive technology.
  const index = document.createElement('b');
  index.dataset.t = rank;
  const suit = document.createElement('i');
  suit.dataset.t = symbol;
  corner.append(index, suit);
  const pip = document.createElement('span');
  pip.className = 'pip';
  pip.setAttribute('aria-hidden', 'true');
  pip.dataset.t = symbol;
  el.append(corner, pip);
  if (isWild(code)) el.classList.add('wild');
  return el;
}

// A face-down card (the stock, other players' hands).
export function cardBack(extra = '') {
  const el = document.createElement('div');
  el.className = `card back ${extra}`.trim();
  el.setAttribute('aria-hidden', 'true');
  return el;
}
