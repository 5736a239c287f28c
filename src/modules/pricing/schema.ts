import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The pricing document's editorial content (Part A 2.16): names, prices, blurbs, calls to action. One row;
 * the operator plane replaces it. Features and caps are never stored: they derive from the plan catalogue.
 */
export const pricingContent = pgTable('pricing_content', {
  id: integer('id').primaryKey(),
  currency: text('currency').notNull(),
  note: text('note').notNull(),
  plans: jsonb('plans').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull(),
  updatedBy: text('updated_by'),
});
