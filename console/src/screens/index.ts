import { screens as account } from './account';
import { screens as agents } from './agents';
import { screens as apiKeys } from './api-keys';
import { screens as approvals } from './approvals';
import { screens as autonomy } from './autonomy';
import { screens as command } from './command';
import { screens as content } from './content';
import { screens as domains } from './domains';
import { screens as mcpGateway } from './mcp-gateway';
import { screens as members } from './members';
import { screens as oauth } from './oauth';
import { screens as operatorDistribution } from './operator-distribution';
import { screens as operatorInviteCodes } from './operator-invite-codes';
import { screens as operatorPricing } from './operator-pricing';
import { screens as operatorTenants } from './operator-tenants';
import { screens as overview } from './overview';
import { screens as privacy } from './privacy';
import { screens as roles } from './roles';
import { screens as scim } from './scim';
import { screens as orgSettings } from './settings';
import { screens as sso } from './sso';
import type { ScreenDef } from './types';
import { screens as webhooks } from './webhooks';

export type { ScreenDef } from './types';

/** Every screen of the console, one import per area, in navigation order (groups keep first-seen order). */
export const allScreens: ScreenDef[] = [
  ...overview,
  ...members,
  ...domains,
  ...roles,
  ...orgSettings,
  ...privacy,
  ...account,
  ...agents,
  ...approvals,
  ...mcpGateway,
  ...content,
  ...command,
  ...autonomy,
  ...apiKeys,
  ...webhooks,
  ...oauth,
  ...sso,
  ...scim,
  ...operatorTenants,
  ...operatorInviteCodes,
  ...operatorDistribution,
  ...operatorPricing,
];
