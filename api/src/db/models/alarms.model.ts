import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/** An alarm rule (02 §3). Its times are the API's clock (`now` passed in), not Sequelize's, as the tests' clock is. */
export class Alarm extends Model<InferAttributes<Alarm>, InferCreationAttributes<Alarm>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare name: string;
  declare type: CreationOptional<number>;
  declare clinical_element: number;
  declare priority: number;
  declare minimum_condition: number;
  declare maximum_condition: number;
  declare ia_alarm: boolean;
  declare ia_script: string | null;
  declare prompt_ia: string | null;
  declare request_repeat_measurement: boolean;
  declare alarm_default_new_patients: boolean;
  declare status: CreationOptional<number>;
  declare created_at: Date;
  declare updated_at: Date;

  static initModel(sequelize: Sequelize) {
    Alarm.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        name: { type: DataTypes.STRING(100), allowNull: false },
        type: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
        clinical_element: { type: DataTypes.INTEGER, allowNull: false },
        priority: { type: DataTypes.INTEGER, allowNull: false },
        minimum_condition: { type: DataTypes.REAL, allowNull: false },
        maximum_condition: { type: DataTypes.REAL, allowNull: false },
        ia_alarm: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        ia_script: DataTypes.STRING(100),
        prompt_ia: DataTypes.TEXT,
        request_repeat_measurement: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        alarm_default_new_patients: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: false },
        status: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 1 },
        created_at: { type: DataTypes.DATE, allowNull: false },
        updated_at: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'alarms', timestamps: false },
    );
  }
}
