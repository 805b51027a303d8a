// Drawing the table page from the state: the score line, the board, the status, the controls,
// the hand, the log, and the summary of a deal.

import { renderCentre, renderSeats, renderTeams } from './board.js';
import { clockElement, hurry, showGrace, tickClocks, tickGrace } from './clock.js';
import { $ } from './dom.js';
import { renderHand, renderStaging } from './hand.js';
import { t } from './i18n.js';
import { act, HANDLERS, nextDeal } from './intents.js';
import { hasFreeSeat, openInvite, openJoin } from './join.js';
import { hideAirborne } from './motion.js';
import { breakdownTable, fillScoreline, handsLeft, sheetChart, sheetTable } from './scores.js';
import { app, context, expireMarks, nameOf, tableId, teamName, teamOf, teamsInOrder } from './store.js';

export function render() {
  const st = app.state;
  if (!st) return;
  const ctx = { ...context(), ...HANDLERS };
  document.body.dataset.version = String(st.version);
  $('table').dataset.status = st.status;
  $('table').classList.toggle('my-turn', ctx.myTurn);
  const sheet = ctx.state.score_sheet;
  fillScoreline($('scoreline'), sheet, teamsInOrder(sheet.totals.length), ctx.myTeam, teamName);
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
  hideAirborne();
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
    const text = t(view.phase === 'draw' ? 'status.your_draw' : 'status.your_play');
    if (view.permission === 'yes') return `${text} ${t('status.may_go_out')}`;
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
  for (const key of ['graceSeat', 'graceKey', 'graceName']) delete status.dataset[key];
  const away = ctx.state.status === 'playing' && !ctx.myTurn && ctx.graces.text(ctx.state.to_move) != null;
  if (away) showGrace(status, ctx.graces, 'status.away', ctx.state.to_move, nameOf(ctx.state.to_move));
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

export function tick() {
  if (expireMarks()) render();
  tickClocks(app.clock);
  tickGrace(app.graces);
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
  const note = document.createElement('p');
  note.className = 'prompt-note';
  note.textContent = t('prompt.explain');
  box.append(note);
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
  show('btn-top-only', Boolean(ctx.topOnly));
  show('btn-group', ctx.drawPhase || ctx.playPhase, chosen);
  show('btn-meld', ctx.playPhase, chosen || staged);
  $('btn-meld').classList.toggle('hint-target', ctx.hintTarget?.control === 'lay');
  show('btn-discard', ctx.playPhase, ctx.canDiscard && app.hand.selected.size === 1);
  show('btn-clear', ctx.drawPhase || ctx.playPhase, chosen || staged);
  // offered only where the server says going out this turn may be possible, with its cost
  const ask = ctx.legal.has('ask') && !ctx.answering && ctx.state.go_out_possible === true;
  show('btn-ask', ask);
  if (ask) {  // what asking costs in this rule set, in its name and tooltip
    const label = `${t('ask')}: ${t('ask_cost.' + ctx.rules.permission_mode)}`;
    $('btn-ask').setAttribute('aria-label', label);
    $('btn-ask').title = label;
  }
  show('btn-pass', ctx.legal.has('pass'));
}

function renderHandBox(ctx) {
  const title = $('hand-title');
  $('hand-sort').hidden = app.seat == null;
  if (app.seat == null) {
    title.textContent = t('watching');
    $('hand').replaceChildren();
    return;
  }
  const count = ctx.view ? ctx.view.hand.length : 0;
  title.textContent = t('your_hand', { n: count });
  $('sort-rank').setAttribute('aria-pressed', String(app.order.sort === 'rank'));
  $('sort-suit').setAttribute('aria-pressed', String(app.order.sort === 'suit'));
  renderHand($('hand'), app.hand, app.order, ctx);
}

export function renderLog() {
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
  totals.textContent = teamsInOrder(st.score_sheet.totals.length).map((team) => `${teamName(team)}: ${st.score_sheet.totals[team]}`).join(' · ')
    + ' — ' + t('target_n', { n: st.score_sheet.target });
  body.append(totals);
  if (over) body.append(sheetChart(st.score_sheet, teamName));
  const between = st.status === 'deal_over';
  $('result-next').textContent = between ? nextDealText(st) : '';
  $('btn-next-deal').hidden = !(between && app.seat != null && !st.ready.includes(app.seat));
  $('btn-rematch').hidden = !(over && app.seat != null);
}


// Between deals: who the next deal waits for (the people at the table who have not asked yet).
function nextDealText(st) {
  if (app.settings && app.settings.turn_timer != null) return t('next.soon');
  const waiting = app.seats.filter((s) => !s.bot && s.connected && !st.ready.includes(s.seat));
  if (app.seat != null && !st.ready.includes(app.seat)) return t('next.press');
  return t('next.waiting', { names: waiting.map((s) => nameOf(s.seat)).join(', ') });
}


export function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = !message;
}

function renderHint(ctx) {
  const box = $('hint');
  const shown = Boolean(ctx.myTurn && app.hint);
  box.hidden = !shown;
  box.textContent = shown ? `${t('hint_title')}: ${app.hint.reason}` : '';
}

// Re-render after a selection change, keeping keyboard focus on the same card.
export function rerenderHand(index) {
  render();
  const button = $('hand').querySelector(`[data-index="${index}"]`);
  if (button) button.focus();
}

export function openSheet() {
  if (!app.state) return;
  const sheet = app.state.score_sheet;
  $('sheet-body').replaceChildren(sheetTable(sheet, teamName), sheetChart(sheet, teamName));
  $('sheet-dialog').showModal();
}
