import type { FC } from 'react';
import type { Session } from '../session';

/**
 * One screen of the console. `path` is below /console (`/members`; a screen may own sub-paths: `/members/:id`
 * matches when its path ends with `/*`, e.g. `/members/*`). `group` places it in the navigation. `visible` says
 * whether the signed-in person may see it (normally `s.can('<permission of its main GET>')`): navigation shows
 * only visible screens and a hidden screen's URL answers "not available".
 */
export interface ScreenDef {
  path: string;
  title: string;
  group: string;
  visible(s: Session): boolean;
  component: FC;
}
