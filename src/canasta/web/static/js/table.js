// The table page: joining, the connection, drawing the table, and the player's moves.

import { api, tableLink } from './api.js';
import { renderCentre, renderSeats, renderTeams } from './board.js';
import { canAdd, canTakePile, cardsOf, pickups, playableKinds } from './legal.js';
import { cardShort } from './cards.js';
import { setupChrome } from './chrome.js';
import { TurnClock, clockElement, hurry, tickClocks } from './clock.js';
import { HandModel, renderHand, renderStaging } from './hand.js';
import { lang, t } from './i18n.js';
import { DealLog } from './deal_log.js';
import { prefs } from './prefs.js';
import { breakdownTable, handsLeft, sheetChart, sheetTable } from './scores.js';
import { TableSocket } from './socket.js';

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
const TICK = 250;  // milliseconds between updates of the turn timer's countdown

const app = {
  token: null,
  seat: null,
  settings: null,
  clock: new TurnClock(),
  clockShown: null,  // the whole seconds the reader's own countdown showed last
  rules: null,
  state: null,
  seats: [],
  hand: new HandModel(),
  hint: null,  // the last hint the server gave, for the version it names
  log: new DealLog(),
  shownResult: null,
  socket: null,
};

// -- derived facts ------------------------------------------------------------------------------

function teamOf(seat) { return seat % app.rules.teams; }

function nameOf(seat) {
  const info = app.seats[seat];
  if (!info) return t('seat_n', { n: seat + 1 });
  if (info.name) return info.name;
  if (info.bot) return t('bot_name', { n: seat + 1 });
  return t('seat_n', { n: seat + 1 });
}

function teamName(team) {
  const mine = app.seat == null ? null : teamOf(app.seat);
  if (mine === team) return t('we');
  if (mine != null && app.rules.teams === 2) return t('they');
  const seats = [...Array(app.rules.players).keys()].filter((s) => teamOf(s) === team);
  return seats.map(nameOf).join(' & ');
}

function context() {
  const st = app.state;
  const view = st.view;
  const me = app.seat;
  const legal = new Set(view ? view.legal.map((a) => a.type) : []);
  const myTurn = st.status === 'playing' && view != null && st.to_move === me;
  const answering = myTurn && view.permission === 'pending';
  const drawPhase = myTurn && !answering && view.phase === 'draw';
  const playPhase = myTurn && !answering && view.phase === 'play';
  const ctx = {
    state: st, view, rules: app.rules, me, seats: app.seats, players: app.rules.players,
    teams: app.rules.teams, myTeam: me == null ? null : teamOf(me), teamOf, nameOf, teamName,
    legal, myTurn, answering, drawPhase, playPhase,
    canDraw: drawPhase && legal.has('draw'),
    // Mendelev: going out by buying only the top card of a pile of two or more (RULES.md A32).
    canBuyTop: drawPhase && Boolean(app.rules.top_card_only_go_out) && view.pile_size > 1,
    topOnly: view ? view.legal.find((a) => a.type === 'pickup' && a.top_only) : undefined,
    canDiscard: playPhase && legal.has('discard'),
    canTake: drawPhase && canTakePile(view.legal),
    canAddToMeld: drawPhase || playPhase,
    playable: myTurn ? playableKinds(view.legal) : new Set(),
    hinted: new Set(app.hint && view ? cardsOf(app.hint.action, app.hand.codes) : []),
    onStock: draw, onPile: pileClicked, onMeld: addToMeld, onDrop: dropCard,
    onToggle: toggleCard, onUnstage: unstage,
  };
  ctx.minimum = view && me != null && !view.opened[ctx.myTeam] ? view.minimums[ctx.myTeam] : null;
  ctx.pileActive = ctx.canTake || ctx.canDiscard;
  ctx.pileHint = pileHint(ctx);
  return ctx;
}

// What pressing the pile does now, in words: with which cards it can be taken, or why not.
function pileHint(ctx) {
  if (ctx.playPhase) return t('pile_hint_discard');
  if (!ctx.drawPhase) return '';
  const way = pickups(ctx.view.legal)[0];
  if (!ctx.canTake) return t('pile_cannot_take');
  if (!way || !way.with.length) return t('pile_take_layoff');
  return t('pile_take_with', { cards: way.with.map(cardShort).join(' ') });
}

// -- rendering ----------------------------------------------------------------------------------

function render() {
  const st = app.state;
  if (!st) return;
  const ctx = context();
  document.body.dataset.version = String(st.version);
  $('table').dataset.status = st.status;
  $('table').classList.toggle('my-turn', ctx.myTurn);
  renderScoreline(ctx);
  renderSeats($('seats'), ctx);
  renderTeams($('their-melds'), $('our-melds'), ctx);
  renderCentre($('stock'), $('pile'), ctx);
  renderStatus(ctx);
  renderClock(ctx);
  renderPrompt(ctx);
  renderControls(ctx);
  renderStaging($('staging'), app.hand, ctx);
  renderHint(ctx);
  renderHandBox(ctx);
  renderLog();
  renderHistoryLinks(st);
  maybeShowResult(ctx);
}

function renderScoreline(ctx) {
  const box = $('scoreline');
  box.replaceChildren();
  ctx.state.score_sheet.totals.forEach((total, team) => {
    const item = document.createElement('span');
    item.className = `score team-${team}`;
    item.textContent = `${teamName(team)} ${total}`;
    box.append(item);
  });
  const target = document.createElement('span');
  target.className = 'target';
  target.textContent = t('target_n', { n: ctx.state.score_sheet.target });
  box.append(target);
}

function statusText(ctx) {
  const st = ctx.state;
  const view = ctx.view;
  if (st.status === 'waiting') {
    const free = app.seats.filter((s) => !s.bot && s.name == null).length;
    return t('status.waiting', { n: free });
  }
  if (st.status === 'deal_over') return `${t('status.deal_over')} ${nextDealText(st)}`;
  if (st.status === 'game_over') return winnerText(st);
  if (!view) return '';
  if (view.permission === 'pending') {
    if (ctx.answering) return t('status.answer', { name: nameOf(view.turn) });
    if (view.turn === ctx.me) return t('status.wait_answer');
    return t('status.asked', { name: nameOf(view.turn) });
  }
  if (ctx.myTurn) {
    if (view.phase === 'draw') return t('status.your_draw');
    if (view.permission === 'yes') return t('status.must_go_out');
    const text = t('status.your_play');
    return view.permission === 'no' ? `${text} ${t('status.may_not_go_out')}` : text;
  }
  return t('status.other_turn', { name: nameOf(st.to_move) });
}

function winnerText(st) {
  if (st.winner == null) return t('status.game_over');
  if (app.seat != null && app.rules.teams === 2) return teamOf(app.seat) === st.winner ? t('won.we') : t('won.they');
  return t('won.team', { team: teamName(st.winner) });
}

function renderStatus(ctx) {
  const status = $('status');
  status.textContent = statusText(ctx);
  status.classList.toggle('mine', ctx.myTurn);
  if (ctx.state.status === 'deal_over' && app.seat != null && !ctx.state.ready.includes(app.seat)) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'inline';
    button.id = 'status-next-deal';
    button.textContent = t('next_deal');
    button.addEventListener('click', nextDeal);
    status.append(' ', button);
  } else if (ctx.state.status === 'waiting' || (app.seat == null && hasFreeSeat())) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'inline';
    if (app.seat == null && hasFreeSeat()) {
      button.textContent = t('sit_down');
      button.addEventListener('click', openJoin);
    } else {
      button.textContent = t('invite');
      button.addEventListener('click', openInvite);
    }
    status.append(' ', button);
  }
}

// The reader's own countdown (the others' are on their seats), and a note when the timer
// has just made the reader's move.
function renderClock(ctx) {
  const st = ctx.state;
  const box = $('my-clock-box');
  if (ctx.myTurn && st.time_left != null) {
    if (!box.firstChild) box.append(clockElement(true));
  } else {
    box.replaceChildren();
  }
  const note = $('timer-note');
  note.hidden = !(st.last && st.last.by === 'timer' && st.last.seat === ctx.me);
  note.textContent = note.hidden ? '' : t('clock.ran_out');
  tick();
}

function tick() {
  tickClocks(app.clock);
  const mine = $('my-clock-box').firstChild ? app.clock.seconds() : null;
  if (hurry(app.clockShown, mine)) $('clock-alert').textContent = t('clock.hurry', { n: mine });
  app.clockShown = mine;
}

function renderPrompt(ctx) {
  const box = $('prompt');
  box.replaceChildren();
  const view = ctx.view;
  box.hidden = !(view && view.permission === 'pending' && (ctx.answering || view.turn === ctx.me));
  if (box.hidden) return;
  const text = document.createElement('p');
  box.append(text);
  if (!ctx.answering) {
    text.textContent = t('status.wait_answer');
    return;
  }
  text.textContent = t('prompt.question', { name: nameOf(view.turn) });
  const yes = promptButton('answer-yes', t('answer_yes'), 'y', () => act({ type: 'answer', yes: true }));
  const no = promptButton('answer-no', t('answer_no'), 'n', () => act({ type: 'answer', yes: false }));
  no.classList.add('secondary');
  box.append(yes, no);
}

function promptButton(id, label, key, handler) {
  const button = document.createElement('button');
  button.type = 'button';
  button.id = id;
  button.textContent = label;
  button.setAttribute('aria-keyshortcuts', key);
  button.addEventListener('click', handler);
  return button;
}

function renderControls(ctx) {
  const show = (id, visible, enabled = true) => {
    const button = $(id);
    button.hidden = !visible;
    button.disabled = !enabled;
  };
  const chosen = app.hand.selected.size > 0;
  const staged = app.hand.staged.length > 0;
  $('controls').hidden = !(ctx.drawPhase || ctx.playPhase);
  show('btn-draw', ctx.drawPhase, ctx.canDraw);
  show('btn-pickup', ctx.drawPhase, ctx.canTake);
  show('btn-hint', ctx.myTurn);
  show('btn-top-only', ctx.canBuyTop, Boolean(ctx.topOnly) || chosen || staged);
  show('btn-group', ctx.drawPhase || ctx.playPhase, chosen);
  show('btn-meld', ctx.playPhase, chosen || staged);
  show('btn-discard', ctx.playPhase, ctx.canDiscard && app.hand.selected.size === 1);
  show('btn-clear', ctx.drawPhase || ctx.playPhase, chosen || staged);
  show('btn-ask', ctx.legal.has('ask') && !ctx.answering);
  show('btn-pass', ctx.legal.has('pass'));
}

function renderHandBox(ctx) {
  const title = $('hand-title');
  if (app.seat == null) {
    title.textContent = t('watching');
    $('hand').replaceChildren();
    return;
  }
  const count = ctx.view ? ctx.view.hand.length : 0;
  title.textContent = t('your_hand', { n: count });
  renderHand($('hand'), app.hand, ctx);
}

function renderLog() {
  const list = $('log');
  list.replaceChildren(...app.log.entries.map((entry) => {
    const item = document.createElement('li');
    item.className = entry.kind;
    item.textContent = entry.text();
    return item;
  }));
}

function renderHistoryLinks(st) {
  const finished = st.score_sheet.deals.length;
  const game = finished ? st.game : st.game - 1;
  const link = $('link-history');
  link.hidden = game < 0;
  const href = `/t/${tableId}/replay?game=${game}`;
  link.href = href;
  $('result-history').href = href;
}

// -- end of a deal and of the game --------------------------------------------------------------

function maybeShowResult(ctx) {
  const st = ctx.state;
  const key = `${st.game}:${st.deal}`;
  if (st.status !== 'deal_over' && st.status !== 'game_over') {
    // The next deal (everyone asked for it) or a rematch: the summary is closed.
    if ($('result-dialog').open) $('result-dialog').close();
    return;
  }
  if (app.shownResult === key) {
    fillResult(st);
    return;
  }
  app.shownResult = key;
  fillResult(st);
  if (!$('result-dialog').open) $('result-dialog').showModal();
}

function reasonText(deal) {
  if (deal.reason === 'went_out') {
    const key = deal.concealed ? 'reason.concealed' : 'reason.went_out';
    return t(key, { name: nameOf(deal.went_out) });
  }
  if (deal.reason === 'stock_exhausted') return t('reason.stock_exhausted');
  return deal.reason;
}

function fillResult(st) {
  const deals = st.score_sheet.deals;
  const last = deals[deals.length - 1];
  if (!last) return;
  const over = st.status === 'game_over';
  $('result-title').textContent = over ? winnerText(st) : t('deal_over_n', { n: deals.length });
  $('result-reason').textContent = reasonText(last);
  const body = $('result-body');
  body.replaceChildren(breakdownTable(last, teamName));
  if (st.hands) body.append(handsLeft(st.hands, nameOf));
  const totals = document.createElement('p');
  totals.className = 'totals';
  totals.textContent = st.score_sheet.totals.map((v, team) => `${teamName(team)}: ${v}`).join(' · ')
    + ' — ' + t('target_n', { n: st.score_sheet.target });
  body.append(totals);
  if (over) body.append(sheetChart(st.score_sheet, teamName));
  const between = st.status === 'deal_over';
  $('result-next').textContent = between ? nextDealText(st) : '';
  $('btn-next-deal').hidden = !(between && app.seat != null && !st.ready.includes(app.seat));
  $('btn-rematch').hidden = !(over && app.seat != null);
}

function nextDeal() {
  if (app.socket) app.socket.send({ type: 'next_deal' });
}

// Between deals: who the next deal waits for (the people at the table who have not asked yet).
function nextDealText(st) {
  if (app.settings && app.settings.turn_timer != null) return t('next.soon');
  const waiting = app.seats.filter((s) => !s.bot && s.connected && !st.ready.includes(s.seat));
  if (app.seat != null && !st.ready.includes(app.seat)) return t('next.press');
  return t('next.waiting', { names: waiting.map((s) => nameOf(s.seat)).join(', ') });
}

function openSheet() {
  if (!app.state) return;
  const sheet = app.state.score_sheet;
  $('sheet-body').replaceChildren(sheetTable(sheet, teamName), sheetChart(sheet, teamName));
  $('sheet-dialog').showModal();
}

// -- moves --------------------------------------------------------------------------------------

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

function act(action) {
  if (!app.state || !app.socket) return;
  showError('');
  app.socket.send({ type: 'action', version: app.state.version, action });
}

function draw() {
  const ctx = context();
  if (ctx.drawPhase) act({ type: 'draw' });
}

// Take the pile with the chosen cards (and staged groups); with nothing chosen, the simplest
// legal way (a natural pair rather than wild cards), or let the server explain why not.
function pickup() {
  const ctx = context();
  if (!ctx.drawPhase) return;
  const withCards = app.hand.selectedCodes();
  const melds = app.hand.groups();
  if (withCards.length || melds.length) {
    act({ type: 'pickup', with: withCards, melds });
    return;
  }
  act(pickups(ctx.view.legal)[0] || { type: 'pickup', with: [] });
}

// Buy only the top card and go out with the chosen cards and staged groups; with nothing
// chosen, the way the server lists as legal (it melds every card of the hand).
function buyTopCard() {
  const ctx = context();
  if (!ctx.canBuyTop) return;
  const withCards = app.hand.selectedCodes();
  const melds = app.hand.groups();
  if (withCards.length || melds.length) act({ type: 'pickup', with: withCards, melds, top_only: true });
  else if (ctx.topOnly) act(ctx.topOnly);
}

function layMelds() {
  const ctx = context();
  if (!ctx.playPhase) return;
  app.hand.stage();
  const melds = app.hand.groups();
  if (melds.length) act({ type: 'meld', melds });
}

function discardSelected() {
  const ctx = context();
  if (!ctx.playPhase) return;
  const chosen = app.hand.selectedCodes();
  if (chosen.length !== 1) {
    showError(t('choose_one_discard'));
    return;
  }
  act({ type: 'discard', card: chosen[0] });
}

// A card of the hand dragged onto the pile (discard it) or onto one of the team's melds (add it
// there, with the other chosen cards if it was one of them, as pressing the meld does).
function dropCard(index, where, rank) {
  const ctx = context();
  if (app.hand.codes[index] === undefined) return;
  if (where === 'pile' && ctx.canDiscard) act({ type: 'discard', card: app.hand.codes[index] });
  if (where === 'meld' && ctx.canAddToMeld) stageForMeld(ctx, rank, app.hand.selected.has(index) ? [...app.hand.selected] : [index]);
}

// Cards put onto one of the team's melds: while playing, only an addition the server lists as
// legal is taken (before drawing, they wait to go with the pile).
function stageForMeld(ctx, rank, indexes) {
  if (ctx.playPhase && !canAdd(ctx.view.legal, rank, indexes.map((i) => app.hand.codes[i]))) {
    showError(t('cannot_add', { meld: rank === 'wild' ? t('meld.wild') : t('meld.of', { rank: t('ranks.' + rank) }) }));
    return;
  }
  showError('');
  app.hand.stage(rank, indexes);
  render();
}

function askHint() {
  if (context().myTurn && app.socket) app.socket.send({ type: 'hint' });
}

function renderHint(ctx) {
  const box = $('hint');
  const shown = Boolean(ctx.myTurn && app.hint);
  box.hidden = !shown;
  box.textContent = shown ? `${t('hint_title')}: ${app.hint.reason}` : '';
}

function pileClicked() {
  const ctx = context();
  if (ctx.drawPhase) pickup();
  else if (ctx.playPhase) discardSelected();
}

function toggleCard(index) {
  app.hand.toggle(index);
  rerenderHand(index);
}

function group() {
  if (app.hand.stage()) render();
}

function addToMeld(rank) {
  if (!app.hand.selected.size) {
    showError(t('choose_cards_first'));
    return;
  }
  stageForMeld(context(), rank, [...app.hand.selected]);
}

function unstage(k) {
  app.hand.unstage(k);
  render();
}

function clearChoice() {
  app.hand.clear();
  showError('');
  render();
}

// Re-render after a selection change, keeping keyboard focus on the same card.
function rerenderHand(index) {
  render();
  const button = $('hand').querySelector(`[data-index="${index}"]`);
  if (button) button.focus();
}

// -- the connection -----------------------------------------------------------------------------

function onMessage(message) {
  switch (message.type) {
    case 'welcome':
      if (message.seat == null && app.token) {  // this seat was given up (here or on another device)
        prefs.dropToken(tableId);
        app.token = null;
        showError(t('left'));
      }
      app.seat = message.seat;
      $('btn-leave').hidden = message.seat == null;
      app.settings = message.settings;
      setupChat(message.phrases, message.settings.free_chat);
      break;
    case 'hint':
      if (app.state && message.version === app.state.version) {
        app.hint = message;
        render();
      }
      break;
    case 'state':
      if (!app.state || app.state.version !== message.version) app.hint = null;
      app.state = message;
      app.seats = message.seats;
      app.clock.update(message, app.settings && app.settings.turn_timer);
      $('clock-alert').textContent = '';
      if (message.view) app.hand.update(message.view.hand);
      app.log.follow(message, nameOf);
      render();
      break;
    case 'presence':
      app.seats = message.seats;
      if (app.state) render();
      break;
    case 'chat':
      app.log.add('chat', app.state ? app.state.version : 0, () => `${message.name}: ${message.text}`);
      renderLog();
      break;
    case 'log':
      app.log.replace(message, nameOf);
      renderLog();
      break;
    case 'error':
      if (message.code === 'bad_token') {
        prefs.dropToken(tableId);
        app.token = null;
        app.socket.close();
        openJoin();
      }
      showError(message.message);
      break;
    default:
      break;
  }
}

function onStatus(status) {
  const box = $('connection');
  box.hidden = status === 'open';
  box.textContent = status === 'open' ? '' : t('reconnecting');
}

function connect() {
  if (app.socket) app.socket.close();
  app.socket = new TableSocket(tableId, { onMessage, onStatus });
  app.socket.connect(app.token, lang());
}

// -- joining ------------------------------------------------------------------------------------

function hasFreeSeat() {
  return app.seats.some((s) => !s.bot && s.name == null);
}

async function openJoin() {
  let snapshot;
  try {
    snapshot = await api.state(tableId);
  } catch (error) {
    showError(error.message);
    return;
  }
  app.seats = snapshot.seats;
  const list = $('join-seats');
  list.querySelectorAll('.seat-option').forEach((node) => node.remove());
  for (const info of snapshot.seats) {
    const row = document.createElement('button');
    row.type = 'button';
    row.className = 'seat-option';
    row.dataset.seat = info.seat;
    const partnerOf = snapshot.seats
      .filter((o) => o.seat !== info.seat && teamOf(o.seat) === teamOf(info.seat) && o.name)
      .map((o) => o.name);
    let label = t('seat_n', { n: info.seat + 1 });
    if (info.bot) label += ' — ' + t('computer', { level: t('level.' + info.bot.split(':')[0]) });
    else if (info.name) label += ' — ' + info.name;
    else label += ' — ' + (partnerOf.length ? t('partner_of', { names: partnerOf.join(', ') }) : t('seat_free'));
    row.textContent = label;
    row.disabled = Boolean(info.bot || info.name);
    row.addEventListener('click', () => join(info.seat));
    list.append(row);
  }
  $('join-rules').textContent = t('join_rules', {
    variant: t('variant.' + app.rules.variant), players: app.rules.players, target: app.rules.target_score,
  });
  $('join-name').value = prefs.name;
  $('join-error').hidden = true;
  if (!$('join-dialog').open) $('join-dialog').showModal();
  $('join-name').focus();
}

async function join(seat) {
  const name = $('join-name').value.trim();
  const error = $('join-error');
  if (!name) {
    error.textContent = t('name_needed');
    error.hidden = false;
    $('join-name').focus();
    return;
  }
  try {
    const answer = await api.join(tableId, name, seat);
    prefs.saveToken(tableId, answer.token);
    prefs.name = name;
    app.token = answer.token;
    $('join-dialog').close();
    connect();
  } catch (err) {
    error.textContent = err.message;
    error.hidden = false;
    if (err.code === 'seat_taken' || err.code === 'table_full') openJoin();
  }
}

function watch() {
  $('join-dialog').close();
  connect();
}

// Chat for seated players: preset phrases (in this connection's language), and free text
// where the table's creator allowed it.
function setupChat(phrases, freeChat) {
  const select = $('chat-phrase');
  select.replaceChildren(...Object.entries(phrases).map(([id, text]) => {
    const option = document.createElement('option');
    option.value = id;
    option.textContent = text;
    return option;
  }));
  $('chat-form').hidden = app.seat == null;
  $('chat-text').hidden = !freeChat;
}

// Send the typed text if there is any, else the chosen phrase.
function say(event) {
  event.preventDefault();
  if (!app.socket) return;
  const input = $('chat-text');
  const text = input.hidden ? '' : input.value.trim();
  if (text) {
    app.socket.send({ type: 'chat', text });
    input.value = '';
  } else if ($('chat-phrase').value) {
    app.socket.send({ type: 'chat', phrase: $('chat-phrase').value });
  }
}

function openInvite() {
  $('invite-link').value = tableLink(tableId);
  $('rejoin-box').hidden = !app.token;
  if (app.token) $('rejoin-link').value = `${tableLink(tableId)}#seat=${app.token}`;
  $('invite-dialog').showModal();
}

// -- keyboard -----------------------------------------------------------------------------------

const KEYS = {
  d: draw, p: pickup, b: buyTopCard, h: askHint, g: group, m: layMelds, x: discardSelected, c: clearChoice,
  a: () => { if (context().legal.has('ask')) act({ type: 'ask' }); },
  y: () => { if (context().answering) act({ type: 'answer', yes: true }); },
  n: () => { if (context().answering) act({ type: 'answer', yes: false }); },
  s: openSheet,
  '?': () => $('help-dialog').showModal(),
};

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.target.closest('input, textarea, select, dialog')) return;
  if (event.key === 'ArrowLeft' || event.key === 'ArrowRight') {
    const cards = [...$('hand').querySelectorAll('.in-hand')];
    const at = cards.indexOf(document.activeElement);
    if (at < 0 && cards.length) cards[0].focus();
    else if (at >= 0) cards[Math.max(0, Math.min(cards.length - 1, at + (event.key === 'ArrowLeft' ? -1 : 1)))].focus();
    event.preventDefault();
    return;
  }
  if (event.key === 'Escape') { clearChoice(); return; }
  const handler = KEYS[event.key.toLowerCase()];
  if (handler) {
    event.preventDefault();
    handler();
  }
}

function fillHelp() {
  const keys = [['d', 'draw'], ['p', 'pickup'], ['h', 'hint'], ['b', 'top_only'], ['g', 'group'], ['m', 'lay'], ['x', 'discard'],
    ['c', 'clear'], ['a', 'ask'], ['y', 'answer_yes'], ['n', 'answer_no'], ['s', 'sheet'], ['← →', 'keys.move'],
    ['key.space', 'keys.select'], ['key.esc', 'clear']].filter(([key]) => key !== 'b' || app.rules?.top_card_only_go_out);
  $('help-keys').replaceChildren(...keys.flatMap(([key, what]) => {
    const dt = document.createElement('dt');
    dt.textContent = key.startsWith('key.') ? t(key) : key;
    const dd = document.createElement('dd');
    dd.textContent = t(what);
    return [dt, dd];
  }));
}

// -- start --------------------------------------------------------------------------------------

function bindControls() {
  $('btn-draw').addEventListener('click', draw);
  $('btn-pickup').addEventListener('click', pickup);
  $('btn-top-only').addEventListener('click', buyTopCard);
  $('btn-group').addEventListener('click', group);
  $('btn-meld').addEventListener('click', layMelds);
  $('btn-discard').addEventListener('click', discardSelected);
  $('btn-clear').addEventListener('click', clearChoice);
  $('btn-ask').addEventListener('click', () => act({ type: 'ask' }));
  $('btn-pass').addEventListener('click', () => act({ type: 'pass' }));
  $('btn-hint').addEventListener('click', askHint);
  $('btn-sheet').addEventListener('click', openSheet);
  $('btn-invite').addEventListener('click', openInvite);
  $('btn-help').addEventListener('click', () => $('help-dialog').showModal());
  $('btn-watch').addEventListener('click', watch);
  $('btn-next-deal').addEventListener('click', nextDeal);
  $('btn-leave').addEventListener('click', () => $('leave-dialog').showModal());
  $('leave-dialog').addEventListener('close', () => {
    if ($('leave-dialog').returnValue === 'leave') app.socket.send({ type: 'leave' });
  });
  $('btn-rematch').addEventListener('click', () => {
    app.socket.send({ type: 'rematch' });
    $('result-dialog').close();
  });
  $('join-form').addEventListener('submit', (e) => e.preventDefault());
  $('chat-form').addEventListener('submit', say);
  document.addEventListener('keydown', onKey);
  setInterval(tick, TICK);
}

async function start() {
  setupChrome((what) => {
    fillHelp();
    if (what === 'lang' && app.socket) connect();
    render();
  });
  fillHelp();
  bindControls();
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get('seat')) {
    prefs.saveToken(tableId, fragment.get('seat'));
    history.replaceState(null, '', location.pathname + location.search);
  }
  try {
    app.rules = await api.rules(tableId);
  } catch (error) {
    $('status').textContent = error.message;
    $('table').dataset.status = 'missing';
    return;
  }
  fillHelp();
  app.token = prefs.token(tableId);
  if (app.token) {
    connect();
    return;
  }
  await openJoin();
  if (!hasFreeSeat()) watch();
}

start();
