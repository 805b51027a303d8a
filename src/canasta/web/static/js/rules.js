// The rules page: the text in the reader's language.

import { setupChrome } from './chrome.js';
import { lang } from './i18n.js';

function show() {
  for (const article of document.querySelectorAll('article[data-lang]')) article.hidden = article.dataset.lang !== lang();
}

setupChrome(show);
show();
