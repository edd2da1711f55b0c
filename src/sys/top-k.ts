/**
 * The k best items by score, without sorting everything: a min-heap of k entries. Recall offers
 * 100,000 memories for a few hundred lines; an item is only kept (and allocated) when it beats the
 * worst one held.
 */
export class TopK<T> {
  private readonly scores: number[] = [];
  private readonly items: T[] = [];

  constructor(private readonly k: number) {}

  /** The score an item must beat to be kept. */
  get floor(): number {
    return this.scores.length < this.k ? -Infinity : (this.scores[0] as number);
  }

  offer(score: number, item: T): void {
    if (this.scores.length < this.k) {
      this.scores.push(score);
      this.items.push(item);
      this.up(this.scores.length - 1);
    } else if (score > (this.scores[0] as number)) {
      this.scores[0] = score;
      this.items[0] = item;
      this.down(0);
    }
  }

  /** Best first. */
  sorted(): { score: number; item: T }[] {
    return this.items.map((item, i) => ({ score: this.scores[i] as number, item })).sort((a, b) => b.score - a.score);
  }

  private swap(a: number, b: number): void {
    [this.scores[a], this.scores[b]] = [this.scores[b] as number, this.scores[a] as number];
    [this.items[a], this.items[b]] = [this.items[b] as T, this.items[a] as T];
  }

  private up(i: number): void {
    while (i > 0) {
      const p = (i - 1) >> 1;
      if ((this.scores[p] as number) <= (this.scores[i] as number)) return;
      this.swap(i, p);
      i = p;
    }
  }

  private down(i: number): void {
    const n = this.scores.length;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < n && (this.scores[l] as number) < (this.scores[m] as number)) m = l;
      if (r < n && (this.scores[r] as number) < (this.scores[m] as number)) m = r;
      if (m === i) return;
      this.swap(i, m);
      i = m;
    }
  }
}
