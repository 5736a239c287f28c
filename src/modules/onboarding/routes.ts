import type { Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../kernel/auth/index.js';
import { errors } from '../../kernel/http/index.js';
import type { Bootstrap } from './bootstrap.js';
import {
  BootstrapAnswer,
  BootstrapBody,
  BootstrapRefusal,
  InviteCodeList,
  InviteCodeParams,
  InviteCodeView,
  IssuedInviteCode,
  IssueInviteCodeBody,
  PollAnswer,
  PollBody,
  PollRefusal,
  PowAnswer,
} from './http-schemas.js';
import type { InviteCodes } from './invite-codes.js';

// Onboarding routes (Part B 4.5; ARCHITECTURE.md "Onboarding invite codes"). The agent's three routes are public
// and behind ONBOARD_BOOTSTRAP_ENABLED: while it is off the guard answers 404 on every method before the body is
// read, exactly like an unknown path. Invite codes are the platform operator's (`operator:manage`, platformOnly).

const flag = 'onboardBootstrapEnabled' as const;
const operator = { auth: 'user', permission: 'operator:manage', platformOnly: true } as const;
const operatorDoc = { tags: ['onboarding'], security: [{ bearer: [] }] };
const agentDoc = { tags: ['onboarding'] };
const INVITES = '/api/v1/operator/invite-codes';

export function registerOnboardingRoutes(
  app: FastifyInstance,
  deps: { inviteCodes: InviteCodes; bootstrap: Bootstrap },
): void {
  const { inviteCodes, bootstrap } = deps;

  app.post<{ Body: Static<typeof IssueInviteCodeBody> }>(
    INVITES,
    {
      config: operator,
      schema: {
        ...operatorDoc,
        summary: 'Issue an onboarding invite code bound to an address and a door (the code once)',
        body: IssueInviteCodeBody,
        response: { 201: IssuedInviteCode, ...errors(401, 403, 422, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await inviteCodes.issue(principalOf(request), request.body)),
  );

  app.get(
    INVITES,
    {
      config: operator,
      schema: {
        ...operatorDoc,
        summary: 'Onboarding invite codes, newest first, each with its state',
        response: { 200: InviteCodeList, ...errors(401, 403, 429) },
      },
    },
    async (request) => inviteCodes.list(principalOf(request)),
  );

  app.post<{ Params: Static<typeof InviteCodeParams> }>(
    `${INVITES}/:id/revoke`,
    {
      config: operator,
      schema: {
        ...operatorDoc,
        summary: 'Revoke an onboarding invite code (409 once revoked or consumed)',
        params: InviteCodeParams,
        response: { 200: InviteCodeView, ...errors(401, 403, 404, 409, 422, 429) },
      },
    },
    async (request) => inviteCodes.revoke(principalOf(request), request.params.id),
  );

  app.post<{ Body: Static<typeof BootstrapBody> }>(
    '/api/v1/onboard/bootstrap',
    {
      config: { auth: 'public', flag },
      schema: {
        ...agentDoc,
        summary: 'An agent asks to open an organization for a person (device flow)',
        description:
          'Needs `invite_code` while public sign-up is closed: every invite failure is one identical 403. A proof of work (`pow`) is needed once the per-IP or per-network budget is half spent (403 with `pow_required`). Disposable and mail-less email domains are 400; a manifest over 64 KiB or failing its schema is 422.',
        body: BootstrapBody,
        response: {
          201: BootstrapAnswer,
          400: BootstrapRefusal,
          403: BootstrapRefusal,
          409: BootstrapRefusal,
          422: BootstrapRefusal,
          429: BootstrapRefusal,
        },
      },
    },
    async (request, reply) => reply.code(201).send(await bootstrap.bootstrap(request.body, { ip: request.ip })),
  );

  app.post<{ Body: Static<typeof PollBody> }>(
    '/api/v1/onboard/poll',
    {
      config: { auth: 'public', flag },
      schema: {
        ...agentDoc,
        summary: 'The agent polls for the decision; the credential once on approval, then `consumed` forever',
        body: PollBody,
        response: { 200: PollAnswer, 404: PollRefusal, 410: PollRefusal, 422: PollRefusal, 429: PollRefusal },
      },
    },
    async (request) => bootstrap.poll(request.body.device_code, { ip: request.ip }),
  );

  app.post(
    '/api/v1/onboard/pow',
    {
      config: { auth: 'public', flag },
      schema: {
        ...agentDoc,
        summary: 'A single-use proof-of-work challenge',
        description: 'Solved by a `nonce` such that SHA-256 of `challenge.nonce` has `difficulty` leading zero bits.',
        response: { 200: PowAnswer, ...errors(429) },
      },
    },
    async (request) => bootstrap.pow({ ip: request.ip }),
  );
}
