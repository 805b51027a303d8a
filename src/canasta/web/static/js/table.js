// The table page: wiring the controls, and starting (the seat kept by the browser, or joining).

import { api } from './api.js';
import { say } from './chat.js';
import { setupChrome } from './chrome.js';
import { connect } from './connection.js';
import { $ } from './dom.js';
import { act, askHint, buyTopCard, clearChoice, discardSelected, draw, group, layMelds, nextDeal, pickup, sortHand } from './intents.js';
import { hasFreeSeat, openInvite, openJoin, watch } from './join.js';
import { fillHelp, onKey } from './keys.js';
import { prefs } from './prefs.js';
import { app, tableId } from './store.js';
import { openSheet, render, tick } from './view.js';

const TICK = 250;  // milliseconds between updates of the turn timer's countdown

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
  $('sort-rank').addEventListener('click', () => sortHand('rank'));
  $('sound').checked = prefs.sound;
  $('sound').addEventListener('change', () => { prefs.sound = $('sound').checked; });
  $('sort-suit').addEventListener('click', () => sortHand('suit'));
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
  if (matchMedia('(max-width: 600px)').matches) {  // a phone: one's own part first, the tools in a menu
    $('others').open = false;
    $('menu').open = false;
  }
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
  $('link-rules').href = `/rules#${app.rules.variant}`;  // the section of this table's rule set
  app.token = prefs.token(tableId);
  if (app.token) {
    connect();
    return;
  }
  await openJoin();
  if (!hasFreeSeat()) watch();
}

start();
