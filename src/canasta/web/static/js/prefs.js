// Preferences and seat tokens kept in the browser (localStorage), with safe fallbacks.

const PREFIX = 'canasta.';

function read(key) {
  try { return localStorage.getItem(PREFIX + key); } catch { return null; }
}

function write(key, value) {
  try {
    if (value === null) localStorage.removeItem(PREFIX + key);
    else localStorage.setItem(PREFIX + key, value);
  } catch { /* private mode: the preference lasts for this page only */ }
}

export const prefs = {
  get lang() { return read('lang'); },
  set lang(value) { write('lang', value); },
  get fourColour() { return read('fourColour') === '1'; },
  set fourColour(on) { write('fourColour', on ? '1' : null); },
  get name() { return read('name') || ''; },
  get sound() { return read('sound') === '1'; },
  set sound(on) { write('sound', on ? '1' : null); },
  set name(value) { write('name', value); },
  get discardGuard() { return read('discardGuard') !== 'off'; },  // ask before discarding a card that fits a meld
  set discardGuard(on) { write('discardGuard', on ? null : 'off'); },
  token(table) { return read('seat.' + table); },
  saveToken(table, token) { write('seat.' + table, token); },
  dropToken(table) { write('seat.' + table, null); },
  handSort(table) { return read('sort.' + table) || read('sort') || 'rank'; },
  saveHandSort(table, sort) {
    write('sort.' + table, sort);
    if (sort !== 'own') write('sort', sort);  // the choice of rank or suit applies to new tables too
  },
  handOrder(table) {
    try { return JSON.parse(read('order.' + table) || '[]'); } catch { return []; }
  },
  saveHandOrder(table, codes) { write('order.' + table, JSON.stringify(codes)); },
};

// Apply the four-colour-suit preference to the whole page.
export function applyColours() {
  document.documentElement.classList.toggle('four-colour', prefs.fourColour);
}
