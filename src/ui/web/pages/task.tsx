/**
 * One task: its state, its output (the last 64 KiB on open, earlier chunks on demand, live text as
 * server-sent events from where that read ended), input, kill and restart.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { useLocation, useRoute } from 'preact-iso';
import type { Task } from '../../../api/tasks.js';
import type { OutputEvent } from '../../../api/ui.js';
import { call, readOutput, urlOf } from '../api.js';
import { AttentionBadge, StateBadge } from '../badges.js';
import { ago, bytesText, commandText } from '../format.js';
import { OutputView } from '../output-view.js';
import { useTaskEvents } from '../task-events.js';
import { at } from '../base.js';

/** Read on open, and per "load earlier". */
export const CHUNK = 64 * 1024;

const isLive = (t: Task) => t.state === 'running' || t.state === 'queued';

export function TaskPage() {
  const { params } = useRoute();
  const id = params.id ?? '';
  const [task, setTaskNow] = useState<Task | null>(null);
  // Answers and events race (an input's answer can land after the task's end): a task that has
  // ended never goes back to running, so an older state never replaces a final one.
  const setTask = (t: Task) => setTaskNow((cur) => (cur && cur.id === t.id && ended(cur) && !ended(t) ? cur : t));
  const [error, setError] = useState<string | null>(null);
  const [start, setStart] = useState(0);
  const [streaming, setStreaming] = useState(false);
  const pre = useRef<HTMLPreElement>(null);
  const view = useRef<OutputView | null>(null);

  useEffect(() => {
    if (!pre.current) return;
    const v = new OutputView(pre.current);
    view.current = v;
    let es: EventSource | null = null;
    let gone = false;
    void (async () => {
      const { task: t } = await call('getTask', { params: { id } });
      if (gone) return;
      setTask(t);
      const { text, meta } = await readOutput(id, Math.max(0, t.outputBytes - CHUNK), CHUNK);
      if (gone) return;
      v.reset(meta.offset, meta.nextOffset, text);
      setStart(v.start);
      // Live from where the read ended; a dropped connection resumes from the last event's id (its offset).
      es = new EventSource(urlOf('followTaskEvents', { params: { id }, query: { offset: meta.nextOffset } }));
      setStreaming(true);
      es.addEventListener('output', (e) => {
        const d = JSON.parse(e.data as string) as OutputEvent;
        v.append(d.offset, d.text, Number(e.lastEventId));
      });
      es.addEventListener('end', (e) => {
        setTask((JSON.parse(e.data as string) as { task: Task }).task);
        es?.close();
        setStreaming(false);
      });
    })().catch((err: Error) => setError(err.message));
    return () => {
      gone = true;
      es?.close();
    };
  }, [id]);

  useTaskEvents((e) => {
    if (e.task.id === id) setTask(e.task);
  });

  const loadEarlier = async () => {
    const v = view.current;
    if (!v || v.start === 0) return;
    const from = Math.max(0, v.start - CHUNK);
    try {
      const { text, meta } = await readOutput(id, from, v.start - from);
      v.prepend(meta.offset, text);
      setStart(v.start);
    } catch (err) {
      setError((err as Error).message);
    }
  };

  return (
    <section class="task">
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {task && <TaskHeader task={task} />}
      {task && <Controls task={task} onTask={setTask} onError={setError} />}
      <div class="output-bar">
        {start > 0 ? (
          <button type="button" class="load-earlier" onClick={() => void loadEarlier()}>
            load earlier ({bytesText(start)} before)
          </button>
        ) : (
          <span class="muted">from the start</span>
        )}
        {streaming && <span class="muted live-dot">live</span>}
      </div>
      <pre class="output" ref={pre} tabIndex={0} aria-label="output" aria-live="off" />
    </section>
  );
}

function TaskHeader({ task: t }: { task: Task }) {
  return (
    <header class="task-head">
      <h1>
        Task {t.id}
        {t.name ? `: ${t.name}` : ''}
      </h1>
      <p>
        <StateBadge task={t} /> <AttentionBadge task={t} /> <span class="muted">started {ago(t.createdAt)} ago in</span> <code>{t.cwd}</code>
      </p>
      <p>
        <code class="command">{commandText(t)}</code>
      </p>
      {t.state === 'running' && t.attention && (
        <pre class="attention-tail" aria-label="the last output before it stopped">
          {t.attention.tail}
        </pre>
      )}
      {t.restartOf && (
        <p>
          a new run of <a href={at(`/tasks/${t.restartOf}`)}>task {t.restartOf}</a>
        </p>
      )}
    </header>
  );
}

function Controls({ task: t, onTask, onError }: { task: Task; onTask: (t: Task) => void; onError: (m: string | null) => void }) {
  const [text, setText] = useState('');
  const { route } = useLocation();
  const act = (p: Promise<{ task: Task }>, then?: (t: Task) => void) =>
    p
      .then((r) => {
        onError(null);
        (then ?? onTask)(r.task);
      })
      .catch((err: Error) => onError(err.message));
  const canType = t.state === 'running' && t.stdin === 'open';
  return (
    <div class="controls">
      {canType && (
        <form
          class="input"
          onSubmit={(e) => {
            e.preventDefault();
            void act(call('sendInput', { params: { id: t.id }, body: { text: `${text}\n` } })).then(() => setText(''));
          }}
        >
          <label>
            Input <input name="input" autoComplete="off" value={text} onInput={(e) => setText(e.currentTarget.value)} placeholder="a line for its stdin" />
          </label>
          <button type="submit">Send</button>
          <button type="button" onClick={() => void act(call('sendInput', { params: { id: t.id }, body: { text, eof: true } })).then(() => setText(''))}>
            Send EOF
          </button>
        </form>
      )}
      {isLive(t) && (
        <button type="button" class="danger" onClick={() => void act(call('killTask', { params: { id: t.id }, body: { signal: 'SIGTERM' } }))}>
          Kill
        </button>
      )}
      {!isLive(t) && (
        <button type="button" onClick={() => void act(call('restartTask', { params: { id: t.id }, body: {} }), (n) => route(at(`/tasks/${n.id}`)))}>
          Restart
        </button>
      )}
    </div>
  );
}

function ended(t: Task): boolean {
  return t.state !== 'queued' && t.state !== 'running';
}
