// Moves in words: "Ann took the pile with K♠ K♥", for the table's log and the replay.

import { cardShort } from './cards.js';
import { t } from './i18n.js';

export function groupCards(group) {
  return Array.isArray(group) ? group : group.cards;
}

function cards(list) {
  return list.map(cardShort).join(' ');
}

function groups(list) {
  return (list || []).map((g) => cards(groupCards(g))).join(' · ');
}

// `name` is the mover's name; `by` (optional) says a computer moved for a person.
export function describeMove(action, name, by, quick = false) {
  let text;
  switch (action.type) {
    case 'draw': text = t('move.draw', { name }); break;
    case 'pickup': {
      const key = (action.top_only ? 'move.top_only' : 'move.pickup') + (action.with.length ? '' : '_layoff');
      text = t(key, { name, cards: cards(action.with) });
      if (action.melds && action.melds.length) text += t('move.and_melds', { cards: groups(action.melds) });
      text += '.';
      break;
    }
    case 'meld': text = t('move.meld', { name, cards: groups(action.melds) }); break;
    case 'discard': text = t('move.discard', { name, card: cardShort(action.card) }); break;
    case 'ask': text = t('move.ask', { name }); break;
    case 'answer': text = t(action.yes ? 'move.answer_yes' : 'move.answer_no', { name }); break;
    case 'pass': text = t('move.pass', { name }); break;
    default: text = `${name}: ${action.type}`;
  }
  if (by === 'stand_in') text += ' ' + t('move.by_stand_in');
  if (by === 'timer') text += ' ' + t('move.by_timer');
  if (quick) text += ' ' + t('move.quick');
  return text;
}
