// The player's moves, built from the chosen cards and the legal moves the server listed, and
// sent to the server (which decides).

import { cardShort, inShownOrder } from './cards.js';
import { $ } from './dom.js';
import { lang, t } from './i18n.js';
import { canAdd, followsHint, groupRank, meldsTaking, pickups } from './legal.js';
import { prefs } from './prefs.js';
import { app, context } from './store.js';
import { render, rerenderHand, showError } from './view.js';


export function act(action) {
  if (!app.state || !app.socket) return;
  showError('');
  app.socket.send({ type: 'action', version: app.state.version, action });
}

export function draw() {
  const ctx = context();
  if (ctx.drawPhase) act({ type: 'draw' });
}

// Take the pile with the chosen cards (and staged groups); with nothing chosen, the simplest
// legal way (a natural pair rather than wild cards), or let the server explain why not.
export function pickup() {
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
export function buyTopCard() {
  const ctx = context();
  if (!ctx.topOnly) return;
  const withCards = app.hand.selectedCodes();
  const melds = app.hand.groups();
  if (withCards.length || melds.length) act({ type: 'pickup', with: withCards, melds, top_only: true });
  else if (ctx.topOnly) act(ctx.topOnly);
}

// Lay the staged groups and the chosen cards. Chosen cards that are a suggested move are laid
// as it says; chosen cards that make no meld of their own but fit one of the side's melds
// (wild cards, say) go onto it when it is the only one.
export function layMelds() {
  const ctx = context();
  if (!ctx.playPhase) return;
  const chosen = app.hand.selectedCodes();
  const hinted = app.hand.staged.length ? null : followsHint(app.hint && app.hint.action, chosen);
  if (hinted) {
    act(hinted);
    return;
  }
  if (chosen.length) {
    const ranks = canAdd(ctx.view.legal, groupRank(chosen), chosen) ? [] : meldsTaking(ctx.view.legal, ctx.view.melds[ctx.myTeam], chosen);
    if (ranks.length > 1) {
      showError(t('choose_meld'));
      return;
    }
    app.hand.stage(ranks[0] || null);
  }
  const melds = app.hand.groups();
  if (melds.length) act({ type: 'meld', melds });
}

// The chosen cards onto the side's `n`-th meld as the table shows them (keys 1 to 9).
export function addToMeldNumber(n) {
  const ctx = context();
  const meld = ctx.view && ctx.myTeam != null ? inShownOrder(ctx.view.melds[ctx.myTeam])[n - 1] : null;
  if (ctx.canAddToMeld && meld) addToMeld(meld.rank);
}

export function discardSelected() {
  const ctx = context();
  if (!ctx.playPhase) return;
  const chosen = app.hand.selectedCodes();
  if (chosen.length !== 1) {
    showError(t('choose_one_discard'));
    return;
  }
  discard(ctx, chosen[0]);
}

// Discard `card`; when the legal moves could lay it on one of the side's melds instead, ask
// first (unless the player said not to ask again).
function discard(ctx, card) {
  const fits = meldsTaking(ctx.view.legal, ctx.view.melds[ctx.myTeam], [card]);
  if (!fits.length || !prefs.discardGuard) {
    act({ type: 'discard', card });
    return;
  }
  const meld = fits[0] === 'wild' ? t('meld.wild') : t('ranks.' + fits[0]);
  $('guard-question').textContent = t('guard.question', { card: cardShort(card), meld: meld.toLocaleLowerCase(lang()) });
  $('guard-again').checked = false;
  const dialog = $('guard-dialog');
  dialog.returnValue = '';
  dialog.onclose = () => {
    if (dialog.returnValue !== 'discard') return;
    if ($('guard-again').checked) prefs.discardGuard = false;
    act({ type: 'discard', card });
  };
  dialog.showModal();
}

// A card of the hand dragged onto the pile (discard it) or onto one of the team's melds (add it
// there, with the other chosen cards if it was one of them, as pressing the meld does).
function dropCard(index, where, rank, target) {
  const ctx = context();
  if (app.hand.codes[index] === undefined) return;
  if (where === 'card') {  // arranged within the hand, before the card it was let go on
    app.order.move(app.hand.codes, index, Number(target.dataset.index));
    render();
    return;
  }
  if (where === 'pile' && ctx.canDiscard) discard(ctx, app.hand.codes[index]);
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

export function askHint() {
  if (context().myTurn && app.socket) app.socket.send({ type: 'hint' });
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

export function group() {
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

export function clearChoice() {
  app.hand.clear();
  showError('');
  render();
}


export function nextDeal() {
  if (app.socket) app.socket.send({ type: 'next_deal' });
}

// What the board and the hand call when the player presses or drags something.
export const HANDLERS = {
  onStock: draw, onPile: pileClicked, onMeld: addToMeld, onDrop: dropCard, onToggle: toggleCard, onUnstage: unstage,
};

export function sortHand(sort) {
  app.order.setSort(sort);
  render();
}
