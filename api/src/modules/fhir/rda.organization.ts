import {
  coding,
  extension,
  meta,
  rdaNaming,
  rdaSystem,
  V2_0203,
  type Json,
  type RdaCoded,
  type RdaOrganisation,
  type RdaPayer,
  type RdaSite,
} from './rda.profiles';

/**
 * The organisations of an RDA: the provider (CareDeliveryOrganizationRDA, NIT + REPS), its sede
 * (CareDeliveryLocationRDA) and the patient's EAPB (HealthBenefitPlanAdminOrganizationRDA). Vigía's
 * FHIR API serves no Organization, so there is no base mapping to add to.
 */

const ORG_IDS = rdaSystem('ColombianOrganizationIdentifiers');

function orgIdentifier(id: string, international: Json, colombian: Json, system: string, value: string, start?: string): Json {
  return {
    id,
    use: 'official',
    type: {
      coding: [
        { system: V2_0203, ...international },
        { system: ORG_IDS, ...colombian },
      ],
    },
    system,
    value,
    ...(start ? { period: { start } } : {}),
  };
}

const typeOf = (system: string, c?: RdaCoded): Json[] => (c ? [{ coding: [coding(rdaSystem(system), c)] }] : []);

const placeExt = (name: string, c?: RdaCoded): Json =>
  c ? { extension: [extension(name, { valueCoding: coding(rdaSystem('DIVIPOLA'), c) })] } : {};

export function rdaOrganization(o: RdaOrganisation, id: string): Json {
  const city = placeExt('ExtensionDivipolaMunicipality', o.address.city.divipola);
  const state = placeExt('ExtensionDivipolaDepartment', o.address.state.divipola);
  return {
    resourceType: 'Organization',
    id,
    meta: meta('CareDeliveryOrganizationRDA'),
    identifier: [
      orgIdentifier(
        'TaxIdentifier-0',
        { code: 'TAX', display: 'Tax ID number' },
        { code: 'NIT', display: 'Número de Identificación Tributaria' },
        rdaNaming('DIAN'),
        o.nit,
        o.registeredOn,
      ),
      orgIdentifier(
        'HealthcareProviderIdentifier-0',
        { code: 'PRN', display: 'Provider number' },
        { code: 'CodigoPrestador', display: 'Código de habilitación de prestador de servicios de salud' },
        rdaNaming('REPS'),
        o.repsCode,
        o.registeredOn,
      ),
    ],
    active: true,
    type: [
      ...typeOf('ColombianProviderClass', o.providerClass),
      ...typeOf('ColombianLegalNatureType', o.legalNature),
      ...typeOf('ColombianHealthcareLevel', o.careLevel),
    ],
    name: o.name,
    address: [
      {
        use: 'work',
        type: 'physical',
        text: o.address.text,
        city: o.address.city.name,
        ...(Object.keys(city).length ? { _city: city } : {}),
        state: o.address.state.name,
        ...(Object.keys(state).length ? { _state: state } : {}),
        country: 'CO',
      },
    ],
  };
}

export function rdaLocation(s: RdaSite, id: string, organisationRef: string): Json {
  return {
    resourceType: 'Location',
    id,
    meta: meta('CareDeliveryLocationRDA'),
    identifier: [{ use: 'official', system: rdaNaming('REPS'), value: s.repsCode }],
    status: 'active',
    name: s.name,
    mode: 'instance',
    managingOrganization: { reference: organisationRef },
  };
}

export function rdaPayer(p: RdaPayer, id: string): Json {
  return {
    resourceType: 'Organization',
    id,
    meta: meta('HealthBenefitPlanAdminOrganizationRDA'),
    identifier: [
      orgIdentifier(
        'EAPBSIdentifier-0',
        { code: 'NIIP', display: 'National Insurance Payor Identifier' },
        { code: 'EAPB', display: 'Entidad Administradora de Planes de Beneficios' },
        rdaNaming('EAPBS'),
        p.code,
      ),
    ],
    active: true,
    name: p.name,
  };
}
