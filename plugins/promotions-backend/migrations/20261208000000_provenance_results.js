// @ts-check

/**
 * Verified provenance by (digest, policy): digests are immutable, so a
 * digest verified under a policy is never fetched from the registry again.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('provenance_results', table => {
    table.string('digest', 80).notNullable();
    table.string('policy', 64).notNullable();
    table.text('provenance').notNullable();
    table.string('verified_at').notNullable();
    table.primary(['digest', 'policy']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('provenance_results');
};
