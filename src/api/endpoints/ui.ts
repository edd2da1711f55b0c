import { UiOffResponse, UiOnResponse } from '../ui.js';
import { json, type EndpointSpec } from '../endpoint.js';

export const UI_ENDPOINTS = {
  enableUi: {
    doc: 'turn the web dashboard on (kept across restarts) and get its URL with a one-time login link (2 minutes)',
    reply: json(UiOnResponse),
  },
  disableUi: { doc: 'turn the web dashboard off and end its sessions', reply: json(UiOffResponse) },
} as const satisfies Record<string, EndpointSpec>;
