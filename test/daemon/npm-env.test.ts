/**
 * A daemon started the way `npm start` starts it (npm's variables, node_modules/.bin dirs first on
 * PATH): what npm added is dropped at start, so scheduled tasks, restarts and doctor's lookup of the
 * agent CLIs see the person's own environment.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DoctorResponse } from '../../src/api/model-usage.js';
import { TestDaemon, until } from '../helpers/daemon.js';
import { rawRequest } from '../helpers/raw-http.js';

let root: string;
let d: TestDaemon;
let personPath: string;
let project: string;

function script(file: string, body: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}

beforeAll(async () => {
  root = mkdtempSync('/tmp/ns-npmenv-');
  project = join(root, 'proj');
  const help = '  -p, --print\\n  --output-format <f>\\n  --model <m>\\n';
  // The person's own claude, and the project's devDependency of the same name.
  script(join(root, 'bin', 'claude'), `if [ "$1" = --help ]; then printf '${help}'; else echo "1.0.0 (Claude Code)"; fi`);
  script(join(project, 'node_modules', '.bin', 'claude'), `if [ "$1" = --help ]; then printf '${help}'; else echo "9.9.9 (Claude Code)"; fi`);
  personPath = `${join(root, 'bin')}:/usr/local/bin:/usr/bin:/bin`;
  // What npm 11's run-script puts in front of PATH and adds, as seen from `npm start` in `project`.
  const npmPath = [
    join(project, 'node_modules', '.bin'),
    join(root, 'node_modules', '.bin'),
    '/tmp/node_modules/.bin',
    '/node_modules/.bin',
    '/usr/lib/node_modules/npm/node_modules/@npmcli/run-script/lib/node-gyp-bin',
    personPath,
  ].join(':');
  const npmVars = {
    PATH: npmPath,
    INIT_CWD: project,
    NODE: process.execPath,
    COLOR: '0',
    npm_command: 'start',
    npm_lifecycle_event: 'start',
    npm_lifecycle_script: 'npm run build --silent && node dist/cli.js daemon',
    npm_package_json: join(project, 'package.json'),
    npm_package_name: 'nightshift',
    npm_package_version: '0.1.0',
    npm_config_cache: '/root/.npm',
    npm_config_user_agent: 'npm/11.19.1 node/v20.20.2 linux x64 workspaces/false',
    npm_execpath: '/usr/lib/node_modules/npm/bin/npm-cli.js',
    npm_node_execpath: process.execPath,
  };
  d = new TestDaemon({}, npmVars);
  await d.start();
});

afterAll(async () => {
  await d?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

/** A task's environment, as `env` printed it. */
async function envOf(id: string): Promise<Record<string, string>> {
  await until(async () => (await d.client.get(id)).status !== 'running' && (await d.client.get(id)).status !== 'queued', 10_000);
  const text = (await d.client.output(id)).data.toString();
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

function npmFree(env: Record<string, string>): void {
  expect(Object.keys(env).filter((k) => /^npm_/i.test(k))).toEqual([]);
  expect(env['INIT_CWD']).toBeUndefined();
  expect(env['NODE']).toBeUndefined();
  expect(env['PATH']).toBe(personPath);
}

describe('a daemon started by npm', () => {
  it('a task restarted with the daemon’s environment gets the person’s PATH and no npm variables', async () => {
    const first = await d.client.run({ command: ['env'], cwd: root, env: { PATH: personPath }, stdin: false });
    await until(async () => (await d.client.get(first.id)).status === 'exited', 10_000);
    // No env in the body: the restart takes the daemon's own.
    const res = await rawRequest(
      { socketPath: d.paths.socket },
      { method: 'POST', path: `/v1/tasks/${first.id}/restart`, headers: { 'content-type': 'application/json' }, body: '{}' },
    );
    expect(res.status, res.body).toBe(201);
    const again = (JSON.parse(res.body) as { task: { id: string } }).task.id;
    npmFree(await envOf(again));
  });

  it('a scheduled task gets the same', async () => {
    const r = await d.cli(['schedule', 'add', '--name', 'envtick', '--cwd', root, '* * * * * *', '--', 'env']);
    expect(r.code, r.stderr).toBe(0);
    const fired = await until(async () => (await d.client.list(true)).find((t) => t.name === 'envtick')?.id, 10_000);
    await d.cli(['schedule', 'rm', 'envtick']);
    npmFree(await envOf(fired));
  });

  it('doctor finds the person’s claude, not the project’s devDependency', async () => {
    const r = await d.cli(['doctor', '--json'], { env: { PATH: personPath } });
    const doc = JSON.parse(r.stdout) as DoctorResponse;
    expect(doc.checks.find((c) => c.name === 'claude')?.detail).toMatch(new RegExp(`^${join(root, 'bin', 'claude')}: 1\\.0\\.0`));
  });
});
