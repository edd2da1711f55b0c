/** The app shell: a nav of the four sections and the router, every path under the dashboard's private prefix (base.ts). */
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { whenLoggedOut } from './api.js';
import { at } from './base.js';
import { DreamPage } from './pages/dream.js';
import { DreamsPage } from './pages/dreams.js';
import { MemoriesPage } from './pages/memories.js';
import { MemoryPage } from './pages/memory.js';
import { RecallPage } from './pages/recall.js';
import { SessionPage } from './pages/session.js';
import { SessionsPage } from './pages/sessions.js';
import { TaskPage } from './pages/task.js';
import { TasksPage } from './pages/tasks.js';

const SECTIONS = [
  ['/tasks', 'Tasks'],
  ['/memories', 'Memories'],
  ['/dreams', 'Dreams'],
  ['/sessions', 'Sessions'],
] as const;

function Nav() {
  const { path } = useLocation();
  const here = path.slice(at('').length) || '/';
  return (
    <nav aria-label="sections">
      <span class="brand">nightshift</span>
      {SECTIONS.map(([href, label]) => (
        <a key={href} href={at(href)} aria-current={here === href || here.startsWith(`${href}/`) || (here === '/' && href === '/tasks') ? 'page' : undefined}>
          {label}
        </a>
      ))}
    </nav>
  );
}

function NotFound() {
  return (
    <section>
      <h1>Not found</h1>
      <p>
        <a href={at('/tasks')}>Back to the tasks</a>
      </p>
    </section>
  );
}

export function App() {
  const [loggedOut, setLoggedOut] = useState(false);
  useEffect(() => whenLoggedOut(() => setLoggedOut(true)), []);
  return (
    <LocationProvider>
      <header>
        <Nav />
      </header>
      {loggedOut && (
        <p class="banner" role="alert">
          Your session has ended: run <code>nightshift ui</code> and open the link it prints.
        </p>
      )}
      <main id="main">
        <Router>
          <Route path={at('/')} component={TasksPage} />
          <Route path={at('/tasks')} component={TasksPage} />
          <Route path={at('/tasks/:id')} component={TaskPage} />
          <Route path={at('/memories')} component={MemoriesPage} />
          <Route path={at('/memories/recall')} component={RecallPage} />
          <Route path={at('/memories/:id')} component={MemoryPage} />
          <Route path={at('/dreams')} component={DreamsPage} />
          <Route path={at('/dreams/:id')} component={DreamPage} />
          <Route path={at('/sessions')} component={SessionsPage} />
          <Route path={at('/sessions/:id')} component={SessionPage} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </LocationProvider>
  );
}
