import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Transactions } from '../../kernel/db/index.js';
import { agentTasks } from './schema.js';

// A task token's budget (Part B 4.1): each authorized request spends one unit, a refused one nothing. Exact under
// concurrency because the spend is one statement that only succeeds while a unit is left (`remaining > 0`): of 20
// parallel requests against 10 units exactly 10 get a row back. One write per request is the one database round
// trip governance adds to an agent's request (issue 20, "beyond the budget counter").

/** Spends one unit of the task's budget; false when it is spent. */
export async function spendTaskUnit(
  transactions: Transactions,
  task: { tenantId: string; taskId: string },
): Promise<boolean> {
  const spent = await transactions.systemWrite((q) =>
    q
      .update(agentTasks)
      .set({ remaining: sql`${agentTasks.remaining} - 1` })
      .where(and(eq(agentTasks.tenantId, task.tenantId), eq(agentTasks.id, task.taskId), gt(agentTasks.remaining, 0)))
      .returning({ remaining: agentTasks.remaining }),
  );
  return spent.length > 0;
}

/** Whether a unit is left, spending nothing: the budget as a dry run sees it. */
export async function taskUnitLeft(
  transactions: Transactions,
  task: { tenantId: string; taskId: string },
): Promise<boolean> {
  const left = await transactions.systemRead((q) =>
    q
      .select({ remaining: agentTasks.remaining })
      .from(agentTasks)
      .where(and(eq(agentTasks.tenantId, task.tenantId), eq(agentTasks.id, task.taskId), gt(agentTasks.remaining, 0))),
  );
  return left.length > 0;
}

/** Gives a unit back: the request that spent it was refused by a later check after all. */
export async function returnTaskUnit(
  transactions: Transactions,
  task: { tenantId: string; taskId: string },
): Promise<void> {
  await transactions.systemWrite((q) =>
    q
      .update(agentTasks)
      .set({ remaining: sql`${agentTasks.remaining} + 1` })
      .where(
        and(
          eq(agentTasks.tenantId, task.tenantId),
          eq(agentTasks.id, task.taskId),
          lt(agentTasks.remaining, agentTasks.budget),
        ),
      ),
  );
}
