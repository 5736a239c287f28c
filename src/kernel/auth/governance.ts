import type { FastifyRequest } from 'fastify';
import type { Principal } from './principal.js';

/**
 * Agent governance as the guard sees it (Part B 4.2, ARCHITECTURE.md "One guard for agents"): for every agent
 * principal, after kind admission, the guard asks governance instead of checking the permission itself. The
 * agents module supplies the checks (kill switch, lifecycle, authority, risk ceiling, oversight, confidence,
 * task scope, budget, breaker, rate limit); the kernel only knows their shape and order.
 */
export interface GovernedAction {
  request: FastifyRequest;
  principal: Principal;
  /** The route's permission; undefined on the few routes that admit agents by kind without naming one. */
  permission: string | undefined;
  /** True when the route's permission is read-only or the method is GET/HEAD/OPTIONS. */
  readOnly: boolean;
  /**
   * A dry run (Part B 4.4): judged like the real action, so a spent budget refuses it too, but nothing is spent (no
   * budget unit, no breaker write). Callers pass `readOnly: true` with it.
   */
  dryRun?: boolean;
}

/** One named check; it refuses by throwing an HttpError and otherwise returns. */
export interface GovernanceCheck {
  name: string;
  check(action: GovernedAction): Promise<void>;
}

export interface Governance {
  forAgents(action: GovernedAction): Promise<void>;
  /**
   * Spends what `forAgents` found for an admitted action and keeps for last, a person's approval of it, once the
   * request is known valid: the guard calls it after the route's validation, in-process callers (the MCP server)
   * once they checked the arguments. Refuses like `forAgents` when it cannot (a concurrent identical retry spent the
   * approval first). A request refused in between (a 422) leaves the approval for the retry that runs.
   */
  afterValidation(request: FastifyRequest): Promise<void>;
}

/** What `runChecks` tells its caller about a refusal before passing it on: which check refused, and why. */
export type RefusalListener = (refusal: { check: string; error: unknown }, action: GovernedAction) => Promise<void>;

/**
 * Runs the checks in their order; the first refusal stops the rest (so a killed agent spends no budget) and is
 * thrown on unchanged, after `onRefusal` (if given) has seen it, e.g. to record it or count it for the breaker.
 */
export async function runChecks(
  checks: readonly GovernanceCheck[],
  action: GovernedAction,
  onRefusal?: RefusalListener,
): Promise<void> {
  for (const { name, check } of checks) {
    try {
      await check(action);
    } catch (error) {
      if (onRefusal) await onRefusal({ check: name, error }, action);
      throw error;
    }
  }
}
