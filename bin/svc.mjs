#!/usr/bin/env node
// The `svc` command: runs the built CLI (npm start and npm run build produce dist/).
import { existsSync } from 'node:fs';

const main = new URL('../dist/main.js', import.meta.url);
if (!existsSync(main)) {
  console.error('svc: not built yet; run `npm run build` (npm start builds too)');
  process.exit(1);
}
await import(main.href);
