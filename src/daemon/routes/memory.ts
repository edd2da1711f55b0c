import type { InjectionLedger } from '../../inject/ledger.js';
import type { MemoryService, PromptRecall } from '../../memory/index.js';
import { afterDelivery, type Handlers } from '../http.js';
import { withRejections } from './rejections.js';

type MemoryHandlers = Pick<
  Handlers,
  'remember' | 'listMemories' | 'importMemories' | 'getMemory' | 'forgetMemory' | 'restoreMemory' | 'pinMemory' | 'recall' | 'recallPrompt' | 'search'
>;

/** `ledger`: where each memory shown was rejected. */
export function memoryHandlers(memory: MemoryService, prompts: PromptRecall, ledger: InjectionLedger): MemoryHandlers {
  return {
    remember: async ({ body }) => ({ json: { memory: await memory.remember(body) } }),
    listMemories: async ({ query }) => {
      const r = memory.list(query);
      return { json: { ...r, memories: r.memories.map((m) => withRejections(m, ledger)) } };
    },
    importMemories: async ({ body }) => ({ json: await memory.importLines(body.memories) }),
    getMemory: async ({ params }) => ({ json: { memory: withRejections(memory.store.mustGet(params.id), ledger) } }),
    forgetMemory: async ({ params }) => ({ json: { memory: await memory.act(params.id, 'forget') } }),
    restoreMemory: async ({ params }) => ({ json: { memory: await memory.act(params.id, 'restore') } }),
    pinMemory: async ({ params }) => ({ json: { memory: await memory.act(params.id, 'pin') } }),
    recall: async ({ body }) => ({ json: memory.recall(body) }),
    recallPrompt: async ({ body, req, res }) => {
      const r = prompts.forPrompt(body);
      // As the prompt hook's: given to the session once the answer reached the caller.
      const sessionId = body.sessionId;
      if (sessionId)
        afterDelivery(req, res, () =>
          prompts.given(
            sessionId,
            r.items.map((i) => i.id),
          ),
        );
      return { json: r };
    },
    search: async ({ query }) => ({ json: { hits: memory.search(query) } }),
  };
}
