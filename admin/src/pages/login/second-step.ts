import { isHttpError, type VigiaHttpError } from '../../providers/errors';

/**
 * The intermediate token of the sign-in's second step expired, was spent or altered (issue 38):
 * the user goes back to the password, told why.
 */
export function tokenSpent(failure: unknown): failure is VigiaHttpError & { code: 'sign_in_token_invalid' } {
  return isHttpError(failure) && failure.code === 'sign_in_token_invalid';
}
