import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * This installation: the build bundles every module next to dist/cli.js, so the binary and the
 * package root are found from here (the daemon, an agent run and the hooks all run that binary).
 */
export const INSTALL = {
  cli: fileURLToPath(new URL('./cli.js', import.meta.url)),
  root: fileURLToPath(new URL('../', import.meta.url)),
};

/** Where nightshift keeps its config, state and socket (docs/architecture.md, "Where state lives"). */
export interface Paths {
  configFile: string;
  stateDir: string;
  tasksDir: string;
  stateFile: string;
  lockFile: string;
  tokenFile: string;
  runtimeDir: string;
  socket: string;
  daemonLog: string;
  /** Memories: one JSON file per namespace, plus the session registry. */
  memoryDir: string;
  sessionsFile: string;
  /** The episodic index: one JSONL file per session. */
  episodesDir: string;
  /** Session digests: one JSON file per session file. */
  digestsDir: string;
  /** The agent's record of each project's work (built, open, found): one JSON file per project. */
  workStateDir: string;
  /** Session ends handed over while the daemon was down, picked up at start. */
  spoolDir: string;
  /** Dream reports, and the lock that keeps two dreams from overlapping. */
  dreamsDir: string;
  dreamLock: string;
  /** MCP server monitors and their recent checks. */
  monitorsFile: string;
  /** Whether the web dashboard is on (`nightshift ui`, `nightshift ui --off`), kept across restarts. */
  uiStateFile: string;
}

export function resolvePaths(env: NodeJS.ProcessEnv = process.env): Paths {
  const home = env.NIGHTSHIFT_HOME;
  let configDir: string;
  let stateDir: string;
  let runtimeDir: string;
  if (home) {
    configDir = join(home, 'config');
    stateDir = join(home, 'state');
    runtimeDir = join(home, 'run');
  } else {
    const userHome = env.HOME ?? homedir();
    configDir = join(env.XDG_CONFIG_HOME || join(userHome, '.config'), 'nightshift');
    stateDir = join(env.XDG_STATE_HOME || join(userHome, '.local', 'state'), 'nightshift');
    runtimeDir = env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'nightshift') : join(stateDir, 'run');
  }
  return {
    configFile: join(configDir, 'config.json'),
    stateDir,
    tasksDir: join(stateDir, 'tasks'),
    stateFile: join(stateDir, 'tasks.json'),
    lockFile: join(stateDir, 'daemon.lock'),
    tokenFile: join(stateDir, 'token'),
    runtimeDir,
    socket: join(runtimeDir, 'nightshift.sock'),
    daemonLog: join(stateDir, 'daemon.log'),
    memoryDir: join(stateDir, 'memory'),
    sessionsFile: join(stateDir, 'memory', 'sessions.json'),
    episodesDir: join(stateDir, 'episodes'),
    digestsDir: join(stateDir, 'digests'),
    workStateDir: join(stateDir, 'work-state'),
    spoolDir: join(stateDir, 'spool'),
    dreamsDir: join(stateDir, 'dreams'),
    dreamLock: join(stateDir, 'dream.lock'),
    monitorsFile: join(stateDir, 'monitors.json'),
    uiStateFile: join(stateDir, 'ui.json'),
  };
}
