/** Renders a recall block as plain lines, Markdown, or Claude Code's SessionStart hook answer: the block
 * a session is given is part of the API (`POST /v1/recall` with `render` answers it), so client and daemon share it. */
import type { RecallItem, RecallResponse } from './memory.js';

export type RecallFormat = 'text' | 'markdown' | 'claude-hook';
/** Claude Code shows at most this much of a hook's additional context. */
export const HOOK_CONTEXT_MAX = 10_000;

/**
 * The block's sections follow the kinds of statement: standing rules, the project's facts, decisions,
 * the current state (the person's words, then the agent's record), then what is not the project's
 * own. An item goes in the first section it fits.
 */
const GROUPS: { title: (project: string | null) => string; test: (i: RecallItem) => boolean }[] = [
  { title: () => 'Standing rules', test: (i) => i.kind === 'memory' && (i.type === 'instruction' || i.type === 'preference') },
  {
    title: (p) => (p ? `Facts about ${p}` : 'Project facts'),
    test: (i) => i.kind === 'memory' && i.scope === 'project' && i.type !== 'decision' && i.type !== 'state',
  },
  { title: () => 'Decisions', test: (i) => i.kind === 'memory' && i.type === 'decision' },
  { title: () => 'Current state, as you said it', test: (i) => i.kind === 'memory' && i.type === 'state' },
  { title: () => "Current state (the agent's record)", test: (i) => i.kind === 'state' },
  { title: () => 'Team', test: (i) => i.kind === 'memory' && i.scope === 'team' },
  { title: () => 'About you', test: (i) => i.kind === 'memory' },
  { title: () => 'Recent sessions here', test: (i) => i.kind === 'digest' },
  { title: () => 'From past sessions', test: (i) => i.kind === 'episode' },
];

/**
 * For output: control characters other than newline and tab shown as visible `\xNN`, so a stored
 * text (from a store older than the stripping at the boundary) can never move the cursor, retitle
 * the terminal or ring its bell.
 */
export function escapeControls(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** The person's own words (no model rewrote them) are quoted and dated; an excerpt of a past session is dated. */
function dated(i: RecallItem): string {
  const text = escapeControls(i.text);
  if (i.kind === 'episode' && i.at) return `(${i.at.slice(0, 10)}) ${text}`;
  const mark = i.reverify === undefined ? '' : ` (to re-verify: ${escapeControls(i.reverify)})`;
  if (i.kind === 'memory' && i.origin === 'heuristic') return `“${text}”${i.at ? ` (${i.at.slice(0, 10)})` : ''}${mark}`;
  return `${text}${mark}`;
}

export function renderText(r: RecallResponse): string {
  return r.items.map((i) => `[${i.type}] ${dated(i)}`).join('\n');
}

export function renderMarkdown(r: Pick<RecallResponse, 'items' | 'project'>): string {
  if (r.items.length === 0) return '';
  const taken = new Set<RecallItem>();
  const out = ['# What nightshift remembers', ''];
  for (const g of GROUPS) {
    const items = r.items.filter((i) => !taken.has(i) && g.test(i));
    if (items.length === 0) continue;
    out.push(`## ${g.title(r.project)}`);
    for (const i of items) {
      taken.add(i);
      out.push(`- ${dated(i)}`);
    }
    out.push('');
  }
  return out.join('\n').trimEnd();
}

/** What the session-start hook injects: the tasks section (rendered by the injector), the Markdown block, cut at a line boundary to stay within Claude Code's limit. */
export function hookContext(r: Pick<RecallResponse, 'items' | 'project'>, tasksSection = ''): string {
  const memories = renderMarkdown(r);
  const context = tasksSection === '' ? memories : `${tasksSection}${memories ? `\n\n${memories}` : ''}`;
  if (context.length <= HOOK_CONTEXT_MAX) return context;
  const cut = context.lastIndexOf('\n', HOOK_CONTEXT_MAX);
  return context.slice(0, cut > 0 ? cut : HOOK_CONTEXT_MAX);
}

/** The hook's JSON. */
export function renderClaudeHook(r: RecallResponse, event = 'SessionStart'): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: event, additionalContext: hookContext(r) } });
}

export function renderRecall(r: RecallResponse, format: RecallFormat): string {
  switch (format) {
    case 'text':
      return renderText(r);
    case 'markdown':
      return renderMarkdown(r);
    case 'claude-hook':
      return renderClaudeHook(r);
  }
}

/** The most the UserPromptSubmit hook adds to one prompt (the daemon picks items to fit it). */
export const PROMPT_CONTEXT_MAX = 2000;
const PROMPT_HEADER = 'nightshift recalls (matched to this prompt):';

/** The UserPromptSubmit context: a heading and one line per item, never longer than `max`. */
export function renderPromptContext(items: RecallItem[], max = PROMPT_CONTEXT_MAX): string {
  let out = PROMPT_HEADER;
  for (const i of items) {
    const line = `\n- ${i.kind === 'memory' ? `[${i.type}] ` : ''}${dated(i)}`;
    if (out.length + line.length > max) break;
    out += line;
  }
  return out;
}
