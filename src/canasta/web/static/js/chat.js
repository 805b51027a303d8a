// Chat for seated players: preset phrases, and free text where the table allows it.

import { $ } from './dom.js';
import { app } from './store.js';

// Chat for seated players: preset phrases (in this connection's language), and free text
// where the table's creator allowed it.
export function setupChat(phrases, freeChat) {
  const select = $('chat-phrase');
  select.replaceChildren(...Object.entries(phrases).map(([id, text]) => {
    const option = document.createElement('option');
    option.value = id;
    option.textContent = text;
    return option;
  }));
  $('chat-form').hidden = app.seat == null;
  $('chat-text').hidden = !freeChat;
}

// Send the typed text if there is any, else the chosen phrase.
export function say(event) {
  event.preventDefault();
  if (!app.socket) return;
  const input = $('chat-text');
  const text = input.hidden ? '' : input.value.trim();
  if (text) {
    app.socket.send({ type: 'chat', text });
    input.value = '';
  } else if ($('chat-phrase').value) {
    app.socket.send({ type: 'chat', phrase: $('chat-phrase').value });
  }
}
