import { DataTypes, type QueryInterface } from 'sequelize';

/**
 * One row per word of each patient's name, so 'gómez' finds MARÍA FERNANDA GÓMEZ RESTREPO by an
 * index range instead of a LIKE scan over the client's patients (100,000 and more).
 */
export async function up({ context: qi }: { context: QueryInterface }) {
  await qi.createTable('patient_search_terms', {
    client_id: { type: DataTypes.INTEGER, allowNull: false },
    term: { type: DataTypes.STRING(50), allowNull: false },
    patient_id: { type: DataTypes.INTEGER, allowNull: false, references: { model: 'patients', key: 'id' }, onDelete: 'CASCADE' },
  });
  if (qi.sequelize.getDialect() === 'postgres') {
    // Prefix searches are byte ranges (term >= 'gom' AND term < 'gom\uffff'); a language collation
    // (en_US, es_CO) orders differently and would make those ranges miss rows. SQLite compares bytes.
    await qi.sequelize.query('ALTER TABLE patient_search_terms ALTER COLUMN term TYPE VARCHAR(50) COLLATE "C"');
    await qi.sequelize.query('ALTER TABLE patients ALTER COLUMN nid TYPE VARCHAR(20) COLLATE "C"');
  }
  await qi.addIndex('patient_search_terms', ['client_id', 'term', 'patient_id'], { unique: true, name: 'patient_search_terms_lookup' });
  await qi.addIndex('patient_search_terms', ['patient_id'], { name: 'patient_search_terms_patient' });
  // Existing patients: split the normalised name already stored in search_name.
  const patients = (await qi.sequelize.query('SELECT id, client_id, search_name FROM patients', { type: 'SELECT' })) as Array<{
    id: number;
    client_id: number;
    search_name: string;
  }>;
  const rows = patients.flatMap((p) =>
    [...new Set(p.search_name.split(' ').filter(Boolean))].map((term) => ({
      client_id: p.client_id,
      term: term.slice(0, 50),
      patient_id: p.id,
    })),
  );
  for (let i = 0; i < rows.length; i += 300) await qi.bulkInsert('patient_search_terms', rows.slice(i, i + 300));
}

export async function down({ context: qi }: { context: QueryInterface }) {
  await qi.dropTable('patient_search_terms');
}
