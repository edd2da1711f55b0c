import { appendFileSync, writeFileSync } from 'node:fs';

export interface Turn {
  role: 'user' | 'assistant';
  text: string;
  /** Minutes after the session start. */
  at?: number;
  id?: string;
}

/** Claude Code JSONL lines for a list of turns (user/assistant text), as Claude Code writes them. */
export function claudeLines(turns: Turn[], opts: { sessionId: string; cwd: string; start?: string }): string {
  const start = Date.parse(opts.start ?? '2026-10-01T09:00:00.000Z');
  let prev: string | null = null;
  return turns
    .map((t, i) => {
      const uuid = t.id ?? `${opts.sessionId}-${String(i).padStart(4, '0')}`;
      const line = {
        parentUuid: prev,
        isSidechain: false,
        userType: 'external',
        cwd: opts.cwd,
        sessionId: opts.sessionId,
        version: '2.0.0',
        type: t.role,
        message: t.role === 'user' ? { role: 'user', content: t.text } : { role: 'assistant', content: [{ type: 'text', text: t.text }] },
        uuid,
        timestamp: new Date(start + (t.at ?? i) * 60_000).toISOString(),
      };
      prev = uuid;
      return `${JSON.stringify(line)}\n`;
    })
    .join('');
}

export function writeClaudeTranscript(file: string, turns: Turn[], opts: { sessionId: string; cwd: string; start?: string }): void {
  writeFileSync(file, claudeLines(turns, opts));
}

export function appendClaudeTranscript(file: string, turns: Turn[], opts: { sessionId: string; cwd: string; start?: string }): void {
  appendFileSync(file, claudeLines(turns, opts));
}
