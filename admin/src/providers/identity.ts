import { useGetIdentity } from '@refinedev/core';
import type { Session } from '../contract';
import { readSession } from '../session';

/**
 * How long the signed-in user's profile (GET /me) is taken as read. Refine's useGetIdentity has
 * react-query's staleTime of 0: every screen that mounted after the first answer read /me again,
 * so the patient page read it twice before its charts (the layout's toolbar, then the page; issue
 * 52). The profile changes with a new sign-in, and Refine's login and logout drop the auth cache.
 */
const IDENTITY_FRESH_MS = 5 * 60_000;

/** The signed-in user, one read of /me a page load shared by every screen; the stored session meanwhile. */
export function useStaffIdentity(): Session | null {
  const { data } = useGetIdentity<Session>({ queryOptions: { staleTime: IDENTITY_FRESH_MS } });
  return data ?? readSession();
}
