// The keyboard: one key per control, arrows between the cards, and the list of keys.

import { $ } from './dom.js';
import { t } from './i18n.js';
import { act, addToMeldNumber, askHint, buyTopCard, clearChoice, discardSelected, draw, group, layMelds, pickup } from './intents.js';
import { app, context } from './store.js';
import { openSheet } from './view.js';

const KEYS = {
  d: draw, p: pickup, b: buyTopCard, h: askHint, g: group, m: layMelds, x: discardSelected, c: clearChoice,
  a: () => { if (context().legal.has('ask')) act({ type: 'ask' }); },
  y: () => { if (context().answering) act({ type: 'answer', yes: true }); },
  n: () => { if (context().answering) act({ type: 'answer', yes: false }); },
  s: openSheet,
  '?': () => $('help-dialog').showModal(),
};

export function onKey(event) {
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
  if (/^[1-9]$/.test(event.key)) {
    event.preventDefault();
    addToMeldNumber(Number(event.key));
    return;
  }
  const handler = KEYS[event.key.toLowerCase()];
  if (handler) {
    event.preventDefault();
    handler();
  }
}

export function fillHelp() {
  const keys = [['d', 'draw'], ['p', 'pickup'], ['h', 'hint'], ['b', 'top_only'], ['g', 'group'], ['m', 'lay'], ['x', 'discard'],
    ['c', 'clear'], ['1–9', 'keys.meld'], ['a', 'ask'], ['y', 'answer_yes'], ['n', 'answer_no'], ['s', 'sheet'], ['← →', 'keys.move'],
    ['key.space', 'keys.select'], ['key.esc', 'clear']].filter(([key]) => key !== 'b' || app.rules?.top_card_only_go_out);
  $('help-keys').replaceChildren(...keys.flatMap(([key, what]) => {
    const dt = document.createElement('dt');
    dt.textContent = key.startsWith('key.') ? t(key) : key;
    const dd = document.createElement('dd');
    dd.textContent = t(what);
    return [dt, dd];
  }));
}
