/**
 * Claude Code and Codex transcript lines for tests, block by block: typed text, tool calls and their
 * results (AskUserQuestion, ExitPlanMode, Bash), compaction summaries, subagent sidechains. Small
 * excerpts written for the tests, shaped like what the real CLIs write.
 */

export interface LineOpts {
  sessionId: string;
  cwd: string;
  start?: string;
  /** Subagent and compaction sidechain files: every line is a sidechain line of this agent. */
  agentId?: string;
}

type Block = Record<string, unknown>;

export class ClaudeSession {
  private readonly lines: string[] = [];
  private n = 0;
  private prev: string | null = null;

  constructor(private readonly opts: LineOpts) {}

  private push(type: 'user' | 'assistant', content: string | Block[], extra: Record<string, unknown> = {}): this {
    const uuid = `${this.opts.sessionId}-${String(this.n).padStart(4, '0')}`;
    const at = new Date(Date.parse(this.opts.start ?? '2026-10-01T09:00:00.000Z') + this.n * 60_000).toISOString();
    this.n++;
    this.lines.push(
      JSON.stringify({
        parentUuid: this.prev,
        isSidechain: this.opts.agentId !== undefined,
        ...(this.opts.agentId !== undefined && { agentId: this.opts.agentId }),
        userType: 'external',
        cwd: this.opts.cwd,
        sessionId: this.opts.sessionId,
        version: '2.1.39',
        type,
        message: { role: type, content },
        uuid,
        timestamp: at,
        ...extra,
      }),
    );
    this.prev = uuid;
    return this;
  }

  user(text: string): this {
    return this.push('user', text);
  }

  assistant(text: string): this {
    return this.push('assistant', [{ type: 'text', text }]);
  }

  toolUse(id: string, name: string, input: unknown): this {
    return this.push('assistant', [{ type: 'tool_use', id, name, input }]);
  }

  toolResult(id: string, content: string, isError = false): this {
    return this.push('user', [{ type: 'tool_result', tool_use_id: id, content, ...(isError && { is_error: true }) }]);
  }

  /** The summary a compaction writes, as a user line flagged isCompactSummary. */
  compactSummary(text: string): this {
    return this.push('user', text, { isCompactSummary: true });
  }

  text(): string {
    return `${this.lines.join('\n')}\n`;
  }
}

/** A Codex rollout: session_meta, then user/assistant messages and `compacted` items. */
export function codexRollout(opts: { id: string; cwd: string }, items: ({ role: 'user' | 'assistant'; text: string } | { compacted: string })[]): string {
  const at = (i: number) => new Date(Date.parse('2026-10-02T09:00:00.000Z') + i * 60_000).toISOString();
  const lines = [JSON.stringify({ timestamp: at(0), type: 'session_meta', payload: { id: opts.id, cwd: opts.cwd, originator: 'codex_cli_rs' } })];
  items.forEach((it, i) => {
    if ('compacted' in it) lines.push(JSON.stringify({ timestamp: at(i + 1), type: 'compacted', payload: { message: it.compacted } }));
    else {
      const part = it.role === 'user' ? 'input_text' : 'output_text';
      lines.push(
        JSON.stringify({ timestamp: at(i + 1), type: 'response_item', payload: { type: 'message', role: it.role, content: [{ type: part, text: it.text }] } }),
      );
    }
  });
  return `${lines.join('\n')}\n`;
}
