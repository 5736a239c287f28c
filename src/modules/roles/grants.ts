import { hasPermission, type Principal } from '../../kernel/auth/index.js';
import { isKnownPermission } from '../../kernel/authz/catalog.js';

/**
 * Whether `principal` may put `code` into a role it writes or gives (a custom role's definition, a member's or an
 * invitation's role), so nobody hands out more than they hold: a code they hold; a code over one's own record
 * (`identity:self:…`, every member's baseline, no power over anyone else); or a code outside the catalogue, which
 * only the organization's own bound OAuth resources declare (manifests, Part B 2.4), with `tenant:manage`: no
 * system role holds such a code, and `tenant:manage` is what configures the organization's OAuth resources.
 * Whether a non-catalogue code is declared at all is checked where a role is written (the roles service).
 */
export const mayGrant = (principal: Principal, code: string): boolean =>
  code.startsWith('identity:self:') ||
  hasPermission(principal, code) ||
  (!isKnownPermission(code) && hasPermission(principal, 'tenant:manage'));
