import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

const opts = (sequelize: Sequelize, tableName: string) =>
  ({
    sequelize,
    tableName,
    underscored: true,
    timestamps: true,
    createdAt: 'created_at',
    updatedAt: 'updated_at',
  }) as const;

export class Supply extends Model<InferAttributes<Supply>, InferCreationAttributes<Supply>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare type: string;
  declare tradename: string;
  declare generic_name: string | null;
  declare invima_register: string | null;
  declare date_register: string | null;
  declare active: CreationOptional<boolean>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Supply.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        type: { type: DataTypes.STRING(20), allowNull: false },
        tradename: { type: DataTypes.STRING(120), allowNull: false },
        generic_name: DataTypes.STRING(120),
        invima_register: DataTypes.STRING(60),
        date_register: DataTypes.DATEONLY,
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      opts(sequelize, 'supplies'),
    );
  }
}

export class Stock extends Model<InferAttributes<Stock>, InferCreationAttributes<Stock>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare serial: string;
  declare type: string;
  declare medical_supply_id: number | null;
  declare expiration_date: string;
  declare cuantity: CreationOptional<number>;
  declare active: CreationOptional<boolean>;
  declare batch: CreationOptional<boolean>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    Stock.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        serial: { type: DataTypes.STRING(16), allowNull: false },
        type: { type: DataTypes.STRING(20), allowNull: false },
        medical_supply_id: DataTypes.INTEGER,
        expiration_date: { type: DataTypes.DATEONLY, allowNull: false },
        cuantity: { type: DataTypes.INTEGER, allowNull: false, defaultValue: 0 },
        active: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        batch: { type: DataTypes.BOOLEAN, allowNull: false, defaultValue: true },
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      opts(sequelize, 'stocks'),
    );
  }
}

export class Move extends Model<InferAttributes<Move>, InferCreationAttributes<Move>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare stock_id: number;
  declare type: string;
  declare amount: number;
  declare notes: string | null;
  declare author: number | null;
  declare encounter_id: number | null;
  declare created_at: Date;

  static initModel(sequelize: Sequelize) {
    Move.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        stock_id: { type: DataTypes.INTEGER, allowNull: false },
        type: { type: DataTypes.STRING(20), allowNull: false },
        amount: { type: DataTypes.INTEGER, allowNull: false },
        notes: DataTypes.STRING(400),
        author: DataTypes.INTEGER,
        encounter_id: DataTypes.INTEGER,
        created_at: { type: DataTypes.DATE, allowNull: false },
      },
      { sequelize, tableName: 'moves', underscored: true, timestamps: false },
    );
  }
}
