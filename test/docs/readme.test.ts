/** What the README states that the code decides: they must not drift apart. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveWindow } from '../../src/agent/context/window.js';
import { AGENT_DEFAULT_MODEL } from '../../src/agent/model-env.js';
import { SKIPPED_EXIT, TIMED_OUT_EXIT } from '../../src/api/task-status.js';
import { EXIT } from '../../src/cli/report.js';

const readme = readFileSync(resolve(import.meta.dirname, '../../README.md'), 'utf8');

describe('README', () => {
  it('documents every exit code the CLI defines (cli/report.ts), once', () => {
    const section = readme.slice(readme.indexOf('### Exit codes'), readme.indexOf('Details worth knowing'));
    for (const code of Object.values(EXIT)) expect(section).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    for (const code of [TIMED_OUT_EXIT, SKIPPED_EXIT]) expect(section).toMatch(new RegExp(`^\\| ${code} \\|`, 'm'));
    expect(readme.match(/### Exit codes/g)).toHaveLength(1);
  });

  it('shows the agent log with the window and max output the default model really gets', () => {
    const w = resolveWindow(AGENT_DEFAULT_MODEL, {});
    expect(w.ok).toBe(true);
    if (!w.ok) return;
    const n = (x: number) => x.toLocaleString('en-US');
    expect(readme).toContain(`● agent task 7 · ${AGENT_DEFAULT_MODEL} · window ${n(w.value.contextWindow)} tokens (max output ${n(w.value.maxOutputTokens)})`);
  });
});
