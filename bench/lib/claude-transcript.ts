/**
 * A synthetic Claude Code session transcript of a given size, line for line in the shape Claude Code
 * writes (see test/fakes/transcripts/claude-code.jsonl): user prompts (some stating preferences and
 * project facts), thinking, assistant text, one tool_use per assistant line, and tool results —
 * file contents, test logs, grep and shell output — which make up most of the bytes.
 */
import { createWriteStream } from 'node:fs';
import { int, memorySentence, pick, rng, V, type Rand } from './memgen.js';

export interface TranscriptStats {
  bytes: number;
  lines: number;
  userPrompts: number;
  /** User prompts carrying a preference or fact sentence from the memory templates. */
  statements: number;
  toolResults: number;
  toolResultBytes: number;
}

const uuid = (n: number) => {
  const h = n.toString(16).padStart(20, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(12, 15)}-8${h.slice(15, 18)}-${h.slice(18)}000000000a`;
};

function ident(r: Rand): string {
  const a = pick(r, [
    'get',
    'set',
    'load',
    'save',
    'parse',
    'render',
    'compute',
    'build',
    'apply',
    'resolve',
    'handle',
    'fetch',
    'sync',
    'merge',
    'format',
    'check',
  ]);
  const b = pick(r, [
    'Invoice',
    'User',
    'Session',
    'Order',
    'Price',
    'Tax',
    'Token',
    'Config',
    'Route',
    'Cache',
    'Queue',
    'Job',
    'Report',
    'Account',
    'Payment',
    'Ledger',
    'Event',
    'Flag',
  ]);
  const c = pick(r, ['', 'ById', 'Batch', 'Async', 'Safe', 'Total', 'Items', 'State', 'Options', 'Result']);
  return a + b + c;
}

/** A source file of roughly `size` characters (TypeScript-ish or Python-ish). */
function sourceFile(r: Rand, size: number): string {
  const py = r() < 0.3;
  const lines: string[] = [];
  let n = 0;
  if (py)
    lines.push(
      'from __future__ import annotations',
      'import logging',
      `from ${pick(r, V.file)} import ${ident(r)}`,
      '',
      'log = logging.getLogger(__name__)',
      '',
    );
  else
    lines.push(
      `import { ${ident(r)}, ${ident(r)} } from './${pick(r, V.file)}.js';`,
      `import type { ${pick(r, ['Options', 'Config', 'Context'])} } from '../types.js';`,
      '',
    );
  while (n < size) {
    const name = ident(r);
    const body: string[] = [];
    const k = int(r, 3, 14);
    for (let i = 0; i < k; i++) {
      const v = pick(r, ['total', 'items', 'row', 'result', 'cents', 'rate', 'user', 'key', 'entry', 'attempt']);
      body.push(
        py
          ? pick(r, [
              `    ${v} = ${ident(r)}(${v}, ${int(r, 0, 100)})`,
              `    if not ${v}:\n        return None`,
              `    log.debug("${name}: %s", ${v})`,
              `    for ${v} in ${ident(r)}():\n        yield ${v}`,
            ])
          : pick(r, [
              `  const ${v}${i} = await ${ident(r)}(${v}, ${int(r, 0, 100)});`,
              `  if (!${v}) return undefined;`,
              `  // ${pick(r, V.cause)}: keep ${pick(r, V.fix)}`,
              `  for (const ${v} of ${ident(r)}()) total += ${v}.amount;`,
            ]),
      );
    }
    const fn = py
      ? `def ${name}(${pick(r, ['self, ', ''])}ctx, *args):\n    """${pick(r, V.component)} helper."""\n${body.join('\n')}\n`
      : `export async function ${name}(ctx: Context, opts: Options = {}): Promise<number> {\n${body.join('\n')}\n  return ${int(r, 0, 9)};\n}\n`;
    lines.push(fn);
    n += fn.length;
  }
  return lines.join('\n');
}

/** `cat -n`-style numbering, as Claude Code's Read returns file contents. */
const numbered = (text: string) =>
  text
    .split('\n')
    .map((l, i) => `${String(i + 1).padStart(6)}→${l}`)
    .join('\n');

function testLog(r: Rand, size: number): string {
  const out: string[] = [`> ${pick(r, ['vitest run', 'jest --ci', 'pytest -q', 'go test ./...', 'cargo test'])}`, ''];
  let n = 0;
  let failed = 0;
  while (n < size) {
    const file = `${pick(r, V.dir)}/${pick(r, V.file)}.test.${pick(r, ['ts', 'py', 'go'])}`;
    const ok = r() > 0.08;
    const line = ok
      ? ` ✓ ${file} (${int(r, 2, 60)} tests) ${int(r, 5, 2000)}ms`
      : ` ✗ ${file} > ${ident(r)} > ${pick(r, ['rounds', 'retries', 'parses', 'renders', 'rejects'])} ${pick(r, ['cents', 'dates', 'tokens', 'rows'])}`;
    out.push(line);
    n += line.length;
    if (!ok) {
      failed++;
      const trace = `   AssertionError: expected ${int(r, 0, 999)}.${int(r, 0, 99)} to equal ${int(r, 0, 999)}\n${Array.from({ length: int(r, 4, 12) }, () => `    at ${ident(r)} (${pick(r, V.dir)}/${pick(r, V.file)}.ts:${int(r, 1, 400)}:${int(r, 1, 80)})`).join('\n')}`;
      out.push(trace);
      n += trace.length;
    }
  }
  out.push(
    '',
    ` Test Files  ${failed} failed | ${int(r, 20, 300)} passed`,
    `      Tests  ${failed} failed | ${int(r, 200, 3000)} passed`,
    `   Duration  ${int(r, 2, 90)}.${int(r, 0, 99)}s`,
  );
  return out.join('\n');
}

function grepOut(r: Rand, size: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < size) {
    const l = `${pick(r, V.dir)}/${pick(r, V.file)}.${pick(r, V.ext)}:${int(r, 1, 900)}:  ${pick(r, ['const', 'let', 'return', 'await', 'if (', '//'])} ${ident(r)}(${pick(r, ['ctx', 'opts', 'row', 'id'])})`;
    out.push(l);
    n += l.length;
  }
  return out.join('\n');
}

function installLog(r: Rand, size: number): string {
  const out: string[] = [];
  let n = 0;
  while (n < size) {
    const l = pick(r, [
      `Progress: resolved ${int(r, 1, 2000)}, reused ${int(r, 1, 2000)}, downloaded ${int(r, 0, 50)}, added ${int(r, 0, 50)}`,
      `+ ${pick(r, V.lib)} ${int(r, 0, 9)}.${int(r, 0, 40)}.${int(r, 0, 20)}`,
      `WARN deprecated ${pick(r, V.lib)}@${int(r, 0, 5)}.${int(r, 0, 9)}.0: use ${pick(r, V.lib)} instead`,
      `${pick(r, ['a1b2c3d', 'e4f5a6b', '9c8d7e6', '0f1e2d3'])}${int(r, 100, 999)} ${pick(r, ['fix', 'feat', 'chore', 'refactor'])}(${pick(r, V.service)}): ${pick(r, V.fix)}`,
    ]);
    out.push(l);
    n += l.length;
  }
  return out.join('\n');
}

function prompt(r: Rand): string {
  return pick(r, [
    `Fix the flaky ${pick(r, V.component)} test in ${pick(r, V.dir)}/${pick(r, V.file)}.test.ts.`,
    `Add retries to the ${pick(r, V.service)} client and make the timeout configurable.`,
    `Why does the ${pick(r, V.service)} build fail on CI but not locally?`,
    `Refactor ${pick(r, V.dir)}/${pick(r, V.file)}.ts so the ${pick(r, V.component)} can be tested without the network.`,
    `Can you look at the failing ${pick(r, V.runner)} run and tell me what broke?`,
    `Rename ${pick(r, ['getTotal', 'loadUser', 'parseRow', 'renderPage'])} to something clearer across the codebase.`,
    `The ${pick(r, V.service)} endpoint returns 500 for empty carts, please fix it and add a test.`,
    `Upgrade ${pick(r, V.lib)} to the latest major and fix what breaks.`,
    `Write a migration that adds an index on ${pick(r, ['user_id', 'created_at', 'invoice_id', 'account_id'])}.`,
    'ok, go ahead',
    'looks good, commit it',
  ]);
}

/**
 * Writes a transcript of at least `targetBytes` to `file`; about one user prompt in five also states
 * a preference or project fact (from the memory sentence templates), as people do mid-session.
 */
export async function writeClaudeTranscript(
  file: string,
  targetBytes: number,
  opts: { cwd: string; sessionId: string; seed?: number },
): Promise<TranscriptStats> {
  const r = rng(opts.seed ?? 7);
  const stats: TranscriptStats = { bytes: 0, lines: 0, userPrompts: 0, statements: 0, toolResults: 0, toolResultBytes: 0 };
  const out = createWriteStream(file);
  let chunk: string[] = [];
  let chunkBytes = 0;
  const flushChunk = async () => {
    const text = chunk.join('');
    chunk = [];
    chunkBytes = 0;
    if (!out.write(text)) await new Promise<void>((res) => out.once('drain', () => res()));
  };
  let seq = 0;
  let prev: string | null = null;
  let t = Date.parse('2026-10-01T09:00:00.000Z');
  let msg = 0;
  const emit = async (line: Record<string, unknown>) => {
    const s = `${JSON.stringify(line)}\n`;
    const b = Buffer.byteLength(s);
    stats.bytes += b;
    stats.lines++;
    chunk.push(s);
    chunkBytes += b;
    if (chunkBytes > 1 << 20) await flushChunk();
  };
  const base = (type: 'user' | 'assistant') => {
    const id = uuid(++seq);
    const line: Record<string, unknown> = {
      parentUuid: prev,
      isSidechain: false,
      userType: 'external',
      cwd: opts.cwd,
      sessionId: opts.sessionId,
      version: '2.0.14',
      gitBranch: 'main',
      type,
    };
    prev = id;
    t += int(r, 300, 20_000);
    return { line, id, ts: new Date(t).toISOString() };
  };
  const user = async (content: unknown, extra: Record<string, unknown> = {}) => {
    const { line, id, ts } = base('user');
    await emit({ ...line, message: { role: 'user', content }, ...extra, uuid: id, timestamp: ts });
  };
  const assistant = async (block: Record<string, unknown>, messageId: string) => {
    const { line, id, ts } = base('assistant');
    await emit({
      ...line,
      requestId: `req_${messageId.slice(4)}`,
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: int(r, 3, 40), output_tokens: int(r, 20, 900), cache_read_input_tokens: int(r, 5000, 90000) },
      },
      uuid: id,
      timestamp: ts,
    });
  };

  await emit({ type: 'summary', summary: 'Billing service maintenance', leafUuid: uuid(1) });
  while (stats.bytes < targetBytes) {
    // A user turn.
    let text = prompt(r);
    if (r() < 0.2) {
      text = `${memorySentence(r).text} ${text}`;
      stats.statements++;
    }
    stats.userPrompts++;
    await user(text);
    if (r() < 0.3)
      await emit({
        type: 'file-history-snapshot',
        messageId: uuid(seq),
        snapshot: { messageId: uuid(seq), trackedFileBackups: {}, timestamp: new Date(t).toISOString() },
        isSnapshotUpdate: false,
      });
    const mid = () => `msg_01${(++msg).toString(36).padStart(14, 'x')}`;
    let m = mid();
    await assistant(
      {
        type: 'thinking',
        thinking: Array.from(
          { length: int(r, 2, 12) },
          () => `The ${pick(r, V.component)} probably fails because of ${pick(r, V.cause)}; ${pick(r, V.fix)} would help.`,
        ).join(' '),
        signature: 'EqMBCkgIBxABGAIiQ' + 'x'.repeat(int(r, 100, 400)),
      },
      m,
    );
    await assistant({ type: 'text', text: `Let me look at the ${pick(r, V.component)} first.` }, m);
    const calls = int(r, 2, 7);
    for (let c = 0; c < calls; c++) {
      m = mid();
      const tool = pick(r, ['Read', 'Read', 'Bash', 'Bash', 'Grep', 'Edit']);
      const callId = `toolu_01${seq.toString(36)}${c}`;
      const path = `${opts.cwd}/${pick(r, V.dir)}/${pick(r, V.file)}.${pick(r, V.ext)}`;
      let input: Record<string, unknown>;
      let output: string;
      let extra: Record<string, unknown> = {};
      if (tool === 'Read') {
        input = { file_path: path };
        const content = sourceFile(r, int(r, 2_000, 30_000));
        output = numbered(content);
        extra = {
          toolUseResult: {
            type: 'text',
            file: { filePath: path, content, numLines: content.split('\n').length, startLine: 1, totalLines: content.split('\n').length },
          },
        };
      } else if (tool === 'Bash') {
        const test = r() < 0.6;
        input = { command: test ? `${pick(r, V.pkg)} test` : `${pick(r, V.pkg)} install`, description: test ? 'Run the tests' : 'Install dependencies' };
        output = test ? testLog(r, int(r, 3_000, 60_000)) : installLog(r, int(r, 1_000, 15_000));
        extra = { toolUseResult: { stdout: output, stderr: '', interrupted: false, isImage: false } };
      } else if (tool === 'Grep') {
        input = { pattern: ident(r), path: opts.cwd, output_mode: 'content', '-n': true };
        output = grepOut(r, int(r, 500, 8_000));
      } else {
        input = { file_path: path, old_string: `return ${int(r, 0, 9)};`, new_string: `return ${ident(r)}(ctx);` };
        output = `The file ${path} has been updated. Here's the result of running \`cat -n\` on a snippet of the edited file:\n${numbered(sourceFile(r, 600))}`;
      }
      await assistant({ type: 'tool_use', id: callId, name: tool, input }, m);
      await user([{ tool_use_id: callId, type: 'tool_result', content: output, is_error: r() < 0.05 }], extra);
      stats.toolResults++;
      stats.toolResultBytes += Buffer.byteLength(output);
    }
    m = mid();
    await assistant(
      {
        type: 'text',
        text: `Done: the ${pick(r, V.component)} failure came from ${pick(r, V.cause)}, and ${pick(r, V.fix)} fixed it. All ${pick(r, V.runner)} tests pass now.`,
      },
      m,
    );
  }
  await flushChunk();
  await new Promise<void>((res, rej) => out.end((err?: Error | null) => (err ? rej(err) : res())));
  return stats;
}
