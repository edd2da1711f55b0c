/**
 * Checkpoints: the state a task needs to continue in a fresh window, structured (for the program
 * that resumes) with a Markdown copy (for the person reading the task directory). The version only
 * goes up; saving over a newer checkpoint is refused, so a stale writer cannot roll progress back.
 * Files are written to a temp name and renamed: a crash leaves the old checkpoint or the new one.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isErrno } from '../../errors.js';
import { writeFileAtomic } from '../../sys/atomic-file.js';
import type { StructuredSummary } from './compaction-summary.js';
import { NOTE_SECTIONS, type NotesState } from './notes.js';
import { fail, ok, type ContextError, type ContextEventInput, type Result } from './types.js';

export const CHECKPOINT_FORMAT = 'nightshift.context.checkpoint/1';
export const CHECKPOINT_DIR = 'context';

const list = z.array(z.string());
export const checkpointSchema = z.object({
  format: z.literal(CHECKPOINT_FORMAT),
  version: z.number().int().min(1),
  savedAt: z.string(),
  taskId: z.string().optional(),
  /** The task statement, verbatim. */
  goal: z.string(),
  constraints: list,
  progress: z.object({ done: list, current: z.string(), remaining: list }),
  decisions: list,
  openIssues: list,
  files: list,
  nextStep: z.string(),
  /** The last compaction summary; '' before the first compaction. */
  summary: z.string(),
  notes: z.object({ progress: list, decisions: list, open_issues: list }),
  compactions: z.number().int().min(0),
  /** Transcript index where the kept history starts: resume = summary + transcript.slice(keptFrom). */
  keptFrom: z.number().int().min(0),
  /** Messages the manager had been given when this was saved (the transcript length then). */
  messageCount: z.number().int().min(0),
});

export type Checkpoint = z.infer<typeof checkpointSchema>;

export function parseCheckpoint(json: unknown): Result<Checkpoint> {
  const r = checkpointSchema.safeParse(json);
  if (r.success) return ok(r.data);
  const issue = r.error.issues[0];
  return fail('checkpoint_invalid', `not a context checkpoint: ${issue ? `${issue.path.join('.') || 'root'}: ${issue.message}` : 'invalid'}`);
}

const bullets = (items: readonly string[]): string => (items.length ? items.map((i) => `- ${i}`).join('\n') : '- (none)');
const TITLES: Record<(typeof NOTE_SECTIONS)[number], string> = { progress: 'Progress', decisions: 'Decisions', open_issues: 'Open issues' };

function notesMarkdown(n: NotesState): string {
  const parts = NOTE_SECTIONS.filter((s) => n[s].length > 0).map((s) => `### ${TITLES[s]}\n${bullets(n[s])}`);
  return parts.length ? parts.join('\n\n') : '(none)';
}

export function renderMarkdown(c: Checkpoint): string {
  return [
    `# Checkpoint v${c.version}${c.taskId ? ` — task ${c.taskId}` : ''}`,
    `Saved ${c.savedAt} · ${c.compactions} compaction(s) · ${c.messageCount} messages (history kept from #${c.keptFrom})`,
    `## Goal\n${c.goal}`,
    `## Constraints\n${bullets(c.constraints)}`,
    `## Progress\n**Done**\n${bullets(c.progress.done)}\n\n**Current**: ${c.progress.current || '(none)'}\n\n**Remaining**\n${bullets(c.progress.remaining)}`,
    `## Decisions\n${bullets(c.decisions)}`,
    `## Open issues\n${bullets(c.openIssues)}`,
    `## Files\n${bullets(c.files)}`,
    `## Next step\n${c.nextStep || '(none)'}`,
    `## Notes\n${notesMarkdown(c.notes)}`,
    `## Summary\n${c.summary || '(no compaction yet)'}`,
  ].join('\n\n');
}

export interface CheckpointState {
  version: number;
  savedAt: string;
  taskId?: string;
  task: string | undefined;
  summary: StructuredSummary | undefined;
  notes: NotesState;
  compactions: number;
  keptFrom: number;
  messageCount: number;
}

const uniq = (xs: readonly string[]): string[] => [...new Set(xs)];

/** The checkpoint of a manager's state: the last summary's structure, the notes merged in. */
export function buildCheckpoint(st: CheckpointState): Checkpoint {
  const s = st.summary;
  const c: Checkpoint = {
    format: CHECKPOINT_FORMAT,
    version: st.version,
    savedAt: st.savedAt,
    goal: st.task ?? s?.goal ?? '',
    constraints: s?.constraints ?? [],
    progress: { done: s?.done ?? [], current: s?.current ?? '', remaining: s?.remaining ?? [] },
    decisions: uniq([...(s?.decisions ?? []), ...st.notes.decisions]),
    openIssues: uniq([...(s?.errors ?? []), ...st.notes.open_issues]),
    files: s?.files ?? [],
    nextStep: s?.nextStep ?? '',
    summary: s?.text ?? '',
    notes: st.notes,
    compactions: st.compactions,
    keptFrom: st.keptFrom,
    messageCount: st.messageCount,
  };
  if (st.taskId) c.taskId = st.taskId;
  return c;
}

export interface SavedCheckpoint {
  checkpoint: Checkpoint;
  jsonPath: string;
  mdPath: string;
}

export const checkpointPaths = (taskDir: string): { dir: string; json: string; md: string } => {
  const dir = join(taskDir, CHECKPOINT_DIR);
  return { dir, json: join(dir, 'checkpoint.json'), md: join(dir, 'checkpoint.md') };
};

/** The saved checkpoint of a task directory; ok(undefined) when there is none yet. */
export async function loadCheckpoint(taskDir: string): Promise<Result<Checkpoint | undefined>> {
  let raw: string;
  try {
    raw = await readFile(checkpointPaths(taskDir).json, 'utf8');
  } catch (err) {
    if (isErrno(err, 'ENOENT')) return ok(undefined);
    return fail('io_error', `cannot read the checkpoint: ${(err as Error).message}`);
  }
  try {
    return parseCheckpoint(JSON.parse(raw) as unknown);
  } catch {
    return fail('checkpoint_invalid', 'the checkpoint file is not valid JSON');
  }
}

export async function saveCheckpoint(taskDir: string, c: Checkpoint): Promise<Result<SavedCheckpoint>> {
  const paths = checkpointPaths(taskDir);
  const existing = await loadCheckpoint(taskDir);
  if (existing.ok && existing.value && existing.value.version >= c.version) {
    return fail('checkpoint_stale', `checkpoint v${c.version} is not newer than the saved v${existing.value.version}`);
  }
  try {
    await mkdir(paths.dir, { recursive: true, mode: 0o700 });
    await writeFileAtomic(paths.json, `${JSON.stringify(c, null, 2)}\n`);
    await writeFileAtomic(paths.md, `${renderMarkdown(c)}\n`);
  } catch (err) {
    return fail('io_error', `cannot save the checkpoint: ${(err as Error).message}`);
  }
  return ok({ checkpoint: c, jsonPath: paths.json, mdPath: paths.md });
}

/** What `checkpoint()` gives: the checkpoint, and where it was saved. */
export interface CheckpointOutcome {
  checkpoint: Checkpoint;
  /** Absent without a task directory, or when saving failed (see `error`). */
  jsonPath?: string;
  mdPath?: string;
  error?: ContextError;
}

/** Saves the checkpoint when there is a task directory, with a `checkpoint` event either way it goes. */
export async function saveCheckpointReporting(taskDir: string | undefined, c: Checkpoint, emit: (e: ContextEventInput) => void): Promise<CheckpointOutcome> {
  if (!taskDir) return { checkpoint: c };
  const saved = await saveCheckpoint(taskDir, c);
  if (!saved.ok) {
    emit({ type: 'checkpoint', version: c.version, error: saved.error });
    return { checkpoint: c, error: saved.error };
  }
  emit({ type: 'checkpoint', version: c.version, jsonPath: saved.value.jsonPath, mdPath: saved.value.mdPath });
  return { checkpoint: c, jsonPath: saved.value.jsonPath, mdPath: saved.value.mdPath };
}
