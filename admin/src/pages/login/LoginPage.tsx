import { useEffect, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { Alert, Button, Form, Input } from 'antd';
import {
  BellOutlined,
  FacebookFilled,
  GlobalOutlined,
  HeartOutlined,
  InstagramFilled,
  LinkedinFilled,
  LockOutlined,
  MailOutlined,
  RobotOutlined,
  YoutubeFilled,
} from '@ant-design/icons';
import { validateEmail, validateLoginPassword } from '@vigia/contract/rules/validation';
import { PROVIDER_LINKS } from '../../constants';
import { VigiaLogo } from '../../layout/Logo';
import type { Session } from '../../contract';
import { authProvider, signedIn, type LoginParams, type SignInChallenge } from '../../providers/auth';
import { notify } from '../../providers/notification';
import { peekLogoutMessage, peekLogoutReason, readToken, takeLogoutReason, type LogoutReason } from '../../session';
import { EnrolmentStep } from './EnrolmentStep';
import { ForgotPasswordDialog } from './ForgotPasswordDialog';
import { SecondFactorStep } from './SecondFactorStep';
import { fromValidator } from './login-rules';
import './login.css';

const LOGOUT_NOTICES: Record<LogoutReason, string> = {
  expired: 'Su sesión expiró. Inicie sesión de nuevo para continuar donde estaba.',
  inactive: 'Cerramos su sesión tras 3 horas sin actividad. Inicie sesión de nuevo para continuar.',
  // The API says why (another session of the account, an administrator, a new password).
  ended: 'Su sesión fue cerrada. Inicie sesión de nuevo.',
};

const TAGLINE = 'Monitoree a sus pacientes de forma remota, en tiempo real';

const FEATURES = [
  { icon: <HeartOutlined />, text: 'Signos vitales de sus pacientes desde casa, en un solo lugar' },
  { icon: <BellOutlined />, text: 'Alertas al instante cuando una medición sale del rango' },
  { icon: <RobotOutlined />, text: 'Glady IA acompaña a sus pacientes y le avisa a tiempo' },
];

const SOCIAL = [
  { href: PROVIDER_LINKS.facebook, label: 'Facebook', icon: <FacebookFilled /> },
  { href: PROVIDER_LINKS.instagram, label: 'Instagram', icon: <InstagramFilled /> },
  { href: PROVIDER_LINKS.linkedin, label: 'LinkedIn', icon: <LinkedinFilled /> },
  { href: PROVIDER_LINKS.youtube, label: 'YouTube', icon: <YoutubeFilled /> },
];

function ProviderLinks() {
  return (
    <nav className="login-links" aria-label="Vigía en internet">
      <a href={PROVIDER_LINKS.site} target="_blank" rel="noopener noreferrer" className="login-site">
        <GlobalOutlined /> vigia.co
      </a>
      <span className="login-social">
        {SOCIAL.map((s) => (
          <a key={s.label} href={s.href} target="_blank" rel="noopener noreferrer" aria-label={s.label} title={s.label}>
            {s.icon}
          </a>
        ))}
      </span>
    </nav>
  );
}

/** Staff login at / (03 §2, §5). */
export default function LoginPage() {
  const [form] = Form.useForm<LoginParams>();
  const email = Form.useWatch('email', form);
  const password = Form.useWatch('password', form);
  const [serverError, setServerError] = useState<string | null>(null);
  // The password was right but the organisation signs in through its provider (403 sso_required, issue 49).
  const [ssoRequired, setSsoRequired] = useState(false);
  const [isPending, setPending] = useState(false);
  const [logoutReason] = useState(peekLogoutReason);
  const [logoutMessage] = useState(peekLogoutMessage);
  const [forgotOpen, setForgotOpen] = useState(false);
  // While the recovery dialog is open (and as it takes the focus) the login's fields are not checked
  // on blur (issue 50: the e-mail turned red behind the dialog): the user went to recover, not to sign in.
  const blurCheck = forgotOpen ? [] : 'onBlur';
  // Issue 38: the password was right and a second step is due; its token lives only here.
  const [challenge, setChallenge] = useState<SignInChallenge | null>(null);
  useEffect(() => {
    takeLogoutReason();
  }, []);
  const navigate = useNavigate();

  // Checked once on arrival: after a successful login the submit handler decides where to go.
  const [alreadyLoggedIn] = useState(() => Boolean(readToken()));
  if (alreadyLoggedIn) return <Navigate to="/dashboard" replace />;

  const filled = Boolean(email?.trim()) && Boolean(password);

  // What Refine's useLogin does, without loading Refine on this page: notify, then redirect.
  const enter = (result: Awaited<ReturnType<typeof authProvider.login>>) => {
    if (result.successNotification) notify.success(result.successNotification.message);
    navigate(result.redirectTo ?? '/dashboard', { replace: true });
  };
  const finishSecondStep = (session: Session) => enter(signedIn(session));
  /** Back to the password: 'Volver', or the intermediate token expired (`message` says so). */
  const restart = (message?: string) => {
    setChallenge(null);
    setServerError(message ?? null);
  };

  const submit = async (values: LoginParams) => {
    setServerError(null);
    setPending(true);
    const result = await authProvider.login(values);
    setPending(false);
    if (result.success) {
      enter(result);
      return;
    }
    if (result.challenge) {
      form.resetFields(['password']);
      setChallenge(result.challenge);
      return;
    }
    const message = result.error?.message ?? 'No fue posible iniciar sesión';
    setSsoRequired((result.error as { statusCode?: number } | undefined)?.statusCode === 403);
    setServerError(message);
    notify.error(result.error?.name ?? 'No fue posible iniciar sesión', message);
  };

  return (
    <div className="login-page">
      <aside className="login-brand">
        <div className="login-brand-inner">
          <VigiaLogo size={44} light caption="Monitoreo remoto de pacientes" />
          <h1 className="login-tagline">{TAGLINE}</h1>
          <ul className="login-features">
            {FEATURES.map((f) => (
              <li key={f.text}>
                <span className="login-feature-icon">{f.icon}</span>
                {f.text}
              </li>
            ))}
          </ul>
          <ProviderLinks />
        </div>
      </aside>

      <main className="login-main">
        <div className="login-card">
          {challenge?.step === 'second_factor' && (
            <SecondFactorStep challenge={challenge} onSignedIn={finishSecondStep} onRestart={restart} />
          )}
          {challenge?.step === 'enrolment' && <EnrolmentStep challenge={challenge} onSignedIn={finishSecondStep} onRestart={restart} />}
          <div hidden={Boolean(challenge)}>
            <h2 className="login-title">Iniciar sesión</h2>
            <p className="login-subtitle">Ingrese con el correo y la contraseña de su cuenta de Vigía.</p>

            {logoutReason && !serverError && (
              <Alert
                type="warning"
                showIcon
                message={(logoutReason === 'ended' && logoutMessage) || LOGOUT_NOTICES[logoutReason]}
                className="login-error"
              />
            )}

            {serverError && (
              <Alert
                type="error"
                showIcon
                role="alert"
                message={serverError}
                description={ssoRequired ? <Link to="/login">Ingresar con el proveedor de identidad</Link> : undefined}
                className="login-error"
                closable
                onClose={() => setServerError(null)}
              />
            )}

            <Form<LoginParams>
              form={form}
              layout="vertical"
              requiredMark={false}
              onFinish={submit}
              onValuesChange={() => serverError && setServerError(null)}
              disabled={isPending}
              size="large"
            >
              <Form.Item
                name="email"
                label="Correo electrónico"
                validateTrigger={blurCheck}
                rules={[fromValidator((v) => validateEmail(v, true))]}
              >
                <Input
                  prefix={<MailOutlined />}
                  type="email"
                  inputMode="email"
                  autoComplete="username"
                  placeholder="nombre@institucion.com"
                  autoFocus
                />
              </Form.Item>
              <Form.Item name="password" label="Contraseña" validateTrigger={blurCheck} rules={[fromValidator(validateLoginPassword)]}>
                <Input.Password
                  prefix={<LockOutlined />}
                  autoComplete="current-password"
                  placeholder="Su contraseña"
                  iconRender={(visible) => (
                    <span role="button" aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}>
                      {visible ? 'Ocultar' : 'Mostrar'}
                    </span>
                  )}
                />
              </Form.Item>
              <div className="login-forgot">
                <Button
                  type="link"
                  size="small"
                  // The press keeps the focus in the field, so leaving it for the dialog is not a blur that checks it.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => setForgotOpen(true)}
                >
                  ¿Olvidó su contraseña?
                </Button>
              </div>
              <Button type="primary" htmlType="submit" block loading={isPending} disabled={!filled}>
                Iniciar sesión
              </Button>
            </Form>
            <ForgotPasswordDialog
              open={forgotOpen}
              initialEmail={email}
              onClose={() => {
                setForgotOpen(false);
                // Opening the dialog left the login's fields, whose blur asked for them: not a mistake of the user's.
                form.setFields([
                  { name: 'email', errors: [] },
                  { name: 'password', errors: [] },
                ]);
              }}
            />

            <div className="login-patient">
              ¿Es paciente? <a href="/login_patient">Ingrese al portal del paciente</a>
            </div>
          </div>
        </div>
        <div className="login-mobile-links">
          <ProviderLinks />
        </div>
      </main>
    </div>
  );
}
