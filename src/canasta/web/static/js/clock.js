// The turn timer's countdown. Each state message says how many seconds the seat to move has
// left (`time_left`, null when no timer runs); the page counts down from when it heard that, on
// its own monotonic clock, since the server's clock and each player's differ.

import { t } from './i18n.js';

const WARN = 10;  // seconds left from which the countdown turns amber
const DANGER = 5;  // and red

export class TurnClock {
  constructor() {
    this.deadline = null;  // performance.now() when the time runs out
    this.total = null;  // the table's turn_timer, for the bar under the reader's own countdown
  }

  update(state, total) {
    this.total = total ?? null;
    this.deadline = state.time_left == null ? null : performance.now() + state.time_left * 1000;
  }

  // Whole seconds left (rounded up), or null when no timer runs.
  seconds() {
    return this.deadline == null ? null : Math.ceil(this.millis() / 1000);
  }

  millis() {
    return Math.max(0, this.deadline - performance.now());
  }
}

// A countdown for the seat to move; `mine` is the reader's own, shown large. `tickClocks`
// fills it in.
export function clockElement(mine) {
  const node = document.createElement('span');
  node.className = mine ? 'turn-clock mine' : 'turn-clock';
  node.dataset.clock = mine ? 'mine' : 'seat';
  node.setAttribute('role', 'timer');
  return node;
}

function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

// How long each away person's seat waits before a computer plays it (the seats' `grace_left`),
// counted down like the turn timer.
export class GraceClocks {
  constructor() {
    this.deadlines = new Map();  // seat -> performance.now() when a computer takes over
  }

  update(seats) {
    const now = performance.now();
    this.deadlines = new Map(seats.filter((s) => s.grace_left != null).map((s) => [s.seat, now + s.grace_left * 1000]));
  }

  // "0:45" for a seat whose grace period runs, else null.
  text(seat) {
    const deadline = this.deadlines.get(seat);
    return deadline == null ? null : minutes(Math.ceil(Math.max(0, deadline - performance.now()) / 1000));
  }
}

// Show on `node` the text of `key` for a seat's grace period, kept up to date by `tickGrace`.
export function showGrace(node, graces, key, seat, name = '') {
  Object.assign(node.dataset, { graceSeat: seat, graceKey: key, graceName: name });
  node.textContent = t(key, { name, time: graces.text(seat) });
}

export function tickGrace(graces, root = document) {
  for (const node of root.querySelectorAll('[data-grace-seat]')) {
    const time = graces.text(Number(node.dataset.graceSeat));
    if (time != null) node.textContent = t(node.dataset.graceKey, { name: node.dataset.graceName, time });
  }
}

// Bring every countdown on the page up to date.
export function tickClocks(clock, root = document) {
  const seconds = clock.seconds();
  if (seconds == null) return;
  const text = minutes(seconds);
  for (const node of root.querySelectorAll('[data-clock]')) {
    node.textContent = text;
    node.setAttribute('aria-label', t(node.dataset.clock === 'mine' ? 'clock.mine' : 'clock.label', { n: seconds }));
    node.classList.toggle('warn', seconds <= WARN);
    node.classList.toggle('danger', seconds <= DANGER);
    if (clock.total) node.style.setProperty('--left', String(Math.min(1, clock.millis() / 1000 / clock.total)));
  }
}

// Whether the reader's own time has just come down to the last WARN seconds (said aloud once).
export function hurry(before, now) {
  return before != null && now != null && before > WARN && now <= WARN;
}
