import { defineConfig } from 'vitest/config';

// One PGlite per worker process, shared by the files it runs (each file in its own schema): PGlite takes
// seconds to start, so files are not isolated into fresh processes.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 2,
    testTimeout: 30_000,
    // A service starts in well under 10 s on an idle machine; the margin is for a loaded one (2 cores, files that
    // start several nodes or processes), where a slow start must not read as a failure.
    hookTimeout: 120_000,
    globalSetup: ['test/support/global-setup.ts'],
  },
});
