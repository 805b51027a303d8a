// Others' moves in motion, read from the server's last move only: a card travels from the stock
// or the pile to the mover's seat, from the seat to the pile, or from the seat to the meld it
// joined. A copy of a card flies above the table and is removed when it lands; nothing moves
// for those who prefer reduced motion.

import { cardBack, cardFace } from './cards.js';
import { groupRank } from './legal.js';
import { groupCards } from './moves.js';

const DURATION = 400;  // milliseconds a card travels

const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

// A copy of `card` flying from element `from` to element `to` (nothing when one is missing).
function fly(from, to, card, kind) {
  if (!from || !to) return;
  const start = from.getBoundingClientRect();
  const end = to.getBoundingClientRect();
  const flight = document.createElement('div');
  flight.className = 'flight';
  flight.dataset.flight = kind;
  flight.setAttribute('aria-hidden', 'true');
  for (const name of ['data-card', 'aria-label', 'role']) card.removeAttribute(name);  // not a card of the table
  flight.append(card);
  const x = (box) => box.left + box.width / 2;
  const y = (box) => box.top + box.height / 2;
  flight.style.left = `${x(start)}px`;
  flight.style.top = `${y(start)}px`;
  flight.style.transitionDuration = `${DURATION}ms`;
  document.body.append(flight);
  flight.getBoundingClientRect();  // the start position is laid out before the move begins
  flight.style.transform = `translate(${x(end) - x(start)}px, ${y(end) - y(start)}px)`;
  const land = () => flight.remove();
  flight.addEventListener('transitionend', land, { once: true });
  setTimeout(land, DURATION + 200);  // also when no transition ran (a hidden tab)
}

// The meld of `team` that a group went to (the server's notation: a list of cards, or a rank
// with cards), as drawn now.
function meldOf(team, group) {
  return document.querySelector(`.team.team-${team} .meld[data-rank="${groupRank(group)}"]`);
}

// Animate the move that led to `state`, when another player made it.
export function animateMove(state, me, teamOf) {
  const last = state.last;
  if (!last || last.seat === me || reduced()) return;
  const seat = document.querySelector(`#seats .seat-chip[data-seat="${last.seat}"]`);
  const stock = document.getElementById('stock-button');
  const pile = document.getElementById('pile-button');
  const action = last.action;
  const team = teamOf(last.seat);
  const melds = [...(action.melds || [])];
  if (action.type === 'draw') fly(stock, seat, cardBack(), 'draw');
  if (action.type === 'pickup') {
    fly(pile, seat, cardBack(), 'pickup');
    if (action.with.length) melds.push(action.with);
  }
  if (action.type === 'discard') fly(seat, pile, cardFace(action.card), 'discard');
  for (const group of melds) fly(seat, meldOf(team, group), cardFace(groupCards(group)[0]), 'meld');
}
