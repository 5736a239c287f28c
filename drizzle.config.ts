import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/kernel/*/schema.ts', './src/modules/*/schema.ts'],
  out: './migrations',
});
