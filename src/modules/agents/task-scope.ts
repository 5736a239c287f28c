import { expandPermissionPatterns } from '../../kernel/authz/catalog.js';
import { forbidden, unprocessable } from '../../kernel/http/index.js';

/** A task block's limits (Part B 2.1): the purpose is shown to approvers; the budget counts authorized requests. */
export const TASK_TEXT_MAX_LENGTH = 1000;
export const TASK_BUDGET_MAX = 100_000;
export const TASK_PERMISSIONS_MAX = 100;

/** A task block as asked for at mint (Part B 2.1): `permissions` may hold patterns such as `command:*`. */
export interface TaskRequest {
  task: string;
  permissions: string[];
  budget: number;
}

/**
 * The concrete codes a task token enforces (Part B 4.1): the patterns expanded against the catalogue, every one
 * of them within the agent's current authority. A pattern or code matching nothing known, a scope that expands
 * to nothing, or a code the agent does not hold is 403 naming the codes; nothing is silently dropped, so the
 * agent learns exactly what it asked for that it cannot have.
 */
export function taskScope(request: TaskRequest, authority: ReadonlySet<string>): string[] {
  if (request.task.trim() === '') throw unprocessable('task: must describe the task (not only spaces)');
  const { codes, unknown } = expandPermissionPatterns(request.permissions);
  if (unknown.length > 0) {
    throw forbidden(`Task permissions name nothing known: ${unknown.join(', ')}`);
  }
  if (codes.length === 0) throw forbidden('Task permissions expand to nothing known');
  const beyond = codes.filter((code) => !authority.has(code));
  if (beyond.length > 0) {
    throw forbidden(`Task permissions exceed the agent's authority: ${beyond.join(', ')}`);
  }
  return codes;
}
