/**
 * The hook entry's perl client (src/integrate/perl-client.ts), through the entry, against a socket
 * server that records the request and answers with set bytes: what it sends, and that it prints
 * what the curl client prints for every kind of answer (2xx or not, with a length or chunked, whole
 * or cut short). The entry's answers from a real daemon are in hook-entry.test.ts.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookEntryScript } from '../../src/integrate/hook-entry.js';
import { PERL_CLIENT } from '../../src/integrate/perl-client.js';
import { tempDirsPerTest } from '../helpers/daemon.js';
import { clientPath, type HookClient } from '../helpers/hook-clients.js';

const tmp = tempDirsPerTest(afterEach, 'ns-perl-');
let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

const INV = { node: '/nonexistent/node', cli: '/nonexistent/cli.js', env: {}, hookEntry: '' };

/** A request read whole: its head, and its body once it is all there (by length, or chunked to its last chunk). */
function wholeRequest(buf: Buffer): { head: string; body: Buffer } | undefined {
  const end = buf.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const head = buf.subarray(0, end).toString('latin1');
  const rest = buf.subarray(end + 4);
  const length = /^content-length: *(\d+)/im.exec(head);
  if (length) return rest.length >= Number(length[1]) ? { head, body: rest.subarray(0, Number(length[1])) } : undefined;
  if (!rest.toString('latin1').endsWith('\r\n0\r\n\r\n') && !rest.toString('latin1').startsWith('0\r\n\r\n')) return undefined;
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const eol = rest.indexOf('\r\n', at);
    const size = parseInt(rest.subarray(at, eol).toString(), 16);
    if (size === 0) return { head, body: Buffer.concat(parts) };
    parts.push(rest.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

interface Setup {
  file: string;
  home: string;
  requests: { head: string; body: Buffer }[];
}

/** The entry (as written on Linux) for a home whose socket answers every request with `answer`. */
async function serve(answer: string | Buffer): Promise<Setup> {
  const home = tmp();
  const file = join(home, 'entry.sh');
  writeFileSync(file, hookEntryScript(INV, 'linux'));
  mkdirSync(join(home, 'run'));
  const requests: Setup['requests'] = [];
  server = createServer((s: Socket) => {
    let buf = Buffer.alloc(0);
    s.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      const req = wholeRequest(buf);
      if (!req) return;
      requests.push(req);
      s.end(answer);
    });
    s.on('error', () => undefined);
  });
  await new Promise<void>((r) => server?.listen(join(home, 'run', 'nightshift.sock'), r));
  return { file, home, requests };
}

function runEntry(
  s: Setup,
  client: HookClient,
  input: Buffer | string,
  cwd: string,
  more: Record<string, string> = {},
): Promise<{ code: number | null; stdout: Buffer; used: string[] }> {
  const path = clientPath(tmp(), [client]);
  return new Promise((done, fail) => {
    const env = { NIGHTSHIFT_HOME: s.home, PATH: path.PATH, NIGHTSHIFT_PROMPT_HOOK_TIMEOUT_MS: '5000', ...more };
    const p = spawn('/bin/sh', [s.file, 'user-prompt-submit'], { env, cwd, stdio: ['pipe', 'pipe', 'inherit'] });
    const out: Buffer[] = [];
    p.stdout.on('data', (c: Buffer) => out.push(c));
    p.on('error', fail);
    p.on('close', (code) => done({ code, stdout: Buffer.concat(out), used: path.used() }));
    p.stdin.end(input);
  });
}

const ok = (body: string, extra = '') =>
  `HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\n${extra}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const chunked = (...parts: string[]) =>
  `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('')}0\r\n\r\n`;

describe('the perl client prints what curl prints', () => {
  const answers: [string, string, string][] = [
    ['a 200 with a length', ok('{"hookSpecificOutput":{"a":"é"}}\n'), '{"hookSpecificOutput":{"a":"é"}}\n'],
    ['a 200 without a trailing newline', ok('{"x":1}'), '{"x":1}\n'],
    ['trailing newlines, kept to one', ok('a\n\nb\n\n\n'), 'a\n\nb\n'],
    ['an empty 200', ok(''), ''],
    ['a 204', 'HTTP/1.1 204 No Content\r\n\r\n', ''],
    ['chunked', chunked('{"hookSpecific', 'Output":{}}', '\n'), '{"hookSpecificOutput":{}}\n'],
    ['chunked, with an extension', `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3;x=y\r\nabc\r\n0\r\n\r\n`, 'abc\n'],
    ['a 500 with a body', 'HTTP/1.1 500 Internal Server Error\r\ncontent-length: 13\r\n\r\n{"error":"x"}', ''],
    ['a 400 with a body', 'HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\nno', ''],
    ['a length cut short', 'HTTP/1.1 200 OK\r\ncontent-length: 50\r\n\r\n{"partial"', ''],
    ['chunks cut short', 'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nabcde\r\n', ''],
    ['no HTTP at all', 'hello\r\n\r\nworld', ''],
  ];
  it.each(answers)('%s', async (_, answer, printed) => {
    const s = await serve(answer);
    const cwd = tmp();
    const viaPerl = await runEntry(s, 'perl', '{"prompt":"x"}', cwd);
    const viaCurl = await runEntry(s, 'curl', '{"prompt":"x"}', cwd);
    expect([viaPerl.code, viaCurl.code]).toEqual([0, 0]);
    expect([viaPerl.used, viaCurl.used]).toEqual([['perl'], ['curl']]);
    expect(viaPerl.stdout.toString('utf8')).toBe(printed);
    expect(viaPerl.stdout.equals(viaCurl.stdout)).toBe(true);
  });
});

describe('what the perl client sends', () => {
  it('one POST with the input as it came (any bytes), its length, the timeout and the working directory', async () => {
    const s = await serve(ok(''));
    const cwd = join(tmp(), `d $(x) 'q' "é" \xff`);
    mkdirSync(cwd);
    const input = Buffer.concat([Buffer.from('{"prompt":"$(touch x) `y` \''), Buffer.from([0, 0xff, 0xc3, 0x0d, 0x0a]), Buffer.alloc(3 << 20, 'z')]);
    const r = await runEntry(s, 'perl', input, cwd);
    expect([r.code, r.used]).toEqual([0, ['perl']]);
    expect(s.requests).toHaveLength(1);
    const [req] = s.requests;
    expect(req?.body.equals(input)).toBe(true);
    expect(req?.head.split('\r\n')).toEqual([
      'POST /v1/hook/user-prompt-submit?timeout=5000 HTTP/1.0',
      'Host: nightshift',
      `Content-Length: ${input.length}`,
      `x-nightshift-cwd: ${Buffer.from(cwd).toString('latin1')}`,
    ]);
  });
});

describe('a working directory named with a control character, through either client', () => {
  const names = [
    ['CR LF', 'a\r\nx-nightshift-cwd: elsewhere'],
    ['LF', 'a\nx-evil: 1'],
    ['another control character', 'a\x01b'],
  ];
  it.each((['perl', 'curl'] as const).flatMap((c) => names.map(([what, name]) => [c, what, name] as const)))(
    '%s, %s in its name: no such header, nothing split, the answer printed',
    async (client, _, name) => {
      const s = await serve(ok('{"x":1}'));
      const cwd = join(tmp(), name ?? '');
      mkdirSync(cwd);
      const r = await runEntry(s, client, '{}', cwd);
      expect([r.stdout.toString(), r.used]).toEqual(['{"x":1}\n', [client]]);
      expect(s.requests).toHaveLength(1);
      const lines = s.requests[0]?.head.split('\r\n') ?? [];
      expect(lines.filter((l) => /^x-|elsewhere/i.test(l))).toEqual([]);
      expect(lines.every((l) => !/[\r\n]/.test(l))).toBe(true);
      expect(s.requests[0]?.body.toString()).toBe('{}');
    },
  );
});

describe('the environment does not change the perl client', () => {
  it('PERL5OPT (a module, strict) and PERL_UNICODE (UTF-8 layers, arguments decoded) are not taken', async () => {
    const s = await serve(ok('{"a":"é ü"}\n'));
    const cwd = join(tmp(), 'é');
    mkdirSync(cwd);
    const r = await runEntry(s, 'perl', '{"prompt":"ß"}', cwd, { PERL5OPT: '-Mstrict -Mwarnings', PERL_UNICODE: 'SDA' });
    expect([r.code, r.used]).toEqual([0, ['perl']]);
    expect(r.stdout.equals(Buffer.from('{"a":"é ü"}\n'))).toBe(true);
    expect(s.requests[0]?.body.toString()).toBe('{"prompt":"ß"}');
    expect(s.requests[0]?.head).toContain(`x-nightshift-cwd: ${Buffer.from(cwd).toString('latin1')}`);
  });
});

describe('the entry is written for its platform', () => {
  it('perl only on Linux, where its sockaddr_un is the one packed; elsewhere curl comes first', () => {
    expect(hookEntryScript(INV, 'linux')).toContain('perl -C0 -e');
    expect(hookEntryScript(INV, 'darwin')).not.toContain('perl');
    expect(hookEntryScript(INV, 'freebsd')).not.toContain('perl');
  });

  it('the perl program holds no single quote, so the shell passes it untouched', () => {
    expect(PERL_CLIENT).not.toContain("'");
  });
});
