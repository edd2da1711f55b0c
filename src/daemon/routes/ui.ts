import type { Dashboard } from '../../ui/dashboard.js';
import type { Handlers } from '../http.js';

export function uiHandlers(dashboard: () => Dashboard): Pick<Handlers, 'enableUi' | 'disableUi'> {
  return {
    enableUi: async () => ({ json: await dashboard().enable() }),
    disableUi: async () => {
      await dashboard().disable();
      return { json: { enabled: false as const } };
    },
  };
}
