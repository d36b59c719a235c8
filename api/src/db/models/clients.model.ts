import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class Client extends Model<InferAttributes<Client>, InferCreationAttributes<Client>> {
  declare id: CreationOptional<number>;
  declare name: string;
  declare logo_url: string | null;
  declare country_id: number;
  declare time_zone: string;
  declare clinical_elements: string[];
  declare multipatient: CreationOptional<boolean>;
  declare residents_enabled: CreationOptional<boolean>;
  declare residents_url: string | null;
  declare residents_user: string | null;
  declare residents_password: string | null;
  declare have_metabase: CreationOptional<boolean>;
  declare metabase_url: string | null;
  declare webhook_url: string | null;
  declare security_phrase: string | null;
  /** The contract's `validate` flag (D2). */
  declare webhook_validated: CreationOptional<boolean>;
  declare webhook_measurements: CreationOptional<boolean>;
  declare webhook_alerts: CreationOptional<boolean>;
  /** Consecutive failed delivery attempts and when that streak began (D19 off-switch). */
  declare webhook_failures: CreationOptional<number>;
  declare webhook_failing_since: CreationOptional<Date | null>;
  declare webhook_disabled_at: CreationOptional<Date | null>;
  declare webhook_disabled_reason: CreationOptional<string | null>;
  /** Minutes without an entry before a high-priority alert is escalated (issue 20, default 30). */
  declare escalation_minutes: CreationOptional<number>;
  declare message_full_name: CreationOptional<boolean>;
  declare message_rule_name: CreationOptional<boolean>;
  /** Roles that must have a second factor, as a JSON list (issue 38; '[]' = none). */
  declare second_factor_roles: CreationOptional<string>;
  /** 'Priorización' thresholds, window and weights as JSON; null = the defaults (issue 21). */
  declare triage_settings: CreationOptional<string | null>;
  // RDA (issue 51): the provider's identifiers, class, nature, level and address.
  declare nit: CreationOptional<string | null>;
  declare reps_code: CreationOptional<string | null>;
  declare provider_class: CreationOptional<string | null>;
  declare legal_nature: CreationOptional<string | null>;
  declare care_level: CreationOptional<string | null>;
  declare address: CreationOptional<string | null>;
  declare city_id: CreationOptional<number | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Client.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        name: { type: DataTypes.STRING(120), allowNull: false },
        logo_url: DataTypes.STRING(500),
        country_id: { type: DataTypes.INTEGER, allowNull: false },
        time_zone: { type: DataTypes.STRING(64), allowNull: false },
        clinical_elements: { type: DataTypes.JSON, allowNull: false },
        multipatient: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        residents_enabled: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        residents_url: DataTypes.STRING(500),
        residents_user: DataTypes.STRING(120),
        residents_password: DataTypes.TEXT,
        have_metabase: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        metabase_url: DataTypes.STRING(500),
        webhook_url: DataTypes.STRING(500),
        security_phrase: DataTypes.TEXT,
        webhook_validated: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        webhook_measurements: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        webhook_alerts: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        webhook_failures: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        webhook_failing_since: DataTypes.DATE,
        webhook_disabled_at: DataTypes.DATE,
        webhook_disabled_reason: DataTypes.STRING(300),
        escalation_minutes: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 30 },
        message_full_name: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        message_rule_name: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        second_factor_roles: { type: DataTypes.STRING(100), allowNull: false, defaultValue: '[]' },
        triage_settings: DataTypes.TEXT,
        nit: DataTypes.STRING(10),
        reps_code: DataTypes.STRING(12),
        provider_class: DataTypes.STRING(5),
        legal_nature: DataTypes.STRING(5),
        care_level: DataTypes.STRING(2),
        address: DataTypes.STRING(200),
        city_id: DataTypes.INTEGER,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'clients', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}

/** A sede of the provider (RDA CareDeliveryLocationRDA): written by the clients module only. */
export class ClientSite extends Model<InferAttributes<ClientSite>, InferCreationAttributes<ClientSite>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare name: string;
  declare reps_site_code: string | null;
  declare address: string | null;
  declare city_id: number | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    ClientSite.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        reps_site_code: DataTypes.STRING(12),
        address: DataTypes.STRING(200),
        city_id: DataTypes.INTEGER,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'client_sites', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
