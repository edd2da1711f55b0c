import { beforeAll, describe, expect, it } from 'vitest';
import { type ParseResult, readTranscript, type TranscriptMessage } from '../../../src/memory/transcripts/index.js';
import { fixture } from './helpers.js';

const id = (n: number) => `e${String(n).padStart(7, '0')}-0000-4000-8000-000000000000`;

describe('Claude Code: who said what', () => {
  let r: ParseResult;
  const byId = (x: string): TranscriptMessage | undefined => r.messages.find((m) => m.id === x);
  const of = (origin: TranscriptMessage['origin']) => r.messages.filter((m) => m.origin === origin);
  beforeAll(async () => {
    r = await readTranscript(fixture('claude-code-origins.jsonl'));
  });

  it('keeps typed prompts, without the reminders Claude Code appends to them', () => {
    expect(of('typed').map((m) => m.text)).toEqual([
      'The ledger totals drift after imports. Use integer cents everywhere.',
      'also keep the CSV importer streaming',
      'bump the version to 2.0 please',
    ]);
    expect(of('typed').every((m) => m.role === 'user' && m.kind === 'text' && m.meta === undefined)).toBe(true);
  });

  it('counts a queued prompt once: as the message it arrived as, or as queued when it never arrived', () => {
    const texts = r.messages.filter((m) => m.role === 'user' && m.kind === 'text').map((m) => m.text);
    expect(texts.filter((t) => t === 'also keep the CSV importer streaming')).toHaveLength(1);
    expect(texts.filter((t) => t === 'check the fixtures too')).toHaveLength(1);
    expect(texts.filter((t) => t === '/compact')).toHaveLength(1);
    expect(of('queued').map((m) => m.text)).toEqual(['check the fixtures too', 'and bump the version']);
    // The undelivered one comes before the next prompt the person typed, with its own time.
    const order = r.messages.map((m) => m.text);
    expect(order.indexOf('and bump the version')).toBeLessThan(order.indexOf('bump the version to 2.0 please'));
    expect(byId(id(12))?.origin).toBe('queued'); // the queued_command attachment
  });

  it('pairs AskUserQuestion answers with their questions and options, free text with commas and quotes included', () => {
    const [first, second] = of('answer');
    expect(first).toMatchObject({ id: id(5), role: 'user', kind: 'text', toolName: 'AskUserQuestion', toolUseId: 'toolu_ask1' });
    expect(first?.answers).toEqual([
      { question: 'Which rounding mode should totals use?', answer: 'Half up', options: ["Banker's", 'Half up'] },
      { question: 'Where should the migration run?', answer: 'by hand, after the "freeze", never on deploy', options: ['On deploy', 'By hand'] },
    ]);
    expect(first?.text).toBe(
      'Which rounding mode should totals use? → Half up\nWhere should the migration run? → by hand, after the "freeze", never on deploy',
    );
    expect(second?.answers).toEqual([{ question: 'Keep the old API?', answer: 'No', options: ['Yes', 'No'] }]);
    // The answer replaces the tool result: nothing is counted twice.
    expect(r.messages.filter((m) => m.toolUseId === 'toolu_ask1' && m.kind === 'tool_result')).toHaveLength(0);
  });

  it('gives each ExitPlanMode plan its verdict, and a rejection reason its own message', () => {
    expect(of('plan').map((m) => [m.plan, m.text.split('\n')[0]])).toEqual([
      ['rejected', '# Plan'],
      ['approved', '# Plan v2'],
    ]);
    expect(of('plan')[0]).toMatchObject({ id: id(8), role: 'assistant', kind: 'text', toolName: 'ExitPlanMode' });
    expect(of('feedback').map((m) => m.text)).toEqual(['split the migration into its own step', 'leave the importer alone for now']);
    expect(byId(id(9))).toMatchObject({ origin: 'feedback', role: 'user', kind: 'text', toolUseId: 'toolu_plan1' });
  });

  it('takes CLAUDE.md content as instructions: injected, attached, and written with a tool that succeeded', () => {
    expect(of('instructions').map((m) => m.text)).toEqual([
      expect.stringContaining('Always run `make check` before committing.'),
      '/home/dana/src/ledger/CLAUDE.md:\n# Ledger\n\nAmounts are integer cents. Never use floats for money.',
      'Contents of /home/dana/src/ledger/src/CLAUDE.md:\n\nModules in src/ export one function each.',
    ]);
    expect(byId(`${id(22)}:instructions`)).toMatchObject({ role: 'assistant', origin: 'instructions', toolName: 'Write' });
  });

  it('marks commands, interrupts, notifications and compaction summaries as not typed', () => {
    expect(of('command').map((m) => m.text)).toEqual(['/compact', '/model']);
    expect(of('interrupt').map((m) => m.text)).toEqual(['[Request interrupted by user]']);
    expect(byId(id(31))).toMatchObject({ origin: 'system', meta: true });
    expect(byId(id(28))).toMatchObject({ origin: 'summary', kind: 'summary', compactSummary: true });
    expect(byId(id(27))).toMatchObject({ origin: 'system', kind: 'boundary' });
    expect(r.messages.filter((m) => m.role === 'assistant' && m.kind !== 'text').every((m) => m.origin === 'assistant')).toBe(true);
    expect(r.messages.filter((m) => m.kind === 'tool_result').every((m) => m.origin === 'tool')).toBe(true);
  });

  it('carries commands, exit codes and written paths of tool calls', () => {
    expect(byId(id(13))).toMatchObject({ kind: 'tool_use', command: 'cd /home/dana/src/ledger && npm test 2>&1 | tail -5' });
    expect(byId(id(14))).toMatchObject({ kind: 'tool_result', command: 'cd /home/dana/src/ledger && npm test 2>&1 | tail -5', exitCode: 1, isError: true });
    expect(byId(id(20))).toMatchObject({ command: 'npm test', exitCode: 0 });
    expect(byId(id(15))?.paths).toEqual(['/home/dana/src/ledger/src/totals.ts']);
  });
});

describe('Claude Code sidechains', () => {
  it('a subagent file keeps the parent session id, names its agent, and its prompt is the agent’s, not the person’s', async () => {
    const r = await readTranscript(fixture('claude-code-subagent.jsonl'));
    expect(r).toMatchObject({ sessionId: '7d1c2b3a-0000-4000-8000-00000000c0de', agentId: 'a5e6f7a', cwd: '/home/dana/src/ledger/web' });
    expect(r.messages[0]).toMatchObject({ origin: 'agent', role: 'user', sidechain: true, agentId: 'a5e6f7a' });
    expect(r.messages.some((m) => m.origin === 'typed')).toBe(false);
  });

  it('a compaction sidechain’s last assistant text is the summary; the instruction to summarise is not the person’s', async () => {
    const r = await readTranscript(fixture('claude-code-compact.jsonl'));
    expect(r.agentId).toBe('acompact-9f8e7d');
    const summaries = r.messages.filter((m) => m.origin === 'summary');
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ kind: 'summary', compactSummary: true, role: 'assistant' });
    expect(summaries[0]?.text).toContain('Pending Tasks');
    expect(r.messages.find((m) => m.text.startsWith('Your task is to create'))?.origin).toBe('system');
    expect(r.messages.find((m) => m.text === '<analysis>draft</analysis>')?.origin).toBe('assistant');
  });

  it('a sidechain whose first prompt asks for a summary is a compaction sidechain, whatever its agent id', async () => {
    const r = await readTranscript(fixture('claude-code-compact-prompt.jsonl'));
    expect(r.messages.map((m) => m.origin)).toEqual(['system', 'summary']);
  });
});

describe('Codex: who said what', () => {
  let r: ParseResult;
  const of = (origin: TranscriptMessage['origin']) => r.messages.filter((m) => m.origin === origin);
  beforeAll(async () => {
    r = await readTranscript(fixture('codex-origins.jsonl'));
  });

  it('splits injected AGENTS.md and environment parts of one message, and keeps a Windows cwd as written', () => {
    expect(r.cwd).toBe('C:\\Users\\kim\\src\\shop');
    const [agents] = of('instructions');
    expect(agents).toMatchObject({ role: 'user', meta: true });
    expect(agents?.text).toContain('Keep prices in cents.');
    expect(r.messages.find((m) => m.id === `${agents?.id}:1`)).toMatchObject({ origin: 'system', meta: true });
    expect(of('typed').map((m) => m.text)).toEqual(['Plan the checkout refactor first.', 'Implement the plan.']);
  });

  it('reads a proposed plan approved by "Implement the plan."', () => {
    expect(of('plan')).toEqual([expect.objectContaining({ plan: 'approved', text: '# Checkout refactor\n\n- Move tax rules into tax.ts', role: 'assistant' })]);
    expect(r.messages.find((m) => m.origin === 'assistant' && m.kind === 'text')?.text).toBe('Here is the plan.');
  });

  it('reports how a command left running in a session ended, and what apply_patch wrote', () => {
    const results = r.messages.filter((m) => m.kind === 'tool_result');
    expect(results[0]).toMatchObject({ command: 'pnpm test' });
    expect(results[0]?.exitCode).toBeUndefined(); // still running
    expect(results[1]).toMatchObject({ toolName: 'write_stdin', command: 'pnpm test', exitCode: 1, isError: true });
    expect(results[3]).toMatchObject({ command: 'pnpm test', exitCode: 0 });
    expect(r.messages.find((m) => m.toolName === 'apply_patch' && m.kind === 'tool_use')?.paths).toEqual(['C:\\Users\\kim\\src\\shop\\tax.ts', 'AGENTS.md']);
    expect(of('instructions')[1]).toMatchObject({ role: 'assistant', text: 'AGENTS.md:\nTax rules live in tax.ts.' });
  });

  it('marks turn_aborted as an interrupt and reads only readable compaction summaries', () => {
    expect(of('interrupt')).toHaveLength(1);
    expect(of('summary').map((m) => m.text)).toEqual(['Summary: checkout refactor done; tax rules in tax.ts.']);
    expect(r.messages.filter((m) => m.role === 'system').every((m) => m.origin === 'system')).toBe(true);
  });
});
