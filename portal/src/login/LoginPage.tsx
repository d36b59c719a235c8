import { useState, type FormEvent } from 'react';
import { ApiError, apiRequest } from '../api';
import { PORTAL_PATH, navigate } from '../navigation';
import { saveSession } from '../session';
import type { OtpRequestInput, OtpRequested, OtpVerifyInput, PatientSessionAnswer } from '../types';
import { DEFAULT_CODE_LENGTH, DOCUMENT_MAX_LENGTH, LOGIN_MESSAGES, LOGIN_TEXT, validateCode, validateDocument } from './login.data';
import { Brand } from '../Brand';

interface Challenge {
  id: string;
  codeLength: number;
}

/** 429 and 400 carry a Spanish message meant for the user; the rest get ours. */
function messageFor(error: unknown, fallbackForRejection: string | null): string {
  if (error instanceof ApiError) {
    if (error.status === 0) return LOGIN_MESSAGES.unreachable;
    if (fallbackForRejection && (error.status === 400 || error.status === 401)) return fallbackForRejection;
    if (error.body?.message) return error.body.message;
  }
  return LOGIN_MESSAGES.unexpected;
}

function requestCode(nid: string): Promise<OtpRequested> {
  const body: OtpRequestInput = { nid };
  return apiRequest<OtpRequested>('POST', '/request_otp', { body });
}

export function LoginPage() {
  const [nid, setNid] = useState('');
  const [nidTouched, setNidTouched] = useState(false);
  const [challenge, setChallenge] = useState<Challenge | null>(null);
  const [code, setCode] = useState('');
  const [codeTouched, setCodeTouched] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const nidError = validateDocument(nid);
  const codeLength = challenge?.codeLength ?? DEFAULT_CODE_LENGTH;
  const codeError = validateCode(code, codeLength);

  async function askForCode(resend: boolean) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const answer = await requestCode(nid.trim());
      setChallenge({ id: answer.challenge_id, codeLength: answer.code_length || DEFAULT_CODE_LENGTH });
      setCode('');
      setCodeTouched(false);
      if (resend) setNotice(LOGIN_TEXT.resent);
    } catch (caught) {
      setError(messageFor(caught, null));
    } finally {
      setBusy(false);
    }
  }

  function submitDocument(event: FormEvent) {
    event.preventDefault();
    setNidTouched(true);
    if (nidError || busy) return;
    void askForCode(false);
  }

  async function submitCode(event: FormEvent) {
    event.preventDefault();
    setCodeTouched(true);
    if (!challenge || codeError || busy) return;
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const body: OtpVerifyInput = { nid: nid.trim(), otp_code: code, challenge_id: challenge.id };
      const answer = await apiRequest<PatientSessionAnswer>('POST', '/verify_otp', { body });
      saveSession({ token: answer.token, patient_id: answer.id });
      navigate(PORTAL_PATH);
    } catch (caught) {
      setError(messageFor(caught, LOGIN_MESSAGES.failedCheck));
      setBusy(false);
    }
  }

  function goBack() {
    setChallenge(null);
    setCode('');
    setCodeTouched(false);
    setError(null);
    setNotice(null);
  }

  const showNidError = nidTouched && nidError;
  const showCodeError = codeTouched && codeError;

  return (
    <div className="login">
      <header className="login__brand">
        <Brand />
      </header>
      <main className="card login__card">
        <h1 className="login__title">{LOGIN_TEXT.title}</h1>

        {!challenge ? (
          <form onSubmit={submitDocument} noValidate>
            <p className="lead">{LOGIN_TEXT.documentPrompt}</p>
            <div className="field">
              <label htmlFor="nid">{LOGIN_TEXT.documentLabel}</label>
              <input
                id="nid"
                name="nid"
                type="text"
                inputMode="text"
                autoComplete="username"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={DOCUMENT_MAX_LENGTH}
                value={nid}
                aria-invalid={showNidError ? true : undefined}
                aria-describedby={showNidError ? 'nid-error' : undefined}
                onChange={(event) => {
                  setNid(event.target.value);
                  setError(null);
                }}
                onBlur={() => setNidTouched(true)}
                autoFocus
              />
              {showNidError && (
                <p id="nid-error" className="field__error">
                  {nidError}
                </p>
              )}
            </div>
            {error && (
              <p className="alert" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="button button--primary" disabled={!!nidError || busy}>
              {busy ? LOGIN_TEXT.sending : LOGIN_TEXT.continue}
            </button>
          </form>
        ) : (
          <form onSubmit={submitCode} noValidate>
            <p className="login__document">
              {LOGIN_TEXT.documentLabel}: <strong>{nid.trim()}</strong>
            </p>
            <p className="lead">{LOGIN_TEXT.smsNotice}</p>
            <div className="field">
              <label htmlFor="otp_code">{LOGIN_TEXT.codeLabel}</label>
              <input
                id="otp_code"
                name="otp_code"
                className="input--code"
                type="text"
                inputMode="numeric"
                pattern="[0-9]*"
                autoComplete="one-time-code"
                maxLength={codeLength}
                value={code}
                aria-invalid={showCodeError ? true : undefined}
                aria-describedby={showCodeError ? 'otp-error' : undefined}
                onChange={(event) => {
                  setCode(event.target.value.replace(/\D/g, '').slice(0, codeLength));
                  setError(null);
                }}
                onBlur={() => setCodeTouched(true)}
                autoFocus
              />
              {showCodeError && (
                <p id="otp-error" className="field__error">
                  {codeError}
                </p>
              )}
            </div>
            <p className="login__resend">
              {LOGIN_TEXT.noCode}{' '}
              <button type="button" className="link" onClick={() => void askForCode(true)} disabled={busy}>
                {LOGIN_TEXT.resend}
              </button>
            </p>
            {error && (
              <p className="alert" role="alert">
                {error}
              </p>
            )}
            {notice && (
              <p className="notice" role="status">
                {notice}
              </p>
            )}
            <div className="login__actions">
              <button type="submit" className="button button--primary" disabled={!code || busy}>
                {busy ? LOGIN_TEXT.checking : LOGIN_TEXT.submit}
              </button>
              <button type="button" className="button button--secondary" onClick={goBack} disabled={busy}>
                {LOGIN_TEXT.back}
              </button>
            </div>
          </form>
        )}
      </main>
    </div>
  );
}
