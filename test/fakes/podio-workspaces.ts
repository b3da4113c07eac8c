import { InMemoryPodioAccount } from '../../adapters/outbound/memory/in-memory-podio-account.js';
import { InMemorySpaceDirectory } from '../../adapters/outbound/memory/in-memory-space-directory.js';
import {
  MEMBER_TYPES,
  PRIVACIES,
  SPACE_ROLES,
  type MemberType,
  type SpaceRole,
} from '../../domain/workspaces/space.js';
import type { Clock } from '../../ports/clock.js';
import { answerWith, refuse, type PodioReply, type PodioRouteRequest, type PodioServer } from './podio-server.js';

// Podio's organisation, space and space-member endpoints (developers.podio.com/doc) on the local stand-in, answering
// in Podio's shapes from an in-memory account. Request bodies are checked against the documented members;
// anything else is recorded in the server's violations.

type Json = Record<string, unknown>;

const isObject = (u: unknown): u is Json => typeof u === 'object' && u !== null && !Array.isArray(u);
const isIds = (u: unknown) => Array.isArray(u) && u.every((x) => Number.isSafeInteger(x) && x > 0);

export interface PodioWorkspaces {
  readonly account: InMemoryPodioAccount;
}

export const servePodioWorkspaces = (
  server: PodioServer,
  clock: Clock,
  account: InMemoryPodioAccount = InMemoryPodioAccount.withDemoData(),
): PodioWorkspaces => {
  const directory = new InMemorySpaceDirectory(account, clock);

  const run = answerWith;
  const bad = (req: PodioRouteRequest, problem: string): PodioReply => refuse(server, req, problem);
  const checkBody = (
    req: PodioRouteRequest,
    allowed: Record<string, (v: unknown) => boolean>,
    required: readonly string[],
  ): string | undefined => {
    if (!isObject(req.body)) return 'the body must be a JSON object';
    for (const [k, v] of Object.entries(req.body)) {
      const check = allowed[k];
      if (!check) return `unknown member "${k}"`;
      if (!check(v)) return `invalid value for "${k}"`;
    }
    const missing = required.find((k) => !(k in (req.body as Json)));
    return missing ? `"${missing}" is required` : undefined;
  };
  const bool = (v: unknown) => typeof v === 'boolean';
  const privacy = (v: unknown) => (PRIVACIES as readonly unknown[]).includes(v);
  const role = (v: unknown) => (SPACE_ROLES as readonly unknown[]).includes(v);
  const spaceId = (req: PodioRouteRequest) => Number(req.params['space_id']);
  const ids = (req: PodioRouteRequest) => (req.params['user_ids'] ?? '').split(',').map(Number);

  const route = (method: string, path: string, handler: (req: PodioRouteRequest) => Promise<PodioReply>) =>
    server.route(method, path, handler);

  route('GET', '/org/', async (req) =>
    run(req, directory.organisations(), (orgs) => ({
      status: 200,
      body: orgs.map((o) => ({
        org_id: o.org_id,
        name: o.name,
        url: o.url,
        url_label: o.url_label,
        type: 'free',
        spaces: o.spaces.map((s) => ({
          space_id: s.space_id,
          name: s.name,
          url: s.url,
          url_label: s.url.split('/').pop(),
          privacy: s.privacy,
          ...(s.role ? { role: s.role } : {}),
        })),
      })),
    })),
  );

  route('POST', '/space/', async (req) => {
    const problem = checkBody(
      req,
      {
        org_id: (v) => Number.isSafeInteger(v),
        name: (v) => typeof v === 'string' && v.trim() !== '',
        privacy,
        auto_join: bool,
        post_on_new_app: bool,
        post_on_new_member: bool,
      },
      ['org_id', 'name'],
    );
    if (problem) return bad(req, problem);
    const b = req.body as Json;
    return run(
      req,
      directory.createSpace({
        org_id: b['org_id'] as number,
        name: b['name'] as string,
        privacy: (b['privacy'] as 'open' | 'closed' | undefined) ?? 'closed',
        auto_join: (b['auto_join'] as boolean | undefined) ?? false,
        post_on_new_app: (b['post_on_new_app'] as boolean | undefined) ?? true,
        post_on_new_member: (b['post_on_new_member'] as boolean | undefined) ?? true,
      }),
      (c) => ({ status: 200, body: { space_id: c.space_id, url: c.url } }),
    );
  });

  route('GET', '/space/:space_id', async (req) =>
    run(req, directory.getSpace(spaceId(req)), (s) => ({
      status: 200,
      body: {
        space_id: s.space_id,
        name: s.name,
        url: s.url,
        url_label: s.url_label,
        privacy: s.privacy,
        auto_join: s.auto_join,
        post_on_new_app: s.post_on_new_app,
        post_on_new_member: s.post_on_new_member,
        type: s.type,
        created_on: s.created_on,
        created_by: s.created_by
          ? { type: 'user', id: s.created_by.user_id, name: s.created_by.name, avatar: null }
          : undefined,
        role: s.role ?? null,
        rights: s.rights ?? [],
        subscribed: true,
        org: { org_id: s.org_id, name: s.org_name, url: s.url.split('/').slice(0, -1).join('/') },
      },
    })),
  );

  route('PUT', '/space/:space_id', async (req) => {
    const problem = checkBody(
      req,
      {
        name: (v) => typeof v === 'string',
        privacy,
        auto_join: bool,
        url_label: (v) => typeof v === 'string',
        post_on_new_app: bool,
        post_on_new_member: bool,
      },
      [],
    );
    if (problem) return bad(req, problem);
    return run(req, directory.updateSpace(spaceId(req), req.body as Json), () => ({ status: 204 }));
  });

  route('DELETE', '/space/:space_id', async (req) =>
    run(req, directory.deleteSpace(spaceId(req)), () => ({ status: 204 })),
  );

  route('POST', '/space/:space_id/member/', async (req) => {
    const problem = checkBody(
      req,
      {
        role,
        message: (v) => typeof v === 'string',
        users: isIds,
        profiles: isIds,
        mails: (v) => Array.isArray(v) && v.every((m) => typeof m === 'string'),
        external_contacts: (v) => Array.isArray(v) && v.every(isObject),
        context_ref_type: (v) => typeof v === 'string',
        context_ref_id: (v) => Number.isSafeInteger(v),
        invite_context: (v) => typeof v === 'string',
      },
      ['role'],
    );
    if (problem) return bad(req, problem);
    const b = req.body as Json;
    return run(
      req,
      directory.addMembers(spaceId(req), {
        role: b['role'] as SpaceRole,
        users: (b['users'] as number[] | undefined) ?? [],
        profiles: (b['profiles'] as number[] | undefined) ?? [],
        mails: (b['mails'] as string[] | undefined) ?? [],
        message: b['message'] as string | undefined,
        external_contacts: b['external_contacts'] as Json[] | undefined,
      }),
      () => ({ status: 204 }),
    );
  });

  route('GET', '/space/:space_id/member/v2/', async (req) => {
    const type = req.query['member_type'];
    if (type !== undefined && !(MEMBER_TYPES as readonly string[]).includes(type))
      return bad(req, `member_type "${type}" is not one of ${MEMBER_TYPES.join(', ')}`);
    for (const k of Object.keys(req.query))
      if (!['member_type', 'query', 'limit', 'offset'].includes(k)) return bad(req, `unknown query parameter "${k}"`);
    return run(
      req,
      directory.members(spaceId(req), {
        member_type: type as MemberType | undefined,
        query: req.query['query'],
        limit: Number(req.query['limit'] ?? 100),
        offset: Number(req.query['offset'] ?? 0),
      }),
      (page) => ({
        status: 200,
        body: page.members.map((m) => ({
          role: m.role,
          employee: m.employee,
          is_partner: m.is_partner,
          grants: m.grants,
          invited_on: m.status === 'invited' ? '2026-03-10 09:00:00' : '2025-09-01 08:00:00',
          started_on: m.status === 'invited' ? null : '2025-09-01 08:00:00',
          ended_on: null,
          user: { user_id: m.profile.user_id },
          profile: {
            profile_id: m.profile.profile_id,
            user_id: m.profile.user_id,
            name: m.profile.name,
            mail: m.profile.mail,
            type: 'user',
            link: `https://podio.com/users/${m.profile.user_id}`,
          },
        })),
      }),
    );
  });

  route('PUT', '/space/:space_id/member/:user_ids', async (req) => {
    const problem = checkBody(req, { role }, ['role']);
    if (problem) return bad(req, problem);
    return run(req, directory.updateRoles(spaceId(req), ids(req), (req.body as Json)['role'] as SpaceRole), () => ({
      status: 204,
    }));
  });

  route('DELETE', '/space/:space_id/member/:user_ids', async (req) =>
    run(req, directory.endMemberships(spaceId(req), ids(req)), () => ({ status: 204 })),
  );

  return { account };
};
