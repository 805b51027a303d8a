// Scores: a deal's breakdown per team, the We/They score sheet and its chart (inline SVG).

import { cardFace, compareCards } from './cards.js';
import { t } from './i18n.js';

const PARTS = ['cards', 'canastas', 'threes', 'going_out', 'hand', 'penalties'];
const SVG = 'http://www.w3.org/2000/svg';

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function headRow(teams, teamName, first) {
  const tr = el('tr');
  tr.append(el('th', { scope: 'col' }, first));
  for (let team = 0; team < teams; team++) tr.append(el('th', { scope: 'col', class: `team-${team}` }, teamName(team)));
  return tr;
}

// One deal's score, part by part, one column per team.
export function breakdownTable(result, teamName) {
  const table = el('table', { class: 'breakdown' });
  table.append(el('caption', { class: 'sr-only' }, t('breakdown')));
  const teams = result.scores.length;
  table.createTHead().append(headRow(teams, teamName, ''));
  const body = table.createTBody();
  for (const part of [...PARTS, 'total']) {
    const tr = el('tr', { class: part === 'total' ? 'total' : '' });
    tr.append(el('th', { scope: 'row' }, t('part.' + part)));
    for (const score of result.scores) tr.append(el('td', {}, String(score[part])));
    body.append(tr);
  }
  return table;
}

// Running totals after each deal, per team (starting from 0).
export function runningTotals(sheet) {
  const teams = sheet.totals.length;
  const rows = [Array(teams).fill(0)];
  for (const deal of sheet.deals) {
    const prev = rows[rows.length - 1];
    rows.push(prev.map((sum, team) => sum + deal.scores[team].total));
  }
  return rows;
}

// The score sheet: each deal's points and the running total under them, per team.
export function sheetTable(sheet, teamName) {
  const teams = sheet.totals.length;
  const table = el('table', { class: 'sheet' });
  table.append(el('caption', {}, t('sheet.caption', { target: sheet.target })));
  table.createTHead().append(headRow(teams, teamName, t('sheet.deal')));
  const body = table.createTBody();
  const totals = runningTotals(sheet);
  sheet.deals.forEach((deal, i) => {
    const tr = el('tr');
    tr.append(el('th', { scope: 'row' }, String(i + 1)));
    deal.scores.forEach((score, team) => {
      const td = el('td');
      td.append(el('span', { class: 'points' }, (score.total > 0 ? '+' : '') + score.total));
      td.append(el('span', { class: 'running' }, String(totals[i + 1][team])));
      tr.append(td);
    });
    body.append(tr);
  });
  if (!sheet.deals.length) {
    const tr = el('tr');
    tr.append(el('td', { colspan: String(teams + 1) }, t('sheet.empty')));
    body.append(tr);
  }
  const foot = table.createTFoot();
  const tr = el('tr', { class: 'total' });
  tr.append(el('th', { scope: 'row' }, t('part.total')));
  for (const total of sheet.totals) tr.append(el('td', {}, String(total)));
  foot.append(tr);
  return table;
}

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

// A line per team of the running totals, against a dashed line at the target.
export function sheetChart(sheet, teamName) {
  const rows = runningTotals(sheet);
  const W = 320, H = 160, L = 44, R = 8, T = 10, B = 22;
  const values = rows.flat().concat([sheet.target, 0]);
  const max = Math.max(...values), min = Math.min(...values);
  const x = (i) => L + (rows.length > 1 ? (i * (W - L - R)) / (rows.length - 1) : 0);
  const y = (v) => T + ((max - v) * (H - T - B)) / Math.max(1, max - min);
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'chart', role: 'img' });
  const label = rows[rows.length - 1].map((v, team) => `${teamName(team)} ${v}`).join(', ');
  chart.setAttribute('aria-label', t('chart.label', { totals: label, target: sheet.target }));
  chart.append(svg('line', { x1: L, x2: W - R, y1: y(0), y2: y(0), class: 'axis' }));
  chart.append(svg('line', { x1: L, x2: W - R, y1: y(sheet.target), y2: y(sheet.target), class: 'target' }));
  const tgt = svg('text', { x: L - 4, y: y(sheet.target) + 4, class: 'tick', 'text-anchor': 'end' });
  tgt.textContent = String(sheet.target);
  chart.append(tgt);
  const zero = svg('text', { x: L - 4, y: y(0) + 4, class: 'tick', 'text-anchor': 'end' });
  zero.textContent = '0';
  chart.append(zero);
  rows.forEach((_, i) => {
    if (i === 0) return;
    const tick = svg('text', { x: x(i), y: H - 6, class: 'tick', 'text-anchor': 'middle' });
    tick.textContent = String(i);
    chart.append(tick);
  });
  for (let team = 0; team < sheet.totals.length; team++) {
    const points = rows.map((row, i) => `${x(i)},${y(row[team])}`).join(' ');
    chart.append(svg('polyline', { points, class: `line team-${team}` }));
    rows.forEach((row, i) => chart.append(svg('circle', { cx: x(i), cy: y(row[team]), r: 2.5, class: `dot team-${team}` })));
    const legend = svg('text', { x: L + 6, y: T + 10 + 13 * team, class: `legend team-${team}` });
    legend.textContent = `${teamName(team)}: ${sheet.totals[team]}`;
    chart.append(legend);
  }
  return chart;
}

// The cards each player still held when the deal ended (shown with the deal's summary).
export function handsLeft(hands, nameOf) {
  const box = document.createElement('section');
  box.className = 'hands-left';
  box.setAttribute('aria-label', t('hands_left'));
  const title = document.createElement('h3');
  title.textContent = t('hands_left');
  box.append(title);
  hands.forEach((codes, seat) => {
    const row = document.createElement('div');
    row.className = 'hand-left';
    row.dataset.seat = seat;
    const name = document.createElement('b');
    name.textContent = nameOf(seat);
    const cards = document.createElement('span');
    cards.className = 'cards';
    if (!codes.length) cards.textContent = t('no_cards_left');
    for (const code of [...codes].sort(compareCards)) cards.append(cardFace(code, { extra: 'small' }));
    row.append(name, cards);
    box.append(row);
  });
  return box;
}

// The score line: each side's total in `order` (the reader's own first); with three teams the
// others by number (their players' names in the tooltip), so that the line stays short.
export function fillScoreline(box, sheet, order, myTeam, teamName) {
  box.replaceChildren();
  for (const team of order) {
    const short = sheet.totals.length > 2 && team !== myTeam;
    const item = el('span', { class: `score team-${team}` }, `${short ? t('team_n', { n: team + 1 }) : teamName(team)} ${sheet.totals[team]}`);
    if (short) item.title = teamName(team);
    box.append(item);
  }
  box.append(el('span', { class: 'target' }, t('target_n', { n: sheet.target })));
}
