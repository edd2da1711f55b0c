import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { configureNotify, monitorEvent, notify } from '../../src/tasks/notify.js';
import { tempDirsPerTest, until } from '../helpers/daemon.js';

const tempDir = tempDirsPerTest(afterEach, 'ns-notify-');

describe('notify()', () => {
  it('runs notify.onMonitor with a monitor event as one JSON line on stdin, and only the command of its type', async () => {
    const dir = tempDir();
    const file = join(dir, 'monitor.jsonl');
    configureNotify({ onMonitor: `cat >> ${file}`, onExit: `touch ${join(dir, 'exit')}`, desktop: false }, createLogger('silent'));
    const event = monitorEvent('github', 'down', 'initialize timed out after 10 s');
    notify(event);
    const text = await until(() => existsSync(file) && readFileSync(file, 'utf8').endsWith('\n') && readFileSync(file, 'utf8'));
    expect(JSON.parse(text)).toEqual(event);
    expect(event).toMatchObject({ type: 'monitor', server: 'github', status: 'down' });
    expect(existsSync(join(dir, 'exit'))).toBe(false);
  });
});
