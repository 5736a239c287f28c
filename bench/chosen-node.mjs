// BENCH_NODE=/path/to/node: the benchmark runs on that Node.js binary instead of the one that started it
// (docs/benchmarks.md, "On another Node.js"). Imported first by each benchmark script: the script starts again
// under the chosen binary and this one waits, idle, for its exit status. Everything measured then runs on it: the
// in-process ceilings (RS256 signing, argon2id), the bare server, the service and autocannon, which are all
// started with process.execPath.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';

const chosen = process.env.BENCH_NODE;
if (chosen) {
  let binary;
  try {
    binary = realpathSync(resolve(chosen));
  } catch (error) {
    process.stderr.write(`BENCH_NODE: no Node.js binary at ${chosen} (${error.code ?? error.message})\n`);
    process.exit(2);
  }
  if (binary !== realpathSync(process.execPath)) {
    const run = spawnSync(binary, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
    if (run.error) {
      process.stderr.write(`BENCH_NODE: cannot run ${chosen}: ${run.error.message}\n`);
      process.exit(2);
    }
    process.exit(run.status ?? 1);
  }
}
