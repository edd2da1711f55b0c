import { UiOffResponse, UiOnResponse } from '../ui.js';
import { json, type Endpoint } from '../endpoint.js';

export const UI_ENDPOINTS = {
  enableUi: {
    method: 'POST',
    path: '/v1/ui',
    doc: 'turn the web dashboard on (kept across restarts) and get its URL with a one-time login link (2 minutes)',
    reply: json(UiOnResponse),
  },
  disableUi: { method: 'DELETE', path: '/v1/ui', doc: 'turn the web dashboard off and end its sessions', reply: json(UiOffResponse) },
} as const satisfies Record<string, Endpoint>;
