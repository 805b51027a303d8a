// The home page: choose the rules and who sits where, create the table, share its link.

import { api, tableLink } from './api.js';
import { setupChrome } from './chrome.js';
import { lang, t } from './i18n.js';
import { prefs } from './prefs.js';

const $ = (id) => document.getElementById(id);
const form = { catalogue: null, variant: 'classic', players: 4, seats: [], target: '', timer: '', house: {} };
const TURN_TIMERS = [30, 60, 120, 300];  // seconds a person may take for each decision

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function variantInfo() {
  return form.catalogue.variants.find((v) => v.variant === form.variant);
}

function presetFor() {
  return variantInfo().by_players[String(form.players)];
}

// The preset as played by the number of teams chosen (a house option at some player counts):
// its target score and the team of each seat, from the server's catalogue.
function layoutFor() {
  const preset = presetFor();
  return preset.by_teams[String(form.house.teams ?? preset.teams)];
}

function renderVariants() {
  const box = $('variants');
  box.replaceChildren(...form.catalogue.variants.map((info) => {
    const label = el('label', { class: 'variant' });
    const input = el('input', { type: 'radio', name: 'variant', value: info.variant });
    input.checked = info.variant === form.variant;
    input.addEventListener('change', () => {
      form.variant = info.variant;
      if (!info.players.includes(form.players)) form.players = info.players.includes(4) ? 4 : info.players[0];
      form.house = {};
      render();
    });
    const text = el('span', { class: 'variant-text' });
    text.append(el('b', {}, t('variant.' + info.variant)), el('small', {}, info.description[lang()]));
    label.append(input, text);
    return label;
  }));
}

function renderPlayers() {
  const select = $('players');
  select.replaceChildren(...variantInfo().players.map((n) => {
    const option = el('option', { value: String(n) }, String(n));
    option.selected = n === form.players;
    return option;
  }));
}

function renderTarget() {
  const select = $('target');
  const options = [el('option', { value: '' }, t('home.target_default', { n: layoutFor().target_score }))];
  for (const score of form.catalogue.target_scores) options.push(el('option', { value: String(score) }, String(score)));
  select.replaceChildren(...options);
  select.value = form.target;
}

function renderTimer() {
  const select = $('turn-timer');
  const label = (s) => (s < 60 ? t('home.timer_seconds', { n: s }) : t('home.timer_minutes', { n: s / 60 }));
  select.replaceChildren(el('option', { value: '' }, t('home.timer_off')),
    ...TURN_TIMERS.map((s) => el('option', { value: String(s) }, label(s))));
  select.value = form.timer;
}

function choiceLabel(key, value) {
  if (typeof value === 'number') return String(value);
  return t(`option.${key}.${value}`);
}

function renderHouse() {
  const box = $('house');
  const options = presetFor().options;
  $('house-box').hidden = !options.length;  // folded away until opened
  box.replaceChildren(...options.map((option) => {
    const value = option.key in form.house ? form.house[option.key] : option.default;
    if (typeof option.default === 'boolean') {
      const label = el('label', { class: 'check' });
      const input = el('input', { type: 'checkbox', id: 'opt-' + option.key });
      input.checked = value;
      input.addEventListener('change', () => { form.house[option.key] = input.checked; });
      label.append(input, ' ', t('option.' + option.key));
      return label;
    }
    const label = el('label', { class: 'field' });
    const select = el('select', { id: 'opt-' + option.key });
    for (const choice of option.values) {
      const item = el('option', { value: JSON.stringify(choice) }, choiceLabel(option.key, choice));
      item.selected = choice === value;
      select.append(item);
    }
    select.addEventListener('change', () => {
      form.house[option.key] = JSON.parse(select.value);
      renderTarget();  // the number of teams changes the default target and the seats' teams
      renderSeats();
    });
    label.append(el('span', {}, t('option.' + option.key)), select);
    return label;
  }));
}

// Seat plan: 'you' (at most one), 'friend', or a computer level.
function defaultSeats(players) {
  return Array.from({ length: players }, (_, i) => (i === 0 ? 'you' : 'normal'));
}

function renderSeats() {
  if (form.seats.length !== form.players) form.seats = defaultSeats(form.players);
  const teams = layoutFor().seat_teams;
  const box = $('seat-plan');
  box.replaceChildren(...form.seats.map((kind, seat) => {
    const row = el('div', { class: `seat-row team-${teams[seat]}` });
    const id = `seat-${seat}`;
    row.append(el('label', { for: id }, `${t('home.seat', { n: seat + 1 })} · ${t('home.team', { n: teams[seat] + 1 })}`));
    const who = el('select', { id });
    const bot = form.catalogue.bot_levels.includes(kind);
    for (const [value, text] of [['you', t('home.you')], ['friend', t('home.friend')], ['bot', t('home.computer')]]) {
      const option = el('option', { value }, text);
      option.selected = value === (bot ? 'bot' : kind);
      who.append(option);
    }
    who.addEventListener('change', () => {
      if (who.value === 'you') form.seats = form.seats.map((k) => (k === 'you' ? 'friend' : k));
      form.seats[seat] = who.value === 'bot' ? 'normal' : who.value;
      renderSeats();
    });
    row.append(who);
    const level = el('select', { id: `level-${seat}`, 'aria-label': `${t('home.level')}: ${t('home.seat', { n: seat + 1 })}` });
    for (const name of form.catalogue.bot_levels) {
      const option = el('option', { value: name }, t('level.' + name));
      option.selected = name === kind;
      level.append(option);
    }
    level.hidden = !bot;
    level.addEventListener('change', () => { form.seats[seat] = level.value; });
    row.append(level);
    return row;
  }));
  $('name-field').hidden = !form.seats.includes('you');
}

function render() {
  renderVariants();
  renderPlayers();
  renderTarget();
  renderTimer();
  renderHouse();
  renderSeats();
}

function showError(message) {
  $('create-error').textContent = message;
  $('create-error').hidden = !message;
}

async function create(event) {
  event.preventDefault();
  const you = form.seats.indexOf('you');
  const name = $('name').value.trim();
  if (you >= 0 && !name) {
    showError(t('name_needed'));
    $('name').focus();
    return;
  }
  showError('');
  const defaults = Object.fromEntries(presetFor().options.map((o) => [o.key, o.default]));
  const options = Object.fromEntries(Object.entries(form.house).filter(([k, v]) => defaults[k] !== v));
  const body = {
    variant: form.variant,
    players: form.players,
    options,
    seats: form.seats.map((kind) => (kind === 'you' || kind === 'friend' ? 'human' : kind)),
    free_chat: $('free-chat').checked,
  };
  if (form.target) body.target_score = Number(form.target);
  if (form.timer) body.turn_timer = Number(form.timer);
  $('btn-create').disabled = true;
  try {
    const table = await api.create(body);
    if (you >= 0) {
      const seat = await api.join(table.table, name, you);
      prefs.saveToken(table.table, seat.token);
      prefs.name = name;
    }
    $('table-link').value = tableLink(table.table);
    $('go-table').href = `/t/${table.table}`;
    $('no-you').hidden = you >= 0;
    $('create-form').hidden = true;
    $('created').hidden = false;
    $('go-table').focus();
  } catch (error) {
    showError(error.message);
  } finally {
    $('btn-create').disabled = false;
  }
}

// One click: classic rules, the reader and three computer players of the normal level; the
// browser goes straight to the table, where the reader plays first.
async function quickGame() {
  $('btn-quick').disabled = true;
  $('quick-error').hidden = true;
  try {
    const table = await api.create({ variant: 'classic', players: 4, seats: ['human', 'normal', 'normal', 'normal'] });
    const seat = await api.join(table.table, prefs.name || t('home.guest'), 0);
    prefs.saveToken(table.table, seat.token);
    location.assign(`/t/${table.table}`);
  } catch (error) {
    $('quick-error').textContent = error.message;
    $('quick-error').hidden = false;
    $('btn-quick').disabled = false;
  }
}

function openFriends() {
  $('create-form').hidden = false;
  $('btn-friends').setAttribute('aria-expanded', 'true');
  $('create-form').scrollIntoView({ block: 'start' });
}

async function start() {
  setupChrome(() => { if (form.catalogue) render(); });
  $('name').value = prefs.name;
  $('players').addEventListener('change', () => {
    form.players = Number($('players').value);
    form.house = {};
    render();
  });
  $('target').addEventListener('change', () => { form.target = $('target').value; });
  $('turn-timer').addEventListener('change', () => { form.timer = $('turn-timer').value; });
  $('create-form').addEventListener('submit', create);
  $('btn-quick').addEventListener('click', quickGame);
  $('btn-friends').addEventListener('click', openFriends);
  try {
    form.catalogue = await api.rulesets();
  } catch (error) {
    showError(error.message);
    return;
  }
  render();
}

start();
