/**
 * What a tool call does beyond its one-line rendering: the shell command it runs, the files it
 * writes, and what it writes into an agent instruction file (CLAUDE.md, AGENTS.md). Read from the
 * call's input, whichever agent wrote it (Claude Code tools, Codex shell and apply_patch, the
 * nightshift agent's own tools).
 */
import { isRecord, records, str } from './json.js';
import type { TodoItem } from './types.js';

export const COMMAND_MAX = 1000;

const SHELL = /^(?:bash|shell|local_shell|exec_command|shell_command|run_command|run_shell_command|terminal)$/i;
const FILE_WRITERS = /^(?:write|edit|multiedit|notebookedit|write_file|edit_file|create_file|str_replace_editor|str_replace_based_edit_tool)$/i;
const SHELLS = /(?:^|\/)(?:ba|z|da|k)?sh$/;
const INSTRUCTION_FILE = /(?:^|[\\/])(?:CLAUDE|AGENTS)(?:\.local)?\.md$/i;

/** Codex runs `["bash", "-lc", "<script>"]`: the script is the command. */
function argvCommand(argv: unknown[]): string | undefined {
  const parts = argv.filter((a): a is string => typeof a === 'string');
  if (parts.length === 0) return undefined;
  if (parts.length >= 3 && SHELLS.test(parts[0] ?? '') && /^-\w*c$/.test(parts[1] ?? '')) return parts.slice(2).join(' ');
  return parts.join(' ');
}

export function shellCommand(name: string, input: unknown): string | undefined {
  if (!SHELL.test(name)) return undefined;
  if (typeof input === 'string') return input.trim() === '' ? undefined : input.slice(0, COMMAND_MAX);
  if (!isRecord(input)) return undefined;
  const raw = input.command ?? input.cmd ?? (isRecord(input.action) ? input.action.command : undefined);
  const command = typeof raw === 'string' ? raw : Array.isArray(raw) ? argvCommand(raw) : undefined;
  return command === undefined || command.trim() === '' ? undefined : command.slice(0, COMMAND_MAX);
}

/** The text of a patch in apply_patch's format, whether the tool got it bare or wrapped. */
function patchText(name: string, input: unknown): string | undefined {
  if (name === 'apply_patch') return typeof input === 'string' ? input : isRecord(input) ? (str(input.input) ?? str(input.patch)) : undefined;
  const command = isRecord(input) ? input.command : undefined;
  // Older Codex: a shell call `["apply_patch", "<patch>"]`.
  if (Array.isArray(command) && command[0] === 'apply_patch' && typeof command[1] === 'string') return command[1];
  return undefined;
}

interface PatchFile {
  path: string;
  added: string[];
  removed: string[];
}

function patchFiles(patch: string): PatchFile[] {
  const files: PatchFile[] = [];
  let current: PatchFile | undefined;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line) ?? /^\*\*\* Move to: (.+)$/.exec(line);
    if (header?.[1] !== undefined) {
      current = { path: header[1].trim(), added: [], removed: [] };
      files.push(current);
    } else if (current && line.startsWith('+')) {
      current.added.push(line.slice(1));
    } else if (current && line.startsWith('-')) {
      current.removed.push(line.slice(1));
    }
  }
  return files;
}

function editedPath(input: unknown): string | undefined {
  return isRecord(input) ? (str(input.file_path) ?? str(input.path) ?? str(input.notebook_path)) : undefined;
}

/** The files a call writes, in order, without repeats. */
export function writtenPaths(name: string, input: unknown): string[] | undefined {
  const patch = patchText(name, input);
  const paths = patch !== undefined ? patchFiles(patch).map((f) => f.path) : FILE_WRITERS.test(name) ? [editedPath(input)].filter((p) => p !== undefined) : [];
  return paths.length === 0 ? undefined : [...new Set(paths)];
}

/** The new text a call puts into the file (a Write's content, an Edit's replacement, a patch's added lines). */
function newText(name: string, input: unknown): string | undefined {
  if (!isRecord(input)) return undefined;
  if (/^multiedit$/i.test(name))
    return records(input.edits)
      .flatMap((e) => str(e.new_string) ?? [])
      .join('\n');
  return str(input.content) ?? str(input.new_string) ?? str(input.file_text) ?? str(input.new_str);
}

/**
 * A mark left where work is still to be done: "TODO: paste the URL here", "FIXME", "<PLACEHOLDER>";
 * capitals only, so a form field's placeholder text or a "todo" in prose is no mark.
 */
const PLACEHOLDER = /(?<![A-Za-z0-9])(?:TODO|FIXME|TBD|XXX|PLACEHOLDER)(?![A-Za-z0-9])/;
const FILLED_MAX = 5;
const FILLED_LINE = 200;

/**
 * The placeholder lines an edit takes out: lines of the text it replaces (an Edit's old string, a
 * patch's removed lines) that hold a mark of work still to do and are not in what it puts back. A
 * report's "still open: the TODO for the live URL" is done once the agent fills it. A whole file
 * written over says nothing of what it replaced.
 */
export function filledPlaceholders(name: string, input: unknown): string[] | undefined {
  const patch = patchText(name, input);
  let pairs: { before: string[]; after: string[] }[];
  if (patch !== undefined) pairs = patchFiles(patch).map((f) => ({ before: f.removed, after: f.added }));
  else if (!FILE_WRITERS.test(name) || !isRecord(input)) return undefined;
  else {
    const edits = /^multiedit$/i.test(name) ? records(input.edits) : [input];
    pairs = edits.map((e) => ({
      before: (str(e.old_string) ?? str(e.old_str) ?? '').split('\n'),
      after: (str(e.new_string) ?? str(e.new_str) ?? '').split('\n'),
    }));
  }
  const out: string[] = [];
  for (const { before, after } of pairs) {
    const kept = new Set(after.map((l) => l.trim()));
    for (const l of before) if (PLACEHOLDER.test(l) && !kept.has(l.trim())) out.push(l.trim().slice(0, FILLED_LINE));
  }
  return out.length === 0 ? undefined : out.slice(0, FILLED_MAX);
}

export interface InstructionWrite {
  path: string;
  text: string;
}

/** What the call writes into CLAUDE.md / AGENTS.md files. */
export function instructionWrites(name: string, input: unknown): InstructionWrite[] | undefined {
  const patch = patchText(name, input);
  const out: InstructionWrite[] = [];
  if (patch !== undefined) {
    for (const f of patchFiles(patch))
      if (INSTRUCTION_FILE.test(f.path) && f.added.join('').trim() !== '') out.push({ path: f.path, text: f.added.join('\n') });
  } else if (FILE_WRITERS.test(name)) {
    const path = editedPath(input);
    const text = newText(name, input);
    if (path !== undefined && INSTRUCTION_FILE.test(path) && text !== undefined && text.trim() !== '') out.push({ path, text });
  }
  return out.length === 0 ? undefined : out;
}

const GIST_LINE = 80;

/** A path as a reader knows it: its last two parts. */
function shortPath(path: string): string {
  return path.split(/[\\/]/).filter(Boolean).slice(-2).join('/');
}

/** The first line an edit or a patch adds that was not there before; a whole file written names only the file (its first line is a heading). */
function changedLine(name: string, input: unknown): string | undefined {
  if (/^(?:write|write_file|create_file)$/i.test(name)) return undefined;
  const patch = patchText(name, input);
  const added = patch !== undefined ? patchFiles(patch).flatMap((f) => f.added) : (newText(name, input)?.split('\n') ?? []);
  const before = new Set((isRecord(input) ? (str(input.old_string) ?? str(input.old_str) ?? '') : '').split('\n').map((l) => l.trim()));
  const line = added.map((l) => l.trim()).find((l) => l !== '' && !before.has(l));
  return line === undefined ? undefined : line.length > GIST_LINE ? `${line.slice(0, GIST_LINE)}…` : line;
}

/** A shell call's gist: the head of its command line. */
export function commandGist(command: string): string {
  return `the command \`${command.length > GIST_LINE ? `${command.slice(0, GIST_LINE)}…` : command}\``;
}

/**
 * What a call does, in words a person reading "Rejected …" recognises: the command it runs, or the
 * file it changes with the first line it adds. Undefined for calls that neither run nor write.
 */
export function callGist(name: string, input: unknown): string | undefined {
  const command = shellCommand(name, input);
  if (command !== undefined) return commandGist(command);
  const paths = writtenPaths(name, input);
  if (paths === undefined) return undefined;
  const line = changedLine(name, input);
  const files = paths.slice(0, 2).map(shortPath).join(', ');
  return line === undefined ? `the change to ${files}` : `the change to ${files} (${line})`;
}

/** A plan file the agent wrote (Claude Code's plan mode keeps plans in `~/.claude/plans/*.md`). */
export function planFileText(name: string, input: unknown): string | undefined {
  if (!/^write$/i.test(name) || !isRecord(input)) return undefined;
  const path = str(input.file_path);
  if (path === undefined || !/\.md$/i.test(path) || !/(?:^|[\\/])(?:plans[\\/][^\\/]+|[^\\/]*plan[^\\/]*)$/i.test(path)) return undefined;
  return str(input.content);
}

const TODO_TOOLS = /^(?:todowrite|update_plan|todo_write)$/i;
const TODO_STATUS: Record<string, TodoItem['status']> = { pending: 'pending', in_progress: 'in_progress', completed: 'completed', done: 'completed' };

/** The task list a TodoWrite (`todos: [{content, status}]`) or Codex update_plan (`plan: [{step, status}]`) call sets. */
export function todoList(name: string, input: unknown): TodoItem[] | undefined {
  if (!TODO_TOOLS.test(name) || !isRecord(input)) return undefined;
  const items = records(input.todos ?? input.plan).flatMap((t) => {
    const content = (str(t.content) ?? str(t.step))?.trim();
    const status = TODO_STATUS[str(t.status) ?? ''];
    return content === undefined || content === '' || status === undefined ? [] : [{ content, status }];
  });
  return items.length === 0 ? undefined : items;
}
