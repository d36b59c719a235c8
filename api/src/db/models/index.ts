import type { Sequelize } from 'sequelize';
import { Client, ClientSite } from './clients.model.js';
import { User } from './users.model.js';
import { Tag, PatientTag } from './tags.model.js';
import { Patient } from './patients.model.js';
import { Supply, Stock, Move } from './inventory.model.js';
import { Encounter, EncounterObservation } from './encounters.model.js';
import { Alarm } from './alarms.model.js';
import { Order } from './orders.model.js';
import { ApiClient } from './api-clients.model.js';
import { FhirExport } from './fhir-exports.model.js';

/** Registers every model on one Sequelize instance (a test app gets its own instance). */
export function initModels(sequelize: Sequelize) {
  for (const m of [Client, ClientSite, User, Tag, PatientTag, Patient]) m.initModel(sequelize);
  for (const m of [Supply, Stock, Move, Encounter, EncounterObservation, Alarm, Order, ApiClient, FhirExport]) m.initModel(sequelize);
  Patient.belongsToMany(Tag, { through: PatientTag, foreignKey: 'patient_id', otherKey: 'tag_id', as: 'tags' });
  Tag.belongsToMany(Patient, { through: PatientTag, foreignKey: 'tag_id', otherKey: 'patient_id', as: 'patients' });
  return { Client, User, Tag, PatientTag, Patient };
}
