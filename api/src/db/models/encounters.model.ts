import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class Encounter extends Model<InferAttributes<Encounter>, InferCreationAttributes<Encounter>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare patient_id: number;
  declare kind: string;
  declare status: string;
  declare checkout: Date | null;
  declare responsible: number | null;
  declare created_by: number | null;
  declare medication_id: number | null;
  declare stock_id: number | null;
  declare dose: string | null;
  declare management: string | null;
  declare vaccination_card: boolean | null;
  declare observations: string | null;
  declare dispositivo: string | null;
  // Teleconsultation only (migration 0039); null on the other kinds.
  declare modality: CreationOptional<string | null>;
  declare environment: CreationOptional<string | null>;
  declare reps_service: CreationOptional<string | null>;
  declare cups_code: CreationOptional<string | null>;
  declare external_cause: CreationOptional<string | null>;
  declare reason: CreationOptional<string | null>;
  declare findings: CreationOptional<string | null>;
  declare plan: CreationOptional<string | null>;
  declare medication_note: CreationOptional<string | null>;
  declare sick_leave_scope: CreationOptional<string | null>;
  declare sick_leave_days: CreationOptional<number | null>;
  declare site_id: CreationOptional<number | null>;
  declare alert_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Encounter.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        patient_id: { type: DataTypes.INTEGER, allowNull: false },
        kind: { type: DataTypes.STRING(20), allowNull: false },
        status: { type: DataTypes.STRING(20), allowNull: false },
        checkout: DataTypes.DATE,
        responsible: DataTypes.INTEGER,
        created_by: DataTypes.INTEGER,
        medication_id: DataTypes.INTEGER,
        stock_id: DataTypes.INTEGER,
        dose: DataTypes.STRING(30),
        management: DataTypes.STRING(400),
        vaccination_card: DataTypes.BOOLEAN,
        observations: DataTypes.TEXT,
        dispositivo: DataTypes.STRING(120),
        modality: DataTypes.STRING(2),
        environment: DataTypes.STRING(2),
        reps_service: DataTypes.STRING(5),
        cups_code: DataTypes.STRING(6),
        external_cause: DataTypes.STRING(2),
        reason: DataTypes.TEXT,
        findings: DataTypes.TEXT,
        plan: DataTypes.TEXT,
        medication_note: DataTypes.STRING(400),
        sick_leave_scope: DataTypes.STRING(2),
        sick_leave_days: DataTypes.INTEGER,
        site_id: DataTypes.INTEGER,
        alert_id: DataTypes.INTEGER,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'encounters', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}

export interface ObservationLog {
  date: string;
  datef: string;
  before: string;
  after: string;
}

export class EncounterObservation extends Model<InferAttributes<EncounterObservation>, InferCreationAttributes<EncounterObservation>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare encounter_id: number;
  declare patient_id: number;
  declare clinical_element: number;
  declare date: Date;
  declare source: CreationOptional<string>;
  declare value: string;
  declare logs_obs: ObservationLog[];
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    EncounterObservation.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        encounter_id: { type: DataTypes.INTEGER, allowNull: false },
        patient_id: { type: DataTypes.INTEGER, allowNull: false },
        clinical_element: { type: DataTypes.INTEGER, allowNull: false },
        date: { type: DataTypes.DATE, allowNull: false },
        source: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'staff' },
        value: { type: DataTypes.TEXT, allowNull: false },
        logs_obs: { type: DataTypes.JSON, allowNull: false, defaultValue: [] },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      {
        sequelize,
        tableName: 'encounter_observations',
        underscored: true,
        timestamps: true,
        createdAt: 'created_at',
        updatedAt: 'updated_at',
      },
    );
  }
}
