import { eq } from 'drizzle-orm';
import type { Queryable } from '../../kernel/db/index.js';
import { pricingContent } from './schema.js';

export type PricingContentRow = typeof pricingContent.$inferSelect;

export async function currentContent(q: Queryable): Promise<PricingContentRow | undefined> {
  const [row] = await q.select().from(pricingContent).where(eq(pricingContent.id, 1));
  return row;
}

export async function replaceContent(q: Queryable, row: Omit<PricingContentRow, 'id'>): Promise<void> {
  await q
    .insert(pricingContent)
    .values({ id: 1, ...row })
    .onConflictDoUpdate({ target: pricingContent.id, set: row });
}
