/** The app shell: a nav of the four sections and the router. */
import { useEffect, useState } from 'preact/hooks';
import { LocationProvider, Route, Router, useLocation } from 'preact-iso';
import { whenLoggedOut } from './api.js';
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
  return (
    <nav aria-label="sections">
      <span class="brand">nightshift</span>
      {SECTIONS.map(([href, label]) => (
        <a key={href} href={href} aria-current={path === href || path.startsWith(`${href}/`) || (path === '/' && href === '/tasks') ? 'page' : undefined}>
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
        <a href="/tasks">Back to the tasks</a>
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
          <Route path="/" component={TasksPage} />
          <Route path="/tasks" component={TasksPage} />
          <Route path="/tasks/:id" component={TaskPage} />
          <Route path="/memories" component={MemoriesPage} />
          <Route path="/memories/recall" component={RecallPage} />
          <Route path="/memories/:id" component={MemoryPage} />
          <Route path="/dreams" component={DreamsPage} />
          <Route path="/dreams/:id" component={DreamPage} />
          <Route path="/sessions" component={SessionsPage} />
          <Route path="/sessions/:id" component={SessionPage} />
          <Route default component={NotFound} />
        </Router>
      </main>
    </LocationProvider>
  );
}
