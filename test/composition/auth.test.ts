import { describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator, sha256Hex } from '../../adapters/outbound/auth/api-key-authenticator.js';
import { isAllowed } from '../../application/runtime/define-tool.js';
import { principal } from '../../composition/gateway.js';

describe('API keys', () => {
  const auth = new ApiKeyAuthenticator([
    { name: 'plain', token: 'plain-token-123', permissions: ['crm:read'] },
    { name: 'hashed', sha256: sha256Hex('hashed-token-456'), permissions: ['*'] },
  ]);
  it('accepts a configured token or the token behind a configured hash', () => {
    expect(auth.find('plain-token-123')?.name).toBe('plain');
    expect(auth.find('hashed-token-456')?.name).toBe('hashed');
  });
  it('refuses anything else', () => {
    for (const t of ['', 'plain-token-12', 'plain-token-1234', sha256Hex('hashed-token-456')])
      expect(auth.authenticate(t)).toEqual({ reason: 'the token is not a known API key' });
  });
});

describe('permissions', () => {
  it.each([
    [['*'], 'files:destructive', true],
    [['crm:*'], 'crm:destructive', true],
    [['crm:*'], 'skiptrace:write', false],
    [['crm:read'], 'crm:read', true],
    [['crm:read'], 'crm:write', false],
    [['crm:write'], 'crm:destructive', false],
  ])('%j allows %s: %s', (perms, needed, expected) => {
    expect(isAllowed(principal('p', perms), needed)).toBe(expected);
  });
});
