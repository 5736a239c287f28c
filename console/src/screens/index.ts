import { screens as account } from './account';
import { screens as overview } from './overview';
import type { ScreenDef } from './types';

export type { ScreenDef } from './types';

/** Every screen of the console, one import per area, in navigation order (groups keep first-seen order). */
export const allScreens: ScreenDef[] = [...overview, ...account];
