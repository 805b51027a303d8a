// Others' moves in motion, read from the server's last move only: a card travels from the stock
// or the pile to the mover's seat, from the seat to the pile, or from the seat to the meld it
// joined. A copy of a card flies over the felt, under the names and the status line (canasta.css),
// and is removed when it lands; the real cards it brings (the pile's new top, the cards added to
// a meld) stay hidden until then, through any redrawing meanwhile. Nothing moves for those who
// prefer reduced motion.

import { cardBack, cardFace } from './cards.js';
import { groupRank } from './legal.js';
import { groupCards } from './moves.js';

const DURATION = 400;  // milliseconds a card travels

const reduced = () => matchMedia('(prefers-reduced-motion: reduce)').matches;

// The flights in the air, each with a function that finds the real cards it brings.
const airborne = new Set();

function hideArrivals(flight, hidden) {
  for (const node of flight.arrivals()) node.classList.toggle('arriving', hidden);
}

// Hide again the cards still in the air: the table calls this after each time it is drawn.
export function hideAirborne() {
  for (const flight of airborne) hideArrivals(flight, true);
}

// A copy of `card` flying from element `from` to element `to` (nothing when one is missing);
// `arrivals` finds the real cards it brings, hidden until it lands.
function fly(from, to, card, kind, arrivals = () => []) {
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
  const record = { arrivals };
  airborne.add(record);
  hideArrivals(record, true);
  flight.getBoundingClientRect();  // the start position is laid out before the move begins
  flight.style.transform = `translate(${x(end) - x(start)}px, ${y(end) - y(start)}px)`;
  const land = () => {
    if (!airborne.delete(record)) return;
    flight.remove();
    hideArrivals(record, false);
  };
  flight.addEventListener('transitionend', land, { once: true });
  setTimeout(land, DURATION + 200);  // also when no transition ran (a hidden tab)
}

// The meld of `team` that a group went to (the server's notation: a list of cards, or a rank
// with cards), as drawn now.
function meldOf(team, group) {
  return document.querySelector(`.team.team-${team} .meld[data-rank="${groupRank(group)}"]`);
}

// The cards of `group` in its meld as drawn now (the last ones of each code: a second deck may
// have put the same card there before).
function groupArrivals(team, group) {
  return () => {
    const meld = meldOf(team, group);
    if (!meld) return [];
    const left = [...meld.querySelectorAll('[data-card]')];
    const found = [];
    for (const code of groupCards(group)) {
      const at = left.findLastIndex((node) => node.dataset.card === code);
      if (at >= 0) found.push(...left.splice(at, 1));
    }
    return found;
  };
}

// The pile's top card as drawn now, when it is `code`.
function pileTop(code) {
  return () => [...document.querySelectorAll('#pile-button .pile-stack > .face:not(.freezer)')]
    .filter((node) => node.dataset.card === code);
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
  if (action.type === 'discard') fly(seat, pile, cardFace(action.card), 'discard', pileTop(action.card));
  for (const group of melds) {
    fly(seat, meldOf(team, group), cardFace(groupCards(group)[0]), 'meld', groupArrivals(team, group));
  }
}
