/**
 * Memories tied to code, with a model: a memory whose evidence changed is put to the model with what
 * changed and what the repository holds now (fake Messages API through the real SDK). "holds"
 * confirms it: no mark, its evidence recorded anew; "outdated" leaves it marked to re-verify.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { Memory } from '../../src/api/memory.js';
import { fileFor } from '../../src/memory/store/memory-file.js';
import { reply, startFakeAnthropic, toolUse, type FakeAnthropic, type RecordedRequest } from '../fakes/anthropic.js';
import { daemonsPerTest, tempDirsPerTest } from '../helpers/daemon.js';
import { CLAIMS, changeRepo, writeRepo } from '../helpers/evidence-repo.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-evrev-');
let fake: FakeAnthropic | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** The fake model: the routes memory still holds (a route was added), anything else is outdated; pairs are distinct. */
function answer(req: RecordedRequest) {
  const body = (req.body.messages as { content: string }[]).map((m) => m.content).join('\n');
  const memories = [...body.matchAll(/^memory (m\d+): (.+)$/gm)].map((m) => ({ key: m[1], verdict: /routes/.test(m[2] ?? '') ? 'holds' : 'outdated' }));
  if (memories.length > 0) return reply([toolUse('answer', { memories })], { usage: { input_tokens: 500, output_tokens: 20 } });
  const pairs = [...body.matchAll(/pair (p\d+):/g)].map((m) => ({ key: m[1], verdict: 'distinct' }));
  return reply([toolUse('answer', { pairs })], { usage: { input_tokens: 100, output_tokens: 10 } });
}

describe('memories tied to code, with a model', () => {
  it('clears the mark of a memory the model confirms, and keeps it on one the model calls outdated', async () => {
    fake = await startFakeAnthropic({ defaultStep: answer });
    const root = join(tmp(), 'shop');
    writeRepo(root);
    const d = newDaemon();
    Object.assign(d.env, { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: 'sk-test-0000' });
    writeFileSync(d.paths.configFile, JSON.stringify({ transcripts: { watch: false }, dream: { schedule: false } }));
    const at = new Date(Date.now() - 86_400_000).toISOString();
    const base = { type: 'fact', scope: 'project', project: root, stable: true, pinned: false, importance: 0.6, createdAt: at, lastSeenAt: at };
    const memories = [0, 1, 10].map((i) => ({
      ...base,
      id: `m${String(i + 1).padStart(12, '0')}`,
      content: CLAIMS[i]?.say,
      reinforcements: 0,
      sources: [],
      origin: 'import',
    }));
    const file = fileFor(d.paths.memoryDir, { scope: 'project', project: root });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify({ version: 1, namespace: { scope: 'project', project: root }, memories }));
    await d.start();
    const dream = async () => JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    const list = async () => JSON.parse((await d.cli(['memories', 'list', '--project', root, '--json'])).stdout) as Memory[];

    expect((await dream()).phases.verify?.recorded).toBe(3);
    const before = await list();
    changeRepo(root);
    const r = await dream();
    expect(r.phases.verify).toMatchObject({ checked: 3, reverify: 1, confirmed: 1 });
    expect(r.reverify).toEqual([{ id: 'm000000000011', reason: 'server.port in config/server.toml changed: 8080 → 9090' }]);
    // The model was shown what changed and the file as it is now.
    const asked = JSON.stringify(fake.requests.at(-1)?.body.messages);
    expect(asked).toContain('src/routes.ts changed since it was said');
    expect(asked).toContain('/wishlist');
    const after = await list();
    const routes = after.find((m) => m.id === 'm000000000001');
    expect(routes?.reverify).toBeUndefined();
    expect(routes?.evidence?.[0]?.blob).not.toBe(before.find((m) => m.id === 'm000000000001')?.evidence?.[0]?.blob);
    expect(after.find((m) => m.id === 'm000000000011')?.reverify?.reason).toContain('8080 → 9090');
    expect(after.find((m) => m.id === 'm000000000002')?.reverify).toBeUndefined();
    expect(r.tokens?.input).toBeGreaterThanOrEqual(500);
  });
});
