import { useState } from 'react';
import { Navigate } from 'react-router';
import { Alert, Button, Form, Input, Typography } from 'antd';
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
import { useLogin } from '@refinedev/core';
import { validateEmail, validateLoginPassword } from '../../../../contract/rules/validation';
import { PROVIDER_LINKS } from '../../constants';
import { VigiaLogo } from '../../layout/Logo';
import type { LoginParams } from '../../providers/auth';
import { readToken } from '../../session';
import './login.css';

const TAGLINE = 'Monitorea a tus pacientes de forma remota, en tiempo real';

const FEATURES = [
  { icon: <HeartOutlined />, text: 'Signos vitales de tus pacientes desde casa, en un solo lugar' },
  { icon: <BellOutlined />, text: 'Alertas al instante cuando una medición sale del rango' },
  { icon: <RobotOutlined />, text: 'Glady IA acompaña a tus pacientes y te avisa a tiempo' },
];

const SOCIAL = [
  { href: PROVIDER_LINKS.facebook, label: 'Facebook', icon: <FacebookFilled /> },
  { href: PROVIDER_LINKS.instagram, label: 'Instagram', icon: <InstagramFilled /> },
  { href: PROVIDER_LINKS.linkedin, label: 'LinkedIn', icon: <LinkedinFilled /> },
  { href: PROVIDER_LINKS.youtube, label: 'YouTube', icon: <YoutubeFilled /> },
];

/** antd rule from a shared validator (contract/rules/validation.ts). */
const fromValidator = (validate: (value: string) => string | null) => ({
  validator: async (_: unknown, value: string | undefined) => {
    const message = validate(value ?? '');
    if (message) throw new Error(message);
  },
});

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
  const { mutate: login, isPending } = useLogin<LoginParams>();

  if (readToken()) return <Navigate to="/dashboard" replace />;

  const filled = Boolean(email?.trim()) && Boolean(password);

  const submit = (values: LoginParams) => {
    setServerError(null);
    login(values, {
      onSuccess: (result) => {
        if (!result.success) setServerError(result.error?.message ?? 'No fue posible iniciar sesión');
      },
      onError: (error) => setServerError(error.message),
    });
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
          <Typography.Title level={2} className="login-title">
            Iniciar sesión
          </Typography.Title>
          <Typography.Paragraph type="secondary" className="login-subtitle">
            Ingresa con el correo y la contraseña de tu cuenta de Vigía.
          </Typography.Paragraph>

          {serverError && (
            <Alert
              type="error"
              showIcon
              role="alert"
              message={serverError}
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
              validateTrigger="onBlur"
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
            <Form.Item
              name="password"
              label="Contraseña"
              validateTrigger="onBlur"
              rules={[fromValidator(validateLoginPassword)]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                autoComplete="current-password"
                placeholder="Tu contraseña"
                iconRender={(visible) => (
                  <span role="button" aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}>
                    {visible ? 'Ocultar' : 'Mostrar'}
                  </span>
                )}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" block loading={isPending} disabled={!filled}>
              Iniciar sesión
            </Button>
          </Form>

          <div className="login-patient">
            ¿Eres paciente? <a href="/login_patient">Ingresa al portal del paciente</a>
          </div>
        </div>
        <div className="login-mobile-links">
          <ProviderLinks />
        </div>
      </main>
    </div>
  );
}
