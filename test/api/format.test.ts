import { describe, expect, it } from 'vitest';
import { ago, elapsed, humanBytes } from '../../src/api/format.js';
import { ago as cliAgo } from '../../src/cli/format.js';
import { commandLine, humanBytes as clientBytes } from '../../src/client/format.js';
import { ago as pageAgo, bytesText, commandText, seconds } from '../../src/ui/web/format.js';

describe('one set of formatters (api/format.ts) for the CLI and the dashboard', () => {
  it('is the same code on both surfaces', () => {
    expect(cliAgo).toBe(ago);
    expect(pageAgo).toBe(ago);
    expect(clientBytes).toBe(humanBytes);
    expect(seconds).toBe(elapsed);
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
    expect([elapsed(850), elapsed(2400)]).toEqual(['850 ms', '2.4 s']);
    const argv = ['sh', '-c', "echo 'hi' there"];
    expect(commandLine(argv)).toBe(`sh -c 'echo '\\''hi'\\'' there'`);
    expect(commandText({ command: argv } as Parameters<typeof commandText>[0])).toBe(commandLine(argv));
  });
});
