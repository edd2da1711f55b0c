/** What the reference in docs/ states that the code decides: they must not drift apart. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { resolveWindow } from '../../src/agent/context/model-window.js';
import { AGENT_DEFAULT_MODEL } from '../../src/agent/model-env.js';
import { SKIPPED_EXIT, TIMED_OUT_EXIT } from '../../src/api/task-status.js';
import { EXIT } from '../../src/cli/report.js';
import * as toolNames from '../../src/client/tool-names.js';
import { ConfigSchema } from '../../src/config.js';
import { readDoc, tableRows } from './markdown.js';

describe('docs/cli.md', () => {
  const cli = readDoc('docs/cli.md').text;

  it('documents every exit code the CLI defines (cli/report.ts), once', () => {
    const from = cli.indexOf('\n## Exit codes\n');
    const section = cli.slice(from, cli.indexOf('\n## ', from + 1));
    for (const code of Object.values(EXIT)) expect(section).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    for (const code of [TIMED_OUT_EXIT, SKIPPED_EXIT]) expect(section).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    expect(cli.match(/^#+ Exit codes$/gm)).toHaveLength(1);
  });
});

describe('docs/agent.md', () => {
  it('shows the agent log with the window and max output the default model really gets', () => {
    const w = resolveWindow(AGENT_DEFAULT_MODEL, {});
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    const n = (x: number) => x.toLocaleString('en-US');
    expect(readDoc('docs/agent.md').text).toContain(
      `● agent task 7 · ${AGENT_DEFAULT_MODEL} · window ${n(w.value.contextWindow)} tokens (max output ${n(w.value.maxOutputTokens)})`,
    );
  });
});

/** Every key of the config schema, as dotted paths; an object's keys stand for it. */
function configKeys(schema: z.ZodTypeAny, prefix = ''): string[] {
  if (schema instanceof z.ZodDefault) return configKeys(schema._def.innerType as z.ZodTypeAny, prefix);
  if (schema instanceof z.ZodOptional) return configKeys(schema.unwrap() as z.ZodTypeAny, prefix);
  if (schema instanceof z.ZodEffects) return configKeys(schema.innerType() as z.ZodTypeAny, prefix);
  if (schema instanceof z.ZodObject)
    return Object.entries(schema.shape as Record<string, z.ZodTypeAny>).flatMap(([k, v]) => configKeys(v, prefix ? `${prefix}.${k}` : k));
  return [prefix];
}

describe('docs/configuration.md', () => {
  // Each row: its keys (`ui.enabled` / `ui.port`) and, in the same order, their defaults.
  const rows = tableRows(readDoc('docs/configuration.md')).flatMap(([keys = '', defaults = '']) => {
    const names = [...keys.matchAll(/`([\w.]+)`/g)].map((m) => m[1] as string);
    const values = defaults.split(' / ');
    return names.map((name, i) => ({ name, default: names.length === values.length ? (values[i] as string) : defaults }));
  });
  const defaults = ConfigSchema.parse({}) as Record<string, unknown>;
  const valueAt = (path: string) => path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k], defaults);

  it('has a row for every key of the config schema (src/config.ts), or for the object it is in', () => {
    const keys = configKeys(ConfigSchema);
    expect(keys.length).toBeGreaterThan(30);
    const documented = (key: string) => rows.some((r) => key === r.name || key.startsWith(`${r.name}.`));
    expect(keys.filter((k) => !documented(k))).toEqual([]);
    expect(rows.filter((r) => !keys.some((k) => k === r.name || k.startsWith(`${r.name}.`))).map((r) => r.name)).toEqual([]);
  });

  it('gives each key the default the schema gives it', () => {
    const wrong = rows
      .map((r) => ({ ...r, value: valueAt(r.name) }))
      .filter((r) => r.value !== undefined && !r.default.includes(`\`${JSON.stringify(r.value)}\``))
      .map((r) => `${r.name}: documented ${r.default}, schema ${JSON.stringify(r.value)}`);
    expect(wrong).toEqual([]);
  });
});

describe('docs/integrations.md and docs/agent.md', () => {
  it('document every tool MCP and the agent offer (client/tool-names.ts) in a table row', () => {
    const rows = ['docs/integrations.md', 'docs/agent.md'].flatMap((f) => tableRows(readDoc(f)).map((cells) => cells[0] ?? ''));
    const names = Object.values(toolNames).flatMap((group) => Object.values(group as Record<string, string>));
    expect(names.length).toBeGreaterThan(15);
    expect(names.filter((n) => !rows.some((cell) => new RegExp(`\`${n}[ \`]`).test(cell)))).toEqual([]);
  });
});
