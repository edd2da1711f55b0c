/**
 * The person edits a memory's text. Their words are what the memory says from then on: redacted like
 * anything stored, the text before kept in its events, `editedAt` set so neither a re-extraction nor
 * a dream rewrites it, merges it away or lets an older statement supersede it.
 *
 * Identity (the slot) follows the text, because the slot is what the text states:
 * - the new text states the same subject and attribute: the slot is the new text's (the same identity
 *   when the value is the same — a rewording —, the same subject and attribute with the new value
 *   when the person changed the value: later sessions stating the old value do not reinforce it);
 * - the analysis finds no slot in the new text: the old slot stays if its value is still in the text
 *   (a rewording the analysis cannot read), and goes otherwise (it would claim what the text no longer says);
 * - another slot: the new text's.
 * Its evidence in the repository (evidence/) goes too, and is found again for the new words.
 */
import type { Memory, Slot } from '../../api/memory.js';
import { AppError } from '../../errors.js';
import { logEvent } from '../events.js';
import { redact } from '../../redact/redact.js';
import { stripControls } from '../../redact/sanitize.js';
import { slotOf } from '../store/slots.js';
import type { MemoryStore } from '../store/store.js';
import { terms } from '../nlp/text.js';

function slotAfterEdit(before: Slot | undefined, content: string): Slot | undefined {
  const after = slotOf(content);
  if (after !== undefined || before === undefined) return after;
  const have = new Set(terms(content));
  const value = terms(before.value.replace(/^[+-]/, ''));
  return value.length > 0 && value.every((t) => have.has(t)) ? before : undefined;
}

/** Edits the memory in place (unsaved); the same text again is no edit. */
export function editMemory(store: MemoryStore, id: string, content: string, nowIso: string): Memory {
  const m = store.mustGet(id);
  const r = redact(stripControls(content));
  if (r.onlySecret) throw new AppError('bad_request', 'that text is only a secret or personal data; nightshift never stores either');
  const text = r.text.trim();
  if (text === m.content) return m;
  const slot = slotAfterEdit(m.slot, text);
  return store.update(id, (x) => {
    logEvent(x, { at: nowIso, kind: 'edited', from: x.content, to: text });
    x.content = text;
    x.editedAt = nowIso;
    if (slot === undefined) delete x.slot;
    else x.slot = slot;
    // What the new words rest on is found again (next ingest or dream); the person's words are confirmed as of now.
    delete x.evidence;
    delete x.reverify;
  });
}
