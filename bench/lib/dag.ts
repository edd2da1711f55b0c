/** A seeded random DAG of short sleeps, and what its run's timestamps say (overhead, early starts, critical path). */

export interface DagNode {
  layer: number;
  /** Indexes of earlier nodes (none in layer 0: those wait for the gate). */
  deps: number[];
  sleepMs: number;
}

/** mulberry32: small, seeded, good enough to draw a DAG reproducibly. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `layers` × `width` nodes; each after layer 0 depends on 1–3 distinct random nodes of earlier layers; sleeps 10–100 ms. */
export function makeDag(seed: number, layers: number, width: number): DagNode[] {
  const rnd = prng(seed);
  const nodes: DagNode[] = [];
  for (let layer = 0; layer < layers; layer++) {
    for (let k = 0; k < width; k++) {
      const deps = new Set<number>();
      const want = layer === 0 ? 0 : 1 + Math.floor(rnd() * 3);
      while (deps.size < want) deps.add(Math.floor(rnd() * layer * width));
      nodes.push({ layer, deps: [...deps], sleepMs: 10 + Math.floor(rnd() * 91) });
    }
  }
  return nodes;
}

/** The same DAG with each node keeping its first dependency only (what `tsp -D id` can express). */
export const firstDepOnly = (dag: DagNode[]): DagNode[] => dag.map((n) => ({ ...n, deps: n.deps.slice(0, 1) }));

/** Start and end (ms since the epoch) of each node, and of the gate the first layer waits for. */
export interface Times {
  start: number[];
  end: number[];
  gateEnd: number;
}

export interface DagFigures {
  /** start − max(dependency end) per node (the gate's end for layer 0). */
  overhead: number[];
  early: number;
  wallMs: number;
  criticalMs: number;
  maxRunning: number;
}

export function analyse(dag: DagNode[], t: Times): DagFigures {
  const depEnd = (i: number) => {
    const deps = dag[i]?.deps ?? [];
    return deps.length === 0 ? t.gateEnd : Math.max(...deps.map((d) => t.end[d] as number));
  };
  const overhead = dag.map((_, i) => (t.start[i] as number) - depEnd(i));
  // Longest path by the measured durations (nodes are in topological order: deps come first).
  const longest: number[] = [];
  dag.forEach((n, i) => {
    const own = (t.end[i] as number) - (t.start[i] as number);
    longest[i] = own + Math.max(0, ...n.deps.map((d) => longest[d] as number));
  });
  const events = dag.flatMap((_, i) => [
    [t.start[i] as number, 1],
    [t.end[i] as number, -1],
  ]);
  events.sort((a, b) => (a[0] as number) - (b[0] as number) || (a[1] as number) - (b[1] as number));
  let running = 0;
  let maxRunning = 0;
  for (const [, d] of events) maxRunning = Math.max(maxRunning, (running += d as number));
  return {
    overhead,
    early: overhead.filter((x) => x < 0).length,
    wallMs: Math.max(...t.end) - t.gateEnd,
    criticalMs: Math.max(...longest),
    maxRunning,
  };
}
