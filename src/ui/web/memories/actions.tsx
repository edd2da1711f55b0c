/** A memory's text with edit (save / cancel), pin, forget and restore: each answers the memory as it now is. */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Memory } from '../../../api/memory.js';
import { call } from '../api.js';
import { memoryState } from './badges.js';
import { ErrorLine } from '../pager.js';

export function MemoryActions({ memory: m, onChange }: { memory: Memory; onChange: (m: Memory) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(m.content);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const area = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (editing) area.current?.focus();
  }, [editing]);
  const act = (p: Promise<{ memory: Memory }>) => {
    setBusy(true);
    p.then((r) => {
      setError(null);
      setEditing(false);
      onChange(r.memory);
    })
      .catch((err: Error) => setError(err.message))
      .finally(() => setBusy(false));
  };
  const params = { params: { id: m.id } };
  const state = memoryState(m);
  if (editing)
    return (
      <form
        class="edit"
        onSubmit={(e) => {
          e.preventDefault();
          act(call('editMemory', { ...params, body: { content: text } }));
        }}
      >
        <label for="memory-text">Text</label>
        <textarea ref={area} id="memory-text" name="content" rows={4} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <ErrorLine error={error} />
        <div class="controls">
          <button type="submit" disabled={busy || text.trim() === ''}>
            Save
          </button>
          <button
            type="button"
            onClick={() => {
              setEditing(false);
              setText(m.content);
              setError(null);
            }}
          >
            Cancel
          </button>
        </div>
      </form>
    );
  return (
    <>
      <blockquote class="memory-content">{m.content}</blockquote>
      <ErrorLine error={error} />
      <div class="controls">
        <button
          type="button"
          onClick={() => {
            setText(m.content);
            setEditing(true);
          }}
        >
          Edit
        </button>
        {!m.pinned && (
          <button type="button" disabled={busy} onClick={() => act(call('pinMemory', params))}>
            Pin
          </button>
        )}
        {state === 'active' ? (
          <button type="button" class="danger" disabled={busy} onClick={() => act(call('forgetMemory', params))}>
            Forget
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => act(call('restoreMemory', params))}>
            Restore
          </button>
        )}
      </div>
    </>
  );
}
