import { describe, expect, it } from 'vitest';
import { ago, durationText, humanBytes } from '../../src/api/format.js';
import { ago as cliAgo } from '../../src/cli/format.js';
import { commandLine, humanBytes as clientBytes } from '../../src/client/format.js';
import { ago as pageAgo, bytesText, commandText, durationText as pageDuration } from '../../src/ui/web/format.js';

describe('one set of formatters (api/format.ts) for the CLI and the dashboard', () => {
  it('is the same code on both surfaces', () => {
    expect(cliAgo).toBe(ago);
    expect(pageAgo).toBe(ago);
    expect(clientBytes).toBe(humanBytes);
    expect(pageDuration).toBe(durationText);
  });

  it('reads times, sizes and commands as both printed them before', () => {
    const now = Date.parse('2026-01-02T00:00:00Z');
    expect(['2026-01-01T23:59:57Z', '2026-01-01T23:55:00Z', '2026-01-01T22:00:00Z', '2025-12-29T00:00:00Z'].map((t) => ago(t, now))).toEqual([
      '3s',
      '5m',
      '2h',
      '4d',
    ]);
    expect(ago(undefined)).toBe('-');
    expect([humanBytes(812), humanBytes(1234), humanBytes(5 * 1024 ** 3)]).toEqual(['812B', '1.2KiB', '5.0GiB']);
    expect([bytesText(812), bytesText(1234), bytesText(300 * 1024)]).toEqual(['812 B', '1.2 KiB', '300 KiB']);
    const argv = ['sh', '-c', "echo 'hi' there"];
    expect(commandLine(argv)).toBe(`sh -c 'echo '\\''hi'\\'' there'`);
    expect(commandText({ command: argv } as Parameters<typeof commandText>[0])).toBe(commandLine(argv));
  });

  it('reads a length of time one way: ms under a second, tenths under ten seconds, then the two largest units', () => {
    const s = 1000;
    const cases: [number, string][] = [
      [-5, '0ms'],
      [250, '250ms'],
      [1500, '1.5s'],
      [9_960, '10s'],
      [12 * s, '12s'],
      [90 * s, '1m30s'],
      [192 * s, '3m12s'],
      [3600 * s, '1h'],
      [3900 * s, '1h05m'],
      [86_400 * s, '1d'],
      [20 * 86_400 * s, '20d'],
      [(86_400 + 2 * 3600) * s, '1d02h'],
    ];
    expect(cases.map(([ms]) => durationText(ms))).toEqual(cases.map(([, text]) => text));
  });
});
