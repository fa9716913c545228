// @ts-check

/**
 * Notifications claimed across replicas: one row per key (e.g. a stall that
 * was notified), inserted by the replica that sends it, so replicas that see
 * the same thing at once send it once. Claims older than their time to live
 * are deleted as new ones are made.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('notification_claims', table => {
    table.string('claim_key', 1024).primary();
    table.string('claimed_at').notNullable();
    table.index(['claimed_at'], 'notification_claims_claimed_at_idx');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('notification_claims');
};
