// What every page shares: the language menu, the four-colour-suit option, copy buttons.

import { LANGUAGE_NAMES, LANGUAGES, lang, setLang, t, translatePage } from './i18n.js';
import { applyColours, prefs } from './prefs.js';

// Wire the header controls; `onChange` re-renders the page after a switch.
export function setupChrome(onChange) {
  const menu = document.getElementById('lang-menu');
  const colours = document.getElementById('four-colour');
  menu.replaceChildren(...LANGUAGES.map((code) => {
    const option = document.createElement('option');
    option.value = code;
    option.lang = code;
    option.textContent = LANGUAGE_NAMES[code];
    return option;
  }));
  menu.value = lang();
  menu.addEventListener('change', () => {
    setLang(menu.value);
    translatePage();
    onChange('lang');
  });
  if (colours) {
    colours.checked = prefs.fourColour;
    colours.addEventListener('change', () => {
      prefs.fourColour = colours.checked;
      applyColours();
      onChange('colours');
    });
  }
  for (const button of document.querySelectorAll('button.copy')) {
    button.addEventListener('click', () => copyField(button));
  }
  applyColours();
  translatePage();
}

async function copyField(button) {
  const input = document.getElementById(button.dataset.target);
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand('copy');
  }
  button.textContent = t('copied');
  setTimeout(() => { button.textContent = t('copy'); }, 1500);
}
