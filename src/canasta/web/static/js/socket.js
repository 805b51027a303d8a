// One WebSocket to a table: says hello, numbers requests, and reconnects after a drop.

export class TableSocket {
  constructor(table, { onMessage, onStatus }) {
    this.table = table;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.nextId = 1;
    this.retry = 500;
    this.closed = false;
  }

  connect(token, lang) {
    this.token = token;
    this.lang = lang;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${this.table}?lang=${this.lang}`);
    this.ws = ws;
    this.onStatus('connecting');
    ws.onopen = () => {
      this.retry = 500;
      ws.send(JSON.stringify({ type: 'hello', token: this.token || null, lang: this.lang }));
      this.onStatus('open');
    };
    ws.onmessage = (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      this.onMessage(message);
    };
    ws.onclose = () => {
      if (this.ws !== ws || this.closed) return;
      this.onStatus('closed');
      setTimeout(() => { if (!this.closed && this.ws === ws) this.open(); }, this.retry);
      this.retry = Math.min(this.retry * 2, 5000);
    };
  }

  // Send a message; returns its id (repeated by the server's ack or error).
  send(message) {
    const id = this.nextId++;
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ ...message, id }));
    return id;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}
