// The hand-history page: a finished deal move by move, every hand face up.

import { api, recordUrl } from './api.js';
import { prefs } from './prefs.js';
import { renderCentre, teamPanel } from './board.js';
import { cardFace, compareCards, isWild, rankOf } from './cards.js';
import { setupChrome } from './chrome.js';
import { t } from './i18n.js';
import { describeMove } from './moves.js';
import { breakdownTable } from './scores.js';

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split('/')[2] || '');
const page = { rules: null, data: null, step: 0, timer: null, review: null, polling: null };
const REVIEW_POLL_MS = 1000;

function nameOf(seat) {
  return page.data.names[seat] || t('bot_name', { n: seat + 1 });
}

// The seats' teams, as the server says (every step's facts name them).
function teamOf(seat) {
  return page.data.steps[0].facts.teams[seat];
}

function teamName(team) {
  const seats = [...Array(page.rules.players).keys()].filter((s) => teamOf(s) === team);
  return seats.map(nameOf).join(' & ');
}

function meldRank(cards) {
  const natural = cards.find((c) => !isWild(c));
  return natural ? rankOf(natural) : 'wild';
}

// A position (canasta-position/1) in the shape of a seat's view, for the table's renderers.
function asView(pos, facts) {
  return {
    melds: pos.melds.map((team) => team.map((cards) => ({ rank: meldRank(cards), cards }))),
    opened: pos.opened, minimums: facts.minimums, red_threes: pos.red_threes,
    hand_sizes: pos.hands.map((h) => h.length), stock_size: pos.stock.length, pile: pos.pile,
    pile_size: pos.pile.length, pile_frozen: pos.pile_frozen, dealer: pos.dealer, sitting_out: pos.sitting_out,
  };
}

function context(step) {
  const view = asView(step.position, step.facts);
  return {
    view, facts: step.facts, rules: page.rules, me: null, myTeam: null, teams: page.rules.teams, players: page.rules.players,
    state: { status: 'replay', score_sheet: { totals: step.position.scores } }, teamName,
    canAddToMeld: false, canDraw: false, canDiscard: false, pileActive: false, changed: [],
    onStock() {}, onPile() {}, onDropDiscard() {}, onMeld() {},
  };
}

function renderHands(pos) {
  $('hands').replaceChildren(...pos.hands.map((hand, seat) => {
    const row = document.createElement('section');
    row.className = `hand-row team-${teamOf(seat)}`;
    row.classList.toggle('turn', pos.turn === seat && pos.phase !== 'ended');
    row.setAttribute('aria-label', t('replay.hand_of', { name: nameOf(seat) }));
    const name = document.createElement('b');
    name.textContent = `${nameOf(seat)} · ${t('cards_n', { n: hand.length })}`;
    const cards = document.createElement('div');
    cards.className = 'hand small-cards';
    for (const code of [...hand].sort(compareCards)) cards.append(cardFace(code));
    row.append(name, cards);
    return row;
  }));
}

function render() {
  const steps = page.data.steps;
  const step = steps[page.step];
  const pos = step.position;
  const ctx = context(step);
  renderHands(pos);
  renderCentre($('stock'), $('pile'), ctx);
  $('teams').replaceChildren(...[...Array(page.rules.teams).keys()].map((team) => teamPanel(ctx, team)));
  $('move-text').textContent = step.action ? describeMove(step.action, nameOf(step.seat)) : t('replay.start');
  const costly = reviewedAt(page.step);
  if (costly) $('move-text').textContent += ' ' + markText(costly);
  $('counter').textContent = t('replay.step', { n: page.step, total: steps.length - 1 });
  $('slider').max = String(steps.length - 1);
  $('slider').value = String(page.step);
  const end = page.step === steps.length - 1;
  $('result').hidden = !end;
  if (end) $('result').replaceChildren(breakdownTable(page.data.result, teamName));
  document.body.dataset.step = String(page.step);
}

function go(step) {
  page.step = Math.max(0, Math.min(page.data.steps.length - 1, step));
  render();
}

function togglePlay() {
  if (page.timer) {
    clearInterval(page.timer);
    page.timer = null;
  } else {
    page.timer = setInterval(() => {
      if (page.step >= page.data.steps.length - 1) togglePlay();
      else go(page.step + 1);
    }, 700);
  }
  $('play').setAttribute('aria-label', t(page.timer ? 'replay.pause' : 'replay.play'));
  $('play').setAttribute('aria-pressed', String(Boolean(page.timer)));
}

function fillSelect(select, count, chosen) {
  select.replaceChildren(...Array.from({ length: count }, (_, i) => {
    const option = document.createElement('option');
    option.value = String(i);
    option.textContent = String(i + 1);
    option.selected = i === chosen;
    return option;
  }));
}

async function load(game, deal) {
  try {
    page.data = await api.replay(tableId, game, deal);
  } catch (error) {
    $('replay-error').textContent = error.code === 'deal_not_over' ? t('replay.none') : error.message;
    $('replay-error').hidden = false;
    return;
  }
  $('replay-error').hidden = true;
  const { game: g, deal: d } = page.data;
  fillSelect($('game'), page.data.games, g);
  fillSelect($('deal'), page.data.deals, d);
  $('download').href = recordUrl(tableId, g, d);
  $('download').setAttribute('download', `canasta-${tableId.slice(0, 8)}-game${g + 1}-deal${d + 1}.json`);
  history.replaceState(null, '', `${location.pathname}?game=${g}&deal=${d}`);
  go(0);
  showReview(null);
  if (prefs.token(tableId)) readReview(false);
}

// -- "Review my decisions": the reader's costly decisions, worked out by the server ----------

// The costly decision whose move made this step (step n shows the deal after its n-th action).
function reviewedAt(step) {
  const review = page.review;
  return review ? review.costly.find((c) => c.index === step - 1) : null;
}

function markText(costly) {
  return t('review.mark', {
    n: costly.index + 1, better: describeMove(costly.better, nameOf(page.review.seat)).replace(/\.$/, ''),
    points: Math.round(costly.points), reason: costly.reason_text,
  });
}

function showReview(answer) {
  clearTimeout(page.polling);
  page.review = answer && answer.status === 'done' ? answer.review : null;
  $('review').hidden = !prefs.token(tableId);
  const status = answer ? answer.status : 'none';
  $('review-ask').hidden = !['none', 'failed'].includes(status);
  $('review-status').textContent = status === 'queued' ? t('review.queued')
    : status === 'running' ? t('review.progress', { done: answer.done, total: answer.total ?? '?' })
      : status === 'failed' ? t('review.failed') : '';
  $('review-summary').textContent = page.review ? page.review.summary : '';
  const steps = page.data.steps.length - 1;
  const costly = page.review ? page.review.costly : [];
  $('review-timeline').replaceChildren(...costly.map((c) => {
    const tick = document.createElement('span');
    tick.className = 'review-tick';
    tick.style.left = `${(100 * (c.index + 1)) / Math.max(1, steps)}%`;
    return tick;
  }));
  $('review-timeline').hidden = !costly.length;
  $('review-marks').replaceChildren(...costly.map((c) => {
    const item = document.createElement('li');
    const mark = document.createElement('button');
    mark.type = 'button';
    mark.className = 'review-mark';
    mark.textContent = markText(c);
    mark.addEventListener('click', () => go(c.index + 1));
    item.append(mark);
    return item;
  }));
  if (status === 'queued' || status === 'running') page.polling = setTimeout(() => readReview(false), REVIEW_POLL_MS);
  if (page.data) render();
}

async function readReview(ask) {
  const { game, deal } = page.data;
  const token = prefs.token(tableId);
  try {
    showReview(await (ask ? api.askReview : api.review)(tableId, game, deal, token));
  } catch (error) {
    $('review-status').textContent = error.message;
    if (error.code === 'bad_token') $('review').hidden = true;  // not one of this table's people (any more)
  }
}

function onKey(event) {
  if (!page.data || event.target.closest('input, select')) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1, Home: -Infinity, End: Infinity };
  if (event.key in moves) {
    event.preventDefault();
    const delta = moves[event.key];
    go(Number.isFinite(delta) ? page.step + delta : delta < 0 ? 0 : page.data.steps.length - 1);
  }
}

async function start() {
  setupChrome(() => { if (page.data) render(); });
  $('back').href = `/t/${tableId}`;
  $('first').addEventListener('click', () => go(0));
  $('prev').addEventListener('click', () => go(page.step - 1));
  $('next').addEventListener('click', () => go(page.step + 1));
  $('last').addEventListener('click', () => go(page.data.steps.length - 1));
  $('play').addEventListener('click', togglePlay);
  $('review-ask').addEventListener('click', () => readReview(true));
  $('slider').addEventListener('input', () => go(Number($('slider').value)));
  $('game').addEventListener('change', () => load(Number($('game').value), null));
  $('deal').addEventListener('change', () => load(Number($('game').value), Number($('deal').value)));
  document.addEventListener('keydown', onKey);
  try {
    page.rules = await api.rules(tableId);
  } catch (error) {
    $('replay-error').textContent = error.message;
    $('replay-error').hidden = false;
    return;
  }
  const query = new URLSearchParams(location.search);
  const number = (key) => (query.get(key) != null && /^\d+$/.test(query.get(key)) ? Number(query.get(key)) : null);
  await load(number('game'), number('deal'));
}

start();
