import { Router } from 'express';
import { route } from '../../http/operations.js';
import { requestOtp, verifyOtp, type OtpDeps } from './otp.service.js';

/** Patient sign-in with a one-time code sent by SMS. */
export function otpRouter(deps: OtpDeps): Router {
  const r = Router();
  route(r, 'requestOtp', [], async (req, res) => {
    res.json(await requestOtp(deps, req.body.nid, req.ip ?? 'unknown'));
  });
  route(r, 'verifyOtp', [], async (req, res) => {
    res.json(await verifyOtp(deps, req.body.nid, req.body.otp_code, req.body.challenge_id));
  });
  return r;
}
