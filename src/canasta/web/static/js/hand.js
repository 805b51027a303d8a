// The player's hand: choosing cards, staging meld groups, and showing both.

import { cardFace, compareCards, rankOf } from './cards.js';
import { makeDraggable } from './drag.js';
import { t } from './i18n.js';

// What the player has chosen: `selected` hand indexes, and `staged` groups waiting to be laid
// (each {indices, rank}; `rank` is set when the group was added to a meld of that rank).
export class HandModel {
  constructor() {
    this.codes = [];
    this.fresh = new Set();
    this.selected = new Set();
    this.staged = [];
  }

  // A new hand from the server; choices are kept only while the hand is the same. The cards
  // that came into it (a draw, the pile) are `fresh` until the hand changes again; a hand just
  // dealt (`newDeal`) has none.
  update(codes, newDeal = false) {
    if (newDeal) this.codes = [];
    if (codes.join(' ') !== this.codes.join(' ')) {
      const before = new Map();
      for (const code of this.codes) before.set(code, (before.get(code) || 0) + 1);
      this.fresh = new Set();
      codes.forEach((code, i) => {
        if (before.get(code)) before.set(code, before.get(code) - 1);
        else if (this.codes.length) this.fresh.add(i);
      });
      this.codes = codes;
      this.clear();
    }
  }

  clear() {
    this.selected.clear();
    this.staged = [];
  }

  get stagedIndices() {
    return new Set(this.staged.flatMap((g) => g.indices));
  }

  toggle(index) {
    if (this.stagedIndices.has(index)) return;
    if (this.selected.has(index)) this.selected.delete(index);
    else this.selected.add(index);
  }

  // Move the selected cards (or the cards `chosen`) into a new group, for the meld of `rank`
  // when given.
  stage(rank = null, chosen = [...this.selected]) {
    if (!chosen.length) return false;
    const indices = [...chosen].sort((a, b) => compareCards(this.codes[a], this.codes[b]));
    this.staged.push({ indices, rank });
    for (const index of indices) this.selected.delete(index);
    return true;
  }

  unstage(k) {
    this.staged.splice(k, 1);
  }

  selectedCodes() {
    return [...this.selected].map((i) => this.codes[i]);
  }

  // The staged groups in FORMATS.md notation.
  groups() {
    return this.staged.map((g) => {
      const cards = g.indices.map((i) => this.codes[i]);
      return g.rank ? { rank: g.rank, cards } : cards;
    });
  }

  // The points of the staged cards (`points` of each rank, as the server gives them).
  stagedPoints(points) {
    return this.staged.reduce((sum, g) => sum + g.indices.reduce((s, i) => s + points[rankOf(this.codes[i])], 0), 0);
  }

}

// The hand as buttons in the player's chosen order, cards of one rank (or suit) overlapping.
export function renderHand(container, model, order, ctx) {
  const staged = model.stagedIndices;
  const clusters = [];
  let current = null;
  for (const index of order.order(model.codes)) {
    if (staged.has(index)) continue;
    const key = order.clusterKey(model.codes[index]);
    if (!current || current.key !== key) {
      current = { key, items: [] };
      clusters.push(current);
    }
    current.items.push(index);
  }
  const nodes = clusters.map((cluster) => {
    const box = document.createElement('div');
    box.className = 'rank-cluster';
    box.setAttribute('role', 'presentation');
    for (const index of cluster.items) {
      const code = model.codes[index];
      const button = cardFace(code, { tag: 'button', extra: 'in-hand' });
      button.type = 'button';
      button.dataset.index = index;
      const chosen = model.selected.has(index);
      button.classList.toggle('selected', chosen);
      const playable = ctx.playable.has(rankOf(code));
      button.classList.toggle('playable', playable);
      button.classList.toggle('hinted', ctx.hinted.has(index));
      if (model.fresh.has(index)) {
        button.classList.add('fresh');
        button.setAttribute('aria-description', t('fresh'));
      }
      if (playable) button.setAttribute('aria-description', t('playable'));
      button.setAttribute('aria-pressed', String(chosen));
      button.addEventListener('click', () => ctx.onToggle(index));
      button.dataset.drop = 'card';  // another card may be dragged before this one
      if (ctx.me != null) makeDraggable(button, (where, rank, target) => ctx.onDrop(index, where, rank, target));
      box.append(button);
    }
    return box;
  });
  container.replaceChildren(...nodes);
  container.classList.toggle('empty', !nodes.length);
}

// Staged groups, each a button that returns its cards to the hand, and the running count.
export function renderStaging(container, model, ctx) {
  container.replaceChildren();
  if (!model.staged.length) {
    container.hidden = true;
    return;
  }
  container.hidden = false;
  const title = document.createElement('span');
  title.className = 'staging-title';
  title.textContent = t('staged');
  container.append(title);
  model.staged.forEach((group, k) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'staged-group';
    const codes = group.indices.map((i) => model.codes[i]);
    for (const code of codes) button.append(cardFace(code, { extra: 'small' }));
    if (group.rank) {
      const to = document.createElement('span');
      to.className = 'to-meld';
      to.textContent = '→ ' + (group.rank === 'wild' ? '★' : group.rank);
      button.append(to);
    }
    const sum = codes.reduce((s, c) => s + ctx.facts.points[rankOf(c)], 0);
    button.setAttribute('aria-label', t('staged_group', { n: codes.length, points: sum }));
    button.title = t('unstage');
    button.addEventListener('click', () => ctx.onUnstage(k));
    container.append(button);
  });
  const count = document.createElement('span');
  count.className = 'opening-count';
  count.id = 'opening-count';
  const pts = model.stagedPoints(ctx.facts.points);
  if (ctx.minimum != null) {
    count.textContent = t('opening_count', { points: pts, minimum: ctx.minimum });
    count.classList.toggle('short', pts < ctx.minimum);
  } else {
    count.textContent = t('points_n', { n: pts });
  }
  container.append(count);
}
