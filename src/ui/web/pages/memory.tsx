/** One memory: its text (editable), state and actions, where it came from and what happened to it. */
import { useState } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import type { Memory } from '../../../api/memory.js';
import { call } from '../api.js';
import { ago } from '../format.js';
import { MemoryActions } from '../memories/actions.js';
import { MemoryBadges, whereText } from '../memories/badges.js';
import { History } from '../memories/history.js';
import { Provenance } from '../memories/provenance.js';
import { ErrorLine } from '../pager.js';
import { useLoad } from '../use-load.js';
import { Facts } from '../facts.js';
import { at } from '../base.js';

export function MemoryPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  // Bumped by each change made here: the history and sources are read again.
  const [version, setVersion] = useState(0);
  const [changed, setChanged] = useState<Memory | null>(null);
  const loaded = useLoad((signal) => call('getMemory', { params: { id } }, signal), id);
  const m = changed?.id === id ? changed : loaded.data?.memory;
  const onChange = (next: Memory) => {
    setChanged(next);
    setVersion((v) => v + 1);
  };
  return (
    <section class="memory">
      <p>
        <a href={at('/memories')}>← Memories</a>
      </p>
      <ErrorLine error={loaded.error} />
      {m && (
        <>
          <h1>
            Memory <code>{m.id}</code> <MemoryBadges memory={m} />
          </h1>
          <MemoryActions key={m.id} memory={m} onChange={onChange} />
          <MemoryFacts memory={m} />
          <Provenance id={id} version={version} />
          <History id={id} version={version} />
        </>
      )}
    </section>
  );
}

function MemoryFacts({ memory: m }: { memory: Memory }) {
  const rows: [string, string][] = [
    ['type', m.type],
    ['where', whereText(m)],
    ['origin', m.origin],
    ['importance', m.importance.toFixed(2)],
    ['decays', m.stable ? 'no (stable)' : 'yes'],
    ['created', `${m.createdAt} (${ago(m.createdAt)} ago)`],
    ['last seen', `${m.lastSeenAt} (${ago(m.lastSeenAt)} ago)`],
    ['reinforcements', String(m.reinforcements)],
  ];
  if (m.slot) rows.push(['slot', `${m.slot.subject} · ${m.slot.attribute} = ${m.slot.value}`]);
  if (m.archiveReason) rows.push(['archived because', m.archiveReason]);
  return (
    <Facts rows={rows}>
      {m.supersededBy && (
        <div>
          <dt>superseded by</dt>
          <dd>
            <a href={at(`/memories/${m.supersededBy}`)}>{m.supersededBy}</a>
          </dd>
        </div>
      )}
    </Facts>
  );
}
