// Optional sounds (off unless the player turns them on): a short tone when another player moves
// and a higher one when it becomes the player's turn. Each tone played is counted on the body
// (data-sounds), which is how the page can be checked without speakers.

import { prefs } from './prefs.js';

let audio = null;

export function chime(high) {
  if (!prefs.sound) return;
  document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = high ? 880 : 520;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.15);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.16);
  } catch { /* no audio device: the tone is skipped */ }
}
