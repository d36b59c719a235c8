import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A system that reads the organisation's FHIR data with its own keys (issue 37; migration 0029). */
export class ApiClient extends Model<InferAttributes<ApiClient>, InferCreationAttributes<ApiClient>> {
  declare id: CreationOptional<number>;
  /** The organisation. */
  declare client_id: number;
  /** The public client id the system signs with (`iss` = `sub`); the API calls it `client_id`. */
  declare public_id: string;
  declare name: string;
  /** A pasted JWKS, as JSON text. */
  declare jwks: string | null;
  declare jwks_url: string | null;
  /** A JSON list of SMART v2 system scopes. */
  declare scopes: string;
  declare status: CreationOptional<string>;
  declare last_token_at: CreationOptional<Date | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    ApiClient.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        public_id: { type: DataTypes.STRING(64), allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        jwks: { type: DataTypes.TEXT, allowNull: true },
        jwks_url: { type: DataTypes.STRING(500), allowNull: true },
        scopes: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.STRING(20), allowNull: false, defaultValue: 'active' },
        last_token_at: { type: DataTypes.DATE, allowNull: true },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'api_clients', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
