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
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'clients', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
