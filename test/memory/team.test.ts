import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { DreamReport } from '../../src/api/dream.js';
import type { Memory, RecallResponse } from '../../src/api/memory.js';
import { daemonsPerTest, tempDirsPerTest, until } from '../helpers/daemon.js';

const newDaemon = daemonsPerTest(afterEach);
const tmp = tempDirsPerTest(afterEach, 'ns-team-');

describe('team memory', () => {
  it('lives as one Markdown file per memory, is recalled with --team, and picks up files changed by git', async () => {
    const teamDir = tmp();
    const d = newDaemon({ teams: { core: teamDir } });
    await d.start();
    const project = tmp();
    const id = (await d.cli(['remember', '--team', 'core', '--stable', '--type', 'instruction', 'Every PR needs a changelog entry.'])).stdout.trim();
    expect(id).toMatch(/^m[0-9a-f]{12}$/);
    const file = join(teamDir, `${id}.md`);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^---\nid: m[0-9a-f]{12}\ntype: instruction\n/);
    expect(text.trim().endsWith('Every PR needs a changelog entry.')).toBe(true);

    const r = JSON.parse((await d.cli(['recall', '--project', project, '--team', 'core', '--json'])).stdout) as RecallResponse;
    expect(r.items.map((i) => i.text)).toContain('Every PR needs a changelog entry.');
    expect((await d.cli(['recall', '--project', project])).stdout).not.toContain('changelog');

    // A teammate's memory arrives through `git pull`: a file the daemon did not write.
    writeFileSync(join(teamDir, 'release-freeze.md'), 'Releases are frozen on Fridays.\n');
    await until(
      async () => {
        const list = JSON.parse((await d.cli(['memories', 'list', '--team', 'core', '--json'])).stdout) as Memory[];
        return list.some((m) => m.content === 'Releases are frozen on Fridays.');
      },
      10_000,
      100,
    );
    // And an edit to an existing one.
    writeFileSync(file, text.replace('changelog entry', 'changelog entry and a reviewer'));
    await until(async () => (await d.cli(['memories', 'show', id])).stdout.includes('and a reviewer'), 10_000, 100);
  });

  it('refuses unknown and malformed team names clearly', async () => {
    const d = newDaemon();
    await d.start();
    const unknown = await d.cli(['remember', '--team', 'ghost', 'x y z']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no team "ghost": no teams are configured; add "teams": {"ghost": "/path/to/dir"}');
    const bad = await d.cli(['remember', '--team', '../etc', 'x y z']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('team names');
    const badConfig = newDaemon({ teams: { '../x': '/tmp' } });
    await expect(badConfig.start()).rejects.toThrow(/team names/);
  });

  it('memories list, recall and remember name the known teams when --team names none of them (exit 2), never answer as if it did', async () => {
    const d = newDaemon({ teams: { core: tmp(), web: tmp() } });
    await d.start();
    for (const args of [
      ['memories', 'list', '--team', 'cor'],
      ['recall', '--team', 'cor'],
      ['remember', '--team', 'cor', 'x y z'],
    ]) {
      const r = await d.cli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toContain('no team "cor"; the teams are: core, web');
    }
    expect((await d.cli(['memories', 'list', '--team', 'core'])).code).toBe(0);
  });

  it('is consolidated by the dream, which writes its changes back as file edits', async () => {
    const teamDir = tmp();
    writeFileSync(join(teamDir, 'a.md'), '---\ntype: fact\n---\nThe staging cluster runs Kubernetes 1.29.\n');
    writeFileSync(join(teamDir, 'b.md'), '---\ntype: fact\n---\nthe staging cluster runs kubernetes 1.29\n');
    const d = newDaemon({ teams: { core: teamDir } });
    await d.start();
    const r = JSON.parse((await d.cli(['dream', '--json'])).stdout) as DreamReport;
    expect(r.merges).toHaveLength(1);
    const files = readdirSync(teamDir).sort();
    expect(files).toEqual(['a.md', 'b.md']);
    const edited = files.map((f) => readFileSync(join(teamDir, f), 'utf8')).find((t) => t.includes('supersededBy:'));
    expect(edited).toContain(`supersededBy: ${r.merges[0]?.into}`);
  });
});
