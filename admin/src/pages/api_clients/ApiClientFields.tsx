import { Form, Input, Switch } from 'antd';
import { contractDoc } from '../../crud/contract-doc';
import { RadioGroup, Select } from '../../crud/form-controls';
import { describeField, objectSchema, REQUIRED_MESSAGE, toFormRules } from '../../crud/schema-rules';
import { KEYS_FROM_OPTIONS, readJwks, type KeysFrom } from './api-client-form';
import { SCOPE_OPTIONS } from './api-client-scopes';
import { exclusiveScopes, mixedScopesProblem } from '@vigia/contract/rules/scopes';
import './api-clients.css';

const required = { required: true, whitespace: true, message: REQUIRED_MESSAGE };
/** The contract's limits and messages for the URL and the scopes (https://, 1 to 10 distinct scopes). */
const URL_RULES = toFormRules(describeField(contractDoc, 'ApiClientInput', 'jwks_url'));
const SCOPE_RULES = toFormRules(describeField(contractDoc, 'ApiClientInput', 'scopes'));
const JWKS_SCHEMA = objectSchema(contractDoc, 'Jwks');

/** A client stored before the rule with both: said under the field, as the API would. */
const scopesRule = {
  validator: async (_rule: unknown, value: unknown) => {
    const problem = Array.isArray(value) ? mixedScopesProblem(value as string[]) : null;
    if (problem) throw new Error(problem);
  },
};

const jwksRule = {
  validator: async (_rule: unknown, value: unknown) => {
    if (typeof value !== 'string' || value.trim() === '') return;
    const read = readJwks(value, JWKS_SCHEMA);
    if ('problem' in read) throw new Error(read.problem);
  },
};

/**
 * The part of the 'Clientes de API' form (loaded with the form: it reads the contract) the declared fields cannot say (issue 37): the public keys
 * pasted or as a URL, the scopes with Spanish names, and 'Suspendido' as a switch over the status.
 */
export default function ApiClientFields({ action }: { action: 'create' | 'edit' }) {
  const keysFrom = (Form.useWatch('keys_from', Form.useFormInstance()) as KeysFrom | undefined) ?? 'jwks';
  return (
    <>
      <Form.Item name="keys_from" label="Claves públicas del sistema" initialValue={action === 'create' ? 'jwks' : undefined}>
        <RadioGroup options={KEYS_FROM_OPTIONS} optionType="button" buttonStyle="solid" />
      </Form.Item>
      {keysFrom === 'jwks' ? (
        <Form.Item
          name="jwks"
          label="JWKS (JSON)"
          rules={[required, jwksRule]}
          validateFirst
          extra="El JWK Set que entrega el integrador, con sus claves públicas (RSA, o EC P-256 / P-384). Nunca una clave privada."
        >
          <Input.TextArea
            className="api-client-jwks"
            autoSize={{ minRows: 4, maxRows: 10 }}
            spellCheck={false}
            placeholder='{"keys": [{"kty": "EC", "crv": "P-384", "x": "…", "y": "…"}]}'
          />
        </Form.Item>
      ) : (
        <Form.Item
          name="jwks_url"
          label="Dirección del JWKS (https://…)"
          rules={[required, ...URL_RULES]}
          validateFirst
          extra="Vigía descarga las claves de esta dirección y las guarda 5 minutos."
        >
          <Input type="url" inputMode="url" placeholder="https://sistema.ejemplo.co/.well-known/jwks.json" />
        </Form.Item>
      )}
      <Form.Item
        name="scopes"
        label="Datos que puede leer (scopes)"
        rules={[{ required: true, type: 'array', message: REQUIRED_MESSAGE }, ...SCOPE_RULES, scopesRule]}
        // 'Todas' or single types (issue 50): choosing one of the two takes the other away.
        normalize={(next: string[] | undefined, previous: string[] | undefined) => exclusiveScopes(previous ?? [], next ?? [])}
        extra="«Todas» incluye cada tipo de dato; elija «Todas» o los tipos concretos. El sistema pide los que necesita al obtener su token."
      >
        <Select mode="multiple" options={SCOPE_OPTIONS} placeholder="Elija uno o más" optionFilterProp="label" />
      </Form.Item>
      <Form.Item
        name="status"
        label="Suspendido"
        initialValue={action === 'create' ? 'active' : undefined}
        getValueProps={(value: unknown) => ({ checked: value === 'suspended' })}
        normalize={(checked: boolean) => (checked ? 'suspended' : 'active')}
        extra="Un cliente suspendido no obtiene tokens y los que ya tiene dejan de valer."
      >
        <Switch checkedChildren="Sí" unCheckedChildren="No" />
      </Form.Item>
    </>
  );
}
