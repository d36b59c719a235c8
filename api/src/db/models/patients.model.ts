import { DataTypes, Model, type CreationOptional, type InferAttributes, type InferCreationAttributes, type Sequelize } from 'sequelize';

export interface ResiplusData {
  full_name?: string;
  document_id?: string;
  document_id_type?: string;
  code?: string;
  id?: number | string;
}

export class Patient extends Model<InferAttributes<Patient>, InferCreationAttributes<Patient>> {
  declare id: CreationOptional<number>;
  declare client_id: number;
  declare id_type: number;
  declare nid: string;
  declare first_name: string;
  declare last_name: string;
  declare search_name: string;
  declare country_id: number;
  declare city_id: number | null;
  declare birth_date: string;
  declare gender: number;
  declare blood_type: number | null;
  declare rh_factor: number | null;
  declare eapb_id: number | null;
  declare regime: number | null;
  declare status: number;
  declare time_zone: string;
  declare clinic_history: string | null;
  declare address: string | null;
  declare neighborhood: string | null;
  declare prefix: string | null;
  declare cellphone: string | null;
  declare email: string | null;
  declare card_id: string | null;
  declare multipatient_card_id: string | null;
  declare resiplus_data: ResiplusData | null;
  declare resiplus_code: string | null;
  declare resiplus_id: string | null;
  declare occupation: number | null;
  declare scholarship: number | null;
  declare civil_status: number | null;
  declare deceased_at: Date | null;
  // RDA (issue 51): the guide's codes; `disabilities` a JSON list of them.
  declare biological_sex: CreationOptional<string | null>;
  declare gender_identity: CreationOptional<string | null>;
  declare residence_zone: CreationOptional<string | null>;
  declare nationality: CreationOptional<string | null>;
  declare ethnicity: CreationOptional<string | null>;
  declare ethnic_community: CreationOptional<string | null>;
  declare disabilities: CreationOptional<string | null>;
  declare created_at: CreationOptional<Date>;
  declare updated_at: CreationOptional<Date>;

  static initModel(sequelize: Sequelize) {
    // A fresh object per attribute: Sequelize annotates attribute definitions in place.
    const nullableInt = () => ({ type: DataTypes.INTEGER, allowNull: true });
    Patient.init(
      {
        id: { type: DataTypes.INTEGER, primaryKey: true, autoIncrement: true },
        client_id: { type: DataTypes.INTEGER, allowNull: false },
        id_type: { type: DataTypes.INTEGER, allowNull: false },
        nid: { type: DataTypes.STRING(20), allowNull: false },
        first_name: { type: DataTypes.STRING(50), allowNull: false },
        last_name: { type: DataTypes.STRING(50), allowNull: false },
        search_name: { type: DataTypes.STRING(110), allowNull: false },
        country_id: { type: DataTypes.INTEGER, allowNull: false },
        city_id: nullableInt(),
        birth_date: { type: DataTypes.DATEONLY, allowNull: false },
        gender: { type: DataTypes.INTEGER, allowNull: false },
        blood_type: nullableInt(),
        rh_factor: nullableInt(),
        eapb_id: nullableInt(),
        regime: nullableInt(),
        status: { type: DataTypes.INTEGER, allowNull: false },
        time_zone: { type: DataTypes.STRING(64), allowNull: false },
        clinic_history: DataTypes.TEXT,
        address: DataTypes.STRING(200),
        neighborhood: DataTypes.STRING(200),
        prefix: DataTypes.STRING(8),
        cellphone: DataTypes.STRING(11),
        email: DataTypes.STRING(254),
        card_id: DataTypes.STRING(64),
        multipatient_card_id: DataTypes.STRING(64),
        resiplus_data: DataTypes.JSON,
        resiplus_code: DataTypes.STRING(32),
        resiplus_id: DataTypes.STRING(64),
        occupation: nullableInt(),
        scholarship: nullableInt(),
        civil_status: nullableInt(),
        deceased_at: DataTypes.DATE,
        biological_sex: DataTypes.STRING(2),
        gender_identity: DataTypes.STRING(2),
        residence_zone: DataTypes.STRING(2),
        nationality: DataTypes.STRING(3),
        ethnicity: DataTypes.STRING(2),
        ethnic_community: DataTypes.STRING(100),
        disabilities: DataTypes.TEXT,
        created_at: DataTypes.DATE,
        updated_at: DataTypes.DATE,
      },
      { sequelize, tableName: 'patients', underscored: true, timestamps: true, createdAt: 'created_at', updatedAt: 'updated_at' },
    );
  }
}
