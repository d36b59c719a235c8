import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** A FHIR Bulk Data export (issue 37; migration 0030). */
export class FhirExport extends Model<InferAttributes<FhirExport>, InferCreationAttributes<FhirExport>> {
  declare id: CreationOptional<number>;
  /** The organisation. */
  declare client_id: number;
  declare api_client_id: number | null;
  declare user_id: number | null;
  declare level: string;
  declare group_id: number | null;
  /** JSON list of FHIR types. */
  declare types: string;
  declare since: Date | null;
  declare request: string;
  declare status: string;
  declare transaction_time: Date;
  /** JSON list of { type, file, count } of the types already complete. */
  declare files: CreationOptional<string>;
  /** JSON list of the types already complete. */
  declare done_types: CreationOptional<string>;
  declare resources: CreationOptional<number>;
  declare progress: CreationOptional<string | null>;
  declare error: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;
  declare finished_at: CreationOptional<Date | null>;
  declare expires_at: CreationOptional<Date | null>;

  static initModel(sequelize: Sequelize) {
    FhirExport.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        api_client_id: { type: DataTypes.INTEGER, allowNull: true },
        user_id: { type: DataTypes.INTEGER, allowNull: true },
        level: { type: DataTypes.STRING(10), allowNull: false },
        group_id: { type: DataTypes.INTEGER, allowNull: true },
        types: { type: DataTypes.TEXT, allowNull: false },
        since: { type: DataTypes.DATE, allowNull: true },
        request: { type: DataTypes.TEXT, allowNull: false },
        status: { type: DataTypes.STRING(12), allowNull: false },
        transaction_time: { type: DataTypes.DATE, allowNull: false },
        files: { type: DataTypes.TEXT, allowNull: false, defaultValue: '[]' },
        done_types: { type: DataTypes.TEXT, allowNull: false, defaultValue: '[]' },
        resources: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        progress: { type: DataTypes.STRING(200), allowNull: true },
        error: { type: DataTypes.TEXT, allowNull: true },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
        finished_at: { type: DataTypes.DATE, allowNull: true },
        expires_at: { type: DataTypes.DATE, allowNull: true },
      },
      { sequelize, tableName: 'fhir_exports', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
