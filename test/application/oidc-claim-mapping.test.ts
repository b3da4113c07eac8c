import { describe, expect, it } from 'vitest';
import { signedInFromIdToken } from '../../application/identity/oidc-sign-in.js';

// Who a person signed in through an external OpenID provider is at the gateway: the ID token's claims mapped
// to a tenant, a principal and permissions (application/identity/oidc-sign-in.ts). The protocol around it is
// tested in test/adapters/inbound/oauth/oidc-federation.test.ts.

describe('claim mapping (signedInFromIdToken)', () => {
  const iss = 'https://login.example.com/tenant-1/v2.0';
  it('maps sub with the issuer, the tenant claim, the permissions claim, and the name', () => {
    expect(
      signedInFromIdToken(
        iss,
        { sub: 'u-1', tenant: 'acme', gateway_permissions: ['crm:read', 'bad perm', 7], email: 'u@x.example' },
        {},
      ),
    ).toEqual({
      tenant: 'acme',
      principalId: `oidc:${encodeURIComponent(iss)}:u-1`,
      name: 'u@x.example',
      permissions: ['crm:read'],
    });
  });
  it('a fixed tenant, a nested claim for permissions, the default list when the claim is absent', () => {
    const mapping = { tenant: 'globex', permissionsClaim: 'realm_access.roles', defaultPermissions: ['crm:read'] };
    expect(
      signedInFromIdToken(iss, { sub: 's', tenant: 'ignored!', realm_access: { roles: ['files:*'] } }, mapping),
    ).toMatchObject({ tenant: 'globex', permissions: ['files:*'] });
    expect(signedInFromIdToken(iss, { sub: 's' }, mapping)).toMatchObject({ permissions: ['crm:read'] });
    expect(signedInFromIdToken(iss, { sub: 's', org: 'initech' }, { tenantClaim: 'org' })).toMatchObject({
      tenant: 'initech',
      permissions: [],
    });
  });
  it('group names mapped to permissions (unknown groups give none)', () => {
    const mapping = {
      permissionsClaim: 'groups',
      permissionsByGroup: { 'sales-team': ['crm:read', 'crm:write'], admins: ['*'], constructor: ['*'] },
    };
    expect(
      signedInFromIdToken(iss, { sub: 's', tenant: 'acme', groups: ['sales-team', 'other'] }, mapping),
    ).toMatchObject({ permissions: ['crm:read', 'crm:write'] });
    expect(
      signedInFromIdToken(iss, { sub: 's', tenant: 'acme', groups: ['toString', 'hasOwnProperty'] }, mapping),
    ).toMatchObject({ permissions: [] });
  });
  it('refuses a missing subject and tenants that are not tenant ids', () => {
    expect(signedInFromIdToken(iss, { tenant: 'acme' }, {})).toHaveProperty('reason');
    for (const tenant of ['', 'a|b', 'acme:x', '-acme', 'x'.repeat(65), 42])
      expect(signedInFromIdToken(iss, { sub: 's', tenant }, {})).toHaveProperty('reason');
  });
});
