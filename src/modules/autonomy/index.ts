// Autonomous response (Part B 1.7, 2.8, 4.9): the engine fed by detections, the decisions ledger, its worker,
// the kill switch, metrics, graduation and the drill. What the app wires.

import { newId } from '../../kernel/ids.js';
import { LEVEL_CHANGE_DETECTION, RESPONSE_CLASSES } from './catalogue.js';
import type { AutonomyDeps } from './deps.js';
import { createDrill } from './drill.js';
import { createAutonomyEngine } from './engine.js';
import { createAutonomyInsight } from './insight.js';
import { createKillSwitch } from './kill-switch.js';
import { createAutonomyService } from './service.js';

export type { AutonomyDeps } from './deps.js';
export { registerAutonomyRoutes } from './routes.js';

/**
 * Builds the module and plugs it in: the kernel's detection hook feeds the ledger, and the settings tie makes
 * `autonomy.disabled_until` the kill switch (needs `autonomy:disable`, raises the critical detection) and the
 * level keys need `autonomy:manage`.
 */
export function createAutonomy(deps: AutonomyDeps) {
  const killSwitch = createKillSwitch(deps);
  const engine = createAutonomyEngine(deps, killSwitch);
  const service = createAutonomyService(deps, engine, killSwitch);
  const insight = createAutonomyInsight(deps);
  const drill = createDrill(deps, killSwitch);
  deps.settings.tie('autonomy.disabled_until', killSwitch.tie());
  for (const cls of RESPONSE_CLASSES) {
    deps.settings.tie(`autonomy.level_${cls}`, {
      permission: 'autonomy:manage',
      // Part B 6.3: each autonomy change is a detection (severity high: it widens or narrows what runs alone).
      async changed(tx, change) {
        const data = { blast_class: cls, previous: change.previous, level: change.next, by: change.actor };
        await deps.events.detect(tx, {
          tenantId: change.tenantId,
          ruleId: LEVEL_CHANGE_DETECTION,
          groupKey: `autonomy:level:${newId()}`,
          severity: 'high',
          data,
        });
      },
    });
  }
  deps.events.onDetection(async (detection) => {
    try {
      await engine.ingest(detection);
    } catch (error) {
      // The worker's backstop records it on its next run (detections without a decision).
      deps.logger.error({ err: error, detection_id: detection.id }, 'autonomy: recording a decision failed');
    }
  });
  return { engine, service, killSwitch, insight, drill };
}

export type Autonomy = ReturnType<typeof createAutonomy>;

/** The autonomy worker: executes `executing` decisions (SKIP LOCKED) and records missed detections. */
export const autonomyJob = {
  name: 'autonomy',
  intervalMs: 1000,
  async run(deps: { autonomy: Autonomy }): Promise<void> {
    await deps.autonomy.engine.runDue();
  },
};
