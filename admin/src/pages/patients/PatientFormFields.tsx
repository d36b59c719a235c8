import { lazy, Suspense, useEffect, useMemo, useRef } from 'react';
import { Col, Form, Input, Row, Skeleton, Typography, type FormInstance } from 'antd';
import { Select } from '../../crud/form-controls';
import dayjs, { type Dayjs } from 'dayjs';
import { DATE_MIN } from '@vigia/contract/rules/validation';
import { CitySelect } from '../../crud/CitySelect';
import { useCodeListing, useIdTypes, useListing, type Option } from '../../hooks/listings';
import { ListingsFailedAlert } from './ListingsFailedAlert';
import { exclusiveDisabilities, isoDay, PATIENT_FIELD_RULES, patientFormErrors, type PatientFormValues } from './patient-form';
import { COLOMBIA_ID } from './patient-status';

const DateInput = lazy(() => import('../../crud/date-input'));

type Field = keyof PatientFormValues;

const LABELS: Record<Field, string> = {
  country_id: 'País',
  id_type: 'Tipo de documento',
  nid: 'Número de documento',
  first_name: 'Nombres',
  last_name: 'Apellidos',
  city_id: 'Ciudad',
  birth_date: 'Fecha de nacimiento',
  gender: 'Género',
  address: 'Dirección',
  neighborhood: 'Barrio',
  prefix: 'Prefijo',
  cellphone: 'Teléfono',
  email: 'Correo electrónico',
  eapb_id: 'Aseguradora (EAPB)',
  regime: 'Régimen',
  blood_type: 'Tipo de sangre',
  rh_factor: 'Factor RH',
  biological_sex: 'Sexo biológico',
  gender_identity: 'Identidad de género',
  residence_zone: 'Zona de residencia',
  nationality: 'Nacionalidad',
  ethnicity: 'Etnia',
  ethnic_community: 'Comunidad étnica',
  disabilities: 'Discapacidad',
};

const UPPER: Field[] = ['first_name', 'last_name', 'address', 'neighborhood'];
const REQUIRED: Field[] = [
  'country_id',
  'id_type',
  'nid',
  'first_name',
  'last_name',
  'city_id',
  'birth_date',
  'gender',
  'address',
  'neighborhood',
  'prefix',
  'cellphone',
  'email',
];

export interface PatientFormState {
  values: PatientFormValues;
  nidRegex?: string;
  errors: Partial<Record<Field, string>>;
  valid: boolean;
  today: string;
}

/** Live values, the chosen id type's regex and the errors of the listed fields (Save is disabled while any, 01 §5). */
export function usePatientFormState(form: FormInstance<PatientFormValues>, fields: Field[]): PatientFormState {
  const watched = Form.useWatch((v: PatientFormValues) => v, form);
  const values = useMemo(() => (watched ?? {}) as PatientFormValues, [watched]);
  const idTypes = useIdTypes(values.country_id);
  const nidRegex = idTypes.find((t) => t.id === values.id_type)?.validation_regex;
  const today = isoDay(new Date());
  const shown = fields.filter((f) => (f === 'eapb_id' || f === 'regime' ? values.country_id === COLOMBIA_ID : true)).join();
  const errors = useMemo(
    () => patientFormErrors(values, shown ? (shown.split(',') as Field[]) : [], { nidRegex, today }),
    [values, shown, nidRegex, today],
  );
  return { values, nidRegex, errors, valid: Object.keys(errors).length === 0, today };
}

function BirthDateInput({ today, ...control }: { today: string; value?: Dayjs; onChange?: (v: Dayjs | null) => void; id?: string }) {
  return (
    <Suspense fallback={<Skeleton.Input active block />}>
      <DateInput
        {...control}
        placeholder="dd/mm/aaaa"
        disabledDate={(d: Dayjs) => d.isAfter(dayjs(today), 'day') || d.isBefore(dayjs(DATE_MIN), 'day')}
        allowClear={false}
      />
    </Suspense>
  );
}

/**
 * The patient form's fields (01 §2, §5), shared by the new-patient dialog and the edit dialogs:
 * id types and the id-number rule reload with the country, text is upper-cased as typed, insurer
 * and regime appear only for Colombia.
 */
export function PatientFormFields({
  form,
  fields,
  state,
  initialCity,
  lockedIdentity = false,
}: {
  form: FormInstance<PatientFormValues>;
  fields: Field[];
  state: PatientFormState;
  initialCity?: Option | null;
  lockedIdentity?: boolean;
}) {
  const { values, nidRegex, today } = state;
  const has = (f: Field) => fields.includes(f);
  const colombia = values.country_id === COLOMBIA_ID;
  const countries = useListing('countries', undefined, has('country_id'));
  const idTypes = useIdTypes(values.country_id);
  const genders = useListing('genders', undefined, has('gender'));
  const bloodTypes = useListing('blood_types', undefined, has('blood_type'));
  const rhFactors = useListing('rh_factors', undefined, has('rh_factor'));
  const regimes = useListing('regimes', undefined, has('regime') && colombia);
  const eapbs = useListing('eapbs', undefined, has('eapb_id') && colombia);
  const prefixListing = useListing('prefixes', undefined, has('prefix'));
  const rda = has('biological_sex');
  const biologicalSexes = useCodeListing('biological_sexes', rda);
  const genderIdentities = useCodeListing('gender_identities', rda);
  const residenceZones = useCodeListing('residence_zones', rda);
  const nationalities = useCodeListing('nationalities', rda);
  const ethnicities = useCodeListing('ethnicities', rda);
  const disabilities = useCodeListing('disabilities', rda);
  const prefixes = useMemo(() => {
    const seen = new Set<string>();
    return prefixListing
      .map((o) => ({ value: o.label.split(' ')[0], label: o.label }))
      .filter((o) => !seen.has(o.value) && seen.add(o.value))
      .sort((a, b) => a.label.localeCompare(b.label, 'es'));
  }, [prefixListing]);

  // A new country brings its own id types and cities (01 §5).
  const lastCountry = useRef(values.country_id);
  useEffect(() => {
    if (values.country_id === undefined || lastCountry.current === values.country_id) return;
    const previous = lastCountry.current;
    lastCountry.current = values.country_id;
    if (previous === undefined) return;
    if (has('city_id')) form.setFieldValue('city_id', null);
    if (values.country_id !== COLOMBIA_ID) form.setFieldsValue({ eapb_id: null, regime: null });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs on a change of country only; form and fields are fixed
  }, [values.country_id]);
  useEffect(() => {
    if (!idTypes.length || idTypes.some((t) => t.id === values.id_type)) return;
    form.setFieldValue('id_type', idTypes[0].id);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- runs when the country's id types arrive, not on every id type chosen
  }, [idTypes]);
  useEffect(() => {
    if (values.nid) form.validateFields(['nid']).catch(() => undefined);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- re-checks the number when the rule changes, not as it is typed
  }, [nidRegex]);

  const rule = (f: Field) => [
    {
      validator: () => {
        const message = PATIENT_FIELD_RULES[f](form.getFieldsValue(true) as PatientFormValues, { nidRegex, today });
        return message ? Promise.reject(new Error(message)) : Promise.resolve();
      },
    },
  ];
  const upper = (v: unknown) => (typeof v === 'string' ? v.toUpperCase() : v);
  const item = (f: Field, control: React.ReactNode, extra: Partial<React.ComponentProps<typeof Form.Item>> = {}, span = 12) =>
    has(f) && (
      <Col xs={24} sm={span} key={f}>
        <Form.Item
          name={f}
          label={LABELS[f]}
          required={REQUIRED.includes(f)}
          rules={rule(f)}
          validateFirst
          normalize={UPPER.includes(f) ? upper : undefined}
          {...extra}
        >
          {control}
        </Form.Item>
      </Col>
    );

  const select = (options: { value: number | string; label: string }[], more: Record<string, unknown> = {}) => (
    <Select options={options} showSearch optionFilterProp="label" placeholder="Seleccione" {...more} />
  );

  return (
    <Row gutter={16}>
      <Col span={24}>
        <ListingsFailedAlert />
      </Col>
      {item('country_id', select(countries, { disabled: lockedIdentity }), {}, 8)}
      {item(
        'id_type',
        select(
          idTypes.map((t) => ({ value: t.id, label: t.name })),
          { disabled: lockedIdentity || !values.country_id },
        ),
        {},
        8,
      )}
      {item(
        'nid',
        <Input disabled={lockedIdentity} inputMode="text" autoComplete="off" maxLength={20} placeholder="Sin puntos ni espacios" />,
        {
          dependencies: ['id_type', 'country_id'],
          normalize: upper,
        },
        8,
      )}
      {item('first_name', <Input maxLength={50} autoComplete="off" />)}
      {item('last_name', <Input maxLength={50} autoComplete="off" />)}
      {item('birth_date', <BirthDateInput today={today} />, {
        getValueProps: (v: unknown) => ({ value: v ? dayjs(String(v)) : undefined }),
        normalize: (v: Dayjs | null) => (v ? v.format('YYYY-MM-DD') : undefined),
      })}
      {item('gender', select(genders))}
      {item('blood_type', select(bloodTypes, { allowClear: true }), {}, 6)}
      {item('rh_factor', select(rhFactors, { allowClear: true }), {}, 6)}
      {colombia && item('eapb_id', select(eapbs, { allowClear: true }))}
      {colombia && item('regime', select(regimes, { allowClear: true }))}
      {item('city_id', <CitySelect countryId={values.country_id} initial={initialCity} />)}
      {item('neighborhood', <Input maxLength={200} autoComplete="off" />)}
      {item('address', <Input maxLength={200} autoComplete="off" />, {}, 24)}
      {item('prefix', select(prefixes), {}, 8)}
      {item('cellphone', <Input inputMode="numeric" maxLength={11} autoComplete="off" />, {}, 16)}
      {item('email', <Input type="email" inputMode="email" maxLength={254} autoComplete="off" />, {}, 24)}
      {rda && (
        <Col span={24}>
          <Typography.Title level={2} className="patients-form-section">
            Datos para el RDA (Resolución 1888)
          </Typography.Title>
          <Typography.Paragraph type="secondary">
            El Resumen Digital de Atención que se envía al Ministerio de Salud los pide; puede completarlos más tarde.
          </Typography.Paragraph>
        </Col>
      )}
      {item('biological_sex', select(biologicalSexes, { allowClear: true }))}
      {item('gender_identity', select(genderIdentities, { allowClear: true }))}
      {item('residence_zone', select(residenceZones, { allowClear: true }))}
      {item('nationality', select(nationalities, { allowClear: true, placeholder: 'Escriba para buscar el país' }))}
      {item('ethnicity', select(ethnicities, { allowClear: true }))}
      {values.ethnicity && item('ethnic_community', <Input maxLength={100} autoComplete="off" placeholder="Ej.: Wayuu" />)}
      {item(
        'disabilities',
        select(disabilities, { mode: 'multiple', allowClear: true, placeholder: 'Seleccione una o varias' }),
        {
          // 'Sin discapacidad' replaces the others and a disability replaces it (the API refuses both).
          normalize: (next: string[] | undefined, previous: string[] | undefined) => exclusiveDisabilities(previous ?? [], next ?? []),
        },
        24,
      )}
    </Row>
  );
}
