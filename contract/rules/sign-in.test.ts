import { describe, expect, it } from 'vitest';
import { isIpAddressHost, passkeyAddressMessage, passwordSignInAllowed } from './sign-in';

describe('passwordSignInAllowed', () => {
  it.each([
    [false, false, true],
    [false, true, true],
    [true, false, false],
    [true, true, true],
  ])('single sign-on %s, break-glass %s → %s', (sso, breakGlass, allowed) => {
    expect(passwordSignInAllowed(sso, breakGlass)).toBe(allowed);
  });
});

describe('isIpAddressHost', () => {
  it.each([
    ['127.0.0.1', true],
    ['192.168.10.20', true],
    ['[::1]', true],
    ['::1', true],
    ['[2001:db8::7]', true],
    ['localhost', false],
    ['vigia.example.co', false],
    ['999.1.1.1', false],
    ['cafe', false],
  ])('%s → %s', (host, ip) => {
    expect(isIpAddressHost(host)).toBe(ip);
  });

  it('names the address in the message', () => {
    expect(passkeyAddressMessage('127.0.0.1')).toContain('(127.0.0.1)');
  });
});
