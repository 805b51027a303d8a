// Taking a seat, watching, and inviting friends.

import { api, tableLink } from './api.js';
import { connect } from './connection.js';
import { $ } from './dom.js';
import { t } from './i18n.js';
import { prefs } from './prefs.js';
import { app, tableId, teamOf } from './store.js';
import { showError } from './view.js';

export function hasFreeSeat() {
  return app.seats.some((s) => !s.bot && s.name == null);
}

export async function openJoin() {
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

export function watch() {
  $('join-dialog').close();
  connect();
}

export function openInvite() {
  $('invite-link').value = tableLink(tableId);
  $('rejoin-box').hidden = !app.token;
  if (app.token) $('rejoin-link').value = `${tableLink(tableId)}#seat=${app.token}`;
  $('invite-dialog').showModal();
}
