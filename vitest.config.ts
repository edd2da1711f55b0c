import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Daemon tests spawn real processes; two cores do not like many at once.
    maxWorkers: 2,
    fileParallelism: true,
  },
});
