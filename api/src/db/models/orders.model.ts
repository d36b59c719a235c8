import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

/**
 * An order's row (02 §2.2–2.6). The list 'Gestión de órdenes' reads it through the resource engine;
 * creating, changing and scheduling an order keep their own statements (orders.create.ts,
 * orders.lifecycle.ts), which write the activities beside it in one transaction.
 */
export class Order extends Model<InferAttributes<Order>, InferCreationAttributes<Order>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare patient_id: number;
  declare user_id: number | null;
  declare order_type: number;
  declare status: number;
  declare notify: boolean;
  declare permanent: boolean;
  declare clinical_element: number | null;
  declare medicine_id: number | null;
  declare frecuency: number | null;
  declare time_unit: number | null;
  declare during: number;
  declare dose: number | null;
  declare amount: string | null;
  declare medication_unit: number | null;
  declare frequency_type: number | null;
  declare days: string;
  declare hours: string;
  declare start_at: Date | null;
  declare to_human: string | null;
  declare generated_until: Date | null;
  declare stale_alerted_at: Date | null;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Order.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        patient_id: { type: DataTypes.INTEGER, allowNull: false },
        user_id: { type: DataTypes.INTEGER, allowNull: true },
        order_type: { type: DataTypes.INTEGER, allowNull: false },
        status: { type: DataTypes.INTEGER, allowNull: false },
        notify: { type: DataTypes.BOOLEAN, allowNull: false },
        permanent: { type: DataTypes.BOOLEAN, allowNull: false },
        clinical_element: { type: DataTypes.INTEGER, allowNull: true },
        medicine_id: { type: DataTypes.INTEGER, allowNull: true },
        frecuency: { type: DataTypes.INTEGER, allowNull: true },
        time_unit: { type: DataTypes.INTEGER, allowNull: true },
        during: { type: DataTypes.INTEGER, allowNull: false },
        dose: { type: DataTypes.INTEGER, allowNull: true },
        amount: { type: DataTypes.STRING(8), allowNull: true },
        medication_unit: { type: DataTypes.INTEGER, allowNull: true },
        frequency_type: { type: DataTypes.INTEGER, allowNull: true },
        days: { type: DataTypes.STRING(20), allowNull: false },
        hours: { type: DataTypes.TEXT, allowNull: false },
        start_at: { type: DataTypes.DATE, allowNull: true },
        to_human: { type: DataTypes.STRING(400), allowNull: true },
        generated_until: { type: DataTypes.DATE, allowNull: true },
        stale_alerted_at: { type: DataTypes.DATE, allowNull: true },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'orders', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
