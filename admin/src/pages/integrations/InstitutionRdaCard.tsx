import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useOne, useUpdate } from '@refinedev/core';
import { Button, Card, Col, Form, Input, Row, Space, Typography } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { Schemas } from '../../contract';
import { INSTITUTION_RDA_PATH } from '../../constants';
import { CitySelect } from '../../crud/CitySelect';
import { Select } from '../../crud/form-controls';
import { useCodeListing, type CodeOption } from '../../hooks/listings';
import { roleAccess } from '../../providers/access';
import { isHttpError } from '../../providers/errors';
import { serverError, success } from '../../providers/notices';
import { ReadStateView, useReadState } from '../../ui/ReadState';
import { fieldPath, institutionBody, institutionValues, type InstitutionValues } from './institution-form';

type Client = Schemas['Client'];

const ANCHOR = INSTITUTION_RDA_PATH.split('#')[1];

const codeSelect = (options: CodeOption[]) => (
  <Select options={options} showSearch optionFilterProp="label" allowClear placeholder="Seleccione" />
);

/**
 * 'Datos de la institución para el RDA' (issue 51, CareDeliveryOrganizationRDA and its sites): what
 * the national record needs of the provider. Administrators write it (the API's rule for
 * PUT /clients/:id); the sites are saved as one list, as the API replaces them.
 */
export function InstitutionRdaCard({ clientId }: { clientId: number }) {
  const access = roleAccess('administer');
  const { query, result } = useOne<Client>({ resource: 'clients', id: clientId, errorNotification: false });
  const client = result ?? null;
  const status = useReadState([query], false, 'los datos de la institución');
  const { mutate, mutation } = useUpdate<Client>();
  const [form] = Form.useForm<InstitutionValues>();
  const providerClasses = useCodeListing('provider_classes');
  const legalNatures = useCodeListing('legal_natures');
  const careLevels = useCodeListing('care_levels');
  const { hash } = useLocation();
  const card = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (client) form.setFieldsValue(institutionValues(client));
  }, [client, form]);
  // Reached from a teleconsultation's list of what the RDA lacks: the card comes into view.
  useEffect(() => {
    if (hash === `#${ANCHOR}` && client) card.current?.scrollIntoView({ block: 'start' });
  }, [hash, client]);

  const save = (values: InstitutionValues) =>
    mutate(
      {
        resource: 'clients',
        id: clientId,
        values: institutionBody(values),
        meta: { method: 'put' },
        successNotification: success('Datos de la institución guardados'),
        errorNotification: serverError('No fue posible guardar los datos de la institución'),
      },
      {
        // A 400 names its field, a site's too (`sites[1].name`): the message shows under that input.
        onError: (error) => {
          const errors = isHttpError(error) ? (error.errors ?? {}) : {};
          form.setFields(
            Object.entries(errors).map(([field, messages]) => ({
              name: fieldPath(field) as never,
              errors: Array.isArray(messages) ? messages.map(String) : [String(messages)],
            })),
          );
        },
      },
    );

  // A server's message goes once the field it names is changed (these fields have no rule that would re-check them).
  const clearServerErrors = (changed: Partial<InstitutionValues>) =>
    form.setFields(
      Object.entries(changed).flatMap(([name, value]) =>
        name === 'sites' && Array.isArray(value)
          ? value.flatMap((row, index) =>
              row ? Object.keys(row).map((key) => ({ name: ['sites', index, key] as never, errors: [] })) : [],
            )
          : [{ name: name as never, errors: [] }],
      ),
    );

  const siteCity = (index: number) => {
    const id = form.getFieldValue(['sites', index, 'id']) as number | undefined;
    const stored = client?.sites.find((s) => s.id === id);
    return stored?.city_id ? { value: stored.city_id, label: stored.city_name ?? '' } : null;
  };

  return (
    <div id={ANCHOR} ref={card} className="integrations-anchor">
      <Card title="Datos de la institución para el RDA" className="integrations-card">
        <Typography.Paragraph type="secondary">
          El Resumen Digital de Atención (Resolución 1888) identifica al prestador y a la sede donde se atiende. Complételos para que cada
          teleconsulta pueda enviarse al Ministerio de Salud.
        </Typography.Paragraph>
        <ReadStateView status={status}>
          <Form
            form={form}
            layout="vertical"
            onFinish={save}
            disabled={!access.allowed || !client}
            initialValues={{ sites: [] }}
            onValuesChange={clearServerErrors}
          >
            <Row gutter={16}>
              <Col xs={24} md={12}>
                <Form.Item name="nit" label="NIT" extra="Sin dígito de verificación.">
                  <Input inputMode="numeric" maxLength={10} autoComplete="off" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="reps_code" label="Código REPS del prestador">
                  <Input inputMode="numeric" maxLength={12} autoComplete="off" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="provider_class" label="Clase de prestador">
                  {codeSelect(providerClasses)}
                </Form.Item>
              </Col>
              <Col xs={24} sm={12} md={6}>
                <Form.Item name="legal_nature" label="Naturaleza jurídica">
                  {codeSelect(legalNatures)}
                </Form.Item>
              </Col>
              <Col xs={24} sm={12} md={6}>
                <Form.Item name="care_level" label="Nivel de atención">
                  {codeSelect(careLevels)}
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="address" label="Dirección">
                  <Input maxLength={200} autoComplete="off" />
                </Form.Item>
              </Col>
              <Col xs={24} md={12}>
                <Form.Item name="city_id" label="Municipio">
                  <CitySelect
                    placeholder="Busque el municipio"
                    countryId={client?.country_id}
                    initial={client?.city_id ? { value: client.city_id, label: client.city_name ?? '' } : null}
                  />
                </Form.Item>
              </Col>
            </Row>
            <Typography.Title level={2} className="integrations-subtitle">
              Sedes
            </Typography.Title>
            <Form.List name="sites">
              {(rows, { add, remove }) => (
                <>
                  {rows.length === 0 && <Typography.Paragraph type="secondary">Aún no hay sedes registradas.</Typography.Paragraph>}
                  {rows.map(({ key, name }) => (
                    <div key={key} className="integrations-site" role="group" aria-label={`Sede ${name + 1}`}>
                      <Form.Item name={[name, 'id']} hidden>
                        <Input />
                      </Form.Item>
                      <Row gutter={16}>
                        <Col xs={24} md={12}>
                          <Form.Item name={[name, 'name']} label="Nombre" rules={[{ required: true, message: 'Ingrese Nombre.' }]}>
                            <Input maxLength={100} autoComplete="off" />
                          </Form.Item>
                        </Col>
                        <Col xs={24} md={12}>
                          <Form.Item name={[name, 'reps_site_code']} label="Código REPS de la sede">
                            <Input inputMode="numeric" maxLength={12} autoComplete="off" />
                          </Form.Item>
                        </Col>
                        <Col xs={24} md={12}>
                          <Form.Item name={[name, 'address']} label="Dirección">
                            <Input maxLength={200} autoComplete="off" />
                          </Form.Item>
                        </Col>
                        <Col xs={24} md={12}>
                          <Form.Item name={[name, 'city_id']} label="Municipio">
                            <CitySelect countryId={client?.country_id} initial={siteCity(name)} placeholder="Busque el municipio" />
                          </Form.Item>
                        </Col>
                      </Row>
                      <Button danger icon={<DeleteOutlined />} onClick={() => remove(name)}>
                        Quitar sede
                      </Button>
                    </div>
                  ))}
                  <Form.Item>
                    <Button icon={<PlusOutlined />} onClick={() => add({ name: '', reps_site_code: '', address: '', city_id: null })}>
                      Agregar sede
                    </Button>
                  </Form.Item>
                </>
              )}
            </Form.List>
            <Space wrap>
              <Button type="primary" htmlType="submit" loading={mutation.isPending}>
                Guardar
              </Button>
              {!access.allowed && <Typography.Text type="secondary">{access.reason}</Typography.Text>}
            </Space>
          </Form>
        </ReadStateView>
      </Card>
    </div>
  );
}
