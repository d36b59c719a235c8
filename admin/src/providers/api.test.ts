import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiRequest } from './api';

/** The session client (login page): typed like the screens' calls, a fetch underneath. */
describe('apiRequest', () => {
  afterEach(() => vi.unstubAllGlobals());

  const answer = (status: number, body: unknown) => vi.fn().mockResolvedValue(new Response(JSON.stringify(body), { status }));

  it('sends the method, the filled path, the body and no token when told none', async () => {
    const fetch = answer(200, { message: 'Contraseña actualizada' });
    vi.stubGlobal('fetch', fetch);
    const res = await apiRequest('put', '/password_resets/{token}', {
      params: { token: 'ab/c' },
      values: { password: 'Clave-Segura-2024', password_confirmation: 'Clave-Segura-2024' },
      token: null,
    });
    expect(res).toEqual({ message: 'Contraseña actualizada' });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/v1/password_resets/ab%2Fc');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(init.body as string)).toEqual({ password: 'Clave-Segura-2024', password_confirmation: 'Clave-Segura-2024' });
    expect((init.headers as Record<string, string>).Authorization).toBeUndefined();
  });

  it("answers a sign-in's 202 challenge as well as its session, and rejects with the server's message", async () => {
    vi.stubGlobal('fetch', answer(202, { step: 'second_factor', token: 't' }));
    const challenge = await apiRequest('post', '/sessions', { values: { email: 'a@b.co', password: 'x' }, token: 'old' });
    expect('step' in challenge && challenge.step).toBe('second_factor');
    vi.stubGlobal('fetch', answer(401, { code: 'invalid_credentials', message: 'Credenciales inválidas' }));
    await expect(apiRequest('post', '/sessions', { values: { email: 'a@b.co', password: 'x' } })).rejects.toMatchObject({
      statusCode: 401,
      message: 'Credenciales inválidas',
    });
  });

  it('refuses, at compile time, a body the operation does not take and a missing parameter', async () => {
    vi.stubGlobal('fetch', answer(200, {}));
    // @ts-expect-error: /password_resets takes an e-mail, not a name
    void apiRequest('post', '/password_resets', { values: { name: 'x' } });
    // @ts-expect-error: the reset token is a path parameter
    await expect(apiRequest('put', '/password_resets/{token}', { values: { password: 'a', password_confirmation: 'a' } })).rejects.toThrow(
      'Missing path parameter token',
    );
  });
});
