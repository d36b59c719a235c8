import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export class Tag extends Model<InferAttributes<Tag>, InferCreationAttributes<Tag>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare name: string;
  declare color: string;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Tag.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(50), allowNull: false },
        color: { type: DataTypes.STRING(20), allowNull: false },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'tags', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}

export class PatientTag extends Model<InferAttributes<PatientTag>, InferCreationAttributes<PatientTag>> {
  declare patient_id: number;
  declare tag_id: number;

  static initModel(sequelize: Sequelize) {
    PatientTag.init(
      {
        patient_id: { type: DataTypes.INTEGER, primaryKey: true },
        tag_id: { type: DataTypes.INTEGER, primaryKey: true },
      },
      { sequelize, tableName: 'patient_tags', timestamps: false },
    );
  }
}
