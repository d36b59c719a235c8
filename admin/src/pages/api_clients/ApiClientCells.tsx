import { Tag, Typography } from 'antd';
import { scopeName } from './api-client-scopes';
import './api-clients.css';

/** The client id the integrator puts in `iss` and `sub`, with a copy button. */
export function ClientIdCell({ value }: { value: string }) {
  return (
    <Typography.Text code copyable={{ text: value, tooltips: ['Copiar Client ID', 'Copiado'] }} className="api-client-id">
      {value}
    </Typography.Text>
  );
}

/** The scopes as tags with their Spanish names; the SMART scope itself on hover. */
export function ScopesCell({ value }: { value: string[] }) {
  return (
    <span className="api-client-scopes">
      {value.map((scope) => (
        <Tag key={scope} title={scope}>
          {scopeName(scope)}
        </Tag>
      ))}
    </span>
  );
}
