import { describe, expect, it } from 'vitest';
import { samePerson } from '../../application/connections/connect-link.js';
import { principalId } from '../../ports/authenticator.js';

// Who may use a connect link made for a caller (issue 43): the caller, or the same issuer's subject signed in
// through the OpenID provider of that issuer; nobody else.

const ISS = 'https://sso.example.com';

describe('samePerson', () => {
  it('the same principal', () => expect(samePerson('key:ops', 'key:ops')).toBe(true));
  it("a JWT's subject signed in through the same issuer's provider", () =>
    expect(samePerson(principalId('jwt', ISS, 'alice'), principalId('oidc', ISS, 'alice'))).toBe(true));
  it('another subject, another issuer, or the other way round', () => {
    expect(samePerson(principalId('jwt', ISS, 'alice'), principalId('oidc', ISS, 'bob'))).toBe(false);
    expect(samePerson(principalId('jwt', ISS, 'alice'), principalId('oidc', 'https://other.example', 'alice'))).toBe(
      false,
    );
    expect(samePerson(principalId('oidc', ISS, 'alice'), principalId('jwt', ISS, 'alice'))).toBe(false);
  });
  it('a client-credentials JWT is no person', () => {
    expect(samePerson(principalId('jwt', ISS, 'client', 'bot'), principalId('oidc', ISS, 'client:bot'))).toBe(false);
    expect(samePerson(principalId('jwt', ISS, 'client', 'bot'), principalId('oidc', ISS, 'client'))).toBe(false);
  });
});
