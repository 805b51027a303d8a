// The table around the hand: the players, each team's melds and threes, the stock and the pile.

import { cardBack, cardFace, cardName, cardShort, inShownOrder, isRed, isWild } from './cards.js';
import { clockElement, showGrace } from './clock.js';
import { el } from './dom.js';
import { t } from './i18n.js';

// Where the others sit around the reader, in playing order going round from the reader's
// left: one other sits across; two, left and right; three, left, across (a partner of four)
// and right; four, two on each side; five, two on each side and one across. Each side lists
// its seats from the top down. A spectator sees the table from seat 0's side.
export function seatPlaces(players, me) {
  const from = me ?? 0;
  const others = Array.from({ length: players - 1 }, (_, i) => (from + 1 + i) % players);
  const bottom = me == null ? [from] : [];
  if (others.length === 1) return { left: [], top: others, right: [], bottom };
  const side = others.length >= 4 ? 2 : 1;  // seats on each side
  return {
    left: others.slice(0, side).reverse(),
    top: others.slice(side, others.length - side),
    right: others.slice(others.length - side),
    bottom,
  };
}

function relation(ctx, seat) {
  if (seat === ctx.me) return t('you');
  if (ctx.me == null) return t('team_n', { n: ctx.teamOf(seat) + 1 });
  if (ctx.teamOf(seat) === ctx.myTeam) return t('partner');
  return t('opponent');
}

function seatStatus(ctx, info) {
  if (info.bot) return t('computer', { level: t('level.' + info.bot.split(':')[0]) });
  if (info.name == null) return info.stand_in ? t('free_stand_in') : t('seat_free');
  if (info.stand_in) return t('stand_in');
  return info.connected ? t('online') : t('offline');
}

// One player's chip: name, relation, cards in hand, connection, turn and dealer marks.
export function seatChip(ctx, seat) {
  const info = ctx.seats[seat] || { seat, bot: null, name: null, connected: false, stand_in: false };
  const view = ctx.view;
  const chip = el('div', `seat-chip team-${ctx.teamOf(seat)}`);
  chip.dataset.seat = seat;
  const turn = ctx.state.status === 'playing' && ctx.state.to_move === seat;
  chip.classList.toggle('turn', turn);
  chip.classList.toggle('me', seat === ctx.me);
  chip.classList.toggle('moved', ctx.changed.some((c) => c.seat === seat));
  const online = info.bot || (info.name != null && (info.connected || info.stand_in));
  const head = el('div', 'who');
  const dot = el('span', `dot ${online ? 'on' : 'off'}`);
  dot.setAttribute('aria-hidden', 'true');
  head.append(dot, el('b', 'name', ctx.nameOf(seat)), el('small', 'rel', relation(ctx, seat)));
  if (turn && ctx.state.time_left != null) head.append(clockElement(false));
  chip.append(head);
  const meta = el('div', 'meta');
  const count = view ? view.hand_sizes[seat] : null;
  if (count != null) {
    const fan = el('span', 'fan');
    fan.setAttribute('aria-hidden', 'true');
    for (let i = 0; i < Math.min(count, 5); i++) fan.append(cardBack('mini'));
    meta.append(fan, el('span', 'count', t('cards_n', { n: count })));
  }
  const status = el('small', 'seat-status', seatStatus(ctx, info));
  if (ctx.graces.text(seat) != null) showGrace(status, ctx.graces, 'away_in', seat);  // a computer plays soon
  meta.append(status);
  if (view && view.dealer === seat) meta.append(el('small', 'dealer', t('dealer')));
  if (view && view.sitting_out === seat) meta.append(el('small', 'out', t('sitting_out')));
  chip.append(meta);
  const parts = [ctx.nameOf(seat), relation(ctx, seat), status.textContent];
  if (count != null) parts.push(t('cards_n', { n: count }));
  if (turn) parts.push(t('to_move'));
  chip.setAttribute('aria-label', parts.join(', '));
  chip.setAttribute('role', 'group');
  return chip;
}

export function renderSeats(container, ctx) {
  const places = seatPlaces(ctx.players, ctx.me);
  for (const [place, seats] of Object.entries(places)) {
    container.querySelector(`.seats-${place}`).replaceChildren(...seats.map((seat) => seatChip(ctx, seat)));
  }
}

// The card shown on top of a closed canasta: red for natural, black for mixed (the custom).
function canastaTop(cards, kind) {
  const naturals = cards.filter((c) => !isWild(c));
  if (kind === 'natural') return naturals.find(isRed) || naturals[0];
  if (kind === 'mixed') return naturals.find((c) => !isRed(c)) || cards.find(isWild);
  return cards[0];
}

function meldLabel(rank, cards) {
  const wilds = cards.filter(isWild).length;
  const name = rank === 'wild' ? t('meld.wild') : t('meld.of', { rank: t('ranks.' + rank) });
  return t('meld.label', { name, n: cards.length, wilds });
}

// A meld as a column of its cards, or a finished canasta as a squared pile.
function meldColumn(ctx, team, meld, number) {
  const cards = meld.cards;
  const mine = team === ctx.myTeam && ctx.canAddToMeld;
  const col = el(mine ? 'button' : 'div', 'meld');
  col.dataset.rank = meld.rank;
  if (team === ctx.myTeam && ctx.hintTarget && ctx.hintTarget.ranks.has(meld.rank)) col.classList.add('hint-target');
  if (mine && number <= 9) col.setAttribute('aria-keyshortcuts', String(number));
  if (!mine) col.setAttribute('role', 'group');
  if (ctx.changed.some((c) => c.team === team && c.ranks.includes(meld.rank))) col.classList.add('changed');
  if (mine) {
    col.type = 'button';
    col.dataset.drop = 'meld';  // a card of the hand may be dragged here
    col.addEventListener('click', () => ctx.onMeld(meld.rank));
  }
  const label = el('span', 'meld-rank', meld.rank === 'wild' ? '★' : meld.rank);
  label.setAttribute('aria-hidden', 'true');
  const count = el('span', 'meld-count', String(cards.length));
  count.setAttribute('aria-hidden', 'true');
  const kind = ctx.facts.canastas[team][meld.rank];  // the server says which melds are canastas
  if (kind) {
    col.classList.add('canasta', kind);
    const pile = el('div', 'squared');
    pile.append(cardFace(canastaTop(cards, kind)));
    const tag = el('span', 'canasta-tag', t('canasta.' + kind));
    tag.setAttribute('aria-hidden', 'true');
    col.append(label, pile, tag, count);
    col.setAttribute('aria-label', t('canasta.label', { kind: t('canasta.' + kind), label: meldLabel(meld.rank, cards) }));
  } else {
    const stack = el('div', 'stack');
    const ordered = [...cards.filter((c) => !isWild(c)), ...cards.filter(isWild)];
    for (const code of ordered) stack.append(cardFace(code));
    col.append(label, stack, count);
    col.setAttribute('aria-label', meldLabel(meld.rank, cards) + (mine ? '. ' + t('meld.add_hint') : ''));
  }
  return col;
}

// A team's side: name, score, opening minimum, canastas needed to go out, bonus threes, melds.
export function teamPanel(ctx, team) {
  const view = ctx.view;
  const panel = el('section', `team team-${team}`);
  panel.classList.toggle('ours', team === ctx.myTeam);
  panel.setAttribute('aria-label', t('melds_of', { team: ctx.teamName(team) }));
  const head = el('header', 'team-head');
  head.append(el('b', 'team-name', ctx.teamName(team)));
  head.append(el('span', 'team-score', t('score_n', { n: ctx.state.score_sheet.totals[team] })));
  if (ctx.facts && ctx.facts.melded_points) {
    head.append(el('span', 'badge live', t('on_table_n', { n: ctx.facts.melded_points[team] })));
  }
  const melds = view ? view.melds[team] : [];
  if (view) {
    const opened = view.opened[team];
    head.append(el('span', `badge ${opened ? 'ok' : 'need'}`,
      opened ? t('opened') : t('minimum_n', { n: view.minimums[team] })));
    const need = ctx.facts.canastas_needed[team];
    head.append(el('span', `badge ${need ? 'need' : 'ok'}`,
      need ? t('canastas_needed', { n: need }) : t('may_go_out')));
    const threes = view.red_threes[team];
    if (threes.length) {  // in words, then the cards in the colours of their suits
      const box = el('span', 'badge threes', t('threes_n', { n: threes.length }) + ':');
      box.setAttribute('role', 'img');
      box.setAttribute('aria-label', t('threes_n', { n: threes.length }) + ': ' + threes.map(cardName).join(', '));
      for (const code of threes) {
        const card = el('b', `three suit-${code.slice(-1).toLowerCase()}`, cardShort(code));
        card.dataset.card = code;
        box.append(' ', card);
      }
      head.append(box);
    }
  }
  panel.append(head);
  const row = el('div', 'melds');
  inShownOrder(melds).forEach((meld, i) => row.append(meldColumn(ctx, team, meld, i + 1)));
  if (!melds.length) row.append(el('span', 'empty', t('no_melds')));
  panel.append(row);
  return panel;
}

// Teams in display order: the others first (across the table), the reader's own last.
export function renderTeams(theirs, ours, ctx) {
  const teams = [...Array(ctx.teams).keys()];
  const own = ctx.myTeam ?? 0;
  theirs.replaceChildren(...teams.filter((x) => x !== own).map((x) => teamPanel(ctx, x)));
  ours.replaceChildren(teamPanel(ctx, own));
}

// The stock (a face-down pile with its count) and the discard pile (top card, size, markers).
export function renderCentre(stockBox, pileBox, ctx) {
  const view = ctx.view;
  stockBox.replaceChildren();
  pileBox.replaceChildren();
  if (!view) return;
  const stock = el('button', 'stock');
  stock.type = 'button';
  stock.id = 'stock-button';
  stock.disabled = !ctx.canDraw;
  stock.append(cardBack(), el('span', 'pile-count', String(view.stock_size)));
  stock.setAttribute('aria-label', t('stock_label', { n: view.stock_size }) + (ctx.canDraw ? '. ' + t('stock_hint') : ''));
  stock.classList.toggle('hint-target', ctx.hintTarget?.control === 'stock');
  stock.addEventListener('click', ctx.onStock);
  stockBox.append(stock, el('span', 'caption', t('stock')));

  const top = view.pile.length ? view.pile[view.pile.length - 1] : null;
  const pile = el('button', 'pile');
  pile.type = 'button';
  pile.id = 'pile-button';
  pile.disabled = !ctx.pileActive;
  const stack = el('div', 'pile-stack');
  const freezer = view.pile_frozen ? ctx.facts.freezer : null;  // the card that froze the pile
  // under the top card, its index in view beside it (a card back across the pile when unknown)
  if (freezer && freezer !== top) stack.append(cardFace(freezer, { extra: 'freezer' }));
  else if (view.pile_frozen && !freezer) stack.append(cardBack('sideways'));
  if (top) stack.append(cardFace(top, { extra: ctx.changed.some((c) => c.pile === top) ? 'changed' : '' }));
  else stack.append(el('div', 'card empty'));
  pile.append(stack, el('span', 'pile-count', String(view.pile_size)));
  const facts = ctx.facts;
  const blocked = facts.pile_block ? t('blocked.' + facts.pile_block) : null;
  const notes = [];
  const forUs = !view.pile_frozen && ctx.myTeam != null && facts.frozen_for[ctx.myTeam];
  const frozen = freezer ? t('frozen_by', { card: cardShort(freezer) }) : t('frozen');
  if (view.pile_frozen) notes.push(freezer ? t('frozen_by', { card: cardName(freezer) }) : frozen);
  else if (forUs) notes.push(t('frozen_for_you'));
  if (blocked) notes.push(blocked);
  const parts = [t('pile_label', { n: view.pile_size }), top ? t('top_card', { card: cardName(top) }) : t('pile_empty'), ...notes];
  if (ctx.pileHint) parts.push(ctx.pileHint);
  pile.setAttribute('aria-label', parts.join('. '));
  pile.addEventListener('click', ctx.onPile);
  if (ctx.canDiscard) pile.dataset.drop = 'pile';  // a card of the hand may be dragged here
  pile.classList.toggle('takeable', ctx.canTake);
  pile.classList.toggle('hint-target', ctx.hintTarget?.control === 'pile');
  pileBox.append(pile);
  const caption = el('span', 'caption', t('pile'));
  pileBox.append(caption);
  if (ctx.drawPhase) pileBox.append(el('span', `pile-help ${ctx.canTake ? 'ok' : 'no'}`, ctx.pileHint));
  if (view.pile.length > 1) {  // the rule set lets this seat look through the pile now
    const review = el('div', 'pile-review');
    review.setAttribute('aria-label', t('pile_review'));
    review.setAttribute('role', 'group');
    for (const code of view.pile.slice(0, -1).reverse()) review.append(cardFace(code, { extra: 'small' }));
    pileBox.append(review);
  }
  if (view.pile_frozen) pileBox.append(el('span', 'marker frozen', '❄ ' + frozen));
  else if (forUs) pileBox.append(el('span', 'marker frozen soft', '❄ ' + t('frozen_for_you')));
  if (blocked) pileBox.append(el('span', 'marker blocked', '✕ ' + blocked));
}
