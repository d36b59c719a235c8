import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';
import type { Role } from '@vigia/contract/rules/access';

export class User extends Model<InferAttributes<User>, InferCreationAttributes<User>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare email: string;
  declare password_hash: string;
  declare first_name: string;
  declare last_name: string;
  declare role_name: Role;
  declare status: CreationOptional<number>;
  declare cellphone: string | null;
  declare prefix: string | null;
  declare country_id: number;
  declare city_id: number | null;
  declare time_zone: string;
  declare media_email: CreationOptional<boolean>;
  declare media_whatsapp: CreationOptional<boolean>;
  declare priority_high: CreationOptional<boolean>;
  declare priority_medium: CreationOptional<boolean>;
  declare priority_low: CreationOptional<boolean>;
  /** May sign in with Vigía's password where the organisation uses single sign-on (issue 49). */
  declare break_glass: CreationOptional<boolean>;
  // RDA (issue 51): the practitioner's document, RETHUS profession code and registration number.
  declare id_type: CreationOptional<number | null>;
  declare nid: CreationOptional<string | null>;
  declare profession: CreationOptional<string | null>;
  declare rethus_number: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    User.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        email: { type: DataTypes.STRING(254), allowNull: false },
        password_hash: { type: DataTypes.STRING(100), allowNull: false },
        first_name: { type: DataTypes.STRING(50), allowNull: false },
        last_name: { type: DataTypes.STRING(50), allowNull: false },
        role_name: { type: DataTypes.STRING(20), allowNull: false },
        status: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        cellphone: DataTypes.STRING(11),
        prefix: DataTypes.STRING(8),
        country_id: { type: DataTypes.INTEGER, allowNull: false },
        city_id: DataTypes.INTEGER,
        time_zone: { type: DataTypes.STRING(64), allowNull: false },
        media_email: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        media_whatsapp: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        priority_high: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        priority_medium: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        priority_low: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        break_glass: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        id_type: DataTypes.INTEGER,
        nid: DataTypes.STRING(20),
        profession: DataTypes.STRING(5),
        rethus_number: DataTypes.STRING(30),
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'users', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
