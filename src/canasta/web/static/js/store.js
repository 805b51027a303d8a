// The table page's state: what the server last said, the reader's seat and choices, and the
// facts derived from them (all from the server's messages: no rule of the game is decided here).

import { cardShort } from './cards.js';
import { GraceClocks, TurnClock } from './clock.js';
import { DealLog } from './deal_log.js';
import { HandModel } from './hand.js';
import { HandOrder } from './hand_order.js';
import { t } from './i18n.js';
import { canTakePile, cardsOf, groupRank, hintTarget, pickups, playableKinds } from './legal.js';

const LINGER = 3000;  // milliseconds a change stays marked after the next move

export const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');

export const app = {
  token: null,
  seat: null,
  settings: null,
  clock: new TurnClock(),
  graces: new GraceClocks(),  // away people's seats: when a computer takes over
  clockShown: null,  // the whole seconds the reader's own countdown showed last
  rules: null,
  state: null,
  seats: [],
  hand: new HandModel(),
  order: new HandOrder(tableId),  // how the reader keeps the hand
  hint: null,  // the last hint the server gave, for the version it names
  log: new DealLog(),
  marks: [],  // the changes marked on the table: {version, change, until}
  shownResult: null,
  socket: null,
};

// The team of a seat, as the server says (state and presence messages name it).
export function teamOf(seat) { return app.seats[seat] ? app.seats[seat].team : null; }

export function nameOf(seat) {
  const info = app.seats[seat];
  if (!info) return t('seat_n', { n: seat + 1 });
  if (info.name) return info.name;
  if (info.bot) return t('bot_name', { n: seat + 1 });
  return t('seat_n', { n: seat + 1 });
}

// The teams' indexes, the reader's own first (score lines read "We … They …").
export function teamsInOrder(count) {
  const mine = app.seat == null ? null : teamOf(app.seat);
  return [...Array(count).keys()].sort((a, b) => (b === mine) - (a === mine));
}

export function teamName(team) {
  const mine = app.seat == null ? null : teamOf(app.seat);
  if (mine === team) return t('we');
  if (mine != null && app.rules.teams === 2) return t('they');
  return app.seats.filter((s) => s.team === team).map((s) => nameOf(s.seat)).join(' & ');
}

export function context() {
  const st = app.state;
  const view = st.view;
  const me = app.seat;
  const legal = new Set(view ? view.legal.map((a) => a.type) : []);
  const myTurn = st.status === 'playing' && view != null && st.to_move === me;
  const answering = myTurn && view.permission === 'pending';
  const drawPhase = myTurn && !answering && view.phase === 'draw';
  const playPhase = myTurn && !answering && view.phase === 'play';
  const ctx = {
    state: st, view, facts: st.facts, rules: app.rules, me, seats: app.seats, graces: app.graces, players: app.rules.players,
    teams: app.rules.teams, myTeam: me == null ? null : teamOf(me), teamOf, nameOf, teamName,
    legal, myTurn, answering, drawPhase, playPhase,
    canDraw: drawPhase && legal.has('draw'),
    // buying only the top card (to go out at once), when the server lists it as legal
    topOnly: drawPhase ? view.legal.find((a) => a.type === 'pickup' && a.top_only) : undefined,
    canDiscard: playPhase && legal.has('discard'),
    canTake: drawPhase && canTakePile(view.legal),
    canAddToMeld: drawPhase || playPhase,
    playable: myTurn ? playableKinds(view.legal) : new Set(),
    hinted: new Set(app.hint && view ? cardsOf(app.hint.action, app.hand.codes) : []),
    hintTarget: app.hint && view ? hintTarget(app.hint.action, view.melds[teamOf(me)] || []) : null,
    changed: app.marks.map((m) => m.change),
  };
  ctx.minimum = view && me != null && !view.opened[ctx.myTeam] ? view.minimums[ctx.myTeam] : null;
  ctx.pileActive = ctx.canTake || ctx.canDiscard;
  ctx.pileHint = pileHint(ctx);
  return ctx;
}

// What pressing the pile does now, in words: with which cards it can be taken, or why not (the
// server says why, from the engine's refusal).
function pileHint(ctx) {
  if (ctx.playPhase) return t('pile_hint_discard');
  if (!ctx.drawPhase) return '';
  const way = pickups(ctx.view.legal)[0];
  if (!ctx.canTake) return ctx.state.pile_reason || t('pile_cannot_take');
  if (!way || !way.with.length) return t('pile_take_layoff');
  return t('pile_take_with', { cards: way.with.map(cardShort).join(' ') });
}

// Take in one message from the server (the page draws the result).
export function receive(message) {
  switch (message.type) {
    case 'welcome':
      app.seat = message.seat;
      app.settings = message.settings;
      break;
    case 'hint':
      if (app.state && message.version === app.state.version) app.hint = message;
      break;
    case 'state': {
      if (!app.state || app.state.version !== message.version) app.hint = null;
      if (!app.state || message.version > app.state.version) noteChange(message);
      if (message.score_sheet === null) message.score_sheet = app.state.score_sheet;  // unchanged
      const dealt = !app.state || app.state.game !== message.game || app.state.deal !== message.deal;
      app.state = message;
      app.seats = message.seats;
      app.graces.update(message.seats);
      app.clock.update(message, app.settings && app.settings.turn_timer);
      if (message.view) app.hand.update(message.view.hand, dealt);  // a new deal's hand is not "just taken"
      app.log.follow(message, nameOf);
      break;
    }
    case 'presence':
      app.seats = message.seats;
      app.graces.update(message.seats);
      break;
    case 'chat':
      app.log.add('chat', app.state ? app.state.version : 0, () => `${message.name}: ${message.text}`);
      break;
    case 'log':
      app.log.replace(message, nameOf);
      break;
    default:
      break;
  }
}

// What a move changed, to mark on the table: the mover, the melds it touched, the card it put
// on the pile.
function changeOf(last) {
  const { seat, action } = last;
  const ranks = (action.melds || []).map(groupRank);
  if (action.type === 'pickup' && action.with.length) ranks.push(groupRank(action.with));
  return { seat, team: teamOf(seat), ranks, pile: action.type === 'discard' ? action.card : null };
}

// The last move stays marked until the next one, and then for LINGER milliseconds more.
function noteChange(st) {
  const now = performance.now();
  if (!st.last) {
    app.marks = [];
    return;
  }
  for (const mark of app.marks) mark.until = Math.min(mark.until, now + LINGER);
  app.marks.push({ version: st.version, change: changeOf(st.last), until: Infinity });
}

// Forget the marks whose time is up; whether any was.
export function expireMarks() {
  const now = performance.now();
  const kept = app.marks.filter((m) => m.until > now);
  const expired = kept.length !== app.marks.length;
  app.marks = kept;
  return expired;
}
