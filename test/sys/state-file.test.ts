import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setClockOffset } from '../../src/clock.js';
import { DurableJsonFile } from '../../src/sys/state-file.js';

const Schema = z.object({ version: z.literal(1), items: z.array(z.string()) });
const dirs: string[] = [];
const tmp = () => {
  const d = mkdtempSync(join(tmpdir(), 'ns-state-file-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  setClockOffset(0);
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('the state-file opener', () => {
  it('writes atomically and reads back what it wrote; a missing file is null', async () => {
    const file = new DurableJsonFile(join(tmp(), 'sub', 'state.json'), Schema);
    expect(file.readSync()).toBeNull();
    expect(file.readOrSetAside()).toEqual({ data: null });
    await file.write({ version: 1, items: ['a'] });
    expect(await file.read()).toEqual({ version: 1, items: ['a'] });
    expect(file.readOrSetAside()).toEqual({ data: { version: 1, items: ['a'] } });
  });

  it('refuses a file that does not parse or validate, naming it, and leaves it where it is (read)', async () => {
    const dir = tmp();
    const path = join(dir, 'state.json');
    writeFileSync(path, '{"version": 1, "items": [3]}');
    await expect(new DurableJsonFile(path, Schema).read()).rejects.toMatchObject({ code: 'state_corrupt', message: expect.stringContaining(path) });
    expect(readdirSync(dir)).toEqual(['state.json']);
  });

  it('moves such a file aside under the one name format, <file>.corrupt-<UTC time with - for : and .> (readOrSetAside)', () => {
    const dir = tmp();
    const path = join(dir, 'state.json');
    // Time goes through the one clock: a day ahead is the stamp.
    setClockOffset(Date.parse('2030-01-02T03:04:05.678Z') - Date.now());
    for (const [i, bad] of ['{torn', '{"version": 2, "items": []}'].entries()) {
      writeFileSync(path, bad);
      const { data, setAside } = new DurableJsonFile(path, Schema).readOrSetAside();
      expect(data).toBeNull();
      expect(setAside?.error).toMatch(i === 0 ? /is not valid JSON/ : /does not match the expected shape \(version/);
      expect(setAside?.movedTo).toMatch(/^.*\/state\.json\.corrupt-2030-01-02T03-04-0\d-\d{3}Z$/);
      expect(readFileSync(setAside?.movedTo ?? '', 'utf8')).toBe(bad);
      rmSync(setAside?.movedTo ?? '');
    }
    expect(readdirSync(dir)).toEqual([]);
  });
});
