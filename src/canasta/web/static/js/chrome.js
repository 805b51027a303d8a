// What every page shares: the language switch, the four-colour-suit option, copy buttons.

import { LANGUAGES, lang, setLang, t, translatePage } from './i18n.js';
import { applyColours, prefs } from './prefs.js';

// Wire the header controls; `onChange` re-renders the page after a switch.
export function setupChrome(onChange) {
  const langButton = document.getElementById('lang-switch');
  const colours = document.getElementById('four-colour');
  const showLang = () => {
    const other = LANGUAGES.find((l) => l !== lang());
    langButton.textContent = t('lang.short.' + other);
    langButton.setAttribute('aria-label', `${t('lang.short.' + other)}: ${t('lang.switch_to.' + other)}`);
    langButton.setAttribute('lang', other);
  };
  langButton.addEventListener('click', () => {
    setLang(LANGUAGES.find((l) => l !== lang()));
    translatePage();
    showLang();
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
  showLang();
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
