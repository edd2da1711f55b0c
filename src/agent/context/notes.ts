/**
 * The agent's own notes: progress, decisions and open issues it writes during the run through a
 * `notes` tool. A summary is the model's reading of the past; notes are what the agent chose to
 * keep, so they are never summarised: they survive every compaction verbatim, are re-injected right
 * after it, and go into the checkpoint. The loop registers NOTES_TOOL and routes calls to `handle`.
 */
import type { Tool } from '@anthropic-ai/sdk/resources/messages';
import { z } from 'zod';

export const NOTE_SECTIONS = ['progress', 'decisions', 'open_issues'] as const;
export type NoteSection = (typeof NOTE_SECTIONS)[number];
export type NotesState = Record<NoteSection, string[]>;

export const NOTES_TOOL_NAME = 'notes';

export const NOTES_TOOL: Tool = {
  name: NOTES_TOOL_NAME,
  description:
    'Your working notes for this task. They survive context compaction and are shown to you again after it, ' +
    'so record what you must not lose: progress (steps done, the current step), decisions (what and why) and ' +
    'open issues (exact error messages, file paths). Actions: add {section, text}; update {section, index, text}; ' +
    'remove {section, index}; read. Keep them short; consolidate when told they are full.',
  input_schema: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: ['add', 'update', 'remove', 'read'] },
      section: { type: 'string', enum: [...NOTE_SECTIONS] },
      text: { type: 'string' },
      index: { type: 'integer', minimum: 0, description: '0-based position in the section (see read)' },
    },
    required: ['action'],
  },
};

const section = z.enum(NOTE_SECTIONS);
const text = z.string().trim().min(1);
const index = z.number().int().min(0);
const notesInput = z.discriminatedUnion('action', [
  z.object({ action: z.literal('add'), section, text }),
  z.object({ action: z.literal('update'), section, index, text }),
  z.object({ action: z.literal('remove'), section, index }),
  z.object({ action: z.literal('read') }),
]);

export interface NotesToolResult {
  content: string;
  is_error: boolean;
}

const TITLES: Record<NoteSection, string> = { progress: 'Progress', decisions: 'Decisions', open_issues: 'Open issues' };

export const emptyNotes = (): NotesState => ({ progress: [], decisions: [], open_issues: [] });

export class NotesStore {
  private readonly state: NotesState = emptyNotes();

  /** `maxChars` bounds what every compaction re-injects. */
  constructor(
    initial?: Partial<NotesState>,
    readonly maxChars = 12_000,
  ) {
    for (const s of NOTE_SECTIONS) this.state[s] = [...(initial?.[s] ?? [])];
  }

  get snapshot(): NotesState {
    return { progress: [...this.state.progress], decisions: [...this.state.decisions], open_issues: [...this.state.open_issues] };
  }

  get isEmpty(): boolean {
    return NOTE_SECTIONS.every((s) => this.state[s].length === 0);
  }

  get chars(): number {
    return NOTE_SECTIONS.reduce((n, s) => n + this.state[s].reduce((m, t) => m + t.length, 0), 0);
  }

  /** The tool call; bad input is an error result the model can correct, never a throw. */
  handle(raw: unknown): NotesToolResult {
    const parsed = notesInput.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { is_error: true, content: `invalid notes input: ${issue ? `${issue.path.join('.') || 'input'}: ${issue.message}` : 'unknown'}` };
    }
    const a = parsed.data;
    if (a.action === 'read') return { is_error: false, content: this.render() || '(no notes yet)' };
    const list = this.state[a.section];
    if (a.action !== 'add' && a.index >= list.length) {
      return { is_error: true, content: `no note ${a.index} in ${a.section} (it has ${list.length})` };
    }
    const growth = a.action === 'remove' ? 0 : a.text.length - (a.action === 'update' ? (list[a.index] ?? '').length : 0);
    if (growth > 0 && this.chars + growth > this.maxChars) {
      return { is_error: true, content: `notes are full (${this.chars} of ${this.maxChars} characters): update or remove older notes first` };
    }
    if (a.action === 'add') list.push(a.text);
    else if (a.action === 'update') list[a.index] = a.text;
    else list.splice(a.index, 1);
    return { is_error: false, content: `ok: ${a.section} has ${list.length} note(s)` };
  }

  /** Markdown, numbered per section as `read` shows them; '' when empty. */
  render(): string {
    return NOTE_SECTIONS.filter((s) => this.state[s].length > 0)
      .map((s) => `### ${TITLES[s]}\n${this.state[s].map((t, i) => `${i}. ${t}`).join('\n')}`)
      .join('\n\n');
  }
}
