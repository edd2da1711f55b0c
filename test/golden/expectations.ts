/** What test/golden/<version>/expected.json holds: what a daemon must report when it starts on that state. */

/** The home directory the state was written in, replaced by the test's own when it copies the files. */
export const HOME_TOKEN = '@HOME@';
/** A project key that is no directory on any machine, so it reads the same everywhere. */
export const GOLDEN_PROJECT = '/golden/project';

export interface GoldenTask {
  id: string;
  name: string | null;
  command: string[];
  status: string;
  exitCode: number | null;
  signal?: string;
  output: string;
}

export interface GoldenMemory {
  id: string;
  content: string;
  scope: string;
  stable: boolean;
  archived: boolean;
  project?: string;
}

export interface GoldenExpectation {
  version: string;
  generatedAt: string;
  nextTaskId: string;
  tasks: GoldenTask[];
  memories: GoldenMemory[];
  pinned: string;
  userRule: string;
  /** The ingested session and the one spooled by the hook while the daemon was down. */
  sessions: string[];
  ingestedSession: string;
  /** The ingested session's record: path, how far it was read, what it held. */
  sessionRecord: { sessionId: string; path: string; project: string | null; state: string; offset: number; size: number; messages: number };
  dreams: string[];
}
