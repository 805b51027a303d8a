// The rules page: the text in the reader's language, its card pictures, and the section of a
// rule set when the address names one (/rules#modern-american).

import { cardFace } from './cards.js';
import { setupChrome } from './chrome.js';
import { lang } from './i18n.js';

function show() {
  for (const article of document.querySelectorAll('article[data-lang]')) article.hidden = article.dataset.lang !== lang();
  for (const box of document.querySelectorAll('.cards[data-cards]')) {
    box.replaceChildren(...box.dataset.cards.split(' ').map((code) => cardFace(code, { extra: 'small' })));
  }
  const section = location.hash && document.getElementById(`${lang()}-${location.hash.slice(1)}`);
  if (section) section.scrollIntoView();
}

setupChrome(show);
show();
addEventListener('hashchange', show);
