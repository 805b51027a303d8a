// The server's HTTP JSON API; errors come back as Error objects with the server's message.

import { lang } from './i18n.js';

export class ApiError extends Error {
  constructor(body, status) {
    super(body?.error?.message || `HTTP ${status}`);
    this.code = body?.error?.code || 'http_' + status;
    this.status = status;
  }
}

async function request(method, url, body, token) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers['X-Seat-Token'] = token;
  const sep = url.includes('?') ? '&' : '?';
  const response = await fetch(`${url}${sep}lang=${lang()}`, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { /* not JSON: reported below */ }
  if (!response.ok) throw new ApiError(data, response.status);
  return data;
}

export const api = {
  rulesets: () => request('GET', '/api/rulesets'),
  create: (settings) => request('POST', '/api/tables', settings),
  join: (table, name, seat) => request('POST', `/api/tables/${table}/seats`, { name, seat }),
  state: (table, token) => request('GET', `/api/tables/${table}`, undefined, token),
  rules: (table) => request('GET', `/api/tables/${table}/rules`),
  askReview: (table, game, deal, token) => request('POST', `/api/tables/${table}/reviews?game=${game}&deal=${deal}`, undefined, token),
  review: (table, game, deal, token) => request('GET', `/api/tables/${table}/reviews?game=${game}&deal=${deal}`, undefined, token),
  replay: (table, game, deal) => {
    const query = [game != null ? `game=${game}` : '', deal != null ? `deal=${deal}` : ''].filter(Boolean);
    return request('GET', `/api/tables/${table}/replay?${query.join('&')}`);
  },
};

export function recordUrl(table, game, deal) {
  return `/api/tables/${table}/record?game=${game}&deal=${deal}`;
}

export function tableLink(table) {
  return `${location.origin}/t/${table}`;
}
