// The table's WebSocket: each message the server sends is taken into the state, then drawn.

import { setupChat } from './chat.js';
import { $ } from './dom.js';
import { lang, t } from './i18n.js';
import { openJoin } from './join.js';
import { prefs } from './prefs.js';
import { TableSocket } from './socket.js';
import { describeMove } from './moves.js';
import { animateMove } from './motion.js';
import { chime } from './sound.js';
import { app, nameOf, receive, tableId, teamOf } from './store.js';
import { render, renderLog, showError } from './view.js';

// Take a message into the state, then what it means for the page.
function onMessage(message) {
  const given = message.type === 'welcome' && message.seat == null && app.token;
  receive(message);
  switch (message.type) {
    case 'welcome':
      if (given) {  // this seat was given up (here or on another device)
        prefs.dropToken(tableId);
        app.token = null;
        showError(t('left'));
      }
      $('btn-leave').hidden = message.seat == null;
      setupChat(message.phrases, message.settings.free_chat);
      break;
    case 'state': {
      $('clock-alert').textContent = '';
      const moved = announce(message);
      render();
      if (moved) animateMove(message, app.seat, teamOf);
      break;
    }
    case 'hint':
    case 'presence':
      if (app.state) render();
      break;
    case 'chat':
    case 'log':
      renderLog();
      break;
    case 'error':
      if (message.code === 'bad_token') {
        prefs.dropToken(tableId);
        app.token = null;
        app.socket.close();
        openJoin();
      }
      showError(message.message);
      break;
    default:
      break;
  }
}

let announced = null;  // the version whose move was last announced

function onStatus(status) {
  const box = $('connection');
  box.hidden = status === 'open';
  box.textContent = status === 'open' ? '' : t('reconnecting');
}

export function connect() {
  if (app.socket) app.socket.close();
  app.socket = new TableSocket(tableId, { onMessage, onStatus });
  app.socket.connect(app.token, lang());
}

// Another player's move, said by the live region (and an optional tone); one's own turn, a tone.
// Whether the state brings a move not seen before (the first state of a page only shows).
function announce(state) {
  const before = announced;
  if (state.version === announced) return false;
  announced = state.version;
  const last = state.last;
  if (!last) return false;
  if (last.seat !== app.seat) {
    $('announce').textContent = describeMove(last.action, nameOf(last.seat), last.by, last.quick);
    chime(state.status === 'playing' && state.to_move === app.seat);
  }
  return before !== null;
}
