/** The one redaction pass over a transcript: a message is masked whole, with its speaker's message before, as it streams. */
import { describe, expect, it } from 'vitest';
import { maskedMessages } from '../../../src/memory/ingest/masked-messages.js';
import { commandGist } from '../../../src/memory/transcripts/index.js';
import type { TranscriptMessage } from '../../../src/memory/transcripts/types.js';
import { B64URL, j, Seeded } from '../../fixtures/secrets/random.js';

const r = new Seeded(0x30f0);
const PW = `Pw-9x${r.key(5)}`;
const ANTHROPIC = j('-', 'sk', 'ant', 'api03', r.key(95, B64URL));
const GH = j('_', 'ghp', r.key(36));

const msg = (id: string, role: TranscriptMessage['role'], text: string, extra: Partial<TranscriptMessage> = {}): TranscriptMessage => ({
  id,
  role,
  kind: 'text',
  origin: role === 'user' ? 'typed' : 'assistant',
  text,
  ...extra,
});

async function masked(messages: TranscriptMessage[]): Promise<TranscriptMessage[]> {
  async function* source() {
    yield* messages;
  }
  const out: TranscriptMessage[] = [];
  for await (const m of maskedMessages(source())) out.push(m);
  return out;
}

describe('the one pass over a transcript', () => {
  it('masks a key the person pasted across two messages, with the agent speaking between', async () => {
    const [a, b] = [ANTHROPIC.slice(0, 63), ANTHROPIC.slice(63)];
    const out = await masked([
      msg('1', 'user', `my key is ${a}`),
      msg('2', 'assistant', 'That looks cut off, can you paste the rest?'),
      msg('3', 'user', `${b} sorry, here is the rest`),
    ]);
    expect(out.map((m) => m.text)).toEqual([
      'my key is [REDACTED:anthropic_key]',
      'That looks cut off, can you paste the rest?',
      '[REDACTED:anthropic_key] sorry, here is the rest',
    ]);
  });

  it('masks a command and the answers, keeps paths, and yields every message in order', async () => {
    const out = await masked([
      msg('1', 'assistant', `Bash(git push https://${GH}@github.com/acme/app.git)`, {
        kind: 'tool_use',
        command: `git push https://${GH}@github.com/acme/app.git`,
        paths: ['/home/alice/app/src/a.ts'],
      }),
      msg('2', 'user', 'question → answer', { origin: 'answer', answers: [{ question: 'Which key?', answer: `export PGPASSWORD=${PW}` }] }),
      ...Array.from({ length: 20 }, (_, i) => msg(`n${i}`, 'user', `line ${i}`)),
    ]);
    expect(out.map((m) => m.id)).toEqual(['1', '2', ...Array.from({ length: 20 }, (_, i) => `n${i}`)]);
    expect(out[0]?.command).toBe('git push https://[REDACTED:github_token]@github.com/acme/app.git');
    expect(out[0]?.text).not.toContain(GH);
    expect(out[0]?.paths).toEqual(['/home/alice/app/src/a.ts']);
    expect(out[1]?.answers?.[0]?.answer).toBe('export PGPASSWORD=[REDACTED:password]');
  });
});

describe('a tool call quoting its command', () => {
  it("has a shell call's gist made from its masked command, even where the gist cuts a secret", async () => {
    // The gist keeps the command's first 80 characters: the password starts before the cut and ends after it.
    const head = 'cd /srv/app && ./scripts/deploy.sh --region eu-west-1 && curl -sf -u ops:';
    const command = `${head}${PW}X7${r.key(12)} https://deploy.example.com/hooks/release`;
    expect(head.length).toBeLessThan(80);
    expect(head.length + PW.length + 14).toBeGreaterThan(80);
    const gist = commandGist(command);
    const [out] = await masked([msg('1', 'assistant', `Bash(${JSON.stringify({ command })})`, { kind: 'tool_use', command, gist })]);
    expect(out?.command).toBe(`${head}[REDACTED:password] https://deploy.example.com/hooks/release`);
    expect(out?.gist).toBe(commandGist(out?.command ?? ''));
    expect(out?.gist).not.toContain(PW.slice(0, 6));
    // Any other gist is masked as a text of its own.
    const edit = `the change to src/db.ts (const url = "postgres://app:${PW}@db/app")`;
    const [written] = await masked([msg('2', 'assistant', 'Edit(src/db.ts)', { kind: 'tool_use', gist: edit })]);
    expect(written?.gist).toBe('the change to src/db.ts (const url = "postgres://app:[REDACTED:url_password]@db/app")');
  });

  it("masks a task list's items each time the list is set again", async () => {
    const todos = [{ content: `Rotate the key ${GH} after the release`, status: 'pending' as const }];
    const out = await masked([1, 2, 3].map((i) => msg(`t${i}`, 'assistant', 'TodoWrite', { kind: 'tool_use', todos })));
    for (const m of out) expect(m.todos?.[0]?.content).toBe('Rotate the key [REDACTED:github_token] after the release');
  });

  it('has the values its command masks masked in its text too', async () => {
    const command = `DB_PASSWORD=a&${PW}# ./migrate.sh`;
    const [out] = await masked([msg('1', 'assistant', `Bash(${JSON.stringify({ command })})`, { kind: 'tool_use', command })]);
    expect(out?.command).toBe('DB_PASSWORD=[REDACTED:password] ./migrate.sh');
    expect(out?.text).toBe('Bash({"command":"DB_PASSWORD=[REDACTED:password] ./migrate.sh"})');
  });
});
