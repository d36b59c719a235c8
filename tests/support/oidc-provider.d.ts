/** oidc-provider ships no types; the tests use it only as a loopback provider (tests/support/oidc.ts). */
declare module 'oidc-provider';
